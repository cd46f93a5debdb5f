package container

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
	"rea/analysis/artifact/udifpack"
)

// wrapVolume wraps an HFS+ volume in UDIF with chunks of sectors
// sectors, each of the type kind chooses (nil: hdiutil's UDZO choice),
// its block table changed by tamper when set.
func wrapVolume(t testing.TB, vol []byte, sectors int, kind func(int, []byte) uint32, tamper func([]udifpack.Chunk)) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := udifpack.Write(&buf, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)),
		ChunkSectors: sectors, Kind: kind, Tamper: tamper}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sevenZipVolume extracts a disk image with 7-Zip, the independent
// oracle, and returns the directory holding its volume's root.
func sevenZipVolume(t testing.TB, dmg []byte) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "x.dmg")
	if err := os.WriteFile(p, dmg, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("7z", "x", "-y", "-o"+filepath.Join(dir, "out"), p).CombinedOutput(); err != nil {
		t.Fatalf("7z x: %v\n%s", err, b)
	}
	return filepath.Join(dir, "out", "Example")
}

// blockBytes decodes a listed file's blocks from the image.
func blockBytes(t testing.TB, img []byte, e inventory.Entry) []byte {
	t.Helper()
	if err := stream.CheckBlocks(e.Data.Blocks, int64(len(img)), e.Size); err != nil {
		t.Fatalf("%s: %v", e.Path, err)
	}
	got, err := io.ReadAll(stream.OpenBlocks(bytes.NewReader(img), *e.Data, nil))
	if err != nil {
		t.Fatalf("%s: %v", e.Path, err)
	}
	return got
}

// agreeWithSevenZip checks that the inventory's own entries are exactly
// the files, folders and links 7-Zip extracts, with the same bytes.
func agreeWithSevenZip(t *testing.T, img []byte, res *inventory.Result, root string) {
	t.Helper()
	listed := map[string]inventory.Entry{}
	for _, e := range res.Entries {
		if e.Container == 0 {
			listed[e.Path] = e
		}
	}
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		e, ok := listed[rel]
		if !ok {
			t.Errorf("7-Zip extracts %s, which rea does not list", rel)
			return nil
		}
		seen++
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			if e.Kind != inventory.KindLink || e.Link.Target != target {
				t.Errorf("%s: listed %s %+v, 7-Zip extracts a link to %q", rel, e.Kind, e.Link, target)
			}
		case d.IsDir():
			if e.Kind != inventory.KindDirectory {
				t.Errorf("%s: listed %s, 7-Zip extracts a folder", rel, e.Kind)
			}
		default:
			want, _ := os.ReadFile(p)
			if e.Kind == inventory.KindLink { // 7-Zip may write a link as a file of its target
				if string(want) != e.Link.Target {
					t.Errorf("%s: link to %q, 7-Zip wrote %q", rel, e.Link.Target, want)
				}
				return nil
			}
			if e.Kind != inventory.KindFile || e.Size != int64(len(want)) || !bytes.Equal(blockBytes(t, img, e), want) {
				t.Errorf("%s: listed %s of %d bytes, which differ from 7-Zip's %d", rel, e.Kind, e.Size, len(want))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(listed) {
		t.Errorf("rea lists %d entries, 7-Zip extracts %d", len(listed), seen)
	}
}

// TestDiskImagesListTheirHFSPlusVolume: a real HFS+ volume (xorriso)
// wrapped in UDIF with every chunk layout rea decodes — zlib, stored,
// zero-fill, bzip2, small and hdiutil-sized chunks — is listed exactly as
// 7-Zip extracts it, each file's blocks decoding to 7-Zip's bytes, the
// link with its target, the bundle's app.asar expanded, nothing partial.
func TestDiskImagesListTheirHFSPlusVolume(t *testing.T) {
	dmg, vol := dmgFixture(t)
	if _, err := exec.LookPath("bzip2"); err != nil {
		t.Fatal("bzip2 writes this test's UDBZ chunks: apt-get install -y bzip2 (.ci/run installs it)")
	}
	always := func(k uint32) func(int, []byte) uint32 { return func(int, []byte) uint32 { return k } }
	cases := []struct {
		name string
		img  []byte
	}{
		{"zlib, stored and zero-fill, 16 sectors", dmg},
		{"zlib, 2048 sectors (hdiutil)", wrapVolume(t, vol, 0, nil, nil)},
		{"stored, 1 sector", wrapVolume(t, vol, 1, always(udifpack.ChunkRaw), nil)},
		{"bzip2 (UDBZ), 24 sectors", wrapVolume(t, vol, 24, always(udifpack.ChunkBzip2), nil)},
		{"xz (ULMO), 40 sectors", wrapVolume(t, vol, 40, always(udifpack.ChunkLZMA), nil)},
		{"zero-fill as ignore, 7 sectors", wrapVolume(t, vol, 7, func(i int, b []byte) uint32 {
			if udifpack.DefaultKind(i, b) == udifpack.ChunkZero {
				return udifpack.ChunkIgnore
			}
			return udifpack.ChunkZlib
		}, nil)},
	}
	// hdiutil's GPT layout: one blkx entry per region, HFS+ the fifth.
	gpt := func(hfsName string) []byte {
		mbr := make([]byte, 512)
		mbr[510], mbr[511] = 0x55, 0xaa
		hdr := append([]byte("EFI PART"), make([]byte, 504)...)
		parts := []udifpack.Partition{
			{Name: "Protective Master Boot Record (MBR : 0)", Data: bytes.NewReader(mbr), Size: 512},
			{Name: "GPT Header (Primary GPT Header : 1)", Data: bytes.NewReader(hdr), Size: 512},
			{Name: "GPT Partition Data (Primary GPT Table : 2)", Data: bytes.NewReader(make([]byte, 16384)), Size: 16384},
			{Name: " (Apple_Free : 3)", Data: bytes.NewReader(make([]byte, 4096)), Size: 4096},
			{Name: hfsName, Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 32},
			{Name: "GPT Partition Data (Backup GPT Table : 5)", Data: bytes.NewReader(make([]byte, 16384)), Size: 16384},
			{Name: "GPT Header (Backup GPT Header : 6)", Data: bytes.NewReader(hdr), Size: 512},
		}
		var buf bytes.Buffer
		if _, err := udifpack.Write(&buf, parts); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	hfsx := bytes.Clone(vol)
	copy(hfsx[1024:], "HX\x00\x05") // HFSX: case-sensitive names, same layout
	cases = append(cases, struct {
		name string
		img  []byte
	}{"HFSX, named Apple_HFSX", func() []byte {
		var buf bytes.Buffer
		if _, err := udifpack.Write(&buf, []udifpack.Partition{{Name: "disk image (Apple_HFSX : 0)", Data: bytes.NewReader(hfsx), Size: int64(len(hfsx)), ChunkSectors: 16}}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}()}, struct {
		name string
		img  []byte
	}{"GPT layout, HFS+ fifth", gpt("disk image (Apple_HFS : 4)")}, struct {
		name string
		img  []byte
	}{"GPT layout, HFS+ found by its signature", gpt("disk image (Unnamed : 4)")})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := inventoryOf(t, "Example.dmg", c.img, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != inventory.FormatDMG || len(res.Limitations) != 0 {
				t.Fatalf("format %s, limitations %q", res.Format, res.Limitations)
			}
			agreeWithSevenZip(t, c.img, res, sevenZipVolume(t, c.img))
			var asar, nested []string
			for _, e := range res.Entries {
				if e.Container == 0 && e.Nested > 0 {
					asar = append(asar, e.Path)
				}
				if e.Container > 0 {
					nested = append(nested, e.Path)
				}
			}
			sort.Strings(nested)
			if strings.Join(asar, ",") != "Example.app/Contents/Resources/app.asar" || strings.Join(nested, ",") != "main.js,package.json" {
				t.Fatalf("expanded %q holding %q", asar, nested)
			}
			for _, e := range res.Entries {
				if e.Path == "Example.app/run" && (e.Kind != inventory.KindLink || e.Link.Target != "Contents/MacOS/Example" || e.Link.Escapes) {
					t.Fatalf("link %+v", e.Link)
				}
			}
		})
	}
}

// hfsLayout is where the structures a hostile test corrupts lie in a
// volume xorriso wrote, read from its header (TN1150 offsets).
type hfsLayout struct {
	blockSize, catalog, nodeSize, firstLeaf int
}

func layoutOf(t testing.TB, vol []byte) hfsLayout {
	t.Helper()
	be := binary.BigEndian
	h := vol[1024:]
	l := hfsLayout{blockSize: int(be.Uint32(h[40:]))}
	l.catalog = int(be.Uint32(h[272+16:])) * l.blockSize
	hr := vol[l.catalog+14:]
	l.firstLeaf, l.nodeSize = int(be.Uint32(hr[10:])), int(be.Uint16(hr[18:]))
	return l
}

// catalogName is the offset of the catalog key naming name: its length
// field, then parent ID, name length and the UTF-16BE name.
func catalogName(t testing.TB, vol []byte, name string) int {
	t.Helper()
	var u []byte
	for _, c := range utf16.Encode([]rune(name)) {
		u = binary.BigEndian.AppendUint16(u, c)
	}
	l := layoutOf(t, vol)
	i := bytes.Index(vol[l.catalog:], append(binary.BigEndian.AppendUint16(nil, uint16(len(name))), u...))
	if i < 0 {
		t.Fatalf("no catalog key names %q", name)
	}
	return l.catalog + i - 6
}

// TestDiskImageChunksRheaCannotDecode: a file whose bytes lie in an
// LZFSE chunk is not listed, and a limitation names it and the chunk
// type (the coverage is partial); the catalog in an ADC chunk makes the
// volume unreadable: capability_unavailable naming ADC.
func TestDiskImageChunksRheaCannotDecode(t *testing.T) {
	_, vol := dmgFixture(t)
	l := layoutOf(t, vol)
	lzfse := wrapVolume(t, vol, 16, func(i int, b []byte) uint32 {
		if bytes.Contains(b, []byte("mach-o body")) {
			return udifpack.ChunkLZFSE
		}
		return udifpack.DefaultKind(i, b)
	}, nil)
	res, err := inventoryOf(t, "Example.dmg", lzfse, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// The chunks holding the executable hold the start of the file
	// before it too (Info.plist): both are named.
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "2 file(s) of the disk image's HFS+ volume were not listed because rea does not read them (2 in chunks compressed with LZFSE (ULFO); first: Example.app/Contents/Info.plist)") {
		t.Fatalf("limitations %q", res.Limitations)
	}
	if strings.Contains(paths(res), "MacOS/Example") || !strings.Contains(paths(res), "f:Example.app/Contents/Resources/app.asar") {
		t.Fatalf("listed %s", paths(res))
	}
	adc := wrapVolume(t, vol, 16, func(i int, b []byte) uint32 {
		if i == l.catalog/(16*512) {
			return udifpack.ChunkADC
		}
		return udifpack.DefaultKind(i, b)
	}, nil)
	_, err = inventoryOf(t, "Example.dmg", adc, inventory.Limits{})
	wantTyped(t, err, abi.CodeCapabilityUnavailable, "lies in a chunk compressed with ADC (UDCO), which rea does not decode")
}

// TestHFSPlusNamesAsMacOSShowsThem: a catalog name holding '/' (the
// Carbon separator's stand-in) is listed with ':' as macOS shows it.
func TestHFSPlusNamesAsMacOSShowsThem(t *testing.T) {
	_, vol := dmgFixture(t)
	v := bytes.Clone(vol)
	k := catalogName(t, v, "empty.txt")
	copy(v[k+8+2*5:], "\x00/") // "empty/txt"
	res, err := inventoryOf(t, "Example.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(paths(res), "f:Example.app/Contents/Resources/empty:txt") {
		t.Fatalf("listed %s", paths(res))
	}
}

// TestHostileDiskImagesAreContained: corrupt catalogs, extents, block
// tables and chunks, and truncated images, are each refused with a
// typed error naming what is wrong — never a panic, a read outside the
// image or a partial listing that looks complete.
func TestHostileDiskImagesAreContained(t *testing.T) {
	dmg, vol := dmgFixture(t)
	l := layoutOf(t, vol)
	be := binary.BigEndian
	leaf := l.catalog + l.firstLeaf*l.nodeSize
	edit := func(f func(v []byte)) []byte {
		v := bytes.Clone(vol)
		f(v)
		return wrapVolume(t, v, 16, nil, nil)
	}
	table := func(f func(c []udifpack.Chunk)) []byte { return wrapVolume(t, vol, 16, nil, f) }
	allZlib := func(int, []byte) uint32 { return udifpack.ChunkZlib }
	trailer := dmg[len(dmg)-512:]
	// plist is an image of nothing but a property list and its trailer.
	plist := func(doc string) []byte {
		k := bytes.Clone(trailer)
		be.PutUint64(k[24:], 0)
		be.PutUint64(k[32:], 0)
		be.PutUint64(k[216:], 0)
		be.PutUint64(k[224:], uint64(len(doc)))
		return append([]byte(doc), k...)
	}
	const malformed = abi.CodeArtifactOperationFailed
	// fine has one chunk per sector: a property list far larger than the
	// B-tree nodes read, which alone fit the 1 KiB left past it.
	fine := wrapVolume(t, vol, 1, nil, nil)
	if _, err := inventoryOf(t, "x.dmg", fine, inventory.Limits{MaxHeaderBytes: int64(be.Uint64(fine[len(fine)-512+224:])) + 64<<10}); err != nil {
		t.Fatalf("with room for the B-trees past the property list: %v", err)
	}
	cases := []struct {
		name string
		img  []byte
		lim  inventory.Limits
		code string
		says string
	}{
		{"catalog leaf chain cycle", edit(func(v []byte) { be.PutUint32(v[leaf:], uint32(l.firstLeaf)) }), inventory.Limits{}, malformed, "returns to node"},
		{"catalog leaf links past the tree", edit(func(v []byte) { be.PutUint32(v[leaf:], 1<<30) }), inventory.Limits{}, malformed, "links to node 1073741824"},
		{"record offset outside the node", edit(func(v []byte) { be.PutUint16(v[leaf+l.nodeSize-4:], uint16(l.nodeSize)) }), inventory.Limits{}, malformed, "outside the node's"},
		{"node size not a power of two", edit(func(v []byte) { be.PutUint16(v[l.catalog+14+18:], 1000) }), inventory.Limits{}, malformed, "declares nodes of 1000 bytes"},
		{"extent outside the volume", edit(func(v []byte) {
			k := catalogName(t, v, "Info.plist")
			d := k + 2 + int(be.Uint16(v[k:]))
			be.PutUint32(v[d+88+16:], 0xfffff000)
		}), inventory.Limits{}, malformed, "lies outside the"},
		{"fork larger than its extents", edit(func(v []byte) {
			k := catalogName(t, v, "Info.plist")
			d := k + 2 + int(be.Uint16(v[k:]))
			be.PutUint64(v[d+88:], 1<<40)
		}), inventory.Limits{MaxEntryBytes: 1 << 50, MaxTotalBytes: 1 << 50}, malformed, "but its extents hold"},
		{"name ..", edit(func(v []byte) {
			k := catalogName(t, v, "empty.txt")
			be.PutUint16(v[k+6:], 2)
			copy(v[k+8:], "\x00.\x00.")
		}), inventory.Limits{}, malformed, `holds an entry named ".."`},
		{"name with NUL", edit(func(v []byte) { copy(v[catalogName(t, v, "empty.txt")+8+2:], "\x00\x00") }), inventory.Limits{}, malformed, "holds an entry named"},
		{"volume larger than its partition", edit(func(v []byte) { be.PutUint32(v[1024+44:], 1<<24) }), inventory.Limits{}, malformed, "more than its"},
		{"chunk outside the data fork", table(func(c []udifpack.Chunk) { c[1].Offset = 1 << 40 }), inventory.Limits{}, malformed, "lies outside the"},
		{"chunks overlapping in the partition", table(func(c []udifpack.Chunk) { c[2].Sector-- }), inventory.Limits{}, malformed, "tile the partition"},
		{"chunks leaving a gap", table(func(c []udifpack.Chunk) { c[2].Sector++ }), inventory.Limits{}, malformed, "tile the partition"},
		{"chunks sharing compressed bytes", table(func(c []udifpack.Chunk) { c[3].Offset, c[3].Length = c[2].Offset, c[2].Length }), inventory.Limits{}, malformed, "overlap in its data fork"},
		{"zlib bomb chunk", wrapVolume(t, append(bytes.Clone(vol), make([]byte, 4<<20)...), 8192, allZlib, nil), inventory.Limits{MaxCompressionRatio: 200}, abi.CodeResourceConstraint, "max_compression_ratio"},
		{"chunk inflating short of its size", wrapVolume(t, vol, 16, allZlib, func(c []udifpack.Chunk) {
			i := l.catalog / (16 * 512)
			c[i].Sectors++
			c[i+1].Sector++
			c[i+1].Sectors--
		}), inventory.Limits{}, malformed, "not the 8704 its block table declares"},
		{"metadata over max_header_bytes", dmg, inventory.Limits{MaxHeaderBytes: 4096}, abi.CodeResourceConstraint, "max_header_bytes"},
		{"plist of an array", plist("<plist><array><dict/></array></plist>"), inventory.Limits{}, malformed, "no resource-fork/blkx"},
		{"plist nested 100 deep", plist("<plist>" + strings.Repeat("<array>", 100) + strings.Repeat("</array>", 100) + "</plist>"), inventory.Limits{}, malformed, "nested more than 16 levels"},
		{"blkx without a table", plist("<plist><dict><key>resource-fork</key><dict><key>blkx</key><array><dict><key>Name</key><string>x</string></dict></array></dict></dict></plist>"), inventory.Limits{}, malformed, "has no Data block table"},
		{"mish not base64", plist("<plist><dict><key>resource-fork</key><dict><key>blkx</key><array><dict><key>Data</key><data>!!</data></dict></array></dict></dict></plist>"), inventory.Limits{}, malformed, "does not parse"},
		{"plist of too many tokens", plist("<plist><array>" + strings.Repeat("<string/>", 40000) + "</array></plist>"), inventory.Limits{}, malformed, "more than 65536 XML tokens"},
		{"plist and B-trees over max_header_bytes together", fine, inventory.Limits{MaxHeaderBytes: int64(be.Uint64(fine[len(fine)-512+224:])) + 1024}, abi.CodeResourceConstraint, "the disk image's property list and the nodes of its HFS+ catalog"},
		{"mish too short", plist("<plist><dict><key>resource-fork</key><dict><key>blkx</key><array><dict><key>Data</key><data>bWlzaA==</data></dict></array></dict></dict></plist>"), inventory.Limits{}, malformed, "not a version-1 mish table"},
		{"truncated, trailer kept", append(bytes.Clone(dmg[:len(dmg)/3]), trailer...), inventory.Limits{}, malformed, "outside the"},
		{"truncated", dmg[:len(dmg)/2], inventory.Limits{}, malformed, "not a recognised container"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := inventoryOf(t, "x.dmg", c.img, c.lim)
			wantTyped(t, err, c.code, c.says)
		})
	}
}

// FuzzHFSPlusCatalog feeds arbitrary bytes to the HFS+ reader as a
// volume (one stored chunk, then zero-fill to 1 MiB, so seeds need not
// hold a volume's trailing zeros): every failure is typed, and every
// file it lists has blocks inside the input that decode to its declared
// size. Seeds: small volumes xorriso wrote, trailing zeros cut
// (testdata/fuzz/FuzzHFSPlusCatalog).
func FuzzHFSPlusCatalog(f *testing.F) {
	f.Fuzz(func(t *testing.T, vol []byte) {
		stored := int64(len(vol)) &^ (udifSector - 1)
		size := max(stored, 1<<20)
		p := &udifPartition{name: "fuzz", size: size}
		if stored > 0 {
			p.chunks = append(p.chunks, udifChunk{typ: udifChunkRaw, size: stored, length: stored})
		}
		if size > stored {
			p.chunks = append(p.chunks, udifChunk{typ: udifChunkZero, start: stored, size: size - stored})
		}
		lim := inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxHeaderBytes: 1 << 20, MaxDepth: 8}.WithDefaults()
		b := newBuilder(lim, nil)
		s, err := b.openContainer(inventory.Container{Parent: -1, Entry: -1, File: "x", Format: inventory.FormatDMG})
		if err != nil {
			t.Fatal(err)
		}
		budget := lim.MaxHeaderBytes
		r := &udifReader{s: s, ra: bytes.NewReader(vol), p: p, cache: map[int][]byte{}, budget: &budget}
		err = listHFSPlus(s, r, &udifImage{forkLen: size}, "x")
		var ae *abi.Error
		if err != nil {
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range b.res.Entries {
			if e.Kind != inventory.KindFile {
				continue
			}
			if err := stream.CheckBlocks(e.Data.Blocks, int64(len(vol)), e.Size); err != nil {
				t.Fatalf("%s: %v", e.Path, err)
			}
			n, err := io.Copy(io.Discard, stream.OpenBlocks(bytes.NewReader(vol), *e.Data, nil))
			if err != nil || n != e.Size {
				t.Fatalf("%s decodes to %d bytes of %d: %v", e.Path, n, e.Size, err)
			}
		}
	})
}

// catalogFile is the offset of the data of the file record named name
// (the record type, then the record as TN1150 lays it out).
func catalogFile(t testing.TB, vol []byte, name string) int {
	t.Helper()
	be := binary.BigEndian
	var pat []byte
	pat = be.AppendUint16(pat, uint16(len(name)))
	for _, c := range utf16.Encode([]rune(name)) {
		pat = be.AppendUint16(pat, c)
	}
	l := layoutOf(t, vol)
	for from := l.catalog; ; {
		i := bytes.Index(vol[from:], pat)
		if i < 0 {
			t.Fatalf("no file record names %q", name)
		}
		k := from + i - 6
		if d := k + 2 + int(be.Uint16(vol[k:])); k >= l.catalog && d+2 <= len(vol) && be.Uint16(vol[d:]) == 2 {
			return d
		}
		from += i + 1
	}
}

// TestHFSPlusForksContinueInTheExtentsOverflowFile: a data fork whose
// first eight extents do not hold it continues in the extents-overflow
// B-tree. The real volume's executable is rewritten as eight one-block
// extents plus an overflow record for the rest (the extents B-tree moved
// to two new blocks to hold the leaf); rea and 7-Zip read the same bytes.
func TestHFSPlusForksContinueInTheExtentsOverflowFile(t *testing.T) {
	_, vol := dmgFixture(t)
	be := binary.BigEndian
	bs := layoutOf(t, vol).blockSize
	v := bytes.Clone(vol)
	total := int(be.Uint32(v[1024+44:]))
	fork := v[1024+192 : 1024+272]
	oldTree := int(be.Uint32(fork[16:])) * bs
	node := int(be.Uint16(v[oldTree+14+18:]))
	blocks := (2*node + bs - 1) / bs
	tree := total * bs
	v = append(v, make([]byte, blocks*bs)...)
	fork = v[1024+192 : 1024+272]
	copy(v[tree:], v[oldTree:oldTree+node])
	hr := v[tree+14:]
	be.PutUint16(hr, 1)      // depth
	be.PutUint32(hr[2:], 1)  // root
	be.PutUint32(hr[6:], 1)  // leaf records
	be.PutUint32(hr[10:], 1) // first leaf
	be.PutUint32(hr[14:], 1) // last leaf
	be.PutUint32(hr[22:], 2) // nodes
	be.PutUint32(hr[26:], 0) // free nodes
	be.PutUint32(v[1024+44:], uint32(total+blocks))
	clear(fork)
	be.PutUint64(fork, uint64(2*node))
	be.PutUint32(fork[12:], uint32(blocks))
	be.PutUint32(fork[16:], uint32(total))
	be.PutUint32(fork[20:], uint32(blocks))
	// node 0's map record marks node 1 in use (its first bit).
	v[tree+int(be.Uint16(v[tree+node-6:]))] |= 0x40

	d := catalogFile(t, v, "Example")
	id, ext := be.Uint32(v[d+8:]), v[d+88+16:d+88+80]
	start, count := be.Uint32(ext), be.Uint32(ext[4:])
	if count <= 8 || be.Uint32(ext[12:]) != 0 {
		t.Fatalf("the executable's fork is %d blocks at %d plus more; the test needs one extent of more than 8", count, start)
	}
	for i := range 8 {
		be.PutUint32(ext[8*i:], start+uint32(i))
		be.PutUint32(ext[8*i+4:], 1)
	}
	leaf := v[tree+node : tree+2*node]
	leaf[8], leaf[9] = 0xff, 1 // a leaf at height 1
	be.PutUint16(leaf[10:], 1)
	rec := leaf[14:]
	be.PutUint16(rec, 10)
	be.PutUint32(rec[4:], id)
	be.PutUint32(rec[8:], 8)
	be.PutUint32(rec[12:], start+8)
	be.PutUint32(rec[16:], count-8)
	be.PutUint16(leaf[node-2:], 14)
	be.PutUint16(leaf[node-4:], 14+12+64)

	img := wrapVolume(t, v, 16, nil, nil)
	res, err := inventoryOf(t, "Example.dmg", img, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	agreeWithSevenZip(t, img, res, sevenZipVolume(t, img))
	orig, err := inventoryOf(t, "Example.dmg", wrapVolume(t, vol, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if paths(res) != paths(orig) {
		t.Fatalf("listed %s\nwithout the overflow %s", paths(res), paths(orig))
	}
}

// TestHFSPlusHardLinksReadTheirINode: a hard link (a file record of type
// hlnk, creator hfs+, naming iNode<n>) is listed as a file holding the
// bytes of iNode<n> in the hidden private folder, which is not listed.
// xorriso writes no hard links, so a real volume is rewritten: a folder
// named like the private one gets its NULs, a file becomes the link.
func TestHFSPlusHardLinksReadTheirINode(t *testing.T) {
	if _, err := exec.LookPath("xorriso"); err != nil {
		t.Fatal("xorriso builds this test's HFS+ volume: apt-get install -y xorriso (.ci/run installs it)")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"ZZZZHFS+ Private Data/iNode7": "the linked body\n", "X.app/Contents/Resources/link.txt": "placeholder\n", "X.app/Contents/Info.plist": "<plist/>"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	vol, err := udifpack.HFSPlusVolume(dir, "X")
	if err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	u := func(s string) []byte {
		var b []byte
		for _, c := range utf16.Encode([]rune(s)) {
			b = be.AppendUint16(b, c)
		}
		return b
	}
	v := bytes.ReplaceAll(vol, u("ZZZZHFS+ Private Data"), u(hfsPrivateDir))
	d := catalogFile(t, v, "link.txt")
	copy(v[d+48:], "hlnkhfs+")
	be.PutUint32(v[d+44:], 7)
	clear(v[d+88 : d+168])
	res, err := inventoryOf(t, "X.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	img := wrapVolume(t, v, 16, nil, nil)
	if want := "d:X.app d:X.app/Contents f:X.app/Contents/Info.plist d:X.app/Contents/Resources f:X.app/Contents/Resources/link.txt"; paths(res) != want {
		t.Fatalf("listed %s, want %s", paths(res), want)
	}
	if got := blockBytes(t, img, res.Entries[4]); string(got) != "the linked body\n" {
		t.Fatalf("the link reads %q", got)
	}
	// A link to an iNode the private folder lacks is refused.
	be.PutUint32(v[d+44:], 8)
	_, err = inventoryOf(t, "X.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	wantTyped(t, err, abi.CodeArtifactOperationFailed, "names iNode8, which the volume's private folder does not hold")
}

// TestHFSPlusCompressedFilesAreNamedNotListed: a file the file system
// compressed (UF_COMPRESSED: decmpfs keeps its bytes in an attribute or
// the resource fork) is not listed, and a limitation names it.
func TestHFSPlusCompressedFilesAreNamedNotListed(t *testing.T) {
	_, vol := dmgFixture(t)
	v := bytes.Clone(vol)
	v[catalogFile(t, v, "Info.plist")+41] |= hfsUFCompressed
	res, err := inventoryOf(t, "Example.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "1 compressed by the file system (decmpfs); first: Example.app/Contents/Info.plist") ||
		strings.Contains(paths(res), "Info.plist") {
		t.Fatalf("limitations %q, listed %s", res.Limitations, paths(res))
	}
}

// An image holding a second volume lists the first and says the second
// was not read: the inventory is partial, never complete by omission.
func TestDiskImageWithASecondVolumeSaysSo(t *testing.T) {
	_, vol := dmgFixture(t)
	var buf bytes.Buffer
	if _, err := udifpack.Write(&buf, []udifpack.Partition{
		{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64, Kind: udifpack.DefaultKind},
		{Name: "second (Apple_HFS : 1)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64, Kind: udifpack.DefaultKind},
	}); err != nil {
		t.Fatal(err)
	}
	res, err := inventoryOf(t, "Two.dmg", buf.Bytes(), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "1 more volume(s)") || !strings.Contains(res.Limitations[0], "second (Apple_HFS : 1)") {
		t.Fatalf("limitations %q, want the second volume named", res.Limitations)
	}
	if !strings.Contains(paths(res), "f:Example.app/Contents/Resources/app.asar") {
		t.Fatalf("the first volume was not listed: %s", paths(res))
	}
}

// catalogFolder is the offset of the data of the folder record named
// name (the record type, then the record as TN1150 lays it out).
func catalogFolder(t testing.TB, vol []byte, name string) int {
	t.Helper()
	be := binary.BigEndian
	var pat []byte
	pat = be.AppendUint16(pat, uint16(len(name)))
	for _, c := range utf16.Encode([]rune(name)) {
		pat = be.AppendUint16(pat, c)
	}
	l := layoutOf(t, vol)
	for from := l.catalog; ; {
		i := bytes.Index(vol[from:], pat)
		if i < 0 {
			t.Fatalf("no folder record names %q", name)
		}
		k := from + i - 6
		if d := k + 2 + int(be.Uint16(vol[k:])); k >= l.catalog && d+2 <= len(vol) && be.Uint16(vol[d:]) == 1 {
			return d
		}
		from += i + 1
	}
}

// manyFilesVolume is a real HFS+ volume (xorriso) of a bundle whose
// folder holds n files, enough for a catalog of many leaf nodes.
func manyFilesVolume(t testing.TB, n int) []byte {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		p := filepath.Join(dir, "Many.app", "Contents", "Resources", fmt.Sprintf("file-with-a-long-name-%03d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("body %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vol, err := udifpack.HFSPlusVolume(dir, "Many")
	if err != nil {
		t.Fatal(err)
	}
	return vol
}

// TestHFSPlusCatalogCutShortIsPartial: a catalog whose leaf chain holds
// fewer records than its header declares — a leaf's forward link
// zeroed, or a header that declares one more record — is listed as far
// as the chain reaches with a limitation saying so (the coverage is
// partial), never as a complete listing; the whole chain of the real
// volume (xorriso, 300 files over many leaf nodes) lists every file with
// none. An extents-overflow tree whose chain disagrees with its header
// is refused (a fork it continues would be short).
func TestHFSPlusCatalogCutShortIsPartial(t *testing.T) {
	vol := manyFilesVolume(t, 300)
	l := layoutOf(t, vol)
	be := binary.BigEndian
	files := func(res *inventory.Result) int {
		n := 0
		for _, e := range res.Entries {
			if e.Kind == inventory.KindFile {
				n++
			}
		}
		return n
	}
	res, err := inventoryOf(t, "Many.dmg", wrapVolume(t, vol, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if files(res) != 300 || len(res.Limitations) != 0 {
		t.Fatalf("the whole volume: %d files, limitations %q", files(res), res.Limitations)
	}
	leaf := l.catalog + l.firstLeaf*l.nodeSize
	if be.Uint32(vol[leaf:]) == 0 {
		t.Fatal("the catalog has one leaf node; the test needs a chain")
	}
	cases := []struct {
		name string
		edit func(v []byte)
		says string
	}{
		{"first leaf's link zeroed", func(v []byte) { be.PutUint32(v[leaf:], 0) }, "its leaf chain holds"},
		{"header declares one more record", func(v []byte) {
			hr := v[l.catalog+14:]
			be.PutUint32(hr[6:], be.Uint32(hr[6:])+1)
		}, "its leaf chain holds"},
		{"header names another last leaf", func(v []byte) {
			hr := v[l.catalog+14:]
			be.PutUint32(hr[14:], be.Uint32(hr[14:])+1)
		}, "its leaf chain ends at node"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := bytes.Clone(vol)
			c.edit(v)
			res, err := inventoryOf(t, "Many.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var said bool
			for _, lim := range res.Limitations {
				said = said || strings.Contains(lim, "HFS+ catalog is cut short or inconsistent: "+c.says)
			}
			if !said {
				t.Fatalf("%d files listed, limitations %q", files(res), res.Limitations)
			}
		})
	}
}

// TestHFSPlusExtentsTreeCutShortIsRefused: the extents-overflow tree of
// TestHFSPlusForksContinueInTheExtentsOverflowFile's volume, its header
// declaring a record more than its chain holds, is refused.
func TestHFSPlusExtentsTreeCutShortIsRefused(t *testing.T) {
	_, vol := dmgFixture(t)
	be := binary.BigEndian
	// The executable needs more than its eight first extents, so the
	// extents tree is read: its first extent cut to one block, the rest
	// said to continue in the overflow tree, whose header xorriso wrote
	// with an empty chain (no leaf records).
	v := bytes.Clone(vol)
	d := catalogFile(t, v, "Example")
	if be.Uint32(v[d+88+16+4:]) < 2 {
		t.Fatal("the executable's first extent is one block; the test needs more")
	}
	be.PutUint32(v[d+88+16+4:], 1)
	_, err := inventoryOf(t, "Example.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	wantTyped(t, err, abi.CodeArtifactOperationFailed, "but its extents hold")
	bs := layoutOf(t, v).blockSize
	tree := int(be.Uint32(v[1024+192+16:])) * bs
	hr := v[tree+14:]
	be.PutUint32(hr[6:], be.Uint32(hr[6:])+1)
	_, err = inventoryOf(t, "Example.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	wantTyped(t, err, abi.CodeArtifactOperationFailed, "the extents-overflow B-tree is inconsistent: its leaf chain holds 0 records where its header declares 1")
}

// TestHFSPlusOrphansAreSaid: records whose parent folder the root never
// reaches (the MacOS folder's ID changed, so its executable's record
// names a parent no folder has) are counted in a limitation naming the
// first, never dropped without a word.
func TestHFSPlusOrphansAreSaid(t *testing.T) {
	_, vol := dmgFixture(t)
	v := bytes.Clone(vol)
	d := catalogFolder(t, v, "MacOS")
	old := binary.BigEndian.Uint32(v[d+8:])
	binary.BigEndian.PutUint32(v[d+8:], 0x7fff0000)
	res, err := inventoryOf(t, "Example.dmg", wrapVolume(t, v, 16, nil, nil), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("1 file(s) and folder(s) of the disk image's HFS+ catalog lie in folders the volume's root does not reach, and are not listed (first: \"Example\" in folder ID %d)", old)
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], want) {
		t.Fatalf("limitations %q, want %q", res.Limitations, want)
	}
	if strings.Contains(paths(res), "MacOS/Example") || !strings.Contains(paths(res), "d:Example.app/Contents/MacOS") {
		t.Fatalf("listed %s", paths(res))
	}
}

// TestHFSPlusLinkInAnUndecodableChunkIsSkipped: a symbolic link whose
// target lies in an LZFSE or ADC chunk is not listed, and the limitation
// that names files in such chunks names it; the inventory does not fail.
func TestHFSPlusLinkInAnUndecodableChunkIsSkipped(t *testing.T) {
	_, vol := dmgFixture(t)
	target := []byte("Contents/MacOS/Example")
	at := bytes.Index(vol, target)
	if at < 0 || bytes.Count(vol, target) != 1 {
		t.Fatalf("the link target lies %d times in the volume; the test needs it once", bytes.Count(vol, target))
	}
	for _, c := range []struct {
		kind uint32
		name string
	}{{udifpack.ChunkLZFSE, "LZFSE (ULFO)"}, {udifpack.ChunkADC, "ADC (UDCO)"}} {
		t.Run(c.name, func(t *testing.T) {
			img := wrapVolume(t, vol, 1, func(i int, b []byte) uint32 {
				if i >= at/udifSector && i <= (at+len(target)-1)/udifSector {
					return c.kind
				}
				return udifpack.DefaultKind(i, b)
			}, nil)
			res, err := inventoryOf(t, "Example.dmg", img, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want := "1 file(s) of the disk image's HFS+ volume were not listed because rea does not read them (1 in chunks compressed with " + c.name + "; first: Example.app/run)"
			if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], want) {
				t.Fatalf("limitations %q, want %q", res.Limitations, want)
			}
			if strings.Contains(paths(res), "Example.app/run") || !strings.Contains(paths(res), "f:Example.app/Contents/MacOS/Example") {
				t.Fatalf("listed %s", paths(res))
			}
		})
	}
}

// TestDiskImagePartitionsThatCannotBeReadAreSaid: a partition not named
// by type whose start lies in a chunk rea cannot decode may hold a
// volume. Beside a listed volume it is a limitation naming it; alone,
// its read error (not "no HFS+ partition") is the answer.
func TestDiskImagePartitionsThatCannotBeReadAreSaid(t *testing.T) {
	_, vol := dmgFixture(t)
	startInLZFSE := func(i int, b []byte) uint32 {
		if i == 0 { // 64-sector chunks: the first holds byte 1024
			return udifpack.ChunkLZFSE
		}
		return udifpack.DefaultKind(i, b)
	}
	var buf bytes.Buffer
	if _, err := udifpack.Write(&buf, []udifpack.Partition{
		{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64, Kind: udifpack.DefaultKind},
		{Name: "disk image (Unnamed : 1)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64, Kind: startInLZFSE},
	}); err != nil {
		t.Fatal(err)
	}
	res, err := inventoryOf(t, "Two.dmg", buf.Bytes(), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limitations) != 1 || !strings.Contains(res.Limitations[0], "1 more partition(s) of the disk image could not be read to tell whether they hold a volume") ||
		!strings.Contains(res.Limitations[0], "disk image (Unnamed : 1)") || !strings.Contains(res.Limitations[0], "LZFSE (ULFO)") {
		t.Fatalf("limitations %q, want the unread partition named", res.Limitations)
	}
	if !strings.Contains(paths(res), "f:Example.app/Contents/Resources/app.asar") {
		t.Fatalf("the first volume was not listed: %s", paths(res))
	}
	buf.Reset()
	if _, err := udifpack.Write(&buf, []udifpack.Partition{
		{Name: "disk image (Unnamed : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol)), ChunkSectors: 64, Kind: startInLZFSE},
	}); err != nil {
		t.Fatal(err)
	}
	_, err = inventoryOf(t, "One.dmg", buf.Bytes(), inventory.Limits{})
	wantTyped(t, err, abi.CodeCapabilityUnavailable, "lies in a chunk compressed with LZFSE (ULFO)")
}
