package container

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// The images under testdata/squashfs were made by mksquashfs 4.5.1 from a
// tree of big (seq 1 4000: 18893 bytes, four 4 KiB blocks and a tail in a
// fragment), d/f ("hello\n", a fragment), zeros (8 KiB of zeros: two
// sparse blocks) and link -> ../x:
//
//	mksquashfs tree X.sqfs -comp X -b 4096 -all-root -mkfs-time 0 -all-time 0
//
// plain.sqfs adds -noI -noD -noF -noX, so its tables can be patched here.
func squashFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/squashfs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seqBytes() []byte {
	var b bytes.Buffer
	for i := 1; i <= 4000; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	return b.Bytes()
}

func TestSquashfsListsAndDecodesEveryCompressor(t *testing.T) {
	want := map[string][]byte{"big": seqBytes(), "d/f": []byte("hello\n"), "zeros": make([]byte, 8192)}
	for _, name := range []string{"gzip.sqfs", "xz.sqfs", "zstd.sqfs", "plain.sqfs"} {
		t.Run(name, func(t *testing.T) {
			img := squashFixture(t, name)
			fsys := fstest.MapFS{"x.sqfs": {Data: img, Mode: 0o644}}
			res, err := Inventory(fsys, "x.sqfs", "", inventory.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != inventory.FormatSquashfs {
				t.Fatalf("format %q", res.Format)
			}
			seen := map[string]bool{}
			for _, e := range res.Entries {
				seen[e.Path] = true
				switch e.Kind {
				case inventory.KindFile:
					if err := stream.CheckBlocks(e.Data.Blocks, int64(len(img)), e.Size); err != nil {
						t.Fatalf("%s: %v", e.Path, err)
					}
					got, err := io.ReadAll(stream.OpenBlocks(bytes.NewReader(img), *e.Data, nil))
					if err != nil || !bytes.Equal(got, want[e.Path]) {
						t.Errorf("%s decodes to %d bytes (%v), want %d", e.Path, len(got), err, len(want[e.Path]))
					}
				case inventory.KindLink:
					if e.Path != "link" || e.Link.Target != "../x" || !e.Link.Escapes {
						t.Errorf("link %+v", e.Link)
					}
				}
			}
			for _, p := range []string{"big", "d", "d/f", "zeros", "link"} {
				if !seen[p] {
					t.Errorf("%s not listed", p)
				}
			}
		})
	}
}

// TestAppImageFindsTheImageWhereTheELFEnds appends an image to an ELF
// (this test binary's own runtime is not needed: a minimal ELF header
// with a section table is).
func TestAppImageFindsTheImageWhereTheELFEnds(t *testing.T) {
	runtime, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	copy(runtime[8:11], "AI\x02")
	data := append(runtime, squashFixture(t, "zstd.sqfs")...)
	res, err := Inventory(fstest.MapFS{"a": {Data: data}}, "a", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != inventory.FormatAppImage || len(res.Entries) != 5 {
		t.Fatalf("format %q, %d entries", res.Format, len(res.Entries))
	}
	for _, e := range res.Entries {
		if e.Data != nil && e.Data.Blocks[0].Offset < int64(len(runtime)) {
			t.Fatalf("%s has a block inside the runtime: %+v", e.Path, e.Data.Blocks[0])
		}
	}
	// An ELF that is not followed by an image is refused, typed.
	_, err = Inventory(fstest.MapFS{"a": {Data: runtime}}, "a", "", inventory.Limits{}, nil)
	wantTyped(t, err, abi.CodeArtifactOperationFailed, "not an AppImage")
}

func wantTyped(t *testing.T, err error, code, text string) {
	t.Helper()
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != code || !strings.Contains(ae.Message, text) {
		t.Fatalf("err = %v, want %s mentioning %q", err, code, text)
	}
}

// patch returns img with the bytes at off replaced.
func patch(img []byte, off int, b string) []byte {
	out := bytes.Clone(img)
	copy(out[off:], b)
	return out
}

func TestSquashfsRefusesHostileImages(t *testing.T) {
	img := squashFixture(t, "plain.sqfs")
	// In plain.sqfs's uncompressed directory table the entry of "f" sits
	// at fEntry (inode offset, delta, type, name size, name) and the one
	// of "d" at dEntry; find them rather than trusting offsets.
	fEntry := bytes.Index(img, []byte("\x02\x00\x00\x00f"))
	dEntry := bytes.Index(img, []byte("\x01\x00\x00\x00d"))
	bigEntry := bytes.Index(img, []byte("\x02\x00\x02\x00big"))
	if fEntry < 4 || dEntry < 4 || bigEntry < 4 {
		t.Fatalf("fixture layout changed: %d %d %d", fEntry, dEntry, bigEntry)
	}
	dInode := string(img[dEntry-4 : dEntry-2])
	cases := []struct {
		name string
		img  []byte
		lim  inventory.Limits
		code string
		text string
	}{
		{"dot name", patch(img, dEntry+4, "."), inventory.Limits{}, abi.CodeArtifactOperationFailed, `entry named "."`},
		{"slash in a name", patch(img, bigEntry+4, "b/g"), inventory.Limits{}, abi.CodeArtifactOperationFailed, `entry named "b/g"`},
		{"directory cycle", patch(img, fEntry-4, dInode), inventory.Limits{}, abi.CodeArtifactOperationFailed, "cycle"},
		{"truncated", img[:len(img)/2], inventory.Limits{}, abi.CodeArtifactOperationFailed, "outside"},
		{"bad magic", patch(img, 0, "hsqx"), inventory.Limits{}, abi.CodeArtifactOperationFailed, "not a recognised container"},
		{"lz4", patch(img, 20, "\x05\x00"), inventory.Limits{}, abi.CodeCapabilityUnavailable, "lz4"},
		{"version 3", patch(img, 28, "\x03\x00"), inventory.Limits{}, abi.CodeArtifactOperationFailed, "not a recognised container"},
		{"entry limit", img, inventory.Limits{MaxEntries: 3}, abi.CodeResourceConstraint, "max_entries"},
		{"metadata budget", squashFixture(t, "zstd.sqfs"), inventory.Limits{MaxHeaderBytes: 100}, abi.CodeResourceConstraint, "max_header_bytes"},
		{"depth", img, inventory.Limits{MaxDepth: 1}, abi.CodeResourceConstraint, "max_depth"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inventory(fstest.MapFS{"x": {Data: tc.img}}, "x", "", tc.lim, nil)
			wantTyped(t, err, tc.code, tc.text)
		})
	}
	// A data block that lies about its place is refused by the host's
	// check before anything is decoded.
	res, err := Inventory(fstest.MapFS{"x": {Data: img}}, "x", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Entries {
		if e.Path == "big" {
			if err := stream.CheckBlocks(e.Data.Blocks, 100, e.Size); err == nil {
				t.Fatal("blocks outside a 100-byte file accepted")
			}
			if err := stream.CheckBlocks(e.Data.Blocks, int64(len(img)), e.Size+1); err == nil {
				t.Fatal("blocks that do not add up accepted")
			}
		}
	}
}

// FuzzInventorySquashfs: arbitrary bytes as a squashfs image never panic,
// fail typed, and every accepted block lies inside the file and decodes
// within its declared bounds or fails with an error.
func FuzzInventorySquashfs(f *testing.F) {
	for _, n := range []string{"gzip.sqfs", "xz.sqfs", "zstd.sqfs", "plain.sqfs"} {
		f.Add(squashFixture(f, n))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"x": {Data: data, Mode: 0o644}}
		res, err := Inventory(fsys, "x", inventory.FormatSquashfs, inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8, MaxHeaderBytes: 1 << 20}, nil)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range res.Entries {
			if e.Data == nil {
				continue
			}
			if err := stream.CheckBlocks(e.Data.Blocks, int64(len(data)), e.Size); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
			n, _ := io.Copy(io.Discard, io.LimitReader(stream.OpenBlocks(bytes.NewReader(data), *e.Data, nil), e.Size+1))
			if n > e.Size {
				t.Fatalf("%s decodes past its %d bytes", e.Path, e.Size)
			}
		}
	})
}
