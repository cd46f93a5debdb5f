package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"rea/wasm/wasmtest"
)

// writeTree writes files (path → content) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLexerPassThroughTheBinaryEqualsTheFullParse: the built rea analyses
// an application whose utility files nothing Electron-related reaches to
// the same result with REA_JS_PARSE=lexer as by default (a syntax tree for
// every file), once the files reported from their scan (parsed_by
// "lexer") are given the same bookkeeping; those files are there, with
// their imports, and the lexer mode parsed fewer.
func TestLexerPassThroughTheBinaryEqualsTheFullParse(t *testing.T) {
	islands := writeTree(t, map[string]string{
		"package.json": `{"name":"islands","main":"main.js"}`,
		"main.js": "const { app, ipcMain } = require('electron');\nconst { CH } = require('./channels');\n" +
			"ipcMain.handle(CH.SAVE, () => 1);\napp.whenReady().then(() => require('./win').open());\n",
		"channels.js": "exports.CH = { SAVE: 'doc:save' };\n",
		"win.js":      "const { BrowserWindow } = require('electron');\nexports.open = () => new BrowserWindow({});\n",
		"lib/strings.js": "const pad = require('left-pad');\nconst u = require('./util');\n" +
			"module.exports = { title: (s) => pad(u.trim(s), 10) };\n",
		"lib/util.js":                        "exports.trim = (s) => s.trim();\n",
		"node_modules/left-pad/package.json": `{"name":"left-pad","main":"index.js"}`,
		"node_modules/left-pad/index.js":     "module.exports = function (s, n) { return String(s).padStart(n); };\n",
	})
	for _, dir := range []string{islands, filepath.Join(wasmtest.RepoRoot(t), "testdata", "compare", "source", "app")} {
		run := func(env ...string) map[string]any {
			t.Helper()
			r := rea(t, "", append([]string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t), "REA_RESULT_CACHE_DIR=off"}, env...),
				"analyze-javascript-application", dir, "--format", "json")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var out struct {
				NormalizedResult struct {
					Application map[string]any `json:"application"`
				} `json:"normalized_result"`
			}
			decode(t, r.stdout, &out)
			return out.NormalizedResult.Application
		}
		full, lex := run(), run("REA_JS_PARSE=lexer")
		lexed := map[string]bool{}
		for _, m := range lex["modules"].([]any) {
			if m := m.(map[string]any); m["parsed_by"] == "lexer" {
				lexed[m["path"].(string)] = true
			}
		}
		if len(lexed) < 2 {
			t.Fatalf("%s: only %d files reported from their scan", dir, len(lexed))
		}
		nodes := 0.0
		for _, m := range full["modules"].([]any) {
			m := m.(map[string]any)
			if m["parsed_by"] == "lexer" {
				t.Fatalf("%s: the default mode reported %s from its scan", dir, m["path"])
			}
			if lexed[m["path"].(string)] {
				nodes += m["ast_nodes"].(float64)
				m["parsed_by"], m["ast_nodes"] = "lexer", 0.0
			}
		}
		fs, ls := full["statistics"].(map[string]any), lex["statistics"].(map[string]any)
		if fs["visited_ast_nodes"].(float64)-nodes != ls["visited_ast_nodes"].(float64) || nodes == 0 {
			t.Fatalf("%s: visited AST nodes full %v, lexed files' %v, lexer mode %v", dir, fs["visited_ast_nodes"], nodes, ls["visited_ast_nodes"])
		}
		fs["visited_ast_nodes"] = ls["visited_ast_nodes"]
		a, _ := json.Marshal(full)
		b, _ := json.Marshal(lex)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the lexer mode's result differs from the full parse:\nfull  %s\nlexer %s", dir, a, b)
		}
		t.Logf("%s: %d files reported from their scan, %v AST nodes not built", dir, len(lexed), nodes)
	}
}
