// Package udifpack writes Apple UDIF disk images (.dmg) around raw
// partition images — the layout hdiutil writes for a UDZO image: the
// data fork (every partition's chunks, zlib-compressed or stored), then
// an XML property list whose resource-fork/blkx array holds one "mish"
// block table per partition, then the 512-byte "koly" trailer that
// points at both. rea does not read disk images; this writer exists so
// tests can wrap a file system made by a real tool (xorriso's HFS+) in a
// real UDIF container, checked by independent readers (7-Zip, dmg2img),
// without committing binary fixtures. No Debian tool writes UDIF.
//
// Byte layout (big-endian throughout) as Apple's UDIF documentation and
// the open readers describe it; reimplemented here, not copied.
package udifpack

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ulikunitz/xz"
)

// Chunk types of a block table.
const (
	ChunkZero       = 0x00000000 // zero-fill: no bytes in the data fork
	ChunkRaw        = 0x00000001 // stored
	ChunkIgnore     = 0x00000002 // free space, reads as zeros
	ChunkADC        = 0x80000004 // UDCO
	ChunkZlib       = 0x80000005 // UDZO
	ChunkBzip2      = 0x80000006 // UDBZ
	ChunkLZFSE      = 0x80000007 // ULFO
	ChunkLZMA       = 0x80000008 // ULMO
	ChunkComment    = 0x7ffffffe
	ChunkTerminator = 0xffffffff
)

// SectorSize is the unit of every sector number and count.
const SectorSize = 512

// Partition is one partition image and how its chunks are stored.
type Partition struct {
	// Name is the blkx entry's name, as hdiutil spells it
	// ("disk image (Apple_HFS : 0)"); the file system is named inside it.
	Name string
	// Data holds the partition's Size bytes, a multiple of SectorSize
	// (a file is read chunk by chunk: a sparse 256 MiB APFS container
	// costs one chunk of memory).
	Data io.ReaderAt
	Size int64
	// ChunkSectors is the sectors per chunk (hdiutil: 2048); 0 means 2048.
	ChunkSectors int
	// Kind chooses each chunk's type from its index and bytes; nil
	// compresses every chunk with zlib and writes all-zero chunks as
	// zero-fill, as hdiutil's UDZO does.
	Kind func(i int, chunk []byte) uint32
	// Tamper, when set, may change the block table before it is written
	// (the terminator last), for tests of hostile tables.
	Tamper func(chunks []Chunk)
}

// Chunk is one block-table entry as written, for tests that corrupt it.
type Chunk struct {
	Type            uint32
	Sector, Sectors uint64 // relative to the partition
	Offset, Length  uint64 // in the data fork
}

// Write writes the image and returns, per partition, the chunks written.
func Write(w io.Writer, parts []Partition) ([][]Chunk, error) {
	var fork bytes.Buffer
	var tables [][]byte
	var all [][]Chunk
	var sector uint64
	for pi, p := range parts {
		if p.Size%SectorSize != 0 {
			return nil, fmt.Errorf("partition %d is %d bytes, not a multiple of %d", pi, p.Size, SectorSize)
		}
		per := int64(p.ChunkSectors)
		if per == 0 {
			per = 2048
		}
		kind := p.Kind
		if kind == nil {
			kind = DefaultKind
		}
		var chunks []Chunk
		crc := crc32.NewIEEE()
		buf := make([]byte, per*SectorSize)
		for i, off := 0, int64(0); off < p.Size; i++ {
			b := buf[:min(per*SectorSize, p.Size-off)]
			if _, err := p.Data.ReadAt(b, off); err != nil {
				return nil, fmt.Errorf("partition %d at %d: %w", pi, off, err)
			}
			crc.Write(b)
			c := Chunk{Type: kind(i, b), Sector: uint64(off / SectorSize), Sectors: uint64(len(b) / SectorSize), Offset: uint64(fork.Len())}
			switch c.Type {
			case ChunkZero, ChunkIgnore:
				c.Offset = 0 // hdiutil writes the fork offset; readers ignore it
			case ChunkRaw:
				fork.Write(b)
			case ChunkZlib:
				zw, _ := zlib.NewWriterLevel(&fork, zlib.BestCompression)
				zw.Write(b)
				zw.Close()
			case ChunkBzip2:
				z, err := bzip2Compress(b)
				if err != nil {
					return nil, err
				}
				fork.Write(z)
			case ChunkLZMA:
				// ULMO chunks are xz streams (Apple's libcompression
				// COMPRESSION_LZMA: "LZMA in an XZ container").
				xw, err := xz.NewWriter(&fork)
				if err != nil {
					return nil, err
				}
				xw.Write(b)
				if err := xw.Close(); err != nil {
					return nil, err
				}
			case ChunkADC, ChunkLZFSE:
				// No encoder here: the chunk holds its bytes as they are
				// under the type's name, so a test can check a reader
				// that does not decode the type says so (real readers
				// fail on it).
				fork.Write(b)
			default:
				return nil, fmt.Errorf("udifpack writes zero, ignore, raw, zlib, bzip2, xz (ULMO), ADC and LZFSE chunks, not %#x", c.Type)
			}
			if c.Type != ChunkZero && c.Type != ChunkIgnore {
				c.Length = uint64(fork.Len()) - c.Offset
			}
			chunks = append(chunks, c)
			off += int64(len(b))
		}
		chunks = append(chunks, Chunk{Type: ChunkTerminator, Sector: uint64(p.Size / SectorSize), Offset: uint64(fork.Len())})
		if p.Tamper != nil {
			p.Tamper(chunks)
		}
		tables = append(tables, mish(sector, uint64(p.Size/SectorSize), chunks, crc.Sum32()))
		all = append(all, chunks)
		sector += uint64(p.Size / SectorSize)
	}
	xml := plist(parts, tables)
	forkLen := uint64(fork.Len())
	koly := make([]byte, 512)
	be := binary.BigEndian
	copy(koly, "koly")
	be.PutUint32(koly[4:], 4)   // version
	be.PutUint32(koly[8:], 512) // header size
	be.PutUint32(koly[12:], 1)  // flags: flattened
	be.PutUint64(koly[24:], 0)  // data fork offset
	be.PutUint64(koly[32:], forkLen)
	be.PutUint32(koly[56:], 1) // segment number
	be.PutUint32(koly[60:], 1) // segment count
	copy(koly[64:80], "rea-udifpack-id!")
	be.PutUint32(koly[80:], 2) // data fork checksum: CRC32
	be.PutUint32(koly[84:], 32)
	be.PutUint32(koly[88:], crc32.ChecksumIEEE(fork.Bytes()))
	be.PutUint64(koly[216:], forkLen) // XML offset
	be.PutUint64(koly[224:], uint64(len(xml)))
	be.PutUint32(koly[488:], 1) // image variant: device image
	be.PutUint64(koly[492:], sector)
	for _, b := range [][]byte{fork.Bytes(), xml, koly} {
		if _, err := w.Write(b); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// bzip2Compress compresses b with the real bzip2 (Debian's bzip2
// package; Go has no bzip2 writer), as hdiutil's UDBZ chunks are.
func bzip2Compress(b []byte) ([]byte, error) {
	cmd := exec.Command("bzip2", "-c", "-9")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("bzip2 writes UDBZ chunks: %v (apt-get install -y bzip2)", err)
	}
	return out, nil
}

// DefaultKind is hdiutil's UDZO choice: zero-fill for an all-zero chunk,
// zlib for any other.
func DefaultKind(_ int, b []byte) uint32 {
	for _, c := range b {
		if c != 0 {
			return ChunkZlib
		}
	}
	return ChunkZero
}

// mish is one partition's block table: a 204-byte header, then 40 bytes
// per chunk.
func mish(first, sectors uint64, chunks []Chunk, crc uint32) []byte {
	be := binary.BigEndian
	b := make([]byte, 204+40*len(chunks))
	copy(b, "mish")
	be.PutUint32(b[4:], 1)
	be.PutUint64(b[8:], first)
	be.PutUint64(b[16:], sectors)
	be.PutUint64(b[24:], 0) // data offset: chunk offsets are from the fork's start
	be.PutUint32(b[32:], 2048)
	be.PutUint32(b[36:], 0)
	be.PutUint32(b[64:], 2) // checksum of the decoded partition: CRC32
	be.PutUint32(b[68:], 32)
	be.PutUint32(b[72:], crc)
	be.PutUint32(b[200:], uint32(len(chunks)))
	for i, c := range chunks {
		e := b[204+40*i:]
		be.PutUint32(e, c.Type)
		be.PutUint64(e[8:], c.Sector)
		be.PutUint64(e[16:], c.Sectors)
		be.PutUint64(e[24:], c.Offset)
		be.PutUint64(e[32:], c.Length)
	}
	return b
}

// plist is the XML property list hdiutil writes: resource-fork → blkx →
// one dictionary per partition with its block table as base64 data.
func plist(parts []Partition, tables [][]byte) []byte {
	var s strings.Builder
	s.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>resource-fork</key>
	<dict>
		<key>blkx</key>
		<array>
`)
	for i, p := range parts {
		fmt.Fprintf(&s, "\t\t\t<dict>\n\t\t\t\t<key>Attributes</key>\n\t\t\t\t<string>0x0050</string>\n\t\t\t\t<key>CFName</key>\n\t\t\t\t<string>%s</string>\n", p.Name)
		s.WriteString("\t\t\t\t<key>Data</key>\n\t\t\t\t<data>\n")
		enc := base64.StdEncoding.EncodeToString(tables[i])
		for len(enc) > 0 {
			n := min(len(enc), 52)
			s.WriteString("\t\t\t\t" + enc[:n] + "\n")
			enc = enc[n:]
		}
		fmt.Fprintf(&s, "\t\t\t\t</data>\n\t\t\t\t<key>ID</key>\n\t\t\t\t<string>%d</string>\n\t\t\t\t<key>Name</key>\n\t\t\t\t<string>%s</string>\n\t\t\t</dict>\n", i-1, p.Name)
	}
	s.WriteString("\t\t</array>\n\t</dict>\n</dict>\n</plist>\n")
	return []byte(s.String())
}

// APMPartition returns the partition of type typ ("Apple_HFS") from an
// image with an Apple Partition Map — what xorriso -hfsplus writes: a
// driver descriptor block ("ER", its block size at byte 2), then one
// "PM" entry per block naming each partition's first block, block
// count, name and type. It is how a test takes the real HFS+ volume
// xorriso made out of its hybrid ISO.
func APMPartition(img []byte, typ string) ([]byte, error) {
	be := binary.BigEndian
	if len(img) < 512 || string(img[:2]) != "ER" {
		return nil, fmt.Errorf("no Apple Partition Map (driver descriptor %q)", img[:min(2, len(img))])
	}
	bs := int64(be.Uint16(img[2:]))
	if bs < 512 || bs&(bs-1) != 0 {
		return nil, fmt.Errorf("the driver descriptor declares block size %d", bs)
	}
	count := int64(1)
	for i := int64(1); i <= count && (i+1)*bs <= int64(len(img)); i++ {
		e := img[i*bs:]
		if string(e[:2]) != "PM" {
			return nil, fmt.Errorf("partition map entry %d lacks its signature", i)
		}
		count = int64(be.Uint32(e[4:]))
		start, n := int64(be.Uint32(e[8:]))*bs, int64(be.Uint32(e[12:]))*bs
		if strings.TrimRight(string(e[48:80]), "\x00") == typ {
			if start+n > int64(len(img)) {
				return nil, fmt.Errorf("partition %s runs past the image", typ)
			}
			return img[start : start+n], nil
		}
	}
	return nil, fmt.Errorf("no %s partition in the map", typ)
}

// HFSPlusVolume makes a real HFS+ volume holding the tree under dir, with
// the real xorriso (Debian's xorriso package; no Debian tool formats a
// bare HFS+ volume): `xorriso -as mkisofs -hfsplus` writes an ISO 9660 /
// HFS+ hybrid whose Apple Partition Map holds a self-contained HFS+
// volume (its catalog, extents and file data), which is returned. The
// volume is named volume (7-Zip lists its files under that name).
func HFSPlusVolume(dir, volume string) ([]byte, error) {
	if _, err := exec.LookPath("xorriso"); err != nil {
		return nil, fmt.Errorf("xorriso builds the HFS+ fixture: apt-get install -y xorriso (.ci/run installs it)")
	}
	tmp, err := os.MkdirTemp("", "udifpack-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	iso := filepath.Join(tmp, "hybrid.iso")
	cmd := exec.Command("xorriso", "-as", "mkisofs", "-hfsplus", "-V", volume, "-o", iso, dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("xorriso -hfsplus: %v\n%s", err, b)
	}
	img, err := os.ReadFile(iso)
	if err != nil {
		return nil, err
	}
	return APMPartition(img, "Apple_HFS")
}
