// Command parsefloor is the guest of BenchmarkGojaParseFloor: it reads a
// JavaScript source from stdin and parses it with goja's parser, the step
// that dominates the jsapp module, several times, printing each parse's
// time in nanoseconds. Nothing of rea runs in it, so its time through
// wazero against the same parse natively is the floor under the jsapp
// module's own ratio. GC is off, as in the jsapp module.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/dop251/goja/parser"
)

func main() {
	debug.SetGCPercent(-1)
	src, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n, _ := strconv.Atoi(os.Args[1])
	for range n {
		start := time.Now()
		prog, err := parser.ParseFile(nil, "bundle.js", string(src), 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(time.Since(start).Nanoseconds(), len(prog.Body))
	}
}
