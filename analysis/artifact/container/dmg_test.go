package container

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/udifpack"
)

// macBundle lays out a small Electron-like macOS bundle under dir.
func macBundle(t testing.TB, dir string) {
	t.Helper()
	var asar bytes.Buffer
	if err := asarpack.Write(&asar, []asarpack.File{asarpack.Bytes("package.json", []byte(`{"name":"example","main":"main.js"}`)),
		asarpack.Bytes("main.js", []byte("require('electron')\n"))}); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"Example.app/Contents/Info.plist":          []byte("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n"),
		"Example.app/Contents/MacOS/Example":       bytes.Repeat([]byte("\xcf\xfa\xed\xfe mach-o body "), 20000),
		"Example.app/Contents/Resources/app.asar":  asar.Bytes(),
		"Example.app/Contents/Resources/empty.txt": nil,
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("Contents/MacOS/Example", filepath.Join(dir, "Example.app", "run")); err != nil {
		t.Fatal(err)
	}
}

// dmgFixture wraps a real HFS+ volume (xorriso) of a macOS bundle in a
// UDIF image with zlib, stored and zero-fill chunks, and checks that two
// independent readers read the wrapper: dmg2img decodes it to the very
// volume, and 7-Zip lists and extracts the bundle's files from it.
func dmgFixture(t testing.TB) (dmg, volume []byte) {
	t.Helper()
	for tool, pkg := range map[string]string{"7z": "p7zip-full", "dmg2img": "dmg2img", "xorriso": "xorriso"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s builds or checks this test's disk image: apt-get install -y %s (.ci/run installs it)", tool, pkg)
		}
	}
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	macBundle(t, tree)
	vol, err := udifpack.HFSPlusVolume(tree, "Example")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	// 16-sector chunks, every third one stored, the zeros zero-filled.
	kind := func(i int, b []byte) uint32 {
		if k := udifpack.DefaultKind(i, b); k == udifpack.ChunkZlib && i%3 == 1 {
			return udifpack.ChunkRaw
		}
		return udifpack.DefaultKind(i, b)
	}
	if _, err := udifpack.Write(&buf, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 16, Kind: kind}}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "Example.dmg")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(dir, "Example.raw")
	if b, err := exec.Command("dmg2img", "-i", p, "-o", raw).CombinedOutput(); err != nil {
		t.Fatalf("dmg2img: %v\n%s", err, b)
	}
	if got, err := os.ReadFile(raw); err != nil || !bytes.Equal(got, vol) {
		t.Fatalf("dmg2img does not decode the wrapper to the HFS+ volume (%v)", err)
	}
	out := filepath.Join(dir, "7z")
	if b, err := exec.Command("7z", "x", "-y", "-o"+out, p).CombinedOutput(); err != nil {
		t.Fatalf("7z x: %v\n%s", err, b)
	}
	got, err := os.ReadFile(filepath.Join(out, "Example", "Example.app", "Contents", "MacOS", "Example"))
	want, _ := os.ReadFile(filepath.Join(tree, "Example.app", "Contents", "MacOS", "Example"))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("7-Zip does not extract the bundle from the wrapper (%v)", err)
	}
	return buf.Bytes(), vol
}

// TestEncryptedImagesAndBareVolumesAreRefusedNamingWhatTheyAre: an
// encrypted image and the bare volume a disk image holds are each
// refused with capability_unavailable naming what they are and the
// commands that get at the application inside — never "not a
// recognised container".
func TestEncryptedImagesAndBareVolumesAreRefusedNamingWhatTheyAre(t *testing.T) {
	_, vol := dmgFixture(t)
	encrypted := append([]byte("encrcdsa\x00\x00\x00\x02"), make([]byte, 4096)...)
	cases := []struct {
		name, file string
		data       []byte
		format     string
		says       []string
	}{
		{"encrypted", "Secret.dmg", encrypted, "dmg", []string{"encrypted Apple disk image", "hdiutil convert -format UDZO"}},
		{"bare hfs+", "Example.raw", vol, "hfs+", []string{"bare HFS+ volume", "7z x Example.raw"}},
		{"name to quote", "My App 1.0.raw", vol, "hfs+", []string{"7z x 'My App 1.0.raw' -oDIR"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := inventoryOf(t, c.file, c.data, inventory.Limits{})
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeCapabilityUnavailable || ae.Details["format"] != c.format {
				t.Fatalf("err = %v, want capability_unavailable with format %s", err, c.format)
			}
			for _, s := range c.says {
				if !strings.Contains(ae.Message, s) {
					t.Errorf("message lacks %q:\n%s", s, ae.Message)
				}
			}
			if got := SniffPackage(bytes.NewReader(c.data), int64(len(c.data))); got != c.format {
				t.Errorf("SniffPackage = %q, want %q", got, c.format)
			}
		})
	}
}

// TestAPFSDiskImagesAreNamed: an APFS container made by the real mkapfs
// (apfsprogs), bare and wrapped in UDIF (7-Zip reads the wrapper as
// APFS), is refused naming APFS.
func TestAPFSDiskImagesAreNamed(t *testing.T) {
	if _, err := exec.LookPath("mkapfs"); err != nil {
		t.Fatal("mkapfs builds this test's APFS volume: apt-get install -y apfsprogs (.ci/run installs it)")
	}
	dir := t.TempDir()
	img := filepath.Join(dir, "apfs.img")
	// mkapfs refuses containers under 256 MiB; the file stays sparse.
	if err := os.WriteFile(img, nil, 0o644); err != nil || os.Truncate(img, 256<<20) != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("mkapfs", "-L", "Example", img).CombinedOutput(); err != nil {
		t.Fatalf("mkapfs: %v\n%s", err, b)
	}
	f, err := os.Open(img)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := filepath.Join(dir, "Example.dmg")
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = udifpack.Write(out, []udifpack.Partition{{Name: "disk image (Apple_APFS : 0)", Data: f, Size: 256 << 20}})
	if cerr := out.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	if b, err := exec.Command("7z", "l", p).CombinedOutput(); err != nil || !strings.Contains(string(b), "Type = APFS") {
		t.Fatalf("7-Zip does not read the wrapper as APFS (%v):\n%s", err, b)
	}
	fsys := os.DirFS(dir) // files read at offsets, never loaded whole
	_, err = Inventory(fsys, "Example.dmg", "", inventory.Limits{}, nil)
	wantTyped(t, err, abi.CodeCapabilityUnavailable, `"Example.dmg" is an Apple disk image (UDIF) whose volume is APFS (partition "disk image (Apple_APFS : 0)"); rea reads HFS+ disk images, not APFS`)
	_, err = Inventory(fsys, "apfs.img", "", inventory.Limits{}, nil)
	wantTyped(t, err, abi.CodeCapabilityUnavailable, "bare APFS volume")
}

// TestHostileDiskImageTrailersAreContained: a koly trailer whose property
// list lies outside the file, overflows, is absurdly long or is no XML,
// and a file too short for a trailer, are refused typed or passed over
// without reading past the file or allocating what they declare.
func TestHostileDiskImageTrailersAreContained(t *testing.T) {
	trailer := func(off, n uint64, prefix int) []byte {
		b := make([]byte, prefix+512)
		k := b[prefix:]
		copy(k, "koly")
		binary.BigEndian.PutUint32(k[4:], 4)
		binary.BigEndian.PutUint32(k[8:], 512)
		binary.BigEndian.PutUint64(k[216:], off)
		binary.BigEndian.PutUint64(k[224:], n)
		copy(b, "Apple_APFS")
		return b
	}
	for _, c := range []struct {
		name, code, says string
		img              []byte
	}{
		{"plist past the end", abi.CodeArtifactOperationFailed, "outside the 64 bytes before it", trailer(100, 1000, 64)},
		{"plist offset overflow", abi.CodeArtifactOperationFailed, "outside the 64 bytes before it", trailer(1<<63, 16, 64)},
		{"plist length overflow", abi.CodeResourceConstraint, "max_header_bytes", trailer(8, 1<<63, 64)},
		{"plist absurdly long", abi.CodeResourceConstraint, "max_header_bytes", trailer(0, 1<<40, 64)},
		{"plist is the trailer", abi.CodeArtifactOperationFailed, "outside the 64 bytes before it", trailer(64, 512, 64)},
		{"plist not XML", abi.CodeArtifactOperationFailed, "property list does not parse", trailer(0, 64, 64)},
		{"no property list", abi.CodeCapabilityUnavailable, "resource fork", trailer(0, 0, 64)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := inventoryOf(t, "x.dmg", c.img, inventory.Limits{})
			wantTyped(t, err, c.code, c.says)
		})
	}
	// 511 bytes cannot hold a trailer: not a disk image.
	_, err := inventoryOf(t, "x.dmg", trailer(0, 0, 0)[:511], inventory.Limits{})
	wantTyped(t, err, abi.CodeArtifactOperationFailed, "not a recognised container")
}

// TestDiskImagesInsideArchivesMakeCoveragePartial: a .dmg held in a zip
// (in a directory) is listed and hashed like any file, but the files
// inside it are in no inventory: a limitation names it through its
// containers, so the coverage is partial, never complete.
func TestDiskImagesInsideArchivesMakeCoveragePartial(t *testing.T) {
	dmg, _ := dmgFixture(t)
	inner := makeZip(t, member{name: "dist/Example-1.0.dmg", body: string(dmg)}, member{name: "README", body: "hi"})
	fsys := fstest.MapFS{"in/app.zip": {Data: inner, Mode: 0o644}, "in/zz/Other.DMG": {Data: dmg, Mode: 0o644}}
	res, err := Inventory(fsys, "in", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "2 Apple disk image(s) (.dmg) were listed and hashed but not opened (first: app.zip!/dist/Example-1.0.dmg): rea reads a disk image given as the input, not one held in a directory or another container") {
		t.Fatalf("limitations = %q", res.Limitations)
	}
	res, err = inventoryOf(t, "app.zip", inner, inventory.Limits{})
	if err != nil || len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "first: dist/Example-1.0.dmg") {
		t.Fatalf("limitations = %q (%v)", res.Limitations, err)
	}
	// Without a disk image there is no such limitation.
	res, err = inventoryOf(t, "app.zip", makeZip(t, member{name: "README", body: "hi"}), inventory.Limits{})
	if err != nil || len(res.Limitations) != 0 {
		t.Fatalf("limitations = %q (%v)", res.Limitations, err)
	}
}

// FuzzDiskImage feeds arbitrary bytes, ending like a UDIF image or not,
// to the inventory: it never panics, every failure is typed, and an
// encrypted image or bare volume (a disk image rea does not list) is
// refused with capability_unavailable. Seeds include a real xorriso
// volume in UDIF (udif-xorriso-bundle), which the reader lists.
func FuzzDiskImage(f *testing.F) {
	var img bytes.Buffer
	part := make([]byte, 8192)
	copy(part[1024:], "H+\x00\x04")
	if _, err := udifpack.Write(&img, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(part), Size: int64(len(part)), ChunkSectors: 4}}); err != nil {
		f.Fatal(err)
	}
	f.Add(img.Bytes())
	f.Add(part)
	f.Add([]byte("encrcdsa"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"x": {Data: data, Mode: fs.FileMode(0o644)}}
		_, err := Inventory(fsys, "x", "", inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8}, nil)
		var ae *abi.Error
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("untyped error %v", err)
		}
		switch SniffPackage(bytes.NewReader(data), int64(len(data))) {
		case "dmg", "hfs+", "apfs":
			if sniff(bytes.NewReader(data), int64(len(data))) == "" && (ae == nil || ae.Code != abi.CodeCapabilityUnavailable) {
				t.Fatalf("a disk image is not refused as unavailable: %v", err)
			}
		}
	})
}
