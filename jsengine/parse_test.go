package jsengine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja/ast"

	"rea/jsengine/jsparse"
)

func TestParseJSMapsPositionsBackToTheOriginalFile(t *testing.T) {
	cases := []struct {
		name, path, src, needle string
		parsedBy                string
		line, col               int
	}{
		{"commonjs goes straight to goja", "main.js",
			"const { app } = require('electron');\n\nfunction f() {\n  return 'needle';\n}\n", "'needle'", "goja", 4, 10},
		{"esm goes through esbuild", "main.mjs",
			"import { app } from 'electron';\n\nexport function f() {\n  return app.getName('needle');\n}\n", `"needle"`, "esbuild+goja", 4, 22},
		{"typescript with decorators", "svc.ts",
			"function d(t: any) {}\n@d\nclass Svc {\n  private x: number = 1;\n  go(): string { return 'needle'; }\n}\n", `"needle"`, "esbuild+goja", 5, 25},
		{"jsx in a .js file falls back to the jsx loader", "view.js",
			"import React from 'react';\nexport const V = () => <div>{'needle'}</div>;\n", `"needle"`, "esbuild+goja", 2, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pf, err := parseJS(c.path, c.src)
			if err != nil {
				t.Fatal(err)
			}
			if pf.parsedBy != c.parsedBy {
				t.Fatalf("parsed by %s, want %s", pf.parsedBy, c.parsedBy)
			}
			off := indexOf(pf.generated, c.needle)
			if off < 0 {
				t.Fatalf("needle %s not in generated text:\n%s", c.needle, pf.generated)
			}
			got := pf.loc(idxAt(off))
			if got.Line != c.line || got.Column != c.col {
				t.Fatalf("needle at %d:%d, want %d:%d", got.Line, got.Column, c.line, c.col)
			}
		})
	}
}

func TestParseJSRejectsGarbageWithAnError(t *testing.T) {
	if _, err := parseJS("x.js", "function ( {"); err == nil {
		t.Fatal("garbage parsed")
	}
}

func TestParseJSReadsScriptBlocksOfSingleFileComponents(t *testing.T) {
	src := "<template>\n  <button @click=\"open\">Open</button>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue';\nconst n: number = 1;\nwindow.api.open('needle');\n</script>\n<style>.a { color: red }</style>\n"
	pf, err := parseJS("src/App.vue", src)
	if err != nil {
		t.Fatal(err)
	}
	if pf.language != "typescript" || pf.parsedBy != "esbuild+goja" {
		t.Fatalf("language %s parsed by %s", pf.language, pf.parsedBy)
	}
	got := pf.loc(idxAt(indexOf(pf.generated, `"needle"`)))
	if got.Line != 8 || got.Column != 17 {
		t.Fatalf("needle at %d:%d, want 8:17", got.Line, got.Column)
	}
}

func TestParseJSRefusesPathologicalNestingInsteadOfExhaustingTheStack(t *testing.T) {
	deep := strings.Repeat("(", 200_000) + strings.Repeat(")", 200_000)
	if _, err := parseJS("deep.js", deep); err == nil || !strings.Contains(err.Error(), "nest") {
		t.Fatalf("err = %v", err)
	}
	// Brackets inside strings and comments do not count.
	ok := "const s = '" + strings.Repeat("(", 5000) + "'; // " + strings.Repeat("[", 5000) + "\nmodule.exports = s;\n"
	if _, err := parseJS("ok.js", ok); err != nil {
		t.Fatalf("err = %v", err)
	}
}

// Operators nest without brackets; in wasm 12,000 chained "+" or 8,000
// chained arrows exhausted the call stack and took the whole analysis down.
func TestParseJSRefusesOperatorChainsTooDeepForTheStack(t *testing.T) {
	chain := func(n int, unit string) string { return "x = " + strings.Repeat(unit, n) + "y;\n" }
	for _, c := range []struct {
		name, unit string
		per        int // estimated levels per unit
	}{
		{"concatenation", `"s" + `, 1},
		{"assignment", "a = ", 1},
		{"strict equality", "a === ", 1},
		{"logical", "a && ", 1},
		{"conditional", "c ? 1 : ", 2},
		{"arrow", "a => ", 1},
		{"negation", "!", 1},
		{"member", "a.", 1},
		{"call", "()", 1},
		{"index", "[0]", 1},
		{"call across comments", "() /* */ // c\n", 1},
		{"new", "new ", 1},
		{"typeof", "typeof ", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			under := (jsparse.MaxOperatorChain - 10) / c.per
			if _, chainDepth := jsparse.Depth(chain(under, c.unit)); chainDepth > jsparse.MaxOperatorChain || chainDepth < under*c.per {
				t.Fatalf("%d units estimate %d deep", under, chainDepth)
			}
			if _, err := parseJS("over.js", chain(jsparse.MaxOperatorChain/c.per+10, c.unit)); err == nil || !strings.Contains(err.Error(), "operators chain") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	// Separators end a chain; brackets add up; strings and comments do not
	// count.
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"list", strings.Repeat("a + b, ", 10_000), 1},
		{"statements", strings.Repeat("a = b + c;\n", 10_000), 2},
		{"call arguments", "f(a + b + c, d + e)", 3},
		{"nested", "a + (b + (c + d))", 5},
		{"string", `x = "` + strings.Repeat("+", 10_000) + `"`, 1},
		{"calls in statements", strings.Repeat("f(a)(b);\n", 10_000), 1},
		{"words ending like keywords", strings.Repeat("renew = undefined + typeofs;\n", 1000), 2},
		{"comment", "x = 1 /* " + strings.Repeat("+", 10_000) + " */ // " + strings.Repeat("=", 100), 1},
	} {
		if _, got := jsparse.Depth(c.src); got != c.want {
			t.Errorf("%s: estimated %d, want %d", c.name, got, c.want)
		}
	}
}

func TestParseJSAcceptsTopLevelReturnOfCommonJS(t *testing.T) {
	src := "#!/usr/bin/env node\nif (process.argv.length < 3) {\n  return;\n}\nrequire('./cli')('needle');\n"
	pf, err := parseJS("bin/cli.js", src)
	if err != nil {
		t.Fatal(err)
	}
	if got := pf.loc(idxAt(indexOf(src, "'needle'") + len(cjsWrapperHead))); got.Line != 5 || got.Column != 18 {
		t.Fatalf("needle at %d:%d, want 5:18", got.Line, got.Column)
	}
}

func TestSnippetsDropCredentialsAndQueries(t *testing.T) {
	got := redactURLs(`win.loadURL('https://bob:pw@example.com/app?token=secret#frag'); fetch("http://x.test/a?b=1")`)
	want := `win.loadURL('https://example.com/app'); fetch("http://x.test/a")`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestLineStartsFindsWhatAByteLoopFinds checks the eight-at-a-time line
// index against the plain loop on inputs full of near misses (bytes one
// away from '\n', high bytes) at every length and alignment.
func TestLineStartsFindsWhatAByteLoopFinds(t *testing.T) {
	slow := func(s string) []int {
		starts := []int{0}
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				starts = append(starts, i+1)
			}
		}
		return starts
	}
	alphabet := []byte{'\n', '\n', 0x0b, 0x09, 0x8a, 0x0a ^ 0x80, 0x00, 0xff, 'a', 0x01}
	for n := 0; n < 70; n++ {
		for seed := 0; seed < 40; seed++ {
			b := make([]byte, n)
			x := uint32(seed*2654435761 + n*7919)
			for k := range b {
				x = x*1664525 + 1013904223
				b[k] = alphabet[int(x>>24)%len(alphabet)]
			}
			if got, want := lineStarts(string(b)), slow(string(b)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("lineStarts(%q) = %v; want %v", b, got, want)
			}
		}
	}
}

// esbuild's runtime helpers at the top of a transformed file are blanked
// before goja parses it (blankHelperPrologue): the syntax tree holds none of
// their declarations, positions after them are unchanged, and the exports
// the analysis reads from the __export call are still found.
func TestParseJSLeavesEsbuildsHelpersOutOfTheSyntaxTree(t *testing.T) {
	src := "function d(t: any) {}\n@d\nexport class Svc {\n  go(): string { return 'needle'; }\n}\nexport const n: number = 1;\n"
	pf, err := parseJS("svc.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pf.generated, "var __defProp") || !strings.Contains(pf.generated, "__decorateClass") {
		t.Fatalf("esbuild's output no longer starts with its helpers; this test needs another input:\n%s", pf.generated)
	}
	for _, st := range pf.prog.Body {
		if vs, ok := st.(*ast.VariableStatement); ok {
			for _, b := range vs.List {
				if id, ok := b.Target.(*ast.Identifier); ok && strings.HasPrefix(string(id.Name), "__") {
					t.Errorf("helper %s is in the syntax tree", id.Name)
				}
			}
		}
	}
	off := indexOf(pf.generated, `"needle"`)
	if got := pf.loc(idxAt(off)); got.Line != 4 || got.Column != 25 {
		t.Fatalf("needle at %d:%d, want 4:25", got.Line, got.Column)
	}
	m := newModuleInfo("svc.ts", pf, "", len(src))
	buildScopes(m, 1<<20)
	var names []string
	for _, d := range m.exports {
		if d.name != "" { // module.exports = __toCommonJS(…)
			names = append(names, d.name)
		}
	}
	if strings.Join(names, ",") != "Svc,n" {
		t.Fatalf("exports %v, want Svc,n", names)
	}
}
