package bundleform

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"rea/jsengine/jsparse"
)

// webpack5Production is what webpack 5.103.0 writes for a three-module
// Electron main process in production mode (terser, numeric module ids, no
// __webpack_modules__ or __webpack_require__ left).
const webpack5Production = `(()=>{var e={157:e=>{"use strict";e.exports=require("electron")},187:(e,r,t)=>{const{ipcMain:i}=t(157),o=t(896),{SAVE:n}=t(490);i.handle(n,(e,r,t)=>o.promises.writeFile(r,t)),r.open=e=>o.promises.readFile(e,"utf8")},490:e=>{e.exports={OPEN:"bundle:open-file",SAVE:"bundle:save-file"}},896:e=>{"use strict";e.exports=require("fs")}},r={};function t(i){var o=r[i];if(void 0!==o)return o.exports;var n=r[i]={exports:{}};return e[i](n,n.exports,t),n.exports}const{app:i,ipcMain:n}=t(157),s=t(490),p=t(187);n.handle(s.OPEN,(e,r)=>p.open(r))})();`

func find(t *testing.T, src string) *Finder {
	t.Helper()
	prog, err := jsparse.Parse("b.js", src)
	if err != nil {
		t.Fatal(err)
	}
	f := &Finder{Src: src, Offset: func(i file.Idx) int { return int(i) - 1 }}
	var visit func(n ast.Node)
	// A small walk over the statements and expressions these tests use is
	// enough: the finder is handed every node the analysis's walker sees.
	visit = func(n ast.Node) {
		if n == nil || !f.Enter(n) {
			return
		}
		switch x := n.(type) {
		case *ast.ExpressionStatement:
			visit(x.Expression)
		case *ast.CallExpression:
			visit(x.Callee)
			for _, a := range x.ArgumentList {
				visit(a)
			}
		case *ast.ArrowFunctionLiteral:
			if b, ok := x.Body.(*ast.BlockStatement); ok {
				visit(b)
			}
		case *ast.FunctionLiteral:
			if x.Body != nil {
				visit(x.Body)
			}
		case *ast.BlockStatement:
			for _, s := range x.List {
				visit(s)
			}
		case *ast.VariableStatement:
			for _, b := range x.List {
				visit(b)
			}
		case *ast.LexicalDeclaration:
			for _, b := range x.List {
				visit(b)
			}
		case *ast.Binding:
			if x.Initializer != nil {
				visit(x.Initializer)
			}
		case *ast.DotExpression:
			visit(x.Left)
		case *ast.ArrayLiteral:
			for _, v := range x.Value {
				visit(v)
			}
		}
	}
	for _, s := range prog.Body {
		visit(s)
	}
	return f
}

func keys(f *Finder) []string {
	var out []string
	for _, t := range f.Tables {
		for _, e := range t.Entries {
			out = append(out, t.Kind+":"+e.Key)
		}
	}
	return out
}

func TestRuntimeFindsTheMinifiedLoader(t *testing.T) {
	for src, want := range map[string][2]string{
		webpack5Production: {"e", "t"},
		`function n(r){var o=t[r];if(void 0!==o)return o.exports;var i=t[r]={id:r,loaded:!1,exports:{}};return e[r].call(i.exports,i,i.exports,n),i.loaded=!0,i.exports}`: {"e", "n"},
		`__webpack_modules__[moduleId](module, module.exports, __webpack_require__);`:                                                                                     {"__webpack_modules__", "__webpack_require__"},
	} {
		tables, requires := Runtime(src)
		if len(tables) != 1 || tables[0] != want[0] || requires[0] != want[1] {
			t.Errorf("Runtime(%.60q…) = %v %v, want %v", src, tables, requires, want)
		}
	}
	for _, src := range []string{`a.b[c](d,d.exports,e)`, `x[i](a,b.exports,c)`, `x[i](a,a.exports)`, `1[i](a,a.exports,r)`, "var s = 'no loader here'"} {
		if tables, _ := Runtime(src); len(tables) != 0 {
			t.Errorf("Runtime(%q) = %v, want none", src, tables)
		}
	}
}

func TestFinderSplitsAMinifiedWebpack5Bundle(t *testing.T) {
	if !Prefilter(webpack5Production) {
		t.Fatal("the production bundle does not pass the prefilter")
	}
	f := find(t, webpack5Production)
	got := keys(f)
	want := []string{"webpack:157", "webpack:187", "webpack:490", "webpack:896"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tables %v, want %v", got, want)
	}
	if r := f.RequireNames(); !reflect.DeepEqual(r, []string{"t"}) {
		t.Fatalf("require names %v", r)
	}
	// An object of methods that shares the loader's one-letter name is no
	// module table: its keys are no module ids.
	other := strings.Replace(webpack5Production, `(()=>{var e={157:`, `(()=>{var e={foo:e=>1},q={157:`, 1)
	if got := keys(find(t, other)); len(got) != 0 {
		t.Fatalf("an object of methods was taken for a module table: %v", got)
	}
}

func TestFinderKeepsTheNamedForms(t *testing.T) {
	for src, want := range map[string][]string{
		`var __webpack_modules__ = ({"./src/a.js": (module, exports, __webpack_require__) => { __webpack_require__("./src/b.js") }, "./src/b.js": (module) => {}});`: {"webpack:./src/a.js", "webpack:./src/b.js"},
		`(self.webpackChunkapp = self.webpackChunkapp || []).push([[1], {12: (e, t, n) => { n(13) }}]);`:                                                             {"webpack-chunk:12"},
		`(function (modules) { function __webpack_require__(id) { return modules[id] } })([function (m, e, r) { r(1) }, function (m) {}]);`:                          {"webpack:0", "webpack:1"},
		`var require_a = __commonJS({ "src/a.js"(exports, module) { module.exports = 1 } });`:                                                                        {"esbuild:src/a.js"},
	} {
		if got := keys(find(t, src)); !reflect.DeepEqual(got, want) {
			t.Errorf("%.50q…: %v, want %v", src, got, want)
		}
	}
	f := find(t, `var require_a = __commonJS({ "src/a.js"(exports, module) { module.exports = 1 } });`)
	if f.Tables[0].EsbuildName != "require_a" {
		t.Fatalf("esbuild binding %q", f.Tables[0].EsbuildName)
	}
	b := find(t, `(function(){function r(e,n,t){} return r})()({1:[function(require,module,exports){require("./b")},{"./b":2}],2:[function(require,module,exports){},{}]},{},[1]);`)
	if got := keys(b); !reflect.DeepEqual(got, []string{"browserify:1", "browserify:2"}) {
		t.Fatalf("browserify %v", got)
	}
	deps := b.Tables[0].Entries[0].DepKeys()
	ks := []string{}
	for k, v := range deps {
		ks = append(ks, k+"="+v)
	}
	sort.Strings(ks)
	if !reflect.DeepEqual(ks, []string{"./b=2"}) {
		t.Fatalf("deps %v", ks)
	}
}

// FuzzRuntime: any bytes — Runtime never panics, and every table and
// require name it returns is an identifier that occurs in the input.
func FuzzRuntime(f *testing.F) {
	f.Add(webpack5Production)
	f.Add(`e[r].call(i.exports,i,i.exports,n)`)
	f.Add(`x[](a,a.exports,)`)
	f.Add(`[a](b,b.exports,c)`)
	f.Fuzz(func(t *testing.T, src string) {
		tables, requires := Runtime(src)
		if len(tables) != len(requires) {
			t.Fatalf("%d tables, %d requires", len(tables), len(requires))
		}
		for i := range tables {
			for _, name := range []string{tables[i], requires[i]} {
				if name == "" || !strings.Contains(src, name) {
					t.Fatalf("name %q not in the input", name)
				}
				for j := 0; j < len(name); j++ {
					if !identByte(name[j]) {
						t.Fatalf("name %q is no identifier", name)
					}
				}
			}
		}
		f := &Finder{Src: src}
		_ = f.RequireNames()
	})
}
