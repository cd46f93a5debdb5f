package container

import (
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// NSIS first-header flags (fileform.h).
const (
	nsisFlagNoCRC = 4
	// nsisCompressedBit marks a compressed data item's length word.
	nsisCompressedBit = 0x80000000
	// nsisFirstHeaderSize: flags, 0xDEADBEEF, "NullsoftInst", header
	// size, length of all the data.
	nsisFirstHeaderSize = 28
)

// listNSIS lists an NSIS installer's data block: NSIS's first header (at a
// 512-byte boundary after the installer stub) is followed by the install
// script header and then one data item per installed file, each a 4-byte
// length (bit 31: compressed) and its bytes. Stored items are files of
// the nsis container named data/item-N (NSIS's own names live in the
// script, which rea does not read); a stored 7-Zip item — electron-builder's
// app-64.7z — is expanded as a nested 7z container. Items compressed with
// NSIS's non-solid deflate ("zlib") are inflated to learn their size and
// listed as deflate ranges; solid data blocks and non-solid LZMA or bzip2
// items are refused with capability_unavailable naming the compression.
func listNSIS(s *scope, ra io.ReaderAt, size int64, file string) error {
	fh := nsisOffset(ra, size)
	if fh < 0 {
		return malformedf("no NSIS first header (0xDEADBEEF \"NullsoftInst\") at a 512-byte boundary in the first %d bytes", nsisScanBytes)
	}
	var h [nsisFirstHeaderSize + 8]byte
	n, _ := ra.ReadAt(h[:], fh)
	if n < nsisFirstHeaderSize+4 {
		return malformedf("the NSIS first header at %d is truncated", fh)
	}
	flags := binary.LittleEndian.Uint32(h[0:])
	headerSize := binary.LittleEndian.Uint32(h[20:])
	total := int64(binary.LittleEndian.Uint32(h[24:]))
	if total < nsisFirstHeaderSize+4 || total > size-fh {
		return malformedf("the NSIS data block declares %d bytes from %d, past the end of the %d-byte file; the installer is truncated", total, fh, size)
	}
	end := fh + total
	if flags&nsisFlagNoCRC == 0 {
		end -= 4 // the CRC-32 of everything before it
	}
	first := h[nsisFirstHeaderSize:n]
	method, solid := nsisCompression(first, headerSize)
	if solid {
		return abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an NSIS installer whose data block is one solid %s stream (SetCompressor /SOLID); rea lists NSIS installers whose items are stored or deflate-compressed one by one, and does not decode solid blocks — extract it with `7z x` (7-Zip reads NSIS) and analyse the folder", file, method).
			WithDetail("format", "nsis").WithDetail("compression", method)
	}
	off := fh + nsisFirstHeaderSize
	for item := 0; off < end; item++ {
		var w [4]byte
		if _, err := ra.ReadAt(w[:], off); err != nil {
			return malformedf("the NSIS data item at %d is truncated", off)
		}
		v := binary.LittleEndian.Uint32(w[:])
		compressed := v&nsisCompressedBit != 0
		length := int64(v &^ nsisCompressedBit)
		data := off + 4
		if length > end-data {
			return malformedf("the NSIS data item at %d declares %d bytes past the end of the data block (%d)", off, length, end)
		}
		off = data + length
		if item == 0 {
			continue // the install script's header: not a file
		}
		itemMethod := method
		if compressed && method == "stored" {
			// The script header is stored, so the compressor is told by
			// the item's own first bytes.
			var head [8]byte
			hn, _ := ra.ReadAt(head[:], data)
			itemMethod = "deflate"
			switch {
			case isNSISLZMA(head[:hn]):
				itemMethod = "LZMA"
			case isBzip2Block(head[:hn]):
				itemMethod = "bzip2"
			}
		}
		if compressed && itemMethod != "deflate" {
			return abi.Errorf(abi.CodeCapabilityUnavailable,
				"%q is an NSIS installer whose item %d (%d bytes at %d) is %s-compressed; rea reads stored and deflate items only — extract the installer with `7z x` (7-Zip reads NSIS) and analyse the folder", file, item, length, data, itemMethod).
				WithDetail("format", "nsis").WithDetail("compression", itemMethod)
		}
		if err := addNSISItem(s, ra, size, file, item, data, length, compressed); err != nil {
			return err
		}
	}
	return nil
}

// addNSISItem lists one data item, expanding a stored 7-Zip archive.
func addNSISItem(s *scope, ra io.ReaderAt, size int64, file string, item int, data, length int64, compressed bool) error {
	if compressed {
		n, err := inflatedSize(ra, data, length, s.b.lim)
		if err != nil {
			return fmt.Errorf("NSIS item %d: %w", item, err)
		}
		name := fmt.Sprintf("data/item-%d", item)
		_, err = s.add(inventory.Entry{Path: name, Kind: inventory.KindFile, Size: n,
			Data: &inventory.Range{File: file, Offset: data, Length: length, Compression: inventory.CompressionDeflate}})
		return err
	}
	var head [8]byte
	hn, _ := ra.ReadAt(head[:], data)
	is7z := sniffSevenZip(head[:hn])
	name := fmt.Sprintf("data/item-%d", item)
	if is7z {
		name += ".7z"
	}
	idx, err := s.add(inventory.Entry{Path: name, Kind: inventory.KindFile, Size: length,
		Data: &inventory.Range{File: file, Offset: data, Length: length}})
	if err != nil || !is7z {
		return err
	}
	child, err := s.b.openContainer(inventory.Container{Parent: s.index, Entry: idx, File: file, Format: inventory.FormatSevenZip,
		Depth: s.b.res.Containers[s.index].Depth + 1})
	if err != nil {
		return err
	}
	if err := listSevenZip(child, ra, data, length, file); err != nil {
		return inContainer(err, name, child.b.res.Containers[child.index].Depth)
	}
	s.b.res.Entries[idx].Nested = child.index
	return nil
}

// inflatedSize inflates a raw deflate item to learn its size, within the
// entry and compression-ratio limits.
func inflatedSize(ra io.ReaderAt, off, n int64, lim inventory.Limits) (int64, error) {
	fr := flate.NewReader(io.NewSectionReader(ra, off, n))
	defer fr.Close()
	budget := min(lim.MaxEntryBytes, max(n*int64(lim.MaxCompressionRatio), 1<<20))
	got, err := io.Copy(io.Discard, io.LimitReader(fr, budget+1))
	if err != nil {
		return 0, malformedf("a deflate item does not inflate: %v", err)
	}
	if got > budget {
		if budget == lim.MaxEntryBytes {
			return 0, limitError("max_entry_bytes", lim.MaxEntryBytes, got, "a deflate item inflates past the entry limit")
		}
		return 0, limitError("max_compression_ratio", int64(lim.MaxCompressionRatio), got/max(n, 1),
			fmt.Sprintf("a deflate item of %d bytes inflates past %d", n, budget))
	}
	return got, nil
}

// nsisCompression tells, from the bytes after the first header, how the
// data block is compressed (the heuristics 7-Zip's NSIS reader uses): a
// stored header's length word equals the header size; an LZMA stream
// starts with the properties byte 0x5D; bzip2 with its block magic;
// anything else is deflate. solid: the block is one stream, with no
// per-item length words.
func nsisCompression(b []byte, headerSize uint32) (method string, solid bool) {
	if len(b) < 4 {
		return "stored", false
	}
	v := binary.LittleEndian.Uint32(b)
	switch {
	case v == headerSize:
		return "stored", false
	case isNSISLZMA(b):
		return "LZMA", true
	case len(b) >= 8 && isNSISLZMA(b[4:]):
		return "LZMA", false
	case b[3] == 0x80:
		if len(b) >= 10 && isBzip2Block(b[4:]) {
			return "bzip2", false
		}
		return "deflate", false
	case isBzip2Block(b):
		return "bzip2", true
	}
	return "deflate", true
}

func isNSISLZMA(b []byte) bool {
	return len(b) >= 5 && b[0] == 0x5d && b[1] == 0 && b[2] == 0
}

func isBzip2Block(b []byte) bool { return len(b) >= 6 && string(b[:6]) == "1AY&SY" }
