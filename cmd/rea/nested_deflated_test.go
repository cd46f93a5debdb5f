package main_test

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// deflatedZipOf wraps files (name → path on disk) in a zip written by
// Go's archive/zip with every member DEFLATE-compressed.
func deflatedZipOf(t *testing.T, out string, files [][2]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		b, err := os.ReadFile(f[1])
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Deflate})
		w.Write(b)
	}
	zw.Close()
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNestedArchivesDeflatedInAZipAreExpanded: a .deb built by dpkg-deb
// (its data.tar.xz holding resources/app.asar), DEFLATE-compressed in a
// zip, is inventoried through every level with coverage complete; a
// member extracted through the nesting is byte-identical to the packed
// file; `rea analyze` finds the app in it.
func TestNestedArchivesDeflatedInAZipAreExpanded(t *testing.T) {
	env := installerEnv(t)
	deb := buildDeb(t, "xz")
	outer := deflatedZipOf(t, filepath.Join(t.TempDir(), "bundle.zip"), [][2]string{{"linux/example.deb", deb}})
	r := rea(t, "", env, "inspect-artifact", outer)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"zip  art_", "in 5 containers", "0 mismatched, 0 unavailable; coverage complete", "linux/example.deb", "data.tar.xz",
		"opt/Example/resources/app.asar", "preload.js", "shared/channels.js", "opt/Example/escape -> ../../../etc/passwd"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
		}
	}
	member := "linux/example.deb!/data.tar.xz!/opt/Example/resources/app.asar!/main.js"
	dest := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", member, "--output", dest, outer)
	got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(member)))
	want, _ := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
	if r.code != 0 || err != nil || !bytes.Equal(got, want) {
		t.Errorf("extract through the deflated .deb: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	analyzeEnv := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	r = rea(t, "", analyzeEnv, "analyze", outer)
	if r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"analysing linux/example.deb!/data.tar.xz!/opt/Example/resources/app.asar", "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("analyze lacks %q:\n%s", w, r.stdout)
		}
	}
}

// TestNestedZipInASevenZipFolderIsExpanded: app.zip (the real zip) among
// other files in a solid 7z folder (the real 7z) is expanded from the
// folder's decoded copy, its app.asar too; extraction goes through both.
func TestNestedZipInASevenZipFolderIsExpanded(t *testing.T) {
	env := installerEnv(t)
	needPackager(t, "7z", "p7zip-full")
	archive, _ := zipElectronApp(t)
	dir := t.TempDir()
	b, _ := os.ReadFile(archive)
	os.WriteFile(filepath.Join(dir, "app.zip"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), bytes.Repeat([]byte("notes\n"), 900), 0o644)
	sz := filepath.Join(t.TempDir(), "bundle.7z")
	cmd := exec.Command("7z", "a", "-bd", "-mx=9", "-ms=on", sz, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z: %v\n%s", err, out)
	}
	r := rea(t, "", env, "inspect-artifact", sz)
	if r.code != 0 || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "0 mismatched, 0 unavailable; coverage complete") || !strings.Contains(r.stdout, "shared/channels.js") {
		t.Fatalf("zip in a 7z folder: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	member := "app.zip!/resources/app.asar!/main.js"
	dest := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", member, "--output", dest, sz)
	got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(member)))
	want, _ := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
	if r.code != 0 || err != nil || !bytes.Equal(got, want) {
		t.Errorf("extract through the 7z folder: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
}

// TestNestedDeflatedZipsAreBounded: zips deflated in zips are expanded to
// max_depth and past it said partial, naming the depth limit; a bomb in
// a deflated nested zip is refused by the ratio limit naming its member;
// a traversal in one is refused naming the nested archive; a nested zip
// cut short is refused, typed, not listed as if whole.
func TestNestedDeflatedZipsAreBounded(t *testing.T) {
	env := installerEnv(t)
	dir := t.TempDir()
	asar := filepath.Join(dir, "app.asar")
	os.WriteFile(asar, rawASARFile(`{"files":{"main.js":{"size":5,"offset":"0"}}}`, []byte("main1")), 0o644)
	z := deflatedZipOf(t, filepath.Join(dir, "app.zip"), [][2]string{{"app.asar", asar}})
	z = deflatedZipOf(t, filepath.Join(dir, "mid.zip"), [][2]string{{"app.zip", z}})
	z = deflatedZipOf(t, filepath.Join(dir, "outer.zip"), [][2]string{{"mid.zip", z}})
	r := rea(t, "", env, "inspect-artifact", "--max-depth", "3", z)
	if r.code != 0 || !strings.Contains(r.stdout, "in 4 containers") || !strings.Contains(r.stdout, "coverage complete") {
		t.Errorf("max-depth 3: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dest := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", "mid.zip!/app.zip!/app.asar!/main.js", "--output", dest, z)
	if got, err := os.ReadFile(filepath.Join(dest, "mid.zip!", "app.zip!", "app.asar!", "main.js")); r.code != 0 || err != nil || string(got) != "main1" {
		t.Errorf("extract through three deflated levels: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "1", z)
	if r.code != 0 || !strings.Contains(r.stdout, "in 2 containers") || !strings.Contains(r.stdout, "coverage partial") ||
		!strings.Contains(r.stdout, "nested deeper than max_depth") || !strings.Contains(r.stdout, "first: mid.zip!/app.zip") {
		t.Errorf("max-depth 1: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// 8 MiB of zeros deflated in a zip, itself deflated in a zip.
	zeros := filepath.Join(dir, "zeros.bin")
	os.WriteFile(zeros, make([]byte, 8<<20), 0o644)
	bomb := deflatedZipOf(t, filepath.Join(dir, "bomb.zip"), [][2]string{{"app.asar", asar}, {"zeros.bin", zeros}})
	bomb = deflatedZipOf(t, filepath.Join(dir, "bundle.zip"), [][2]string{{"payload/bomb.zip", bomb}})
	r = rea(t, "", env, "inspect-artifact", "--max-compression-ratio", "100", bomb)
	if r.code == 0 || !strings.Contains(r.stderr, "max_compression_ratio") || !strings.Contains(r.stderr, "zeros.bin") {
		t.Errorf("bomb: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A traversal in a deflated nested zip.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "../../etc/passwd", Method: zip.Deflate})
	w.Write([]byte("x"))
	zw.Close()
	evil := filepath.Join(dir, "evil.zip")
	os.WriteFile(evil, buf.Bytes(), 0o644)
	evilOuter := deflatedZipOf(t, filepath.Join(dir, "evil-outer.zip"), [][2]string{{"payload/evil.zip", evil}})
	r = rea(t, "", env, "inspect-artifact", evilOuter)
	if r.code == 0 || !strings.Contains(r.stderr, `nested container "payload/evil.zip"`) || !strings.Contains(r.stderr, "..") {
		t.Errorf("traversal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A nested zip cut short (no central directory).
	whole, _ := os.ReadFile(filepath.Join(dir, "app.zip"))
	cut := filepath.Join(dir, "cut.zip")
	os.WriteFile(cut, whole[:len(whole)*2/3], 0o644)
	cutOuter := deflatedZipOf(t, filepath.Join(dir, "cut-outer.zip"), [][2]string{{"payload/cut.zip", cut}})
	r = rea(t, "", env, "inspect-artifact", cutOuter)
	if r.code == 0 || !strings.Contains(r.stderr, "payload/cut.zip") {
		t.Errorf("truncated nested zip: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
