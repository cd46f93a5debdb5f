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
