package container

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// need7z fails (never skips) when 7-Zip is missing.
func need7z(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("7z"); err != nil {
		t.Fatal("7z builds this test's fixtures: apt-get install -y p7zip-full (.ci/run installs it)")
	}
}

// sevenZipTree writes a small tree: text, random bytes, an x86-looking
// executable (so 7-Zip picks BCJ/BCJ2), an empty file, an empty directory
// and a link that escapes.
func sevenZipTree(t testing.TB, dir string) {
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "resources", "empty"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "resources", "app.txt"), bytes.Repeat([]byte("console.log('hello')\n"), 3000), 0o644))
	noise := make([]byte, 70000)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	must(os.WriteFile(filepath.Join(dir, "resources", "noise.bin"), noise, 0o644))
	exe, err := os.ReadFile("/bin/true")
	must(err)
	must(os.WriteFile(filepath.Join(dir, "Example.exe"), exe, 0o755))
	must(os.WriteFile(filepath.Join(dir, "resources", "zero"), nil, 0o644))
}

// build7z archives dir's contents with the real 7z and the given switches.
func build7z(t testing.TB, dir, out string, args ...string) []byte {
	t.Helper()
	need7z(t)
	cmd := exec.Command("7z", append(append([]string{"a", "-bd", "-snl"}, args...), out, ".")...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z a %v: %v\n%s", args, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeEntries reads every file entry through the decoder the host uses
// and returns path → bytes.
func decodeEntries(t *testing.T, b []byte, res *inventory.Result) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, e := range res.Entries {
		if e.Kind != inventory.KindFile {
			continue
		}
		var data []byte
		switch {
		case e.Data.Compression == inventory.CompressionSevenZipFolder:
			rc, err := stream.Open(bytes.NewReader(b), int64(len(b)), *e.Data)
			if err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
			if _, err := io.CopyN(io.Discard, rc, e.Data.Offset); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
			data = make([]byte, e.Size)
			if _, err := io.ReadFull(rc, data); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
			if e.CRC32 != nil && crc32.ChecksumIEEE(data) != *e.CRC32 {
				t.Errorf("%s: decoded bytes fail the declared CRC", e.Path)
			}
		case e.Data.Compression == inventory.CompressionNone:
			data = b[e.Data.Offset:e.Data.End()]
		default:
			t.Fatalf("%s: compression %q", e.Path, e.Data.Compression)
		}
		out[e.Path] = data
	}
	return out
}

// TestInventoryListsSevenZipArchivesOfEveryMethod: archives written by
// the real 7z with LZMA2, LZMA, BCJ, BCJ2, Deflate, BZip2, Copy, solid and
// not, header compressed and not, list every member, and each member's
// range decodes to the bytes on disk.
func TestInventoryListsSevenZipArchivesOfEveryMethod(t *testing.T) {
	need7z(t)
	src := t.TempDir()
	sevenZipTree(t, src)
	if err := os.Symlink("../../../etc/passwd", filepath.Join(src, "resources", "escape")); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"lzma2-bcj":      {"-mx=5"},
		"lzma2-bcj2":     {"-mx=9"},
		"lzma-nonsolid":  {"-m0=LZMA", "-ms=off"},
		"deflate":        {"-m0=Deflate", "-mhc=off"},
		"bzip2":          {"-m0=BZip2"},
		"copy":           {"-m0=Copy", "-mhc=off"},
		"delta-lzma":     {"-m0=Delta:4", "-m1=LZMA"},
		"bcj-explicit":   {"-mf=BCJ"},
		"bcj2-explicit":  {"-mf=BCJ2", "-mx=7"},
		"header-encoded": {"-mhc=on", "-mhe=off", "-mx=1"},
	} {
		t.Run(name, func(t *testing.T) {
			b := build7z(t, src, filepath.Join(t.TempDir(), "a.7z"), args...)
			res, err := inventoryOf(t, "a.7z", b, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != inventory.FormatSevenZip {
				t.Fatalf("format %q", res.Format)
			}
			got := decodeEntries(t, b, res)
			for _, p := range []string{"resources/app.txt", "resources/noise.bin", "Example.exe", "resources/zero"} {
				want, _ := os.ReadFile(filepath.Join(src, filepath.FromSlash(p)))
				if !bytes.Equal(got[p], want) {
					t.Errorf("%s: decoded %d bytes differ from the %d on disk", p, len(got[p]), len(want))
				}
			}
			var dir, link, exe bool
			for _, e := range res.Entries {
				switch {
				case e.Path == "resources/empty" && e.Kind == inventory.KindDirectory:
					dir = true
				case e.Path == "resources/escape" && e.Kind == inventory.KindLink:
					link = e.Link.Target == "../../../etc/passwd" && e.Link.Escapes
				case e.Path == "Example.exe":
					exe = e.Executable
				}
			}
			if !dir || !link || !exe {
				t.Errorf("directory %v, escaping link %v, executable bit %v: %s", dir, link, exe, paths(res))
			}
		})
	}
}

// patch7zHeader rewrites bytes of an archive whose header is stored
// (-mhc=off) and fixes both CRCs, so a hostile header is still well
// checksummed.
func patch7zHeader(t *testing.T, b []byte, old, new []byte) []byte {
	t.Helper()
	b = bytes.Clone(b)
	off := int64(binary.LittleEndian.Uint64(b[12:])) + 32
	size := int64(binary.LittleEndian.Uint64(b[20:]))
	hdr := b[off : off+size]
	i := bytes.Index(hdr, old)
	if i < 0 {
		t.Fatalf("the header has no %q", old)
	}
	copy(hdr[i:], new)
	binary.LittleEndian.PutUint32(b[28:], crc32.ChecksumIEEE(hdr))
	binary.LittleEndian.PutUint32(b[8:], crc32.ChecksumIEEE(b[12:32]))
	return b
}

func utf16le(s string) []byte {
	var out []byte
	for _, r := range s {
		out = append(out, byte(r), 0)
	}
	return out
}

// TestInventoryRefusesHostileSevenZipArchives: traversal, absolute names,
// ratio bombs, entry counts, truncation, corrupt headers and encryption
// are refused, typed, before any byte is decoded.
func TestInventoryRefusesHostileSevenZipArchives(t *testing.T) {
	need7z(t)
	src := t.TempDir()
	sevenZipTree(t, src)
	os.MkdirAll(filepath.Join(src, "aa"), 0o755)
	os.WriteFile(filepath.Join(src, "aa", "evil"), []byte("x"), 0o644)
	plain := build7z(t, src, filepath.Join(t.TempDir(), "p.7z"), "-mhc=off", "-mx=1")

	t.Run("traversal", func(t *testing.T) {
		b := patch7zHeader(t, plain, utf16le("aa/evil"), utf16le("../evil"))
		_, err := inventoryOf(t, "a.7z", b, inventory.Limits{})
		ae := wantCode(t, err, abi.CodeArtifactOperationFailed)
		if !strings.Contains(ae.Message, "..") {
			t.Errorf("message %q", ae.Message)
		}
	})
	t.Run("absolute", func(t *testing.T) {
		b := patch7zHeader(t, plain, utf16le("aa/evil"), utf16le("/a/evil"))
		wantCode(t, mustFail(inventoryOf(t, "a.7z", b, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	})
	t.Run("backslash traversal", func(t *testing.T) {
		b := patch7zHeader(t, plain, utf16le("aa/evil"), utf16le(`..\evil`))
		wantCode(t, mustFail(inventoryOf(t, "a.7z", b, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	})
	t.Run("ratio bomb", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "zeros"), make([]byte, 4<<20), 0o644)
		b := build7z(t, dir, filepath.Join(t.TempDir(), "bomb.7z"))
		ae := wantCode(t, mustFail(inventoryOf(t, "bomb.7z", b, inventory.Limits{MaxCompressionRatio: 100})), abi.CodeResourceConstraint)
		if ae.Details["limit"] != "max_compression_ratio" {
			t.Errorf("details %v", ae.Details)
		}
	})
	t.Run("entry count", func(t *testing.T) {
		ae := wantCode(t, mustFail(inventoryOf(t, "a.7z", plain, inventory.Limits{MaxEntries: 3})), abi.CodeResourceConstraint)
		if ae.Details["limit"] != "max_entries" {
			t.Errorf("details %v", ae.Details)
		}
	})
	t.Run("entry size", func(t *testing.T) {
		ae := wantCode(t, mustFail(inventoryOf(t, "a.7z", plain, inventory.Limits{MaxEntryBytes: 1000})), abi.CodeResourceConstraint)
		if ae.Details["limit"] != "max_entry_bytes" {
			t.Errorf("details %v", ae.Details)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		for _, n := range []int{10, 32, len(plain) / 2, len(plain) - 1} {
			wantCode(t, mustFail(inventoryOf(t, "a.7z", plain[:n], inventory.Limits{})), abi.CodeArtifactOperationFailed)
		}
	})
	t.Run("corrupt header", func(t *testing.T) {
		b := bytes.Clone(plain)
		b[len(b)-20] ^= 0xff
		wantCode(t, mustFail(inventoryOf(t, "a.7z", b, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	})
	for name, args := range map[string][]string{"encrypted data": {"-pSECRET"}, "encrypted header": {"-pSECRET", "-mhe=on"}} {
		t.Run(name, func(t *testing.T) {
			b := build7z(t, src, filepath.Join(t.TempDir(), "e.7z"), args...)
			ae := wantCode(t, mustFail(inventoryOf(t, "e.7z", b, inventory.Limits{})), abi.CodeCapabilityUnavailable)
			if ae.Details["encryption"] != "7zAES" || !strings.Contains(ae.Message, "encrypted") {
				t.Errorf("%s %v", ae.Message, ae.Details)
			}
		})
	}
	t.Run("unsupported method", func(t *testing.T) {
		b := build7z(t, src, filepath.Join(t.TempDir(), "ppmd.7z"), "-m0=PPMd")
		ae := wantCode(t, mustFail(inventoryOf(t, "ppmd.7z", b, inventory.Limits{})), abi.CodeCapabilityUnavailable)
		if ae.Details["method"] != "PPMD" {
			t.Errorf("%s %v", ae.Message, ae.Details)
		}
	})
}

func mustFail(_ *inventory.Result, err error) error { return err }
