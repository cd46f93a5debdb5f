package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"rea/wasm/wasmtest"
)

// sourceRef is the source_ref of a fact.
type sourceRef struct {
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	ColumnUnit string `json:"column_unit"`
	SHA256     string `json:"sha256"`
}

type sourcePage struct {
	NormalizedResult struct {
		Result struct {
			Path      string `json:"path"`
			SHA256    string `json:"sha256"`
			View      string `json:"view"`
			FocusLine int    `json:"focus_line"`
			Offset    int    `json:"offset"`
			Module    *struct {
				Key    string `json:"key"`
				NodeID string `json:"node_id"`
			} `json:"module"`
			Lines []struct {
				Number  int    `json:"number"`
				Text    string `json:"text"`
				Shipped *struct {
					Line, Column, Offset int
				} `json:"shipped"`
			} `json:"lines"`
			NextOffset *int     `json:"next_offset"`
			Truncated  bool     `json:"truncated"`
			Limitation []string `json:"limitations"`
		} `json:"result"`
	} `json:"normalized_result"`
}

// sourceRefsOf analyses dir and returns every fact's source_ref.
func sourceRefsOf(t *testing.T, dir string) (map[string]sourceRef, []string) {
	t.Helper()
	r := reaWithModules(t, "analyze-javascript-application", dir, "--format", "json", "--fail-on-partial=false")
	if r.code != 0 {
		t.Fatalf("analyze %s: exit %d: %s", dir, r.code, r.stderr)
	}
	var ev struct {
		NormalizedResult struct {
			Application struct {
				Windows []struct {
					SourceRef *sourceRef `json:"source_ref"`
				} `json:"browser_windows"`
				Bridge []struct {
					SourceRef *sourceRef `json:"source_ref"`
				} `json:"context_bridge_apis"`
				IPC []struct {
					Channel   string
					SourceRef *sourceRef `json:"source_ref"`
				} `json:"ipc"`
				Findings []struct {
					RuleID    string     `json:"rule_id"`
					SourceRef *sourceRef `json:"source_ref"`
				} `json:"findings"`
			} `json:"application"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &ev)
	a := ev.NormalizedResult.Application
	refs := map[string]sourceRef{}
	var channels []string
	add := func(kind string, i int, ref *sourceRef) {
		if ref == nil {
			t.Errorf("%s %s[%d] has no source_ref", dir, kind, i)
			return
		}
		refs[kind+"#"+itoa(i)] = *ref
	}
	for i, w := range a.Windows {
		add("window", i, w.SourceRef)
	}
	for i, b := range a.Bridge {
		add("bridge", i, b.SourceRef)
	}
	for i, op := range a.IPC {
		add("ipc", i, op.SourceRef)
		if op.Channel != "" {
			channels = append(channels, op.Channel)
		}
	}
	for i, f := range a.Findings {
		if f.SourceRef != nil {
			add("finding", i, f.SourceRef)
		}
	}
	sort.Strings(channels)
	return refs, channels
}

// offsetOf is the byte offset of a source_ref in the file's bytes.
func offsetOf(src []byte, ref sourceRef) int {
	lines := strings.SplitAfter(string(src), "\n")
	off := 0
	for i := 0; i < ref.Line-1 && i < len(lines); i++ {
		off += len(lines[i])
	}
	if ref.ColumnUnit != "utf16" {
		return off + ref.Column - 1
	}
	units := 0
	for i, r := range lines[ref.Line-1] {
		if units >= ref.Column-1 {
			return off + i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return off + len(lines[ref.Line-1])
}

// firstWord is the first identifier at off: what the code there starts with.
func firstWord(src []byte, off int) string {
	i := off
	for i < len(src) && !isWord(src[i]) {
		i++
	}
	j := i
	for j < len(src) && isWord(src[j]) {
		j++
	}
	return string(src[i:j])
}

func isWord(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// TestEveryFactsSourceRefReadsBackItsCode walks every window, bridge API,
// IPC operation and finding of the fixture apps and reads each source_ref
// back with read-javascript-source: the focus line holds the code that
// starts at the fact's location in the shipped file, and its shipped
// position is at or before it.
func TestEveryFactsSourceRefReadsBackItsCode(t *testing.T) {
	// One MCP session reads every ref (the source module loads once; a
	// process per ref cost a module load each, minutes in all); the first
	// ref of each fixture is also read through the CLI's --source-ref, which
	// must print the same page.
	c := startMCP(t)
	for _, fx := range []string{"bundled", "sourcemapped", "insecure", "typescript", "ipc-bridge"} {
		t.Run(fx, func(t *testing.T) {
			dir := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", fx)
			refs, _ := sourceRefsOf(t, dir)
			if len(refs) == 0 {
				t.Fatal("no facts")
			}
			read := map[sourceRef]bool{}
			for fact, ref := range refs {
				if read[ref] {
					continue
				}
				read[ref] = true
				res := c.call(t, "read_javascript_source", map[string]any{"input_path": dir, "source_ref": ref, "limit": 40})
				if res.IsError {
					t.Errorf("%s %+v: %s", fact, ref, text(res))
					continue
				}
				var page sourcePage
				raw, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(raw, &page); err != nil {
					t.Fatal(err)
				}
				if len(read) == 1 {
					rawRef, _ := json.Marshal(ref)
					r := reaWithModules(t, "read-javascript-source", dir, "--source-ref", string(rawRef), "--format", "json", "--limit", "40")
					if r.code != 0 {
						t.Fatalf("CLI %s %+v: exit %d: %s", fact, ref, r.code, r.stderr)
					}
					var cli sourcePage
					decode(t, r.stdout, &cli)
					a, _ := json.Marshal(cli.NormalizedResult.Result)
					b, _ := json.Marshal(page.NormalizedResult.Result)
					if string(a) != string(b) {
						t.Errorf("CLI and MCP read %+v differently:\nCLI %.400s\nMCP %.400s", ref, a, b)
					}
				}
				got := page.NormalizedResult.Result
				src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref.Path)))
				if err != nil {
					t.Fatal(err)
				}
				at := offsetOf(src, ref)
				want := firstWord(src, at)
				idx := got.FocusLine - 1 - got.Offset
				if got.SHA256 != ref.SHA256 || idx < 0 || idx >= len(got.Lines) {
					t.Errorf("%s %+v: digest %s, focus %d of %d lines from %d", fact, ref, got.SHA256, got.FocusLine, len(got.Lines), got.Offset)
					continue
				}
				focus := got.Lines[idx]
				next := ""
				if idx+1 < len(got.Lines) {
					next = got.Lines[idx+1].Text
				}
				if !strings.Contains(focus.Text+next, want) || focus.Shipped == nil || focus.Shipped.Offset > at {
					t.Errorf("%s %+v: code there starts with %q; focus line %d (%s view) %q shipped %+v", fact, ref, want, got.FocusLine, got.View, focus.Text, focus.Shipped)
				}
			}
		})
	}
}

func TestSearchNamesTheBundledModuleAHitIsIn(t *testing.T) {
	dir := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "bundled")
	// dist/main.js: `exports.OPEN_FILE = "bundle:open-file";` is the body of
	// the webpack module "./src/channels.js" (read from the fixture).
	r := reaWithModules(t, "search-application-text", dir, "--query", "BUNDLE:OPEN-FILE", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var ev struct {
		NormalizedResult struct {
			Result struct {
				TotalHits int `json:"total_hits"`
				Hits      []struct {
					Path   string `json:"path"`
					Module *struct {
						Key    string `json:"key"`
						NodeID string `json:"node_id"`
					} `json:"module"`
					Snippet   string    `json:"snippet"`
					SourceRef sourceRef `json:"source_ref"`
				} `json:"hits"`
			} `json:"result"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &ev)
	res := ev.NormalizedResult.Result
	var inChannels bool
	for _, h := range res.Hits {
		if h.Path == "dist/main.js" && h.Module != nil && h.Module.Key == "./src/channels.js" && h.Module.NodeID == "bundled:dist/main.js#./src/channels.js" &&
			strings.Contains(h.Snippet, "OPEN_FILE") {
			inChannels = true
		}
	}
	if !inChannels {
		t.Fatalf("no hit names module ./src/channels.js: %s", r.stdout)
	}
	// A second search of the same inventory is served from the cache.
	again := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t), "REA_LOG_LEVEL=debug"}, "search-application-text", dir, "--query", "BUNDLE:OPEN-FILE", "--format", "json")
	if again.code != 0 || again.stdout != r.stdout {
		t.Fatalf("the repeated search differs (exit %d): %s", again.code, again.stderr)
	}
	// The module a hit names is readable by its node id.
	page := reaWithModules(t, "read-javascript-source", dir, "--module", "bundled:dist/main.js#./src/channels.js", "--format", "json")
	if page.code != 0 || !strings.Contains(page.stdout, "OPEN_FILE") {
		t.Fatalf("module read: exit %d: %s %s", page.code, page.stderr, page.stdout)
	}
}

func TestUnpackedWebpack5BundleHasTheBundlesIPCChannels(t *testing.T) {
	root := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "bundled")
	// Only the webpack 5 main-process bundle and its package.json.
	app := t.TempDir()
	if err := os.MkdirAll(filepath.Join(app, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"package.json", "dist/main.js"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, filepath.FromSlash(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, bundled := sourceRefsOf(t, app)
	if len(bundled) == 0 {
		t.Fatal("the bundle has no IPC channels to compare")
	}
	out := filepath.Join(t.TempDir(), "unpacked")
	r := reaWithModules(t, "unpack-javascript-bundle", app, "--path", "dist/main.js", "--output", out, "--format", "json")
	if r.code != 0 {
		t.Fatalf("unpack: exit %d: %s", r.code, r.stderr)
	}
	manifest, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(manifest), `"./src/channels.js"`) {
		t.Fatalf("manifest: %v %s", err, manifest)
	}
	_, unpacked := sourceRefsOf(t, out)
	if strings.Join(unpacked, ",") != strings.Join(bundled, ",") {
		t.Fatalf("IPC channels: unpacked %v, bundle %v", unpacked, bundled)
	}
}

func TestExtractSourceMapSourcesKeepsEveryPathUnderTheOutput(t *testing.T) {
	app := t.TempDir()
	content := func(s string) *string { return &s }
	m := map[string]any{"version": 3, "mappings": "AAAA", "file": "main.js",
		"sources":        []string{"src/ok.ts", "../../etc/passwd", "/abs.ts", "webpack://app/../escape.ts", "src/ok.ts", "src/none.ts"},
		"sourcesContent": []*string{content("export const ok = 1\n"), content("x"), content("y"), content("z"), content("other\n"), nil}}
	raw, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(app, "main.js.map"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "main.js"), []byte("console.log(1)\n//# sourceMappingURL=main.js.map\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	r := reaWithModules(t, "extract-source-map-sources", app, "--output", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "src", "ok.ts")); err != nil || string(b) != "export const ok = 1\n" {
		t.Fatalf("src/ok.ts: %v %q", err, b)
	}
	for _, want := range []string{"rejected ../../etc/passwd: the path leaves", "rejected /abs.ts: absolute", "rejected webpack://app/../escape.ts: the path leaves",
		"rejected src/ok.ts: duplicate", "rejected src/none.ts: the map carries no sourcesContent"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	var files []string
	_ = filepath.Walk(parent, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 1 {
		t.Fatalf("files written: %v", files)
	}
}

// TestHostileSourceInputIsBounded: a 4 MiB single line, bytes that are not
// UTF-8, a regex that would backtrack elsewhere, one RE2 cannot express,
// and a source map larger than max_file_bytes.
func TestHostileSourceInputIsBounded(t *testing.T) {
	app := t.TempDir()
	huge := strings.Repeat("a=b+c;", 700_000) // 4.2 MB, one line
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(app, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("huge.js", huge)
	write("bad.js", "var s = \"\xff\xfe\xc3(\"; // \xed\xa0\x80 not UTF-8\n")
	write("aaa.txt", strings.Repeat("a", 1<<20)+"!")
	write("big.js", "x()\n//# sourceMappingURL=big.js.map\n")
	write("big.js.map", `{"version":3,"sources":["a.ts"],"mappings":"AAAA","sourcesContent":["`+strings.Repeat("x", 3<<20)+`"]}`)

	r := reaWithModules(t, "read-javascript-source", app, "--path", "huge.js", "--line", "1", "--column", "2000001", "--format", "json")
	if r.code != 0 {
		t.Fatalf("huge line: exit %d: %s", r.code, r.stderr)
	}
	var page sourcePage
	decode(t, r.stdout, &page)
	res := page.NormalizedResult.Result
	size := 0
	for _, l := range res.Lines {
		size += len(l.Text)
	}
	if size > 64<<10 || len(res.Lines) < 2 {
		t.Fatalf("huge line page: %d bytes of text in %d lines", size, len(res.Lines))
	}
	if focus := res.Lines[res.FocusLine-1-res.Offset]; focus.Shipped == nil || focus.Shipped.Offset > 2000000 || focus.Shipped.Offset < 2000000-64<<10 {
		t.Fatalf("focus %+v", focus)
	}

	r = reaWithModules(t, "read-javascript-source", app, "--path", "bad.js", "--format", "json")
	if r.code != 0 || !utf8.ValidString(r.stdout) || !strings.Contains(r.stdout, "\uFFFD") {
		t.Fatalf("invalid UTF-8: exit %d: %s", r.code, r.stderr)
	}

	r = reaWithModules(t, "search-application-text", app, "--query", "(a+)+!", "--regex", "--format", "json")
	var found struct {
		NormalizedResult struct {
			Result struct {
				TotalHits int `json:"total_hits"`
			} `json:"result"`
		} `json:"normalized_result"`
	}
	if r.code != 0 {
		t.Fatalf("nested quantifier: exit %d: %s", r.code, r.stderr)
	}
	if decode(t, r.stdout, &found); found.NormalizedResult.Result.TotalHits != 1 {
		t.Fatalf("nested quantifier: %d hits, want the one in aaa.txt", found.NormalizedResult.Result.TotalHits)
	}
	r = reaWithModules(t, "search-application-text", app, "--query", `(a)\1`, "--regex", "--format", "json")
	if r.code == 0 || !strings.Contains(r.stdout, `"invalid_request"`) {
		t.Fatalf("backreference: exit %d: %s", r.code, r.stdout)
	}

	r = reaWithModules(t, "extract-source-map-sources", app, "--path", "big.js.map", "--max-file-bytes", "1048576", "--format", "json")
	if r.code == 0 || !strings.Contains(r.stdout, `"resource_constraint"`) {
		t.Fatalf("big map: exit %d: %s", r.code, r.stdout)
	}
}

// TestMCPSourcePageIsAtMost64KiB: a default page of a minified file read
// through `rea mcp`, structured content and text together, stays under
// 64 KiB, and the next page follows from next_offset.
func TestMCPSourcePageIsAtMost64KiB(t *testing.T) {
	app := t.TempDir()
	var sb strings.Builder
	for i := 0; sb.Len() < 600<<10; i++ {
		sb.WriteString("function f" + itoa(i) + "(a,b){if(a){return b.map(function(x){return x*" + itoa(i) + "})}else{return{k:\"v" + itoa(i) + "\"}}}")
	}
	if err := os.WriteFile(filepath.Join(app, "min.js"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startMCP(t)
	res := c.call(t, "read_javascript_source", map[string]any{"input_path": app, "path": "min.js", "start_line": 1})
	m := structured(t, res)
	b, _ := json.Marshal(m)
	if size := len(b); size > 64<<10 || size < 32<<10 {
		t.Fatalf("a default page of a 600 KB line is %d bytes of structured content over MCP (want ≤ 64 KiB, and filled)", size)
	}
	page := m["normalized_result"].(map[string]any)["result"].(map[string]any)
	next, ok := page["next_offset"].(float64)
	if !ok || next < 1 {
		t.Fatalf("no next_offset on a page of a 600 KB line: %v", page["next_offset"])
	}
	res2 := structured(t, c.call(t, "read_javascript_source", map[string]any{"input_path": app, "path": "min.js", "start_line": 1, "offset": int(next)}))
	first := res2["normalized_result"].(map[string]any)["result"].(map[string]any)["lines"].([]any)[0].(map[string]any)
	if first["number"].(float64) != next+1 {
		t.Fatalf("next page starts at %v, want %v", first["number"], next+1)
	}
}
