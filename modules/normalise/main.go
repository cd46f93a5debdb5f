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

	"rea/abi"
	"rea/jsengine/normalise"
	"rea/jsengine/normalise/esbuild"
)

func main() {
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
		binary.BigEndian.PutUint32(head[:], uint32(len(out)))
		if _, err := os.Stdout.Write(append(head[:], out...)); err != nil {
			os.Exit(abi.ExitInternal)
		}
	}
}
