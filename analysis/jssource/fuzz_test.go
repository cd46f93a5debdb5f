package jssource

import (
	"encoding/json"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"rea/analysis/jssource/sourcewire"
)

// FuzzRead: any bytes, any position — a page or a typed error, valid
// UTF-8, within max_bytes, every shipped position inside the file.
func FuzzRead(f *testing.F) {
	f.Add([]byte("function f(){return {a:`${1}}`, b:/}/}}\n"), 1, 20, "auto")
	f.Add([]byte("(()=>{var __webpack_modules__={1:(e,t,n)=>{n(2)},2:e=>{e.exports=require(\"electron\")}}})()"), 1, 30, "pretty")
	f.Add([]byte("\xff\xfe\xc3(\n\xed\xa0\x80"), 2, 2, "shipped")
	f.Add([]byte("x\n//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbIi4uL2EudHMiXSwibWFwcGluZ3MiOiJBQUFBIn0="), 1, 1, "auto")
	f.Fuzz(func(t *testing.T, src []byte, line, col int, view string) {
		fsys := fstest.MapFS{"a.js": {Data: src}}
		res, err := Read(fsys, sourcewire.ReadRequest{Path: "a.js", Line: line, Column: col, View: view, MaxBytes: 4096, IncludeOriginal: true})
		if err != nil {
			return
		}
		size := 0
		for _, l := range res.Lines {
			if !utf8.ValidString(l.Text) {
				t.Fatalf("line %d is not UTF-8", l.Number)
			}
			size += len(l.Text)
			if l.Shipped != nil && (l.Shipped.Offset < 0 || l.Shipped.Offset > len(src)) {
				t.Fatalf("shipped offset %d outside %d bytes", l.Shipped.Offset, len(src))
			}
		}
		if size > 4096 {
			t.Fatalf("page of %d bytes", size)
		}
	})
}

// FuzzSearchUnpackExtract: search, unpack and extraction of any bytes end
// with a result or a typed error, and nothing they would write leaves the
// output directory.
func FuzzSearchUnpackExtract(f *testing.F) {
	f.Add([]byte("var require_a = __commonJS({\"../../x.js\"(exports, module) { module.exports = 1; }});"), "a", false)
	f.Add([]byte(`{"version":3,"sources":["../e.ts","/abs","ok.ts"],"sourcesContent":["a","b","c"],"mappings":"AAAA"}`), "(a+)+$", true)
	f.Fuzz(func(t *testing.T, src []byte, query string, regex bool) {
		fsys := fstest.MapFS{"a.js": {Data: src}, "a.js.map": {Data: src}}
		_, _ = Search(fsys, sourcewire.SearchRequest{Query: query, Regex: regex})
		for _, files := range [][]sourcewire.OutputFile{unpackFiles(fsys), extractFiles(fsys)} {
			for _, of := range files {
				if !validOutput(of.Path) {
					t.Fatalf("output path %q leaves the directory", of.Path)
				}
			}
		}
	})
}

func unpackFiles(fsys fstest.MapFS) []sourcewire.OutputFile {
	r, err := Unpack(fsys, sourcewire.UnpackRequest{Path: "a.js"})
	if err != nil {
		return nil
	}
	return r.Files
}

func extractFiles(fsys fstest.MapFS) []sourcewire.OutputFile {
	r, err := ExtractSources(fsys, sourcewire.ExtractRequest{})
	if err != nil {
		return nil
	}
	_, _ = json.Marshal(r)
	return r.Files
}

func validOutput(p string) bool {
	return p != "" && p[0] != '/' && p != ".." && !(len(p) > 2 && p[:3] == "../") && !containsDotDot(p)
}

func containsDotDot(p string) bool {
	for _, seg := range splitSlash(p) {
		if seg == ".." {
			return true
		}
	}
	return false
}

func splitSlash(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}
