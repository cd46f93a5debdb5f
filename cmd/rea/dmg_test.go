package main_test

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/artifact/udifpack"
	"rea/wasm/wasmtest"
)

// buildDMG is what electron-builder ships for macOS, made on Linux: the
// insecure fixture's app.asar in Example.app/Contents/Resources on a real
// HFS+ volume (xorriso -hfsplus), wrapped in a UDIF image of zlib and
// zero-fill chunks (udifpack; no Debian tool writes UDIF) that 7-Zip
// reads back.
func buildDMG(t *testing.T) string {
	t.Helper()
	needPackager(t, "xorriso", "xorriso")
	needPackager(t, "7z", "p7zip-full")
	dir := t.TempDir()
	electronTree(t, filepath.Join(dir, "linux"))
	asar, err := os.ReadFile(filepath.Join(dir, "linux", "opt", "Example", "resources", "app.asar"))
	if err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "volume")
	res := filepath.Join(tree, "Example.app", "Contents", "Resources")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tree, "Example.app", "Contents", "Info.plist"), []byte("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n"), 0o644)
	if err := os.WriteFile(filepath.Join(res, "app.asar"), asar, 0o644); err != nil {
		t.Fatal(err)
	}
	vol, err := udifpack.HFSPlusVolume(tree, "Example")
	if err != nil {
		t.Fatal(err)
	}
	var img bytes.Buffer
	if _, err := udifpack.Write(&img, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64}}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "Example-1.0.0.dmg")
	if err := os.WriteFile(p, img.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("7z", "l", p).CombinedOutput(); err != nil || !strings.Contains(string(b), "Example/Example.app/Contents/Resources/app.asar") {
		t.Fatalf("7-Zip does not list the bundle in the image (%v):\n%s", err, b)
	}
	return p
}

// TestDiskImagesAreRefusedWithAWayIn: rea reads no disk image (no
// maintained Go reader of UDIF and HFS+/APFS can be had), so every
// artifact command refuses a .dmg with capability_unavailable naming the
// image and its HFS+ volume — and the way in it gives works: `7z x` then
// `rea analyze` of the app.asar finds the insecure window.
func TestDiskImagesAreRefusedWithAWayIn(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp")}
	dmg := buildDMG(t)
	out := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{
		{"inspect-artifact", dmg},
		{"analyze", dmg},
		{"extract-artifact", "--path", "Example.app/**", "--output", out, dmg},
		{"compare-artifacts", dmg, dmg},
	} {
		r := rea(t, "", env, args...)
		if r.code == 0 || !strings.Contains(r.stderr, "capability_unavailable") ||
			!strings.Contains(r.stderr, `"Example-1.0.0.dmg" is an Apple disk image (UDIF, its partition table naming HFS+)`) ||
			!strings.Contains(r.stderr, "7z x Example-1.0.0.dmg -oDIR") {
			t.Errorf("%s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		if left, _ := os.ReadDir(out); len(left) > 0 {
			t.Errorf("a refused extraction left %d entries in %s", len(left), out)
		}
	}
	// The way in the refusal gives.
	dir := filepath.Join(t.TempDir(), "DIR")
	if b, err := exec.Command("7z", "x", "-y", "-o"+dir, dmg).CombinedOutput(); err != nil {
		t.Fatalf("7z x: %v\n%s", err, b)
	}
	r := rea(t, "", env, "analyze", filepath.Join(dir, "Example", "Example.app", "Contents", "Resources", "app.asar"))
	if r.code != 0 || !strings.Contains(r.stdout, "insecure-editor 0.3.0 (asar") || !strings.Contains(r.stdout, "contextIsolation             false") {
		t.Errorf("analyze of the extracted app.asar: exit %d\n%.1500s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestDiskImageInAnArchiveIsPartial: a .dmg shipped inside a zip is
// listed and hashed, but the application inside it is in no inventory,
// so inspect-artifact says partial and names the image.
func TestDiskImageInAnArchiveIsPartial(t *testing.T) {
	dmg := buildDMG(t)
	b, err := os.ReadFile(dmg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("release/Example-1.0.0.dmg")
	w.Write(b)
	zw.Close()
	p := filepath.Join(t.TempDir(), "release.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	r := rea(t, "", installerEnv(t), "inspect-artifact", p)
	if r.code != 0 || !strings.Contains(r.stdout, "coverage partial") ||
		!strings.Contains(r.stdout, "1 Apple disk image(s) (.dmg) were listed and hashed but not opened (first: release/Example-1.0.0.dmg)") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
