package jssource

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
	"rea/jsengine"
	"rea/jsengine/jstest"
)

func TestPositionsCountBytesAndUTF16(t *testing.T) {
	tx := newText("a.js", "x\n\u00e9\U0001F600z\n")
	// Line 2: é (2 bytes, 1 unit), 😀 (4 bytes, 2 units), z.
	z := strings.Index(tx.src, "z")
	p := tx.pos(z)
	if p.Line != 2 || p.Column != 7 || p.ColumnUTF16 != 4 {
		t.Fatalf("pos of z = %+v", p)
	}
	for _, c := range []struct {
		col  int
		unit string
		want int
	}{{7, "byte", z}, {4, "utf16", z}, {3, "byte", 2 + 2}, {4, "byte", 2 + 2} /* inside 😀: back to its start */, {99, "byte", tx.lineEnd(1)}} {
		if got := tx.offset(2, c.col, c.unit); got != c.want {
			t.Errorf("offset(2, %d, %s) = %d, want %d", c.col, c.unit, got, c.want)
		}
	}
	if s, cutIt := cut("a\U0001F600", 3); s != "a" || !cutIt {
		t.Errorf("cut inside a rune = %q", s)
	}
	if got := clean("a\xffb"); got != "a\uFFFDb" {
		t.Errorf("clean = %q", got)
	}
}

func TestEnclosingBlocksSkipStringsCommentsTemplatesAndRegexps(t *testing.T) {
	src := "function f(){ var s = \"}\"; /* } */ var r = /}/g; var t = `${ {a:1}.a }}`; { HERE } }"
	at := strings.Index(src, "HERE")
	bs := enclosingBlocks(src, at)
	if len(bs) != 2 {
		t.Fatalf("blocks %+v", bs)
	}
	if got := src[bs[0].open : bs[0].close+1]; got != "{ HERE }" {
		t.Errorf("inner block %q", got)
	}
	if bs[1].open != strings.Index(src, "{") || bs[1].close != len(src)-1 {
		t.Errorf("outer block %+v", bs[1])
	}
}

func TestSplitBundleFindsEveryForm(t *testing.T) {
	for _, c := range []struct {
		name, src, kind string
		keys            []string
	}{
		{"webpack5", jstest.Bundle(2000), "webpack", []string{"electron", "./src/prefs.js", "./src/mod0.js"}},
		{"esbuild", "var require_a = __commonJS({\"src/a.js\"(exports, module) { module.exports = 1; }});\nvar require_b = __commonJS({\"src/b.js\"(exports) { require_a(); }});", "esbuild", []string{"src/a.js", "src/b.js"}},
		{"browserify", "(function(){function r(e,n,t){throw \"MODULE_NOT_FOUND\"}return r})()({1:[function(require,module,exports){require('./x')},{\"./x\":2}],2:[function(require,module,exports){}, {}]},{},[1])", "browserify", []string{"1", "2"}},
		{"chunk", "(self.webpackChunkapp = self.webpackChunkapp || []).push([[1], {7: (e, t, n) => { n(8); }, 8: (e) => {}}]);", "webpack-chunk", []string{"7", "8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := splitBundle("b.js", c.src)
			if err != nil || b == nil {
				t.Fatalf("split: %v %v", b, err)
			}
			if b.kind != c.kind {
				t.Errorf("kind %s", b.kind)
			}
			got := map[string]bool{}
			for _, m := range b.modules {
				got[m.key] = true
				if m.start >= m.end || m.end > len(c.src) {
					t.Errorf("module %s span %d..%d", m.key, m.start, m.end)
				}
			}
			for _, k := range c.keys {
				if !got[k] {
					t.Errorf("no module %q in %v", k, got)
				}
			}
		})
	}
}

func TestSearchIsLiteralOrRE2AndNamesModules(t *testing.T) {
	src := minify(t, jstest.Bundle(8<<10))
	fsys := fstest.MapFS{"dist/main.js": {Data: []byte(src)}, "README.md": {Data: []byte("Feature3:run is documented\n")}, "logo.png": {Data: []byte("\x89PNG\x00\x00feature3:run")}}
	res, err := Search(fsys, sourcewire.SearchRequest{Query: "feature3:run"})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalHits != 2 || res.FilesScanned != 2 {
		t.Fatalf("hits %d files %d: %+v", res.TotalHits, res.FilesScanned, res.Hits)
	}
	var inModule bool
	for _, h := range res.Hits {
		if h.Path == "dist/main.js" && h.Module != nil && h.Module.Key == "./src/mod3.js" && src[h.Shipped.Offset:h.Shipped.Offset+h.Length] == "feature3:run" {
			inModule = true
		}
	}
	if !inModule {
		t.Fatalf("no hit in ./src/mod3.js: %+v", res.Hits)
	}
	cs, _ := Search(fsys, sourcewire.SearchRequest{Query: "Feature3:run", CaseSensitive: true})
	if cs.TotalHits != 1 || cs.Hits[0].Path != "README.md" {
		t.Fatalf("case-sensitive %+v", cs.Hits)
	}
	re, _ := Search(fsys, sourcewire.SearchRequest{Query: `feature\d+:run`, Regex: true, Limit: 2})
	if re.TotalHits < 4 || len(re.Hits) != 2 || re.NextOffset == nil || *re.NextOffset != 2 {
		t.Fatalf("regex paging: total %d hits %d next %v", re.TotalHits, len(re.Hits), re.NextOffset)
	}
	var ae *abi.Error
	if _, err := Search(fsys, sourcewire.SearchRequest{Query: `(a)\1`, Regex: true}); !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
		t.Fatalf("backreference: %v", err)
	}
}

// Anchors see the whole text: ^ matches at line starts only, never right
// after the previous hit, and \b keeps its meaning between hits.
func TestRegexAnchorsHoldBetweenHits(t *testing.T) {
	fsys := fstest.MapFS{"a.js": {Data: []byte("ab\ncd\nxabx ab\n")}}
	for _, c := range []struct {
		query string
		want  int
	}{{`^.`, 3}, {`\bab\b`, 2}, {`b$`, 2}, {`^ab`, 1}} {
		res, err := Search(fsys, sourcewire.SearchRequest{Query: c.query, Regex: true, CaseSensitive: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalHits != c.want {
			t.Errorf("%s: %d hits %+v, want %d", c.query, res.TotalHits, res.Hits, c.want)
		}
	}
}

func TestUnpackRewritesRequiresToRelativePaths(t *testing.T) {
	fsys := fstest.MapFS{"main.js": {Data: []byte(jstest.Bundle(3000))}}
	res, err := Unpack(fsys, sourcewire.UnpackRequest{Path: "main.js"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range res.Files {
		files[f.Path] = f.Content
	}
	mod := files["modules/src/mod0.js"]
	if !strings.Contains(mod, `require("electron")`) || strings.Contains(mod, `__webpack_require__("electron")`) {
		t.Fatalf("mod0 requires not rewritten:\n%s", mod)
	}
	if _, ok := files[ManifestName]; !ok {
		t.Fatal("no manifest")
	}
	if got := relativeRequire("modules/src/a/b.js", "modules/lib/c.js"); got != "../../lib/c.js" {
		t.Errorf("relative %s", got)
	}
	if got := relativeRequire(EntryName, "modules/src/c.js"); got != "./modules/src/c.js" {
		t.Errorf("relative from the entry %s", got)
	}
	if m := reexport.FindStringSubmatch("\n\n\"use strict\";\nmodule.exports = require(\"electron\");\n\n/***/ "); m == nil || m[2] != "electron" {
		t.Errorf("webpack's external module is not seen as a re-export: %v", m)
	}
	for _, k := range []string{"../../etc/passwd", "/abs", "a/../../b", "", "C:\\x"} {
		if n := moduleFileName(k); !strings.HasPrefix(n, "modules/") || strings.Contains(n, "..") && !strings.Contains(n, "__up__") {
			t.Errorf("moduleFileName(%q) = %q", k, n)
		}
	}
}

func TestUnpackedGeneratedBundleKeepsItsIPCChannels(t *testing.T) {
	src := jstest.Bundle(6 << 10)
	bundled, err := jsengine.Analyze(context.Background(), fstest.MapFS{"package.json": {Data: []byte(`{"main":"main.js"}`)}, "main.js": {Data: []byte(src)}}, jsengine.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Unpack(fstest.MapFS{"main.js": {Data: []byte(src)}}, sourcewire.UnpackRequest{Path: "main.js"})
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, f := range res.Files {
		out[f.Path] = &fstest.MapFile{Data: []byte(f.Content)}
	}
	unpacked, err := jsengine.Analyze(context.Background(), out, jsengine.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	channels := func(r *jsengine.Result) string {
		var cs []string
		for _, op := range r.IPC {
			cs = append(cs, op.Role+" "+op.Channel)
		}
		sort.Strings(cs)
		return strings.Join(cs, "\n")
	}
	if got, want := channels(unpacked), channels(bundled); got != want || want == "" {
		t.Fatalf("unpacked:\n%s\nbundle:\n%s\nentry:\n%s", got, want, out[EntryName].Data)
	}
	if len(unpacked.Windows) != 1 {
		t.Fatalf("windows %d", len(unpacked.Windows))
	}
}

// TestUnpackNamesAMinifiedFactorysModuleAndExports: webpack 5 production
// factories (e, r, t) are written with their module and exports renamed
// where no inner function redeclares them, and the runtime's renamed
// require (t) in the entry code is rewritten like __webpack_require__.
func TestUnpackNamesAMinifiedFactorysModuleAndExports(t *testing.T) {
	src := `(()=>{var e={1:e=>{"use strict";e.exports=require("electron")},2:(e,r,t)=>{const{ipcMain:i}=t(1),{S:n}=t(3);i.handle(n,(e,r,t)=>r+t),r.open=e=>e.x,Object.defineProperty(r,"y",{get:()=>r.open});function q(r){return r}try{}catch(e){e.exports}},3:(e,r)=>{var e=1;e.exports={S:"s"}}},r={};function t(i){var o=r[i];if(void 0!==o)return o.exports;var n=r[i]={exports:{}};return e[i](n,n.exports,t),n.exports}const{app:i}=t(1),s=t(2);i.x(s)})();`
	res, err := Unpack(fstest.MapFS{"main.js": {Data: []byte(src)}}, sourcewire.UnpackRequest{Path: "main.js"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range res.Files {
		files[f.Path] = f.Content
	}
	body := func(name string) string {
		_, after, _ := strings.Cut(files[name], ";\n")
		return after
	}
	for name, want := range map[string]string{
		"modules/1.js": `"use strict";module.exports=require("electron")`,
		"modules/2.js": `const{ipcMain:i}=require("electron"),{S:n}=require("./3.js");i.handle(n,(e,r,t)=>r+t),exports.open=e=>e.x,Object.defineProperty(exports,"y",{get:()=>exports.open});function q(r){return r}try{}catch(e){e.exports}`,
		// The factory redeclares e: it is left as shipped.
		"modules/3.js": `var e=1;e.exports={S:"s"}`,
	} {
		if got := strings.TrimSpace(body(name)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	if entry := files[EntryName]; !strings.Contains(entry, `const{app:i}=require("electron"),s=require("./modules/2.js")`) {
		t.Errorf("entry.js:\n%s", entry)
	}
}
