package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"testing/fstest"

	"rea/jsengine/jstest"
)

// lexPassInputs are every application under testdata that the analysis
// reads, and the generated ones of the other equality tests.
func lexPassInputs(t *testing.T) map[string]fs.FS {
	t.Helper()
	inputs := map[string]fs.FS{
		"cross-module": crossModuleApp(),
		"generated":    jstest.App(40, 3<<10),
		"bundle":       jstest.BundleApp(48 << 10),
		"islands":      lexIslandsApp(),
	}
	var dirs []string
	for _, glob := range []string{"../testdata/electron/*", "../testdata/versions/*", "../testdata/compare/*/*"} {
		m, _ := filepath.Glob(glob)
		dirs = append(dirs, m...)
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			inputs[filepath.ToSlash(d)] = os.DirFS(d)
		}
	}
	if len(inputs) < 30 {
		t.Fatalf("only %d inputs found under testdata; the comparison would prove little", len(inputs))
	}
	return inputs
}

// lexIslandsApp has files the lexer-level pass reports from their scan (a
// utility library nothing Electron-related reaches, a dependency only it
// uses) beside the Electron modules, their constant provider and a file
// that calls an Electron module's helper without naming Electron itself.
func lexIslandsApp() fstest.MapFS {
	return fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"islands","main":"main.js"}`)},
		"main.js": {Data: []byte(`const { app, ipcMain } = require('electron');
const { CH } = require('./channels');
const { open } = require('./win');
ipcMain.handle(CH.SAVE, () => 1);
app.whenReady().then(() => open());
`)},
		"channels.js": {Data: []byte("exports.CH = { SAVE: 'doc:save' };\n")},
		"win.js": {Data: []byte(`const { BrowserWindow } = require('electron');
exports.open = () => new BrowserWindow({ webPreferences: { sandbox: false } });
exports.tell = (w, ch) => w.webContents.send(ch);
`)},
		"menu.js": {Data: []byte("const { tell } = require('./win');\nmodule.exports = (w) => tell(w, 'menu:open');\n")},
		"lib/strings.js": {Data: []byte("const pad = require('left-pad');\nconst u = require('./util');\n" +
			"// a comment that names nothing\nmodule.exports = { title: (s) => pad(u.trim(s), 10), re: /['\"]/g };\n")},
		"lib/util.js":                        {Data: []byte("exports.trim = (s) => s.trim();\n")},
		"node_modules/left-pad/package.json": {Data: []byte(`{"name":"left-pad","main":"index.js"}`)},
		"node_modules/left-pad/index.js":     {Data: []byte("module.exports = function (s, n) { return String(s).padStart(n); };\n")},
		// local facts only (a string timer, a fetch endpoint): parsed with
		// what it requires, but its importer gains nothing from it.
		"lib/timer.js": {Data: []byte("const t = require('./util');\nexports.later = (code) => setTimeout('run(' + code + ')', 1);\n" +
			"exports.get = () => fetch('https://api.example.com/v1');\n")},
		"lib/jobs.js": {Data: []byte("const { later } = require('./timer');\nmodule.exports = () => later('x');\n")},
	}
}

// lexNormalised returns full's JSON with the parse bookkeeping of the
// files lex reported from their scan set to what lex says (parsed_by
// "lexer", no AST nodes), after checking that those are the only
// differences in them: visited_ast_nodes of the full parse minus their
// nodes equals lex's.
func lexNormalised(t *testing.T, full, lex *Result) ([]byte, int) {
	t.Helper()
	lexed := map[string]bool{}
	for _, m := range lex.Modules {
		if m.ParsedBy == "lexer" {
			if m.ASTNodes != 0 {
				t.Fatalf("%s: reported from its scan with %d AST nodes", m.Path, m.ASTNodes)
			}
			lexed[m.Path] = true
		}
	}
	b, _ := json.Marshal(full)
	var c Result
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for i := range c.Modules {
		m := &c.Modules[i]
		if lexed[m.Path] {
			if m.ParsedBy != "goja" {
				t.Fatalf("%s: the lexer-level pass reported a file the full parse read with %q", m.Path, m.ParsedBy)
			}
			nodes += m.ASTNodes
			m.ParsedBy, m.ASTNodes = "lexer", 0
		}
	}
	if c.Statistics.VisitedASTNodes-nodes != lex.Statistics.VisitedASTNodes {
		t.Fatalf("visited AST nodes: full %d − lexed files' %d ≠ %d", c.Statistics.VisitedASTNodes, nodes, lex.Statistics.VisitedASTNodes)
	}
	c.Statistics.VisitedASTNodes = lex.Statistics.VisitedASTNodes
	out, _ := json.Marshal(&c)
	return out, len(lexed)
}

// TestLexerPassGivesTheFullParseResultOnEveryFixture: with the
// lexer-level pass (the default) every application under testdata is
// analysed to the same result as with a syntax tree for every file, byte
// for byte, except that the files reported from their scan say so
// (parsed_by "lexer", ast_nodes 0) — also when the analysis runs in shards.
func TestLexerPassGivesTheFullParseResultOnEveryFixture(t *testing.T) {
	inputs := lexPassInputs(t)
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	total, withLexed := 0, 0
	for _, name := range names {
		fsys := inputs[name]
		full, err := Analyze(context.Background(), fsys, Options{FullParse: true}, nil)
		if err != nil {
			t.Fatalf("%s: full parse: %v", name, err)
		}
		for _, m := range full.Modules {
			if m.ParsedBy == "lexer" {
				t.Fatalf("%s: FullParse reported %s from its scan", name, m.Path)
			}
		}
		lex, err := Analyze(context.Background(), fsys, Options{}, nil)
		if err != nil {
			t.Fatalf("%s: lexer pass: %v", name, err)
		}
		want, n := lexNormalised(t, full, lex)
		got, _ := json.Marshal(lex)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the lexer-level pass changed the result:\nfull %s\nlex  %s", name, want, got)
			continue
		}
		total += n
		if n > 0 {
			withLexed++
		}
		t.Logf("%s: %d of %d modules reported from their scan", name, n, len(lex.Modules))
		if name == "cross-module" || name == "islands" {
			for _, n := range []int{2, 3} {
				res, rerun := analyseInShards(t, fsys, Options{}, n)
				if rerun != "" {
					t.Fatalf("%s: %d shards: merge asks for one instance: %s", name, n, rerun)
				}
				if b, _ := json.Marshal(res); !bytes.Equal(b, got) {
					t.Fatalf("%s: %d shards differ from one instance:\none    %s\nshards %s", name, n, got, b)
				}
			}
		}
	}
	if withLexed < 3 {
		t.Fatalf("only %d inputs had a file reported from its scan (%d files); the comparison proves little", withLexed, total)
	}
}

// TestLexerPassParsesWhatCanContribute: in the islands app the Electron
// modules, their constant provider, the file that calls an Electron
// module's helper and the main entry get syntax trees; the utility library
// and its dependency, which nothing relevant reaches, do not.
func TestLexerPassParsesWhatCanContribute(t *testing.T) {
	res, err := Analyze(context.Background(), lexIslandsApp(), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Module{}
	for _, m := range res.Modules {
		by[m.Path] = m
	}
	for p, want := range map[string]string{"main.js": "goja", "channels.js": "goja", "win.js": "goja", "menu.js": "goja",
		"lib/strings.js": "lexer", "node_modules/left-pad/index.js": "lexer",
		"lib/timer.js": "goja", "lib/util.js": "goja", "lib/jobs.js": "lexer"} {
		if got := by[p].ParsedBy; got != want {
			t.Errorf("%s parsed by %q, want %q", p, got, want)
		}
	}
	imps := by["lib/strings.js"].Imports
	if len(imps) != 2 || imps[0].Specifier != "left-pad" || imps[0].Resolved != "node_modules/left-pad/index.js" ||
		imps[0].Location.Line != 1 || imps[0].Location.Column != 13 || imps[1].Resolved != "lib/util.js" || imps[1].Location.Line != 2 {
		t.Errorf("imports of lib/strings.js from its scan: %+v", imps)
	}
	var handler, menu bool
	for _, op := range res.IPC {
		handler = handler || op.Module == "main.js" && op.Channel == "doc:save"
		menu = menu || op.Module == "menu.js" && op.Channel == "menu:open"
	}
	if !handler || !menu {
		t.Errorf("IPC operations %+v, want the handler and menu.js's send through the helper", res.IPC)
	}
}

// TestLexerPassRedoesTheAnalysisWhenAnEvaluationReachesAScannedFile: a
// require whose specifier is computed (no literal names the file) reaches
// a file the plan reported from its scan; the analysis is then redone with
// every file parsed, and equals the full parse.
func TestLexerPassRedoesTheAnalysisWhenAnEvaluationReachesAScannedFile(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"computed","main":"main.js"}`)},
		"main.js": {Data: []byte(`const { ipcMain } = require('electron');
const dir = './consts';
const { CH } = require(dir + '/names');
ipcMain.on(CH, () => {});
`)},
		"consts/names.js": {Data: []byte("exports.CH = 'computed:channel';\n")},
	}
	full, err := Analyze(context.Background(), fsys, Options{FullParse: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lex, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(full)
	got, _ := json.Marshal(lex)
	if !bytes.Equal(got, want) {
		t.Fatalf("differs from the full parse:\nfull %s\nlex  %s", want, got)
	}
	if len(lex.IPC) != 1 || lex.IPC[0].Channel != "computed:channel" {
		t.Fatalf("the channel through the computed require was not resolved: %+v", lex.IPC)
	}
}
