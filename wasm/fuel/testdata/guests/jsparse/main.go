// Command jsparse is the big-module test guest: it links esbuild's Transform
// and goja's parser, the two libraries rea's jsapp module is built from, and
// prints what they make of a TypeScript snippet.
package main

import (
	"fmt"
	"os"

	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

const ts = `
enum Channel { Open = "open-file", Save = "save-file" }
@sealed class Window<T> { constructor(private opts: T) {} show(): void { for (let i = 0; i < 3; i++) console.log(i) } }
export const create = (o: { contextIsolation: boolean }) => new Window(o)
`

func main() {
	res := api.Transform(ts, api.TransformOptions{
		Loader: api.LoaderTS,
		Format: api.FormatCommonJS,
		Target: api.ES2017,
	})
	if len(res.Errors) > 0 {
		fmt.Fprintln(os.Stderr, "transform:", res.Errors[0].Text)
		os.Exit(1)
	}
	prog, err := parser.ParseFile(nil, "snippet.js", string(res.Code), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "parse:", err)
		os.Exit(1)
	}
	fmt.Printf("transformed %d bytes; goja parsed %d top-level statements\n", len(res.Code), len(prog.Body))
	fmt.Print(string(res.Code))
}
