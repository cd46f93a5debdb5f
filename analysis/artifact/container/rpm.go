package container

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// RPM layout (rpm's lib/rpmlead.h, lib/header.c, the "RPM file format"
// chapter of rpm.org): a 96-byte lead, a signature header padded to 8
// bytes, the main header, then the payload — a cpio archive ("newc",
// magic 070701) compressed as the main header's PAYLOADCOMPRESSOR says.
const (
	rpmLeadMagic   = "\xed\xab\xee\xdb"
	rpmHeaderMagic = "\x8e\xad\xe8\x01"
	rpmLeadSize    = 96

	rpmTagPayloadFormat     = 1124
	rpmTagPayloadCompressor = 1125
	rpmTypeString           = 6

	// rpmMaxIndex bounds a header's index entries (rpm's own hdrchkTags
	// is 0x00ffffff; real packages have a few hundred).
	rpmMaxIndex = 1 << 16
)

// listRPM lists an RPM package's payload: the cpio members, decompressed
// as one stream, are the entries of the rpm container, their ranges
// addressing the decompressed payload.
func listRPM(s *scope, ra io.ReaderAt, size int64, file string) error {
	var lead [rpmLeadSize]byte
	if n, _ := ra.ReadAt(lead[:], 0); n < len(lead) || string(lead[:4]) != rpmLeadMagic {
		return malformedf("the file does not start with the RPM lead magic")
	}
	off := int64(rpmLeadSize)
	_, sigEnd, err := readRPMHeader(s, ra, size, off, "signature")
	if err != nil {
		return err
	}
	off = (sigEnd + 7) &^ 7 // the signature is padded to 8 bytes
	tags, payload, err := readRPMHeader(s, ra, size, off, "main")
	if err != nil {
		return err
	}
	if f, ok := tags[rpmTagPayloadFormat]; ok && f != "cpio" {
		return abi.Errorf(abi.CodeCapabilityUnavailable, "the RPM payload format is %q; rea reads cpio payloads only", f).WithDetail("format", "rpm")
	}
	var compression string
	switch c := tags[rpmTagPayloadCompressor]; c {
	case "", "gzip":
		compression = inventory.CompressionGzipStream
	case "xz", "lzma":
		compression = inventory.CompressionXzStream
		if c == "lzma" {
			compression = inventory.CompressionLzmaStream
		}
	case "zstd":
		compression = inventory.CompressionZstdStream
	case "bzip2":
		compression = inventory.CompressionBzip2Stream
	default:
		return abi.Errorf(abi.CodeCapabilityUnavailable, "the RPM payload is compressed with %q; rea reads gzip, xz, lzma, zstd and bzip2 payloads", c).WithDetail("format", "rpm")
	}
	n := size - payload
	if n <= 0 {
		return malformedf("the RPM has no payload after its headers (at %d of %d bytes)", payload, size)
	}
	return listCpioMember(s, ra, payload, n, file, compression)
}

// readRPMHeader checks one header structure at off and returns its string
// tags of interest and the offset just past it.
func readRPMHeader(s *scope, ra io.ReaderAt, size, off int64, which string) (map[uint32]string, int64, error) {
	var h [16]byte
	if n, _ := ra.ReadAt(h[:], off); n < len(h) || string(h[:4]) != rpmHeaderMagic {
		return nil, 0, malformedf("the RPM %s header at %d lacks its magic", which, off)
	}
	nindex := int64(binary.BigEndian.Uint32(h[8:]))
	hsize := int64(binary.BigEndian.Uint32(h[12:]))
	if nindex > rpmMaxIndex {
		return nil, 0, limitError("max_entries", rpmMaxIndex, nindex, fmt.Sprintf("the RPM %s header declares %d tags", which, nindex))
	}
	if hsize > s.b.lim.MaxHeaderBytes {
		return nil, 0, limitError("max_header_bytes", s.b.lim.MaxHeaderBytes, hsize, fmt.Sprintf("the RPM %s header declares a %d-byte store", which, hsize))
	}
	indexOff := off + 16
	storeOff := indexOff + nindex*16
	end := storeOff + hsize
	if end > size {
		return nil, 0, malformedf("the RPM %s header declares bytes up to %d, past the end of the file (%d bytes)", which, end, size)
	}
	index := make([]byte, nindex*16)
	if _, err := ra.ReadAt(index, indexOff); err != nil {
		return nil, 0, malformedf("cannot read the RPM %s header index: %v", which, err)
	}
	tags := map[uint32]string{}
	if which != "main" {
		return tags, end, nil
	}
	for i := int64(0); i < nindex; i++ {
		e := index[i*16:]
		tag, typ, eoff := binary.BigEndian.Uint32(e), binary.BigEndian.Uint32(e[4:]), int64(binary.BigEndian.Uint32(e[8:]))
		if (tag != rpmTagPayloadFormat && tag != rpmTagPayloadCompressor) || typ != rpmTypeString {
			continue
		}
		if eoff >= hsize {
			return nil, 0, malformedf("RPM tag %d points at %d, outside its %d-byte store", tag, eoff, hsize)
		}
		var buf [64]byte
		n, _ := ra.ReadAt(buf[:min(int64(len(buf)), hsize-eoff)], storeOff+eoff)
		str, _, ok := bytes.Cut(buf[:n], []byte{0})
		if !ok {
			return nil, 0, malformedf("RPM tag %d is not a terminated string of at most %d bytes", tag, len(buf))
		}
		tags[tag] = string(str)
	}
	return tags, end, nil
}

// cpio "newc" mode bits.
const (
	cpioTypeMask = 0o170000
	cpioDir      = 0o040000
	cpioReg      = 0o100000
	cpioLink     = 0o120000
)

// cpioMember is one header of the payload, kept until the trailer so that
// hard links (newc writes the data with the last name of an inode) can be
// told from empty files.
type cpioMember struct {
	name   string
	mode   uint32
	ino    string
	nlink  uint32
	offset int64
	size   int64
	target string
}

// listCpioMember lists the cpio archive compressed in bytes [off, off+n)
// of ra. The decompressed bytes may be at most max_compression_ratio
// times n (1 MiB of slack).
func listCpioMember(s *scope, ra io.ReaderAt, off, n int64, file, compression string) error {
	d, err := s.decodedStream(off, n, 0, file, compression)
	if err != nil {
		return err
	}
	if d != nil {
		defer d.Close()
		sr := io.NewSectionReader(d.ra, 0, d.size)
		src := &countingReader{r: sr, seeker: sr, budget: d.size, fileSize: n}
		members, err := readCpio(s, src)
		if err != nil {
			return err
		}
		start := len(s.b.res.Entries)
		if err := addCpioMembers(s, members, off, n, file, compression); err != nil {
			return err
		}
		if err := expandStreamASARs(s, start, d, 0); err != nil {
			return err
		}
		return expandStreamArchives(s, start, 0)
	}
	dec, err := stream.Decoder(io.NewSectionReader(ra, off, n), compression)
	if err != nil {
		return malformedf("%v", err)
	}
	defer dec.Close()
	ratio := int64(s.b.lim.MaxCompressionRatio)
	budget, _ := inventory.StreamBudget(s.b.lim, n)
	cr := &countingReader{r: dec, budget: budget, fileSize: n, ratio: ratio, stream: strings.TrimSuffix(compression, "-stream")}
	members, err := readCpio(s, cr)
	if err != nil {
		if cr.err != nil {
			return cr.err
		}
		return err
	}
	if err := addCpioMembers(s, members, off, n, file, compression); err != nil {
		return err
	}
	// Read the rest so the decompressor checks its trailer.
	if _, err := io.Copy(io.Discard, cr); err != nil {
		if cr.err != nil {
			return cr.err
		}
		return malformedf("the %s payload is corrupt or truncated: %v", compression, err)
	}
	return nil
}

// addCpioMembers adds the members read from a cpio payload as entries.
func addCpioMembers(s *scope, members []cpioMember, off, n int64, file, compression string) error {
	// Every name of a multiply linked inode but the one carrying its
	// data is a hard link to that one.
	dataOf := map[string]string{}
	for _, m := range members {
		if m.mode&cpioTypeMask == cpioReg && m.nlink > 1 && m.size > 0 {
			dataOf[m.ino] = m.name
		}
	}
	for _, m := range members {
		norm := m.name
		var e inventory.Entry
		switch m.mode & cpioTypeMask {
		case cpioDir:
			e = inventory.Entry{Path: norm, Kind: inventory.KindDirectory}
		case cpioLink:
			e = inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink(m.target, path.Dir(norm))}
		case cpioReg:
			if target, ok := dataOf[m.ino]; ok && m.nlink > 1 && m.size == 0 && target != norm {
				l := inventory.NewLink(target, "")
				l.Hard = true
				e = inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: l}
				break
			}
			e = inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: m.size, Executable: m.mode&0o111 != 0,
				Data: &inventory.Range{File: file, Offset: m.offset, Length: m.size, Compression: compression, StreamOffset: off, StreamLength: n}}
		}
		if _, err := s.add(e); err != nil {
			return err
		}
	}
	return nil
}

// readCpio reads newc headers up to the TRAILER!!! member, skipping file
// data and reading link targets (bounded by max_path_bytes).
func readCpio(s *scope, cr *countingReader) ([]cpioMember, error) {
	var members []cpioMember
	var hdr [110]byte
	for {
		if _, err := io.ReadFull(cr, hdr[:]); err != nil {
			return nil, malformedf("the cpio payload is truncated before its trailer: %v", err)
		}
		magic := string(hdr[:6])
		if magic != "070701" && magic != "070702" {
			if magic == "07070X" {
				return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "the RPM payload is rpm's large-file stripped cpio (07070X), which needs the header's file table; rea reads newc payloads").WithDetail("format", "rpm")
			}
			return nil, malformedf("a cpio header at %d has magic %q, not newc 070701", cr.n-110, magic)
		}
		field := func(i int) (uint32, error) {
			v, err := strconv.ParseUint(string(hdr[6+8*i:14+8*i]), 16, 32)
			if err != nil {
				return 0, malformedf("a cpio header at %d has an unreadable field %q", cr.n-110, hdr[6+8*i:14+8*i])
			}
			return uint32(v), nil
		}
		var f [13]uint32
		for i := range f {
			v, err := field(i)
			if err != nil {
				return nil, err
			}
			f[i] = v
		}
		mode, nlink, fsize, namesize := f[1], f[4], int64(f[6]), int64(f[11])
		if namesize == 0 || namesize > int64(s.b.lim.MaxPathBytes)+3 {
			return nil, limitError("max_path_bytes", int64(s.b.lim.MaxPathBytes), namesize, fmt.Sprintf("a cpio member name at %d is %d bytes", cr.n-110, namesize))
		}
		nameBuf := make([]byte, pad4(110+namesize)-110)
		if _, err := io.ReadFull(cr, nameBuf); err != nil {
			return nil, malformedf("the cpio payload is truncated in a member name: %v", err)
		}
		raw := string(nameBuf[:namesize])
		if !strings.HasSuffix(raw, "\x00") || strings.Contains(raw[:namesize-1], "\x00") {
			return nil, malformedf("a cpio member name is not NUL-terminated")
		}
		raw = raw[:namesize-1]
		dataOff := cr.n
		padded := pad4(fsize)
		if raw == "TRAILER!!!" {
			return members, nil
		}
		name, _ := archiveName(raw)
		name = strings.TrimPrefix(name, "/")
		if name == "" {
			if _, err := cr.skip(padded); err != nil {
				return nil, malformedf("the cpio payload is truncated: %v", err)
			}
			continue
		}
		norm, err := s.normalize(name)
		if err != nil {
			return nil, err
		}
		if len(members) >= s.b.lim.MaxEntries {
			return nil, limitError("max_entries", int64(s.b.lim.MaxEntries), int64(len(members))+1, fmt.Sprintf("the cpio payload declares at least %d members", len(members)+1))
		}
		m := cpioMember{name: norm, mode: mode, ino: fmt.Sprintf("%d:%d:%d", f[0], f[7], f[8]), nlink: nlink, offset: dataOff, size: fsize}
		switch mode & cpioTypeMask {
		case cpioDir, cpioReg:
			if mode&cpioTypeMask == cpioDir && fsize != 0 {
				return nil, malformedf("cpio directory %q declares %d bytes of data", norm, fsize).WithDetail("path", norm)
			}
			if _, err := cr.skip(padded); err != nil {
				return nil, malformedf("cpio member %q is truncated: %v", norm, err).WithDetail("path", norm)
			}
		case cpioLink:
			if fsize > int64(s.b.lim.MaxPathBytes) {
				return nil, limitError("max_path_bytes", int64(s.b.lim.MaxPathBytes), fsize, fmt.Sprintf("the target of cpio link %q is %d bytes", norm, fsize))
			}
			b := make([]byte, padded)
			if _, err := io.ReadFull(cr, b); err != nil {
				return nil, malformedf("cpio link %q is truncated: %v", norm, err).WithDetail("path", norm)
			}
			m.target = string(b[:fsize])
		default:
			return nil, malformedf("cpio member %q has mode %o (device, FIFO, socket or unknown); rea only inventories files, directories and links", norm, mode).WithDetail("path", norm)
		}
		members = append(members, m)
	}
}

func pad4(n int64) int64 { return (n + 3) &^ 3 }

// sniffRPM recognises an RPM by its lead magic and its signature header.
func sniffRPM(h []byte) bool {
	return len(h) >= rpmLeadSize+4 && string(h[:4]) == rpmLeadMagic && string(h[rpmLeadSize:rpmLeadSize+4]) == rpmHeaderMagic
}
