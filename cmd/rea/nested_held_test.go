package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

// tarGzElectronApp packs the installed Electron tree (opt/Example/…)
// with the real tar and gzip.
func tarGzElectronApp(t *testing.T) string {
	t.Helper()
	needPackager(t, "tar", "tar")
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	out := filepath.Join(dir, "example.tar.gz")
	if b, err := exec.Command("tar", "--owner=0", "--group=0", "-czf", out, "-C", root, "opt").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, b)
	}
	return out
}

// appImageHolding is a type 2 AppImage (an ELF runtime, a copy of
// /bin/true marked "AI\x02", then a squashfs image made by the real
// mksquashfs) whose image holds files (name → path on disk).
func appImageHolding(t *testing.T, comp string, files [][2]string) string {
	t.Helper()
	needPackager(t, "mksquashfs", "squashfs-tools")
	dir := t.TempDir()
	root := filepath.Join(dir, "squashfs-root")
	for _, f := range files {
		b, err := os.ReadFile(f[1])
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.FromSlash(f[0]))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "AppRun"), []byte("#!/bin/sh\nexec \"$APPDIR/example\" \"$@\"\n"), 0o755)
	sq := filepath.Join(dir, "image.sqfs")
	if b, err := exec.Command("mksquashfs", root, sq, "-comp", comp, "-noappend", "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("mksquashfs: %v %s", err, b)
	}
	runtime, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	copy(runtime[8:11], "AI\x02")
	img, err := os.ReadFile(sq)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "Example.AppImage")
	if err := os.WriteFile(out, append(runtime, img...), 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// insecureMain is the packed fixture's main.js, what every extraction of
// resources/app.asar!/main.js must give back byte for byte.
func insecureMain(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// inspectExtractAnalyze inspects pkg (containers and coverage complete),
// extracts member byte-identical to want, and runs `rea analyze`, which
// must analyse the application at app.
func inspectExtractAnalyze(t *testing.T, pkg string, containers int, member string, want []byte, app string) {
	t.Helper()
	env := installerEnv(t)
	r := rea(t, "", env, "inspect-artifact", pkg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"in " + strconv.Itoa(containers) + " containers", "0 mismatched, 0 unavailable; coverage complete", "preload.js", "shared/channels.js"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("inventory lacks %q:\n%s", w, r.stdout)
		}
	}
	dest := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", member, "--output", dest, pkg)
	got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(member)))
	if r.code != 0 || err != nil || !bytes.Equal(got, want) {
		t.Errorf("extract %s: exit %d %v\n%s%s", member, r.code, err, r.stdout, r.stderr)
	}
	analyzeEnv := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	r = rea(t, "", analyzeEnv, "analyze", pkg)
	if r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"analysing " + app, "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("analyze lacks %q:\n%s", w, r.stdout)
		}
	}
}

// TestNestedTarGzInAZipIsAnalysed: an Electron app as a tar.gz made by
// the real tar, deflated in a zip, is expanded through every level with
// coverage complete; its main.js extracts byte-identical through the zip,
// the tar.gz and the ASAR; `rea analyze` finds and analyses the app.
func TestNestedTarGzInAZipIsAnalysed(t *testing.T) {
	tgz := tarGzElectronApp(t)
	pkg := deflatedZipOf(t, filepath.Join(t.TempDir(), "bundle.zip"), [][2]string{{"linux/example.tar.gz", tgz}})
	inspectExtractAnalyze(t, pkg, 3, "linux/example.tar.gz!/opt/Example/resources/app.asar!/main.js", insecureMain(t),
		"linux/example.tar.gz!/opt/Example/resources/app.asar")
}

// TestNestedZipInAnAppImageIsAnalysed: an AppImage (real mksquashfs,
// xz and zstd) holding the app as a zip made by the real zip is expanded
// from the host's decoded copy of the zip's squashfs blocks; the zip
// itself and main.js inside it extract byte-identical; `rea analyze`
// analyses app.zip!/resources/app.asar.
func TestNestedZipInAnAppImageIsAnalysed(t *testing.T) {
	archive, _ := zipElectronApp(t)
	for _, comp := range []string{"xz", "zstd"} {
		t.Run(comp, func(t *testing.T) {
			pkg := appImageHolding(t, comp, [][2]string{{"usr/share/example/app.zip", archive}})
			inspectExtractAnalyze(t, pkg, 3, "usr/share/example/app.zip!/resources/app.asar!/main.js", insecureMain(t),
				"usr/share/example/app.zip!/resources/app.asar")
			dest := filepath.Join(t.TempDir(), "out")
			r := rea(t, "", installerEnv(t), "extract-artifact", "--path", "usr/share/example/app.zip", "--output", dest, pkg)
			got, err := os.ReadFile(filepath.Join(dest, "usr", "share", "example", "app.zip"))
			want, _ := os.ReadFile(archive)
			if r.code != 0 || err != nil || !bytes.Equal(got, want) {
				t.Errorf("extract app.zip: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
		})
	}
}

// TestNestedAppImageInAZipIsAnalysed: an AppImage deflated in a zip, and
// the same AppImage held in a second AppImage, are expanded and analysed.
func TestNestedAppImageInAZipIsAnalysed(t *testing.T) {
	inner := buildAppImage(t, "zstd")
	pkg := deflatedZipOf(t, filepath.Join(t.TempDir(), "bundle.zip"), [][2]string{{"Example.AppImage", inner}})
	inspectExtractAnalyze(t, pkg, 3, "Example.AppImage!/resources/app.asar!/main.js", insecureMain(t), "Example.AppImage!/resources/app.asar")
	outer := appImageHolding(t, "xz", [][2]string{{"bundled/Example.AppImage", inner}})
	inspectExtractAnalyze(t, outer, 3, "bundled/Example.AppImage!/resources/app.asar!/main.js", insecureMain(t), "bundled/Example.AppImage!/resources/app.asar")
}

// TestNestedArchivesInAnASARAreExpanded: an ASAR holding a zip and a
// tar.gz (real zip and tar) has them expanded, coverage complete, and a
// member of each extracts byte-identical.
func TestNestedArchivesInAnASARAreExpanded(t *testing.T) {
	needPackager(t, "zip", "zip")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), bytes.Repeat([]byte("a"), 900), 0o644)
	cmd := exec.Command("zip", "-q", "tool.zip", "a.txt")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v %s", err, b)
	}
	if b, err := exec.Command("tar", "-czf", filepath.Join(dir, "data.tgz"), "-C", dir, "a.txt").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, b)
	}
	var files []asarpack.File
	for _, f := range [][2]string{{"vendor/tool.zip", "tool.zip"}, {"vendor/data.tgz", "data.tgz"}} {
		b, _ := os.ReadFile(filepath.Join(dir, f[1]))
		files = append(files, asarpack.Bytes(f[0], b))
	}
	files = append(files, asarpack.Bytes("main.js", []byte("require('./vendor')\n")))
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, files); err != nil {
		t.Fatal(err)
	}
	asar := filepath.Join(dir, "app.asar")
	os.WriteFile(asar, buf.Bytes(), 0o644)
	env := installerEnv(t)
	r := rea(t, "", env, "inspect-artifact", asar)
	if r.code != 0 || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "coverage complete") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, member := range []string{"vendor/tool.zip!/a.txt", "vendor/data.tgz!/a.txt"} {
		dest := filepath.Join(t.TempDir(), "out")
		r = rea(t, "", env, "extract-artifact", "--path", member, "--output", dest, asar)
		got, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(member)))
		if r.code != 0 || err != nil || !bytes.Equal(got, bytes.Repeat([]byte("a"), 900)) {
			t.Errorf("extract %s: exit %d %v\n%s%s", member, r.code, err, r.stdout, r.stderr)
		}
	}
}

// TestNestedTarGzIsBounded: a tar.gz that is a gzip bomb, in a zip, is
// refused at the ratio limit naming it; a traversal in a nested tar.gz
// (real tar -P) is refused naming it; a nested tar.gz cut short is
// refused, typed, naming it; an archive past max_depth is said, partial,
// naming it.
func TestNestedTarGzIsBounded(t *testing.T) {
	needPackager(t, "tar", "tar")
	env := installerEnv(t)
	dir := t.TempDir()
	tarGz := func(out, cwd string, args ...string) string {
		t.Helper()
		cmd := exec.Command("tar", append([]string{"-czf", out}, args...)...)
		cmd.Dir = cwd
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tar: %v %s", err, b)
		}
		return out
	}
	os.WriteFile(filepath.Join(dir, "zeros.bin"), make([]byte, 16<<20), 0o644)
	bomb := storedZipOf(t, filepath.Join(dir, "bomb.zip"), [][2]string{{"payload/app.tar.gz", tarGz(filepath.Join(dir, "bomb.tar.gz"), dir, "zeros.bin")}})
	r := rea(t, "", env, "inspect-artifact", "--max-compression-ratio", "100", bomb)
	if r.code == 0 || !strings.Contains(r.stderr, "max_compression_ratio") || !strings.Contains(r.stderr, "payload/app.tar.gz") {
		t.Errorf("bomb: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "x"), []byte("x\n"), 0o644)
	evil := tarGz(filepath.Join(dir, "evil.tgz"), filepath.Join(dir, "a"), "-P", "../a/x") // -P keeps the "../"
	evilZip := deflatedZipOf(t, filepath.Join(dir, "evil.zip"), [][2]string{{"payload/evil.tgz", evil}})
	r = rea(t, "", env, "inspect-artifact", evilZip)
	if r.code == 0 || !strings.Contains(r.stderr, `nested container "payload/evil.tgz"`) || !strings.Contains(r.stderr, "..") {
		t.Errorf("traversal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	whole, _ := os.ReadFile(tarGzElectronApp(t))
	cut := filepath.Join(dir, "cut.tar.gz")
	os.WriteFile(cut, whole[:len(whole)/2], 0o644)
	cutZip := storedZipOf(t, filepath.Join(dir, "cut.zip"), [][2]string{{"payload/cut.tar.gz", cut}})
	r = rea(t, "", env, "inspect-artifact", cutZip)
	if r.code == 0 || !strings.Contains(r.stderr, `nested container "payload/cut.tar.gz"`) || !strings.Contains(r.stderr, "corrupt or truncated") {
		t.Errorf("truncated: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	os.WriteFile(filepath.Join(dir, "x.txt"), []byte("x"), 0o644)
	inner := storedZipOf(t, filepath.Join(dir, "inner.zip"), [][2]string{{"x.txt", filepath.Join(dir, "x.txt")}})
	deep := deflatedZipOf(t, filepath.Join(dir, "deep.zip"), [][2]string{{"app.tar.gz", tarGz(filepath.Join(dir, "app.tar.gz"), dir, filepath.Base(inner))}})
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "1", deep)
	if r.code != 0 || !strings.Contains(r.stdout, "in 2 containers") || !strings.Contains(r.stdout, "coverage partial") ||
		!strings.Contains(r.stdout, "1 file(s) named as an archive rea reads (first: app.tar.gz!/inner.zip) were listed and hashed but not opened: they are nested deeper than max_depth (1)") {
		t.Errorf("max-depth 1: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "archive(s) were listed and hashed") {
		t.Errorf("the depth cut is said twice:\n%s", r.stdout)
	}
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "2", deep)
	if r.code != 0 || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "coverage complete") {
		t.Errorf("max-depth 2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
