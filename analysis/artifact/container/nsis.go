package container

import (
	"bufio"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"rea/abi"
	"rea/analysis/artifact/artpath"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// NSIS first-header flags (fileform.h).
const (
	nsisFlagNoCRC = 4
	nsisFlagsMask = 15
	// nsisCompressedBit marks a compressed data item's length word.
	nsisCompressedBit = 0x80000000
	// nsisFirstHeaderSize: flags, 0xDEADBEEF, "NullsoftInst", header
	// size, length of all the data.
	nsisFirstHeaderSize = 28
)

// nsisMethod is how an NSIS data block is compressed, told from its
// first bytes the way 7-Zip's NSIS reader tells it (makensis writes no
// method field).
type nsisMethod struct {
	// name: "stored", "deflate", "LZMA" or "bzip2".
	name  string
	solid bool
	// filter: the LZMA data is preceded by a filter flag byte (0: none,
	// 1: x86 BCJ), as 7-Zip's own installer builds write it.
	filter bool
}

// listNSIS lists an NSIS installer's data block. NSIS's first header (at
// a 512-byte boundary after the installer stub) is followed either by
// one item per compressed unit — the install script's header, then each
// file, as a 4-byte length (bit 31: compressed) and its bytes — or, for
// a solid installer (SetCompressor /SOLID), by one compressed stream
// holding the same records uncompressed. Every makensis compressor is
// read: zlib (raw DEFLATE), bzip2 (NSIS's headerless variant) and LZMA,
// solid or not. Files get the names the script's File instructions give
// them where those resolve (nsis_script.go), else data/item-N. A stored
// 7-Zip item (electron-builder's app-64.7z) is expanded as a nested 7z
// container. The installer's CRC-32 is checked when it has one: here, or
// by the host in the pass in which it hashes the file (HostChecksums).
func listNSIS(s *scope, ra io.ReaderAt, size int64, file string) (err error) {
	fh := nsisOffset(ra, size)
	if fh < 0 {
		return malformedf("no NSIS first header (0xDEADBEEF \"NullsoftInst\") at a 512-byte boundary in the first %d bytes", nsisScanBytes)
	}
	var h [nsisFirstHeaderSize]byte
	if n, _ := ra.ReadAt(h[:], fh); n < nsisFirstHeaderSize {
		return malformedf("the NSIS first header at %d is truncated", fh)
	}
	flags := binary.LittleEndian.Uint32(h[0:])
	headerSize := int64(binary.LittleEndian.Uint32(h[20:]))
	total := int64(binary.LittleEndian.Uint32(h[24:]))
	if flags&^nsisFlagsMask != 0 {
		return malformedf("the NSIS first header at %d has unknown flags %#x", fh, flags)
	}
	if total < nsisFirstHeaderSize+4 || total > size-fh {
		return malformedf("the NSIS data block declares %d bytes from %d, past the end of the %d-byte file; the installer is truncated", total, fh, size)
	}
	if headerSize <= 0 || headerSize > s.b.lim.MaxHeaderBytes {
		return limitError("max_header_bytes", s.b.lim.MaxHeaderBytes, headerSize, "the NSIS script header declares its size")
	}
	end := fh + total
	if flags&nsisFlagNoCRC == 0 {
		end -= 4
		if err := checkOrDeclareNSISCRC(s, ra, fh, end); err != nil {
			return err
		}
		if s.b.res.Containers[s.index].Checksum != nil {
			// A corrupt installer often fails to list (a stream that
			// no longer decodes, a length past the end): its CRC-32,
			// checked here then, says why, as it did when it was
			// checked first.
			defer func() {
				if err != nil {
					if cerr := checkNSISCRC(ra, fh, end); cerr != nil {
						err = cerr
					}
				}
			}()
		}
	}
	start := fh + nsisFirstHeaderSize
	var sig [16]byte
	n, _ := ra.ReadAt(sig[:], start)
	m := detectNSISMethod(sig[:n], uint32(headerSize), end-start)
	l := &nsisLister{s: s, ra: ra, size: size, file: file, headerSize: headerSize, m: m, probe: artpath.NewRegistry(),
		script: &nsisScript{reason: "the data block holds no script header"}, first: len(s.b.res.Entries), dataStart: -1}
	if m.solid {
		return l.solid(start, end)
	}
	return l.nonSolid(start, end)
}

// checkOrDeclareNSISCRC checks the installer's CRC-32 now, or, when the
// host hashes the file anyway (HostChecksums) and the installer is a
// file of its own (not read from a section or a decoded stream of
// another), declares it on the container for the host to check in that
// pass: summing 200 MB in the sandbox cost as much as the rest of the
// inventory.
func checkOrDeclareNSISCRC(s *scope, ra io.ReaderAt, fh, end int64) error {
	if !s.b.hostChecksums || s.base != 0 || s.source != nil {
		return checkNSISCRC(ra, fh, end)
	}
	from := nsisCRCStart(fh)
	var w [4]byte
	if n, _ := ra.ReadAt(w[:], end); n < 4 {
		return malformedf("the NSIS installer's CRC-32 at %d is truncated", end)
	}
	s.b.res.Containers[s.index].Checksum = &inventory.Checksum{Algorithm: inventory.ChecksumCRC32,
		Offset: from, Length: end - from, Value: binary.LittleEndian.Uint32(w[:])}
	return nil
}

// nsisCRCStart is where the installer's CRC-32 starts: the installer
// stub computes it (exehead/fileform.c) over the file from byte 512 —
// its first 512-byte read is never summed; a first header at 0 (no
// stub) is summed from 0.
func nsisCRCStart(fh int64) int64 {
	if fh == 0 {
		return 0
	}
	return 512
}

// checkNSISCRC compares the CRC-32 the installer ends with (at end)
// against its bytes from nsisCRCStart to that word.
func checkNSISCRC(ra io.ReaderAt, fh, end int64) error {
	from := nsisCRCStart(fh)
	var w [4]byte
	if n, _ := ra.ReadAt(w[:], end); n < 4 {
		return malformedf("the NSIS installer's CRC-32 at %d is truncated", end)
	}
	want := binary.LittleEndian.Uint32(w[:])
	c := crc32.NewIEEE()
	if _, err := io.CopyBuffer(c, io.NewSectionReader(ra, from, end-from), make([]byte, 1<<20)); err != nil {
		return malformedf("cannot read the NSIS installer to check its CRC-32: %v", err)
	}
	if got := c.Sum32(); got != want {
		return abi.Errorf(abi.CodeArtifactIntegrity,
			"the NSIS installer declares CRC-32 %08x but its bytes %d–%d sum to %08x; the installer is corrupt or was modified after it was built", want, from, end, got).
			WithDetail("format", "nsis").WithDetail("declared_crc32", fmt.Sprintf("%08x", want)).WithDetail("observed_crc32", fmt.Sprintf("%08x", got))
	}
	return nil
}

// detectNSISMethod tells, from the bytes after the first header, how the
// data block is compressed: a stored script header's length word equals
// the header size; a solid LZMA block starts with LZMA properties (maybe
// after a filter flag); a non-solid compressed header has bit 31 set in
// its length word, followed by LZMA properties, bzip2's first block or
// DEFLATE; a solid bzip2 block starts with its block marker; anything
// else is a solid DEFLATE block. block is the data block's length: a
// length word whose item would not fit in it is no length word (a solid
// DEFLATE stream's fourth byte is 0x80 once in 256 installers).
func detectNSISMethod(b []byte, headerSize uint32, block int64) nsisMethod {
	if len(b) < 12 {
		return nsisMethod{name: "stored"}
	}
	if binary.LittleEndian.Uint32(b) == headerSize {
		return nsisMethod{name: "stored"}
	}
	if ok, filter := nsisLZMAStart(b); ok {
		return nsisMethod{name: "LZMA", solid: true, filter: filter}
	}
	if b[3] == 0x80 && int64(binary.LittleEndian.Uint32(b)&^nsisCompressedBit) <= block-4 {
		if ok, filter := nsisLZMAStart(b[4:]); ok {
			return nsisMethod{name: "LZMA", filter: filter}
		}
		if isNSISBzip2(b[4:]) {
			return nsisMethod{name: "bzip2"}
		}
		return nsisMethod{name: "deflate"}
	}
	if isNSISBzip2(b) {
		return nsisMethod{name: "bzip2", solid: true}
	}
	return nsisMethod{name: "deflate", solid: true}
}

// isNSISLZMA: the properties makensis writes (lc=3 lp=0 pb=2, a
// dictionary that is a multiple of 64 KiB) and the range coder's first
// byte, which is always 0.
func isNSISLZMA(b []byte) bool {
	return len(b) >= 7 && b[0] == 0x5d && b[1] == 0 && b[2] == 0 && b[5] == 0 && b[6]&0x80 == 0
}

// nsisLZMAStart: LZMA properties, or a filter flag (0 or 1) and then
// properties.
func nsisLZMAStart(b []byte) (ok, filter bool) {
	if isNSISLZMA(b) {
		return true, false
	}
	if len(b) > 0 && b[0] <= 1 && isNSISLZMA(b[1:]) {
		return true, true
	}
	return false, false
}

// isNSISBzip2: NSIS's bzip2 block marker 0x31 and the high byte of a
// 24-bit origPtr, which is below 14 for a 900 kB block.
func isNSISBzip2(b []byte) bool { return len(b) >= 2 && b[0] == 0x31 && b[1] < 14 }

// nsisLister lists one installer.
type nsisLister struct {
	s          *scope
	ra         io.ReaderAt
	size       int64
	file       string
	headerSize int64
	m          nsisMethod
	script     *nsisScript
	// probe mirrors the container's path registry, so a name that would
	// collide falls back to data/item-N instead of failing the listing.
	probe *artpath.Registry
	// fallback counts items listed as data/item-N although other items
	// were named; collided counts names given to an earlier item.
	fallback, collided int
	firstFallback      string
	afterUninst        bool
	// first is the index of the container's first entry.
	first int
	// dataStart is where a non-solid installer's first item after the
	// script header starts (-1 until it is known).
	dataStart int64
}

// streamKind is the stream compression of a method; shift is how many
// bytes of filter flag precede the stream.
func (l *nsisLister) streamKind(flag byte) (kind string, shift int64, err error) {
	switch l.m.name {
	case "deflate":
		return inventory.CompressionDeflateStream, 0, nil
	case "bzip2":
		return inventory.CompressionNSISBzip2Stream, 0, nil
	case "LZMA":
		if !l.m.filter {
			return inventory.CompressionNSISLzmaStream, 0, nil
		}
		switch flag {
		case 0:
			return inventory.CompressionNSISLzmaStream, 1, nil
		case 1:
			return inventory.CompressionNSISLzmaX86Stream, 1, nil
		}
		return "", 0, abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an NSIS installer whose LZMA data carries filter flag %d; rea knows 0 (none) and 1 (x86 BCJ) only — extract it with `7z x` and analyse the folder", l.file, flag).
			WithDetail("format", "nsis").WithDetail("compression", "LZMA").WithDetail("filter", int(flag))
	}
	return "", 0, malformedf("the NSIS data block's compression %q is not a stream", l.m.name)
}

// solid lists a solid installer: [start, end) is one compressed stream
// of [length][header] then [length][file] records.
func (l *nsisLister) solid(start, end int64) error {
	var flag [1]byte
	l.ra.ReadAt(flag[:], start)
	kind, shift, err := l.streamKind(flag[0])
	if err != nil {
		return err
	}
	r := inventory.Range{File: l.file, Compression: kind, StreamOffset: start + shift, StreamLength: end - start - shift}
	if err := l.checkDictionary(r); err != nil {
		return err
	}
	// Walked front to back without a copy when the host offers it and
	// no item will be read at random (an archive rea expands): the host
	// sums each item as the walk skips it. Else from the host's copy, or
	// decoded here.
	src, closeSrc, err := l.openWalk(r)
	if err != nil {
		return err
	}
	if src != nil {
		if err := l.readSolidHeader(src); err != nil {
			closeSrc()
			return err
		}
		if l.script.namesArchive() {
			closeSrc()
			src = nil
		}
	}
	if src == nil {
		if src, closeSrc, err = l.openStream(r); err != nil {
			return err
		}
		if err := l.readSolidHeader(src); err != nil {
			closeSrc()
			return err
		}
	}
	defer closeSrc()
	var w [4]byte
	dataStart := 4 + l.headerSize
	pos := dataStart
	for item := 1; ; item++ {
		_, err := io.ReadFull(src, w[:])
		if err == io.EOF {
			break
		}
		if err != nil {
			return l.streamErr(src, err, fmt.Sprintf("record %d's length", item))
		}
		v := binary.LittleEndian.Uint32(w[:])
		if v&nsisCompressedBit != 0 {
			return malformedf("record %d of the solid NSIS block at %d declares itself compressed, which a solid block never is", item, pos)
		}
		length := int64(v)
		if err := src.skip(length); err != nil {
			return l.streamErr(src, err, fmt.Sprintf("record %d (%d bytes at %d of the decoded block)", item, length, pos+4))
		}
		rr := r
		rr.Offset, rr.Length = pos+4, length
		if err := l.addItem(item, pos-dataStart, length, &rr, nil); err != nil {
			return err
		}
		pos += 4 + length
	}
	return l.finish()
}

// readSolidHeader reads a solid block's first record, the script
// header, and parses it.
func (l *nsisLister) readSolidHeader(src *nsisStream) error {
	var w [4]byte
	if _, err := io.ReadFull(src, w[:]); err != nil {
		return l.streamErr(src, err, "the solid block's first record")
	}
	if v := int64(binary.LittleEndian.Uint32(w[:])); v != l.headerSize {
		return malformedf("the solid NSIS block starts with a %d-byte record, not the %d-byte script header the first header declares", v, l.headerSize)
	}
	hdr := make([]byte, l.headerSize)
	if _, err := io.ReadFull(src, hdr); err != nil {
		return l.streamErr(src, err, "the script header")
	}
	l.script = parseNSISScript(hdr)
	return nil
}

// nonSolid lists a non-solid installer's items, each stored or
// compressed on its own.
func (l *nsisLister) nonSolid(start, end int64) error {
	off := start
	for item := 0; off < end; item++ {
		var w [4]byte
		if n, _ := l.ra.ReadAt(w[:], off); n < 4 {
			return malformedf("the NSIS data item at %d is truncated", off)
		}
		v := binary.LittleEndian.Uint32(w[:])
		compressed := v&nsisCompressedBit != 0
		length := int64(v &^ nsisCompressedBit)
		data := off + 4
		if length > end-data {
			return malformedf("the NSIS data item at %d declares %d bytes past the end of the data block (%d)", off, length, end)
		}
		var r *inventory.Range
		if compressed {
			rr, err := l.itemRange(data, length)
			if err != nil {
				return fmt.Errorf("NSIS item %d: %w", item, err)
			}
			r = rr
		}
		if item == 0 {
			if err := l.readHeader(data, length, r); err != nil {
				return err
			}
			off = data + length
			l.dataStart = off
			continue
		}
		if err := l.addItem(item, off-l.dataStart, length, r, &inventory.Range{File: l.file, Offset: data, Length: length}); err != nil {
			return err
		}
		off = data + length
	}
	return l.finish()
}

// itemRange is the stream range of one compressed non-solid item, its
// decoded size learnt from the host's decoded copy (or by decoding it
// here), within the stream budget.
func (l *nsisLister) itemRange(data, length int64) (*inventory.Range, error) {
	if l.m.name == "stored" {
		// The script header was stored, so the compressor is told by
		// the item's own first bytes.
		var head [12]byte
		hn, _ := l.ra.ReadAt(head[:], data)
		m := nsisMethod{name: "deflate"}
		if ok, filter := nsisLZMAStart(head[:hn]); ok {
			m = nsisMethod{name: "LZMA", filter: filter}
		} else if isNSISBzip2(head[:hn]) {
			m = nsisMethod{name: "bzip2"}
		}
		saved := l.m
		l.m = m
		defer func() { l.m = saved }()
	}
	var flag [1]byte
	l.ra.ReadAt(flag[:], data)
	kind, shift, err := l.streamKind(flag[0])
	if err != nil {
		return nil, err
	}
	if length < shift {
		return nil, malformedf("a %d-byte compressed item is shorter than its filter flag", length)
	}
	r := inventory.Range{File: l.file, Compression: kind, StreamOffset: data + shift, StreamLength: length - shift}
	if err := l.checkDictionary(r); err != nil {
		return nil, err
	}
	n, err := l.decodedSize(r, l.readsItem(data-4))
	if err != nil {
		return nil, err
	}
	r.Length = n
	return &r, nil
}

// readsItem reports whether the lister will read the bytes of the
// non-solid item whose length word is at off (from the host's decoded
// copy): the script header's, and an item's whose name is one rea
// expands as an archive. Any other item's bytes are only hashed, by the
// host.
func (l *nsisLister) readsItem(off int64) bool {
	if l.dataStart < 0 {
		return true // the script header
	}
	names := l.script.namesAt(off - l.dataStart)
	return len(names) > 0 && formatByName(names[0]) != ""
}

// readHeader reads the install script's header (item 0), stored or
// compressed, to learn the files' names.
func (l *nsisLister) readHeader(data, length int64, r *inventory.Range) error {
	var hdr []byte
	if r == nil {
		if length != l.headerSize {
			return malformedf("the stored NSIS script header is %d bytes, not the %d the first header declares", length, l.headerSize)
		}
		hdr = make([]byte, length)
		if _, err := l.ra.ReadAt(hdr, data); err != nil {
			return malformedf("the NSIS script header at %d is truncated", data)
		}
	} else {
		if r.Length != l.headerSize {
			return malformedf("the NSIS script header decodes to %d bytes, not the %d the first header declares", r.Length, l.headerSize)
		}
		src, closeSrc, err := l.openStream(*r)
		if err != nil {
			return err
		}
		defer closeSrc()
		hdr = make([]byte, l.headerSize)
		if _, err := io.ReadFull(src, hdr); err != nil {
			return l.streamErr(src, err, "the script header")
		}
	}
	l.script = parseNSISScript(hdr)
	return nil
}

// addItem lists data item number item at offset rel of the data block:
// decoded (a stream range r) or stored (plain). A stored 7-Zip archive is
// expanded as a nested container.
func (l *nsisLister) addItem(item int, rel, length int64, r, plain *inventory.Range) error {
	s := l.s
	name, links := l.name(item, rel)
	if r == nil && !l.script.named(rel) {
		// An unnamed stored 7-Zip archive (electron-builder's
		// app-64.7z) keeps the extension it is expanded by.
		var head [8]byte
		hn, _ := l.ra.ReadAt(head[:], plain.Offset)
		if sniffSevenZip(head[:hn]) {
			name += ".7z"
		}
	}
	name, err := l.claim(name, item)
	if err != nil {
		return err
	}
	e := inventory.Entry{Path: name, Kind: inventory.KindFile}
	if r != nil {
		e.Size, e.Data = r.Length, r
	} else {
		e.Size, e.Data = length, plain
	}
	if _, err := s.add(e); err != nil {
		return err
	}
	for _, ln := range links {
		// The same data extracted under another name (makensis stores
		// identical files once): a hard link to the first name.
		ln, err := s.normalize(ln)
		if err != nil {
			return err
		}
		if l.probe.Add(ln, false) != nil {
			l.collided++
			continue
		}
		lk := inventory.NewLink(name, "")
		lk.Hard = true
		if _, err := s.add(inventory.Entry{Path: ln, Kind: inventory.KindLink, Link: lk}); err != nil {
			return err
		}
	}
	return nil
}

// name is the path the script gives the item at rel, and the other
// names it is extracted under, or data/item-N.
func (l *nsisLister) name(item int, rel int64) (string, []string) {
	if names := l.script.namesAt(rel); len(names) > 0 {
		l.afterUninst = false
		return names[0], names[1:]
	}
	n := fmt.Sprintf("data/item-%d", item)
	// The uninstaller's icon and the item after it (its header) are
	// written by WriteUninstaller, not extracted by File.
	uninst := l.script.uninstaller[rel] || l.afterUninst
	l.afterUninst = l.script.uninstaller[rel]
	if l.script.resolved > 0 && !uninst {
		l.fallback++
		if l.firstFallback == "" {
			l.firstFallback = n
		}
	}
	return n, nil
}

// claim normalises a name (a traversing or absolute one is refused, as
// in every format) and, when another item already holds it, falls back
// to data/item-N so both are listed.
func (l *nsisLister) claim(name string, item int) (string, error) {
	norm, err := l.s.normalize(name)
	if err != nil {
		return "", err
	}
	if l.probe.Add(norm, false) == nil {
		return norm, nil
	}
	l.collided++
	norm = fmt.Sprintf("data/item-%d", item)
	if err := l.probe.Add(norm, false); err != nil {
		return "", err
	}
	return norm, nil
}

// finish expands the archives among the items and records what the
// names could not say.
func (l *nsisLister) finish() error {
	if err := expandMembers(l.s, l.first, l.ra, l.size); err != nil {
		return err
	}
	if err := expandStreamItemASARs(l.s, l.first, l.size); err != nil {
		return err
	}
	if err := expandStreamArchives(l.s, l.first, l.size); err != nil {
		return err
	}
	b := l.s.b
	sc := l.script
	switch {
	case sc.reason != "":
		b.res.Limitations = append(b.res.Limitations, fmt.Sprintf(
			"NSIS installer %q: the install script's header could not be read for file names (%s); its files are listed as data/item-N.", l.file, sc.reason))
	case sc.undecodable > 0:
		b.res.Limitations = append(b.res.Limitations, fmt.Sprintf(
			"NSIS installer %q: %d File instruction(s) of this ANSI (non-Unicode) installer name their file with bytes rea cannot decode soundly (undefined in Windows-1252, the code page assumed since the installer records none, or string codes of an NSIS version rea could not tell); %d other name(s) are known only at run time, %d data item(s) are named by no File instruction rea resolved, %d name(s) collided; those items are listed as data/item-N.",
			l.file, sc.undecodable, sc.unresolved, l.fallback, l.collided))
	case sc.unresolved > 0 || l.fallback > 0 || l.collided > 0:
		b.res.Limitations = append(b.res.Limitations, fmt.Sprintf(
			"NSIS installer %q: %d File instruction(s) name their file with a value known only at run time, %d data item(s) are named by no File instruction rea resolved (first: %s), %d name(s) collided with an earlier one; those items are listed as data/item-N.",
			l.file, sc.unresolved, l.fallback, l.firstFallback, l.collided))
	}
	return nil
}

// openStream opens the decoded bytes of r: the host's staged copy, or a
// decoder here bounded by the stream budget.
func (l *nsisLister) openStream(r inventory.Range) (*nsisStream, func(), error) {
	if d, err := l.s.decodedRange(r, l.size); err != nil {
		return nil, nil, err
	} else if d != nil {
		sr := io.NewSectionReader(d.ra, 0, d.size)
		br := bufio.NewReaderSize(sr, 64<<10)
		return &nsisStream{r: br, br: br, sec: sr}, d.Close, nil
	}
	var dec io.ReadCloser
	var err error
	src := io.NewSectionReader(l.ra, r.StreamOffset, r.StreamLength)
	if r.Compression == inventory.CompressionDeflateStream {
		dec = flate.NewReader(bufio.NewReaderSize(src, 64<<10))
	} else if dec, err = stream.Decoder(bufio.NewReaderSize(src, 64<<10), r.Compression); err != nil {
		return nil, nil, malformedf("%v", err)
	}
	budget, _ := inventory.StreamBudget(l.s.b.lim, r.StreamLength)
	cr := &countingReader{r: dec, budget: budget, fileSize: r.StreamLength, ratio: int64(l.s.b.lim.MaxCompressionRatio), stream: l.m.name}
	return &nsisStream{r: cr, cr: cr}, func() { dec.Close() }, nil
}

// openWalk opens the host's walk of stream r (inventory.StreamWalkName):
// its decoded bytes front to back, without a copy, held to the stream
// budget here. nil when the host offers none (native callers).
func (l *nsisLister) openWalk(r inventory.Range) (*nsisStream, func(), error) {
	if l.s.b.streams == nil {
		return nil, nil, nil
	}
	outer := l.s.outer(r, l.size)
	f, err := l.s.b.streams.Open(inventory.StreamWalkName(outer))
	if err != nil {
		return nil, nil, malformedf("the %s stream at bytes %d–%d is corrupt or truncated (the host could not decode it: %v)",
			l.m.name, outer.StreamOffset, outer.StreamOffset+outer.StreamLength, err)
	}
	seeker, ok := f.(io.Seeker)
	if !ok {
		f.Close()
		return nil, nil, nil
	}
	budget, _ := inventory.StreamBudget(l.s.b.lim, r.StreamLength)
	w := &nsisWalk{f: f, seeker: seeker, budget: budget,
		over: func(size int64) error { return l.s.checkDecodedSize(l.m.name, r.StreamLength, size) }}
	return &nsisStream{r: w, walk: w}, func() { f.Close() }, nil
}

// nsisWalk reads a walked stream, held to its budget: past it, the
// limit that cuts it.
type nsisWalk struct {
	f      io.Reader
	seeker io.Seeker
	pos    int64
	budget int64
	over   func(size int64) error
	err    error
}

func (w *nsisWalk) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Read(p)
	w.pos += int64(n)
	if w.pos > w.budget {
		w.err = w.over(w.pos)
		return n, w.err
	}
	return n, err
}

// skip seeks k bytes on, which the host sums as one span; a stream that
// ends first is io.ErrUnexpectedEOF.
func (w *nsisWalk) skip(k int64) error {
	if w.err != nil {
		return w.err
	}
	if w.pos+k > w.budget {
		w.err = w.over(w.pos + k)
		return w.err
	}
	if k == 0 {
		return nil
	}
	got, err := w.seeker.Seek(k, io.SeekCurrent)
	if err != nil {
		return err
	}
	if got != w.pos+k {
		return io.ErrUnexpectedEOF
	}
	w.pos = got
	return nil
}

// namesArchive reports whether a File instruction names a file rea
// expands as an archive (whose bytes it then reads at random).
func (sc *nsisScript) namesArchive() bool {
	for _, names := range sc.names {
		if len(names) > 0 && formatByName(names[0]) != "" {
			return true
		}
	}
	return false
}

// decodedSize decodes r to its end to learn its size; unless the lister
// will read its bytes (content), the host is asked for the size alone.
func (l *nsisLister) decodedSize(r inventory.Range, content bool) (int64, error) {
	if !content {
		if n, ok, err := l.s.decodedSize(r, l.size); ok {
			return n, err
		}
	}
	src, closeSrc, err := l.openStream(r)
	if err != nil {
		return 0, err
	}
	defer closeSrc()
	if src.sec != nil {
		return src.sec.Size(), nil
	}
	n, err := io.Copy(io.Discard, src.r)
	if err != nil {
		return 0, l.streamErr(src, err, "a compressed item")
	}
	return n, nil
}

// streamErr turns a failed read of a decoded stream into the limit that
// cut it or a malformed-container error.
func (l *nsisLister) streamErr(src *nsisStream, err error, what string) error {
	if src.cr != nil && src.cr.err != nil {
		return src.cr.err
	}
	if src.walk != nil && src.walk.err != nil {
		return src.walk.err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return malformedf("the NSIS %s stream ends inside %s", l.m.name, what)
	}
	return malformedf("the NSIS %s stream does not decode at %s: %v", l.m.name, what, err)
}

// nsisStream reads a decoded stream front to back; sec, when set, is
// the host's staged copy, which skip seeks over without decoding; walk,
// when set, the host's walk of the stream, which skip seeks over for
// the host to sum.
type nsisStream struct {
	r    io.Reader
	br   *bufio.Reader
	sec  *io.SectionReader
	cr   *countingReader
	walk *nsisWalk
}

func (n *nsisStream) Read(p []byte) (int, error) { return n.r.Read(p) }

// skip moves k bytes on; a short skip is io.ErrUnexpectedEOF.
func (n *nsisStream) skip(k int64) error {
	if n.walk != nil {
		return n.walk.skip(k)
	}
	if n.sec != nil {
		if k <= int64(n.br.Buffered()) {
			_, err := n.br.Discard(int(k))
			return err
		}
		k -= int64(n.br.Buffered())
		cur, _ := n.sec.Seek(0, io.SeekCurrent)
		if k > n.sec.Size()-cur {
			return io.ErrUnexpectedEOF
		}
		if _, err := n.sec.Seek(cur+k, io.SeekStart); err != nil {
			return err
		}
		n.br.Reset(n.sec)
		return nil
	}
	got, err := io.CopyN(io.Discard, n.r, k)
	if got < k && (err == nil || err == io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// expandStreamItemASARs expands the ASAR archives among items held in
// compressed streams (every item of a solid installer, a compressed item
// of a non-solid one) from the host's decoded copy of their stream; the
// archive's members are ranges of the same stream. Without a stage
// (native callers) they stay listed, not expanded.
func expandStreamItemASARs(s *scope, start int, fileSize int64) error {
	if s.b.topOnly {
		return nil
	}
	return expandDecodedASARs(s, start, fileSize, func(e inventory.Entry) bool { return stream.IsStream(e.Data.Compression) },
		"NSIS item %q lies past the end of its decoded stream (%d bytes)")
}

// checkDictionary refuses, before anyone decodes it, an LZMA stream whose
// dictionary is larger than the decoders allocate (makensis writes what
// SetCompressorDictSize asked for, up to its own maximum).
func (l *nsisLister) checkDictionary(r inventory.Range) error {
	if r.Compression != inventory.CompressionNSISLzmaStream && r.Compression != inventory.CompressionNSISLzmaX86Stream {
		return nil
	}
	var props [5]byte
	if n, _ := l.ra.ReadAt(props[:], r.StreamOffset); n < len(props) {
		return malformedf("the NSIS LZMA properties at %d are truncated", r.StreamOffset)
	}
	if dict := int64(binary.LittleEndian.Uint32(props[1:])); dict > stream.MaxNSISDictionary {
		return abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an NSIS installer whose LZMA data asks for a %d MiB dictionary (SetCompressorDictSize); rea decodes dictionaries up to %d MiB — extract it with `7z x` and analyse the folder",
			l.file, dict>>20, stream.MaxNSISDictionary>>20).
			WithDetail("format", "nsis").WithDetail("compression", "LZMA").WithDetail("dictionary_bytes", dict)
	}
	return nil
}
