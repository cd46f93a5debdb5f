package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

// A repeated analyze-javascript-application over unchanged input is answered
// from the application result cache without loading any module (issue 22:
// no inventory run, no jsapp run), and prints what the first run printed.
// Any change the analysis could see is a miss: a file's bytes changed
// with its size and mtime kept, a file added, an .asar's unpacked
// companion changed. The debug log says which happened: "module
// instantiated" for every wasm instance, "application served from the
// result cache" for a hit.
func TestAnalyzeRepeatIsServedFromTheResultCacheWithoutLoadingAModule(t *testing.T) {
	env := []string{"REA_RESULT_CACHE_DIR=" + t.TempDir(), "REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}
	run := func(t *testing.T, input string, args ...string) result {
		t.Helper()
		r := rea(t, "", env, append([]string{"analyze-javascript-application", input, "--format", "json", "--log-level", "debug"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", input, r.code, r.stderr)
		}
		return r
	}
	const served = "application served from the result cache"
	analysed := func(t *testing.T, what string, r result) {
		t.Helper()
		if strings.Contains(r.stderr, served) || !strings.Contains(r.stderr, `msg="module instantiated" module=jsapp`) {
			t.Fatalf("%s: want a fresh analysis (jsapp instantiated, not served from the cache):\n%s", what, r.stderr)
		}
	}
	fromCache := func(t *testing.T, what string, r, want result) {
		t.Helper()
		if !strings.Contains(r.stderr, served) {
			t.Fatalf("%s: not served from the result cache:\n%s", what, r.stderr)
		}
		for _, loaded := range []string{"module instantiated", "module compiled"} {
			if strings.Contains(r.stderr, loaded) {
				t.Fatalf("%s: served from the cache but a module was loaded (%q):\n%s", what, loaded, r.stderr)
			}
		}
		if r.stdout != want.stdout {
			t.Fatalf("%s: the cached answer differs from the analysis it stores", what)
		}
	}

	t.Run("directory", func(t *testing.T) {
		app := filepath.Join(t.TempDir(), "app")
		copyTree(t, electronFixture(t, "insecure"), app)
		cold := run(t, app)
		analysed(t, "first run", cold)
		fromCache(t, "second run", run(t, app), cold)

		// Other bytes of the same size, with the old mtime: a key of
		// file metadata alone would serve the stale answer.
		main := filepath.Join(app, "main.js")
		st, err := os.Stat(main)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(main)
		nb := bytes.Replace(b, []byte("editor.example.com"), []byte("editor.example.org"), 1)
		if bytes.Equal(b, nb) {
			t.Fatal("the fixture's main.js no longer loads editor.example.com")
		}
		if err := os.WriteFile(main, nb, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(main, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		changed := run(t, app)
		analysed(t, "after main.js changed", changed)
		if !strings.Contains(changed.stdout, "editor.example.org") || strings.Contains(changed.stdout, "editor.example.com") {
			t.Fatal("the analysis after the change does not report the new loadURL target")
		}
		fromCache(t, "repeat after the change", run(t, app), changed)

		writeFiles(t, app, map[string]string{"extra.js": "module.exports = 1\n"})
		analysed(t, "after a file was added", run(t, app))
	})

	// Every output and exit status of a hit is the cold run's: the JSON
	// record (printed from its stored bytes), the text report (which
	// decodes the stored analysis), a partial analysis (exit 2 and the
	// reason on stderr) and the findings gate (exit 3).
	t.Run("every output of a hit is the cold run's", func(t *testing.T) {
		app := filepath.Join(t.TempDir(), "app")
		copyTree(t, electronFixture(t, "insecure"), app)
		same := func(t *testing.T, args ...string) {
			t.Helper()
			all := append([]string{"analyze-javascript-application", app, "--log-level", "debug"}, args...)
			own := []string{"REA_RESULT_CACHE_DIR=" + t.TempDir(), env[1]} // the output format is not in the key
			cold := rea(t, "", own, all...)
			warm := rea(t, "", own, all...)
			if strings.Contains(cold.stderr, served) || !strings.Contains(warm.stderr, served) {
				t.Fatalf("%v: want a cold run then a hit:\n%s\n---\n%s", args, cold.stderr, warm.stderr)
			}
			if warm.stdout != cold.stdout || warm.code != cold.code {
				t.Fatalf("%v: the hit printed other output (exit %d, cold %d)", args, warm.code, cold.code)
			}
			if want, got := verdictLines(cold.stderr), verdictLines(warm.stderr); want != got {
				t.Fatalf("%v: stderr verdict %q, cold %q", args, got, want)
			}
		}
		same(t, "--format", "text")
		same(t, "--format", "json", "--max-ast-nodes", "50")
		same(t, "--format", "text", "--max-ast-nodes", "60", "--fail-on", "low")
		same(t, "--format", "json", "--fail-on", "medium")
		partial := []string{"analyze-javascript-application", app, "--format", "json", "--max-ast-nodes", "50", "--log-level", "debug"}
		_ = rea(t, "", env, partial...)
		if r := rea(t, "", env, partial...); r.code != 2 ||
			!strings.Contains(r.stderr, served) || !strings.Contains(r.stderr, "coverage: partial — limit max_ast_nodes=50 reached") {
			t.Fatalf("a partial analysis served from the cache: exit %d:\n%s", r.code, r.stderr)
		}
	})

	t.Run("asar with an unpacked companion", func(t *testing.T) {
		dir := t.TempDir()
		pkg := []byte(`{"name":"a","main":"main.js"}`)
		main := []byte("const { BrowserWindow } = require('electron')\nnew BrowserWindow({ webPreferences: { nodeIntegration: true } }).loadURL('https://a.example.com/')\n")
		unpacked := asarpack.Bytes("main.js", main)
		unpacked.Unpacked = true
		var packed bytes.Buffer
		if err := asarpack.Write(&packed, []asarpack.File{asarpack.Bytes("package.json", pkg), unpacked}); err != nil {
			t.Fatal(err)
		}
		asar := filepath.Join(dir, "app.asar")
		if err := os.WriteFile(asar, packed.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		companion := filepath.Join(dir, "app.asar.unpacked", "main.js")
		if err := os.MkdirAll(filepath.Dir(companion), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(companion, main, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"--integrity-policy", "record-and-continue", "--fail-on-partial=false"}
		cold := run(t, asar, args...)
		analysed(t, "first run", cold)
		if !strings.Contains(cold.stdout, "a.example.com") {
			t.Fatal("the unpacked main.js was not analysed")
		}
		fromCache(t, "second run", run(t, asar, args...), cold)

		// The archive's bytes are unchanged; only the companion differs.
		past := time.Now().Add(-time.Hour)
		if err := os.WriteFile(companion, bytes.Replace(main, []byte("a.example.com"), []byte("b.example.com"), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(companion, past, past)
		changed := run(t, asar, args...)
		analysed(t, "after the unpacked main.js changed", changed)
		if !strings.Contains(changed.stdout, "b.example.com") || !strings.Contains(changed.stdout, `"observed_sha256"`) {
			t.Fatal("the analysis after the change does not report the new bytes and their contradiction of the archive's integrity")
		}
	})
}

// verdictLines keeps the lines of stderr the gate writes.
func verdictLines(stderr string) string {
	var keep []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "coverage: ") || strings.HasPrefix(l, "findings: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// A directory's analysis starts on the result-cache key's walk, beside the
// inventory (host/app/jsapp_early.go), and stands only when the inventory
// gives the same tree: the output is the output without the cache (no walk,
// the analysis after the inventory). A name the inventory normalises (NFD
// to NFC) makes the trees differ; the early analysis is then dropped and
// the answer is still the inventory tree's.
func TestAnalysisStartedOnTheKeyWalkIsTheInventorysAnswer(t *testing.T) {
	mods := "REA_MODULE_DIR=" + wasmtest.ModuleDir(t)
	compare := func(t *testing.T, app string, wantDropped bool) {
		t.Helper()
		args := []string{"analyze-javascript-application", app, "--format", "json", "--log-level", "debug"}
		early := rea(t, "", []string{"REA_RESULT_CACHE_DIR=" + t.TempDir(), mods}, args...)
		plain := rea(t, "", []string{"REA_RESULT_CACHE_DIR=" + t.TempDir(), "REA_ANALYSE_AFTER_INVENTORY=1", mods}, args...)
		if !strings.Contains(early.stderr, "early=true") || strings.Contains(plain.stderr, "early=true") {
			t.Fatalf("want an early start, and none with REA_ANALYSE_AFTER_INVENTORY=1:\n%s\n---\n%s", early.stderr, plain.stderr)
		}
		if dropped := strings.Contains(early.stderr, "early analysis dropped"); dropped != wantDropped {
			t.Fatalf("early analysis dropped: %v, want %v:\n%s", dropped, wantDropped, early.stderr)
		}
		if early.code != plain.code || early.stdout != plain.stdout {
			t.Fatalf("the analysis started on the walk printed other output (exit %d, without the cache %d):\n%s\n---\n%s",
				early.code, plain.code, early.stdout, plain.stdout)
		}
	}
	for _, name := range []string{"insecure", "typescript", "bridge-computed-keys", "monorepo"} {
		t.Run(name, func(t *testing.T) { compare(t, electronFixture(t, name), false) })
	}
	t.Run("a name the inventory normalises", func(t *testing.T) {
		app := filepath.Join(t.TempDir(), "app")
		copyTree(t, electronFixture(t, "insecure"), app)
		writeFiles(t, app, map[string]string{"cafe\u0301.js": "require('electron').ipcMain.handle('nfd', () => 1)\n"})
		compare(t, app, true)
	})
}
