// Package normalise is the wire between the jsapp module and the normaliser
// module: a TypeScript/JSX/ESM source file goes to esbuild's Transform
// (CommonJS, ES2017, dynamic import lowered) in a module of its own, so the
// jsapp module links no esbuild and starts faster, and the normaliser is
// loaded only for applications that have such files. The codec is binary
// and byte exact: sources need not be valid UTF-8, and JSON would replace
// invalid bytes.
package normalise

import (
	"encoding/binary"
	"errors"
)

// Request is one Transform: the source, its loader ("js", "jsx", "ts",
// "tsx"), the file name for the source map and the tsconfig to apply.
type Request struct {
	Loader     string
	Sourcefile string
	Tsconfig   string
	Source     string
}

// Message is one esbuild error, with its location when it has one (Line
// 1-based, Column 0-based in bytes, as esbuild reports them).
type Message struct {
	Text    string
	Located bool
	File    string
	Line    int
	Column  int
}

// Result is a Transform's output: code and its source map's sources and
// mappings (the normaliser decodes esbuild's JSON map, on its own core, so
// the analysis does not), or errors.
type Result struct {
	Code     string
	Sources  []string
	Mappings string
	Errors   []Message
}

// MaxFrame bounds one encoded request or result (a source file is bounded
// far below this by jsengine's admission limits).
const MaxFrame = 1 << 30

var errShort = errors.New("normalise: truncated frame")

type encoder struct{ b []byte }

func (e *encoder) str(s string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *encoder) num(n int) { e.b = binary.AppendVarint(e.b, int64(n)) }

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) str() string {
	n, k := binary.Uvarint(d.b)
	if k <= 0 || uint64(len(d.b)-k) < n {
		d.err, d.b = errShort, nil
		return ""
	}
	s := string(d.b[k : k+int(n)])
	d.b = d.b[k+int(n):]
	return s
}

func (d *decoder) num() int {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.err, d.b = errShort, nil
		return 0
	}
	d.b = d.b[k:]
	return int(n)
}

// EncodeRequest and DecodeRequest are the request's codec.
func EncodeRequest(r Request) []byte {
	e := &encoder{}
	e.str(r.Loader)
	e.str(r.Sourcefile)
	e.str(r.Tsconfig)
	e.str(r.Source)
	return e.b
}

func DecodeRequest(b []byte) (Request, error) {
	d := &decoder{b: b}
	r := Request{Loader: d.str(), Sourcefile: d.str(), Tsconfig: d.str(), Source: d.str()}
	return r, d.err
}

// EncodeResult and DecodeResult are the result's codec.
func EncodeResult(r Result) []byte {
	e := &encoder{}
	e.str(r.Code)
	e.num(len(r.Sources))
	for _, src := range r.Sources {
		e.str(src)
	}
	e.str(r.Mappings)
	e.num(len(r.Errors))
	for _, m := range r.Errors {
		e.str(m.Text)
		located := 0
		if m.Located {
			located = 1
		}
		e.num(located)
		e.str(m.File)
		e.num(m.Line)
		e.num(m.Column)
	}
	return e.b
}

func DecodeResult(b []byte) (Result, error) {
	d := &decoder{b: b}
	r := Result{Code: d.str()}
	ns := d.num()
	if ns < 0 || ns > len(b) {
		return Result{}, errShort
	}
	for i := 0; i < ns && d.err == nil; i++ {
		r.Sources = append(r.Sources, d.str())
	}
	r.Mappings = d.str()
	n := d.num()
	if n < 0 || n > len(b) {
		return Result{}, errShort
	}
	for i := 0; i < n && d.err == nil; i++ {
		m := Message{Text: d.str(), Located: d.num() == 1, File: d.str()}
		m.Line, m.Column = d.num(), d.num()
		r.Errors = append(r.Errors, m)
	}
	return r, d.err
}
