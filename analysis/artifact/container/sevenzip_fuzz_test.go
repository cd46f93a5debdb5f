package container

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// sevenZipSeeds are the committed archives of testdata/sevenzip (recipe:
// a tree of a text file, 300 bytes of an ELF named x.exe, a link inside
// and a link that escapes, archived by 7z with -mhc=off, -mf=BCJ2 -mx=7,
// -m0=Copy, -m0=Deflate -ms=off and -m0=Delta:2 -m1=LZMA -mf=BCJ).
func sevenZipSeeds(t testing.TB) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "sevenzip", "*.7z"))
	if len(files) == 0 {
		t.Fatal("testdata/sevenzip holds no seed archives")
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// syntheticNSIS lays out an NSIS installer around items: an "MZ" stub, the
// first header at 512, a stored script header, then each item (stored, or
// raw-deflated when deflate says so) and the trailing CRC word.
func syntheticNSIS(items [][]byte, deflate []bool) []byte {
	var data bytes.Buffer
	binary.Write(&data, binary.LittleEndian, uint32(4))
	data.WriteString("HDR!")
	for i, it := range items {
		if i < len(deflate) && deflate[i] {
			var z bytes.Buffer
			w, _ := flate.NewWriter(&z, 9)
			w.Write(it)
			w.Close()
			binary.Write(&data, binary.LittleEndian, uint32(z.Len())|nsisCompressedBit)
			data.Write(z.Bytes())
			continue
		}
		binary.Write(&data, binary.LittleEndian, uint32(len(it)))
		data.Write(it)
	}
	out := make([]byte, 512)
	copy(out, "MZ")
	var fh [nsisFirstHeaderSize]byte
	copy(fh[4:], nsisSignature)
	binary.LittleEndian.PutUint32(fh[20:], 4)
	binary.LittleEndian.PutUint32(fh[24:], uint32(nsisFirstHeaderSize+data.Len()+4))
	out = append(out, fh[:]...)
	out = append(out, data.Bytes()...)
	// The stub checks its CRC-32 from byte 512 on (exehead/fileform.c).
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out[512:]))
}

// checkAccepted asserts what the host relies on of an accepted inventory:
// every range inside the file, every 7z folder well formed, and decoding
// it never panics and never yields more than declared.
func checkAccepted(t *testing.T, data []byte, res *inventory.Result) {
	for _, e := range res.Entries {
		if e.Data == nil {
			continue
		}
		if e.Data.Source != nil {
			// Read from a decoded stream (an archive compressed in an
			// NSIS item): checked against that stream's bytes.
			src := sourceBytes(t, data, *e.Data)
			d := *e.Data
			d.Source = nil
			e.Data = &d
			checkAccepted(t, src, &inventory.Result{Entries: []inventory.Entry{e}})
			continue
		}
		switch e.Data.Compression {
		case inventory.CompressionSevenZipFolder:
			if err := stream.CheckFolder(e.Data.Folder, int64(len(data))); err != nil {
				t.Fatalf("accepted a folder the host refuses: %v", err)
			}
			rc, err := stream.Open(bytes.NewReader(data), int64(len(data)), *e.Data)
			if err != nil {
				t.Fatalf("accepted folder does not open: %v", err)
			}
			n, _ := io.Copy(io.Discard, io.LimitReader(rc, 4<<20))
			if n > e.Data.Folder.Sizes[mainCoder(e.Data.Folder)] {
				t.Fatalf("a folder decoded to %d bytes, more than declared", n)
			}
		case inventory.CompressionBlocks:
			// A squashfs file (here read from a decoded copy: an
			// AppImage in a zip): its blocks lie in the bytes and
			// decode to its size.
			if err := stream.CheckBlocks(e.Data.Blocks, int64(len(data)), e.Size); err != nil {
				t.Fatalf("%s: accepted blocks the host refuses: %v", e.Path, err)
			}
			if n, err := io.Copy(io.Discard, stream.OpenBlocks(bytes.NewReader(data), *e.Data, nil)); err != nil || n != e.Size {
				t.Fatalf("%s: blocks decode to %d bytes (%v), want %d", e.Path, n, err, e.Size)
			}
		case inventory.CompressionNone, inventory.CompressionDeflate:
			if e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.End() > int64(len(data)) {
				t.Fatalf("range %+v outside a %d-byte file", e.Data, len(data))
			}
		default:
			if !stream.IsStream(e.Data.Compression) {
				t.Fatalf("unknown compression %q", e.Data.Compression)
			}
			// A stream range (an NSIS item, a solid NSIS block): the
			// stream decodes without panic and holds the member.
			rc, err := stream.Open(bytes.NewReader(data), int64(len(data)), *e.Data)
			if err != nil {
				t.Fatalf("accepted stream does not open: %v", err)
			}
			n, _ := io.Copy(io.Discard, io.LimitReader(rc, e.Data.End()+1))
			rc.Close()
			if n < e.Data.End() {
				t.Fatalf("a %s stream decoded to %d bytes, short of the member's range %d+%d", e.Data.Compression, n, e.Data.Offset, e.Data.Length)
			}
		}
	}
}

func fuzzInventory(t *testing.T, data []byte, format string) {
	fsys := fstest.MapFS{"x": {Data: data, Mode: fs.FileMode(0o644)}}
	res, err := Inventory(fsys, "x", format, inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8, MaxHeaderBytes: 1 << 20}, nil)
	if err != nil {
		var ae *abi.Error
		if !errors.As(err, &ae) {
			t.Fatalf("untyped error %v", err)
		}
		return
	}
	checkAccepted(t, data, res)
}

// FuzzInventorySevenZip: arbitrary bytes as a 7z archive never panic,
// every failure is typed, and what is accepted the host can decode safely.
func FuzzInventorySevenZip(f *testing.F) {
	for _, b := range sevenZipSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInventory(t, data, inventory.FormatSevenZip) })
}

// FuzzInventoryNSIS: the same for NSIS installers (and the 7z inside).
func FuzzInventoryNSIS(f *testing.F) {
	seeds := sevenZipSeeds(f)
	f.Add(syntheticNSIS([][]byte{seeds[0], []byte("hello hello hello hello")}, []bool{false, true}))
	f.Add(syntheticNSIS([][]byte{[]byte("plain"), seeds[len(seeds)-1]}, nil))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInventory(t, data, inventory.FormatNSIS) })
}

// TestInventoryListsSyntheticNSISItems: stored and deflated items are
// listed with the right sizes, a stored 7z is expanded, and an item
// running past the data block is refused.
func TestInventoryListsSyntheticNSISItems(t *testing.T) {
	seeds := sevenZipSeeds(t)
	text := bytes.Repeat([]byte("notes "), 200)
	b := syntheticNSIS([][]byte{seeds[0], text}, []bool{false, true})
	res, err := inventoryOf(t, "setup.exe", b, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != inventory.FormatNSIS || len(res.Containers) != 2 || res.Containers[1].Format != inventory.FormatSevenZip {
		t.Fatalf("format %s, containers %+v", res.Format, res.Containers)
	}
	var sawText bool
	for _, e := range res.Entries {
		if e.Path == "data/item-2" {
			sawText = e.Size == int64(len(text)) && e.Data.Compression == inventory.CompressionDeflateStream
		}
	}
	if !sawText {
		t.Errorf("the deflated item is not listed with its inflated size: %s", paths(res))
	}
	checkAccepted(t, b, res)
	// A bomb: a deflated item over the ratio limit.
	bomb := syntheticNSIS([][]byte{make([]byte, 2<<20)}, []bool{true})
	ae := wantCode(t, mustFail(inventoryOf(t, "setup.exe", bomb, inventory.Limits{MaxCompressionRatio: 50})), abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_compression_ratio" {
		t.Errorf("details %v", ae.Details)
	}
	// Truncation: the data block runs past the file.
	wantCode(t, mustFail(inventoryOf(t, "setup.exe", b[:len(b)-100], inventory.Limits{})), abi.CodeArtifactOperationFailed)
}
