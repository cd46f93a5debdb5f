package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// nsisWrapping builds, with the real makensis, an installer that places
// payload (a zip or 7z of an installed Electron app) under $INSTDIR with
// the given compressor, as a hand-written script that ships one archive
// does.
func nsisWrapping(t *testing.T, compressor, payload string) string {
	t.Helper()
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	setup := filepath.Join(dir, "setup.exe")
	script := "Name \"Example\"\nOutFile \"" + setup + "\"\nUnicode true\nRequestExecutionLevel user\n" + compressor +
		"\nInstallDir \"$LOCALAPPDATA\\Example\"\nSection\nSetOutPath \"$INSTDIR\"\nFile \"" + payload + "\"\nSectionEnd\n"
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	return setup
}

// sevenZipElectronApp packs the installed Electron tree with the real 7z;
// -mx=0 stores, so the archive is one makensis compresses (an archive it
// cannot shrink it stores, and that case is expanded in place).
func sevenZipElectronApp(t *testing.T) string {
	t.Helper()
	needPackager(t, "7z", "p7zip-full")
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	out := filepath.Join(dir, "app-64.7z")
	cmd := exec.Command("7z", "a", "-bd", "-mx=0", out, ".")
	cmd.Dir = filepath.Join(root, "opt", "Example")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z a: %v\n%s", err, b)
	}
	return out
}

// TestNSISCompressedArchivesEndToEnd: a zip (real zip, stored members so
// makensis compresses it) in a non-solid zlib installer and a 7z in a
// solid LZMA one are expanded through the built rea: the app.asar inside
// and its members are listed with verified hashes and coverage complete,
// extraction through the levels gives the packed bytes, and `rea analyze
// setup.exe` finds and analyses the app inside the archive.
func TestNSISCompressedArchivesEndToEnd(t *testing.T) {
	env := installerEnv(t)
	analyzeEnv := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	zipped, _ := zipElectronApp(t, "-0")
	cases := []struct{ name, compressor, payload, member string }{
		{"zip in zlib", "SetCompressor zlib", zipped, "app.zip"},
		{"7z in solid lzma", "SetCompressor /SOLID lzma", sevenZipElectronApp(t), "app-64.7z"},
	}
	want, _ := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup := nsisWrapping(t, c.compressor, c.payload)
			r := rea(t, "", env, "inspect-artifact", setup)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range []string{"nsis  art_", "in 3 containers", "0 mismatched, 0 unavailable; coverage complete", c.member,
				"resources/app.asar", "preload.js", "shared/channels.js", "helper/resources/app/package.json"} {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("inventory lacks %q:\n%s", w, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", env, "extract-artifact", "--path", c.member+"!/resources/app.asar!/main.js", "--output", dest, setup)
			if r.code != 0 {
				t.Fatalf("extract: exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			got, err := os.ReadFile(filepath.Join(dest, c.member+"!", "resources", "app.asar!", "main.js"))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("extracted main.js differs from the packed one (%v)", err)
			}
			r = rea(t, "", analyzeEnv, "analyze", setup)
			if r.code != 0 {
				t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
			}
			for _, w := range []string{"analysing " + c.member + "!/resources/app.asar", "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("analyze lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// TestNSISCompressedArchiveBombEndToEnd: 8 MiB of zeros deflated in a
// zip (ratio ~1000) that a zlib installer compresses again is refused at
// --max-compression-ratio 100 naming the limit and the nested archive,
// as the same zip on its own is; a traversal in it is refused naming it.
func TestNSISCompressedArchiveBombEndToEnd(t *testing.T) {
	env := installerEnv(t)
	needPackager(t, "zip", "zip")
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb")
	os.MkdirAll(filepath.Join(bomb, "resources"), 0o755)
	os.WriteFile(filepath.Join(bomb, "resources", "app.asar"), append(rawASARFile(`{"files":{"main.js":{"size":1,"offset":"0"}}}`, []byte("x")), make([]byte, 8<<20)...), 0o644)
	cmd := exec.Command("zip", "-qr", "-9", filepath.Join(dir, "bomb.zip"), ".")
	cmd.Dir = bomb
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v %s", err, b)
	}
	setup := nsisWrapping(t, "SetCompressor zlib", filepath.Join(dir, "bomb.zip"))
	r := rea(t, "", env, "inspect-artifact", "--max-compression-ratio", "100", setup)
	if r.code == 0 || !strings.Contains(r.stderr, "max_compression_ratio") || !strings.Contains(r.stderr, "bomb.zip") {
		t.Errorf("bomb: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	x := filepath.Join(dir, "x")
	os.WriteFile(x, bytes.Repeat([]byte("x"), 4096), 0o644)
	storedZipOf(t, filepath.Join(dir, "evil.zip"), [][2]string{{"../../evil.js", x}})
	setup = nsisWrapping(t, "SetCompressor /SOLID lzma", filepath.Join(dir, "evil.zip"))
	r = rea(t, "", env, "inspect-artifact", setup)
	if r.code == 0 || !strings.Contains(r.stderr, `nested container "evil.zip"`) {
		t.Errorf("traversal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNSISANSINamesEndToEnd: an ANSI installer (`Unicode false`, which
// Debian's makensis writes in Windows-1252) lists its non-ASCII file
// names as they were written, every byte verified, coverage complete.
func TestNSISANSINamesEndToEnd(t *testing.T) {
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	names := []string{"café.txt", "Grüße.txt", "€uro.txt"}
	var files strings.Builder
	for _, n := range names {
		os.WriteFile(filepath.Join(src, n), []byte(n), 0o644)
		files.WriteString("File \"" + filepath.Join(src, n) + "\"\n")
	}
	setup := filepath.Join(dir, "setup.exe")
	script := "Name \"Example\"\nOutFile \"" + setup + "\"\nUnicode false\nRequestExecutionLevel user\nSetCompressor /SOLID lzma\n" +
		"InstallDir \"$LOCALAPPDATA\\Example\"\nSection\nSetOutPath \"$INSTDIR\\Bücher\"\n" + files.String() + "SectionEnd\n"
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	r := rea(t, "", installerEnv(t), "inspect-artifact", setup)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, n := range names {
		if !strings.Contains(r.stdout, "Bücher/"+n) {
			t.Errorf("inventory lacks Bücher/%s:\n%s", n, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "coverage complete") || strings.Contains(r.stdout, "data/item-") {
		t.Errorf("not complete:\n%s", r.stdout)
	}
}
