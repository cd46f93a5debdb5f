package main_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
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
// reads back. extra files, when given, are added to the bundle.
func buildDMG(t *testing.T, extra ...string) string {
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
	if err := os.MkdirAll(filepath.Join(tree, "Example.app", "Contents", "MacOS"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tree, "Example.app", "Contents", "Info.plist"), []byte("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "Example.app", "Contents", "MacOS", "Example"), bytes.Repeat([]byte("\xcf\xfa\xed\xfe stub "), 30000), 0o755)
	os.WriteFile(filepath.Join(res, "empty.txt"), nil, 0o644)
	// An archive the bundle holds besides app.asar is expanded too.
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("inner/readme.txt")
	w.Write([]byte("held in a zip in the disk image\n"))
	zw.Close()
	os.WriteFile(filepath.Join(res, "extra.zip"), zb.Bytes(), 0o644)
	for _, name := range extra {
		os.WriteFile(filepath.Join(res, name), []byte("added "+name+"\n"), 0o644)
	}
	if err := os.WriteFile(filepath.Join(res, "app.asar"), asar, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("Contents/MacOS/Example", filepath.Join(tree, "Example.app", "run")); err != nil {
		t.Fatal(err)
	}
	// What electron-builder puts beside the bundle: the drag target and
	// the window background.
	if err := os.Symlink("/Applications", filepath.Join(tree, "Applications")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(tree, ".background"), 0o755)
	os.WriteFile(filepath.Join(tree, ".background", "background.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644)
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

// TestDiskImagesAreReadEndToEnd: rea reads a .dmg the way electron-builder
// ships it. inspect-artifact lists and verifies the bundle (its app.asar
// and a zip it holds expanded) with coverage complete; extract-artifact writes exactly the
// bytes 7-Zip extracts (the link recorded, not materialised); analyze
// finds Example.app/Contents/Resources/app.asar, says so, and finds the
// insecure window; compare-artifacts names the file a second image adds.
func TestDiskImagesAreReadEndToEnd(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp")}
	dmg := buildDMG(t)
	r := rea(t, "", env, "inspect-artifact", dmg)
	if r.code != 0 || !strings.Contains(r.stdout, "coverage complete") || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "inner/readme.txt") ||
		!strings.Contains(r.stdout, "Example.app/Contents/Resources/app.asar") || !strings.Contains(r.stdout, "Example.app/Contents/MacOS/Example executable") ||
		!strings.Contains(r.stdout, "Example.app/run -> Contents/MacOS/Example") || !strings.Contains(r.stdout, "Applications -> /Applications (absolute)") ||
		!strings.Contains(r.stdout, ".background/background.png") || strings.Contains(r.stdout, "mismatch ") {
		t.Fatalf("inspect-artifact: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", "Example.app/**", "--output", out, dmg)
	if r.code != 0 {
		t.Fatalf("extract-artifact: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	oracle := filepath.Join(t.TempDir(), "7z")
	if b, err := exec.Command("7z", "x", "-y", "-o"+oracle, dmg).CombinedOutput(); err != nil {
		t.Fatalf("7z x: %v\n%s", err, b)
	}
	files := 0
	filepath.WalkDir(filepath.Join(oracle, "Example", "Example.app"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 || strings.HasSuffix(p, string(filepath.Separator)+"run") {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(oracle, "Example"), p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: rea extracted %d bytes (%v), 7-Zip %d", rel, len(got), err, len(want))
		}
		files++
		return nil
	})
	if files != 5 {
		t.Fatalf("7-Zip extracted %d files, want 5", files)
	}
	r = rea(t, "", env, "analyze", dmg)
	if r.code != 0 || !strings.Contains(r.stdout, "Example-1.0.0.dmg: analysing Example.app/Contents/Resources/app.asar") ||
		!strings.Contains(r.stdout, "insecure-editor 0.3.0 (asar") || !strings.Contains(r.stdout, "contextIsolation             false") {
		t.Fatalf("analyze: exit %d\n%.2000s\n%s", r.code, r.stdout, r.stderr)
	}
	r = rea(t, "", env, "compare-artifacts", dmg, buildDMG(t, "added.txt"))
	if r.code != 0 || !strings.Contains(r.stdout, "1 added") || !strings.Contains(r.stdout, "+ Example.app/Contents/Resources/added.txt") {
		t.Fatalf("compare-artifacts: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestHostileDiskImageThroughTheCLI: a real image whose catalog's leaf
// chain loops, and one whose chunk expands more than the compression
// ratio allows, are refused typed by every artifact command, nothing
// extracted.
func TestHostileDiskImageThroughTheCLI(t *testing.T) {
	env := installerEnv(t)
	needPackager(t, "xorriso", "xorriso")
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	os.MkdirAll(filepath.Join(tree, "X.app", "Contents"), 0o755)
	os.WriteFile(filepath.Join(tree, "X.app", "Contents", "Info.plist"), []byte("<plist/>"), 0o644)
	vol, err := udifpack.HFSPlusVolume(tree, "X")
	if err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	bs := int(be.Uint32(vol[1024+40:]))
	cat := int(be.Uint32(vol[1024+272+16:])) * bs
	leaf := int(be.Uint32(vol[cat+14+10:]))
	loop := bytes.Clone(vol)
	be.PutUint32(loop[cat+leaf*int(be.Uint16(vol[cat+14+18:])):], uint32(leaf))
	wrap := func(v []byte, sectors int, kind func(int, []byte) uint32) string {
		var img bytes.Buffer
		if _, err := udifpack.Write(&img, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(v), Size: int64(len(v)), ChunkSectors: sectors, Kind: kind}}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("x%d.dmg", img.Len()))
		os.WriteFile(p, img.Bytes(), 0o644)
		return p
	}
	bomb := append(bytes.Clone(vol), make([]byte, 8<<20)...)
	// DEFLATE cannot pass ~1032:1, so the bomb meets a lowered limit
	// (which `rea analyze` does not take for a package: it is not run).
	for _, c := range []struct {
		img, code, says string
		flags           []string
	}{
		{wrap(loop, 16, nil), "artifact_operation_failed", "returns to node", nil},
		{wrap(bomb, 16384, func(int, []byte) uint32 { return udifpack.ChunkZlib }), "resource_constraint", "max_compression_ratio", []string{"--max-compression-ratio", "100"}},
	} {
		out := filepath.Join(dir, "out")
		for _, args := range [][]string{{"inspect-artifact", c.img}, {"analyze", c.img}, {"extract-artifact", "--path", "**", "--output", out, c.img}} {
			if c.flags != nil && args[0] == "analyze" {
				continue
			}
			r := rea(t, "", env, append(c.flags, args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, c.code) || !strings.Contains(r.stderr, c.says) {
				t.Errorf("%s %s: exit %d\n%s%s", args[0], filepath.Base(c.img), r.code, r.stdout, r.stderr)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a refused extraction created %s", out)
		}
	}
}

// TestDamagedDiskImageCatalogIsPartialThroughTheCLI: a real HFS+ volume
// (xorriso, 150 files: a catalog of many leaf nodes) whose catalog leaf
// chain is cut after its first leaf, and one whose folder is renumbered
// so its files' parent is never reached, are listed as far as they go:
// inspect-artifact says coverage partial with the limitation naming the
// damage, never a complete listing of fewer files.
func TestDamagedDiskImageCatalogIsPartialThroughTheCLI(t *testing.T) {
	env := installerEnv(t)
	needPackager(t, "xorriso", "xorriso")
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	res := filepath.Join(tree, "X.app", "Contents", "Resources")
	os.MkdirAll(res, 0o755)
	for i := range 150 {
		os.WriteFile(filepath.Join(res, fmt.Sprintf("resource-file-with-a-long-name-%03d.txt", i)), []byte(fmt.Sprint(i)), 0o644)
	}
	vol, err := udifpack.HFSPlusVolume(tree, "X")
	if err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	bs := int(be.Uint32(vol[1024+40:]))
	cat := int(be.Uint32(vol[1024+272+16:])) * bs
	node := int(be.Uint16(vol[cat+14+18:]))
	leaf := cat + int(be.Uint32(vol[cat+14+10:]))*node
	if be.Uint32(vol[leaf:]) == 0 {
		t.Fatal("the catalog has one leaf node; the test needs a chain")
	}
	cut := bytes.Clone(vol)
	be.PutUint32(cut[leaf:], 0)
	// The folder record of "Resources": key length, parent ID, name
	// length, the UTF-16BE name; then the record, its folder ID at 8.
	orphaned := bytes.Clone(vol)
	var key []byte
	key = be.AppendUint16(key, 9)
	for _, c := range "Resources" {
		key = be.AppendUint16(key, uint16(c))
	}
	for from := cat; ; {
		i := bytes.Index(orphaned[from:], key)
		if i < 0 {
			t.Fatal("no folder record names Resources")
		}
		k := from + i - 6
		if d := k + 2 + int(be.Uint16(orphaned[k:])); be.Uint16(orphaned[d:]) == 1 {
			be.PutUint32(orphaned[d+8:], 0x7fff0000)
			break
		}
		from += i + 1
	}
	for _, c := range []struct {
		name string
		vol  []byte
		says string
	}{
		{"chain cut", cut, "the disk image's HFS+ catalog is cut short or inconsistent: its leaf chain holds"},
		{"orphans", orphaned, "150 file(s) and folder(s) of the disk image's HFS+ catalog lie in folders the volume's root does not reach"},
	} {
		var img bytes.Buffer
		if _, err := udifpack.Write(&img, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(c.vol), Size: int64(len(c.vol)), ChunkSectors: 16}}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".dmg")
		os.WriteFile(p, img.Bytes(), 0o644)
		r := rea(t, "", env, "inspect-artifact", p)
		if r.code != 0 || !strings.Contains(r.stdout, "coverage partial") || !strings.Contains(r.stdout, c.says) {
			t.Errorf("%s: exit %d\n%s%s", c.name, r.code, r.stdout, r.stderr)
		}
	}
}

// TestDiskImageInAnArchiveIsPartial: a .dmg shipped inside a zip is
// listed and hashed, but rea opens a disk image only as the input, so
// the application inside it is in no inventory: inspect-artifact says
// partial and names the image.
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
		!strings.Contains(r.stdout, "1 Apple disk image(s) (.dmg) were listed and hashed but not opened (first: release/Example-1.0.0.dmg): rea reads a disk image given as the input") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
