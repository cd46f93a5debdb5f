// Command normalise is the WebAssembly module that runs esbuild's Transform
// for the jsapp module (TypeScript, JSX, ESM, decorators → CommonJS with a
// source map). The host starts one instance for a jsapp request on the
// request's first such file and streams transforms through it: stdin and
// stdout carry frames of a 4-byte big-endian length and a
// normalise.Request / normalise.Result. End of input ends the instance.
package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"rea/abi"
	"rea/jsengine/normalise"
	"rea/jsengine/normalise/esbuild"
)

// The collector: esbuild's transform of one file allocates megabytes that
// are garbage once its result is written, around a live heap of a few (its
// runtime helpers' syntax tree, cached). At Go's default (GOGC=100) that
// live heap made a collection every few transforms, and wasm's
// single-threaded collector was over a quarter of the module's fuel on
// @theia/core's TypeScript. So the heap may reach gcFloor before the first
// collection, and twice the live heap (what GOGC=100 allows) when that is
// more, so a file whose transform keeps much alive does not collect
// continuously. The floor was 32 MiB until the jsapp's heap shrank enough
// for the two to fit the 250 MB goal together; at 24 the normaliser's fuel
// on the whole of @theia/core rises 1 % (73.6 → 74.4 M) for 8 MB less
// memory, and below 24 it climbs steeply (20: 84 M) — its live heap is
// about 12 MB.
const gcFloor = 24 << 20

func tuneGC(live []metrics.Sample) {
	metrics.Read(live)
	limit := int64(gcFloor)
	if l := live[0].Value; l.Kind() == metrics.KindUint64 && int64(l.Uint64())*2 > limit {
		limit = int64(l.Uint64()) * 2
	}
	debug.SetMemoryLimit(limit)
}

// holdStacks parks goroutines whose stacks hold about 128 KiB each, for
// the life of the instance. Go starts a goroutine's stack at the average
// stack size the last collection scanned (adaptive stack start); esbuild
// runs each transform on fresh goroutines that recurse deeply, and each
// started at the 8 KiB minimum and grew by copying — a copy walks every
// frame, which in wasm cost over a tenth of the module's time on
// @theia/core's TypeScript. With these in the average, esbuild's
// goroutines start with room for their recursion.
func holdStacks() {
	ready := make(chan struct{})
	for range stackBallast {
		go func() {
			recurse(stackBallastDepth, ready)
		}()
	}
	for range stackBallast {
		<-ready
	}
	runtime.GC() // the average takes them in at a collection
}

const (
	stackBallast      = 2
	stackBallastDepth = 512
)

// recurse uses about depth KiB of stack, says so, and never returns.
func recurse(depth int, ready chan<- struct{}) byte {
	var frame [1024]byte
	if depth == 0 {
		ready <- struct{}{}
		select {}
	}
	frame[depth%len(frame)] = byte(depth)
	return recurse(depth-1, ready) + frame[(depth+1)%len(frame)]
}

func main() {
	debug.SetGCPercent(-1)
	if os.Getenv("REA_NO_BALLAST") == "" {
		holdStacks()
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tuneGC(live)
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	var head [4]byte
	for {
		if _, err := io.ReadFull(in, head[:]); err != nil {
			if err == io.EOF {
				os.Exit(abi.ExitOK)
			}
			os.Exit(abi.ExitBadRequest)
		}
		n := binary.BigEndian.Uint32(head[:])
		if n > normalise.MaxFrame {
			os.Exit(abi.ExitBadRequest)
		}
		frame := make([]byte, n)
		if _, err := io.ReadFull(in, frame); err != nil {
			os.Exit(abi.ExitBadRequest)
		}
		req, err := normalise.DecodeRequest(frame)
		if err != nil {
			os.Exit(abi.ExitBadRequest)
		}
		out := normalise.EncodeResult(esbuild.Transform(req))
		tuneGC(live)
		binary.BigEndian.PutUint32(head[:], uint32(len(out)))
		if _, err := os.Stdout.Write(append(head[:], out...)); err != nil {
			os.Exit(abi.ExitInternal)
		}
	}
}
