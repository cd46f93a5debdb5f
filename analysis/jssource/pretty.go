package jssource

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"rea/jsengine/jsparse"
	"rea/jsengine/sourcemap"
)

// printed is a unit of shipped code printed by esbuild: its lines and,
// per line, the shipped offset its first mapped code comes from (-1 when
// the printer made the line up).
type printed struct {
	lines   []string
	shipped []int
}

// wrapper makes a unit of code parseable on its own: the inside of a
// function body, an object literal, a class body, or an expression.
type wrapper struct {
	prefix, suffix string
	// strip drops the printed wrapper's first and last lines and dedents.
	strip bool
}

var (
	bodyWrappers = []wrapper{
		{"(async function*(){", "\n})", true},
		{"({", "\n})", true},
		{"(class{", "\n})", true},
	}
	exprWrapper   = wrapper{"(", "\n)", false}
	methodWrapper = wrapper{"({", "\n})", true}
	noWrapper     = wrapper{}
)

// pretty prints t.src[a:b] with the first wrapper esbuild accepts; ok is
// false when none does (the code is not JavaScript, or cut mid-syntax).
func pretty(t *text, a, b int, wrappers []wrapper) (printed, bool) {
	unit := t.src[a:b]
	// The same nesting bound as every parse (a hostile unit of a million
	// "(" must not exhaust the printer's stack).
	if _, err := jsparse.Admit(t.path, unit); err != nil {
		return printed{}, false
	}
	for _, w := range wrappers {
		in := w.prefix + unit + w.suffix
		res := api.Transform(in, api.TransformOptions{
			Loader: api.LoaderJS, Sourcemap: api.SourceMapExternal, Charset: api.CharsetUTF8,
			LegalComments: api.LegalCommentsNone, LogLevel: api.LogLevelSilent,
		})
		if len(res.Errors) > 0 {
			continue
		}
		m, err := sourcemap.Parse(res.Map)
		if err != nil {
			continue
		}
		wt := newText("", in)
		code := strings.TrimRight(string(res.Code), "\n")
		lines := strings.Split(code, "\n")
		p := printed{lines: lines, shipped: make([]int, len(lines))}
		for l := range lines {
			p.shipped[l] = -1
			if m.Mapped(l) {
				seg := m.Line(l)[0]
				off := wt.offset(int(seg.OrigLine)+1, int(seg.OrigColumn)+1, "utf16") - len(w.prefix)
				if off >= 0 && off <= len(unit) {
					p.shipped[l] = a + off
				}
			}
		}
		if w.strip && len(p.lines) >= 2 {
			p.lines, p.shipped = p.lines[1:len(p.lines)-1], p.shipped[1:len(p.shipped)-1]
			for i, s := range p.lines {
				p.lines[i] = strings.TrimPrefix(s, "  ")
			}
		}
		return p, true
	}
	return printed{}, false
}

// shippedLines is the shipped view of t.src[a:b]: its own lines, each
// longer than width cut into pieces of width bytes (on character
// boundaries), so a 5 MB single line pages like any other text.
func shippedLines(t *text, a, b, width int) printed {
	var p printed
	for off := a; off < b || (off == b && len(p.lines) == 0); {
		l := t.lineOf(off)
		end := min(t.lineEnd(l), b)
		if end-off > width {
			piece, _ := cut(t.src[off:end], width)
			if piece == "" { // a width smaller than one character
				piece = t.src[off : off+1]
			}
			p.lines = append(p.lines, piece)
			p.shipped = append(p.shipped, off)
			off += len(piece)
			continue
		}
		p.lines = append(p.lines, t.src[off:end])
		p.shipped = append(p.shipped, off)
		if l+1 >= len(t.lines) || t.lines[l+1] > b {
			break
		}
		off = t.lines[l+1]
		if off >= b {
			break
		}
	}
	return p
}
