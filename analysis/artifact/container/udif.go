package container

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// UDIF (Apple's Universal Disk Image Format, a .dmg) as hdiutil writes
// it: a data fork of chunks, an XML property list whose
// resource-fork/blkx array holds one "mish" block table per partition,
// and a 512-byte big-endian "koly" trailer pointing at both. Each block
// table tiles its partition with chunks of 512-byte sectors, each stored,
// zero-filled or compressed on its own. rea reads the partition that
// holds an HFS+/HFSX volume; a file's bytes are listed as the chunks
// (blocks) that hold them, which the host decodes one by one.
const (
	udifChunkZero    = 0x00000000
	udifChunkRaw     = 0x00000001
	udifChunkIgnore  = 0x00000002
	udifChunkADC     = 0x80000004
	udifChunkZlib    = 0x80000005
	udifChunkBzip2   = 0x80000006
	udifChunkLZFSE   = 0x80000007
	udifChunkLZMA    = 0x80000008
	udifChunkComment = 0x7ffffffe
	udifChunkEnd     = 0xffffffff

	udifSector = 512
	// udifMaxChunkBytes bounds what one compressed chunk may decode to
	// (hdiutil writes 1 MiB chunks); both rea and the host hold a
	// decoded chunk in memory.
	udifMaxChunkBytes = 64 << 20
	// udifMaxPartitions bounds the blkx entries (hdiutil writes ≤ 10).
	udifMaxPartitions = 256
	// udifMaxChunks bounds one block table's chunks.
	udifMaxChunks = 1 << 20
	// udifChunkCache bounds the decoded chunks kept while the volume's
	// metadata is read.
	udifChunkCache = 32 << 20
	// udifMaxMerge bounds a block made of adjacent stored or zero-fill
	// chunks (the host refuses blocks past 1 GiB).
	udifMaxMerge = 256 << 20
	// udifMaxPlistTokens bounds the XML tokens of the property list: its
	// bytes are bounded, but a list of 16 MiB of empty elements would
	// still build millions of values (hdiutil writes a few hundred
	// tokens, the block tables being one base64 text each).
	udifMaxPlistTokens = 1 << 16
)

// udifChunkNames spells the chunk types rea does not decode.
var udifChunkNames = map[uint32]string{udifChunkADC: "ADC (UDCO)", udifChunkLZFSE: "LZFSE (ULFO)"}

// udifChunk is one block-table entry: Size decoded bytes at Start of the
// partition, held in Length bytes at Offset of the file.
type udifChunk struct {
	typ            uint32
	start, size    int64
	offset, length int64
}

// udifPartition is one blkx entry.
type udifPartition struct {
	name   string
	size   int64
	chunks []udifChunk
}

// udifImage is a UDIF image's trailer and block tables.
type udifImage struct {
	forkOff, forkLen int64
	parts            []udifPartition
	// plistBytes is the size of the property list read, the first charge
	// to the image's max_header_bytes (the B-tree nodes are the rest).
	plistBytes int64
}

// readUDIF reads the koly trailer, the property list and every block
// table, checking each chunk against the data fork and the limits.
func readUDIF(s *scope, ra io.ReaderAt, size int64) (*udifImage, error) {
	if size < udifTrailerSize {
		return nil, malformedf("a UDIF image ends with a %d-byte trailer, but the file has %d bytes", udifTrailerSize, size)
	}
	var t [udifTrailerSize]byte
	if _, err := ra.ReadAt(t[:], size-udifTrailerSize); err != nil {
		return nil, malformedf("cannot read the UDIF trailer: %v", err)
	}
	be := binary.BigEndian
	if string(t[:4]) != "koly" || be.Uint32(t[4:]) != 4 || be.Uint32(t[8:]) != udifTrailerSize {
		return nil, malformedf("the file does not end with a UDIF (koly) trailer")
	}
	end := uint64(size - udifTrailerSize)
	forkOff, forkLen := be.Uint64(t[24:]), be.Uint64(t[32:])
	if forkOff > end || forkLen > end-forkOff {
		return nil, malformedf("the UDIF trailer places the data fork (%d bytes at %d) outside the %d bytes before it", forkLen, forkOff, end)
	}
	xmlOff, xmlLen := be.Uint64(t[216:]), be.Uint64(t[224:])
	if xmlLen == 0 {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "the disk image keeps its block tables in a resource fork (no XML property list), an old layout rea does not read; convert it on macOS (hdiutil convert -format UDZO -o new.dmg old.dmg) or extract it with 7z x").
			WithDetail("format", "dmg")
	}
	maxXML := uint64(min(udifMaxPlistBytes, s.b.lim.MaxHeaderBytes))
	if xmlLen > maxXML {
		return nil, limitError("max_header_bytes", int64(maxXML), int64(min(xmlLen, 1<<62)), "the disk image's property list (block tables)")
	}
	if xmlOff > end || xmlLen > end-xmlOff {
		return nil, malformedf("the UDIF trailer places the property list (%d bytes at %d) outside the %d bytes before it", xmlLen, xmlOff, end)
	}
	doc := make([]byte, xmlLen)
	if _, err := ra.ReadAt(doc, int64(xmlOff)); err != nil {
		return nil, malformedf("cannot read the disk image's property list: %v", err)
	}
	blkx, err := plistBlkx(doc)
	if err != nil {
		return nil, err
	}
	img := &udifImage{forkOff: int64(forkOff), forkLen: int64(forkLen), plistBytes: int64(xmlLen)}
	var packed []udifChunk
	for i, e := range blkx {
		p, err := img.mish(s, e.name, e.data)
		if err != nil {
			return nil, withDetail(err, "partition", fmt.Sprintf("%d (%s)", i, e.name))
		}
		img.parts = append(img.parts, p)
		for _, c := range p.chunks {
			if c.length > 0 {
				packed = append(packed, c)
			}
		}
	}
	// Two chunks sharing bytes of the data fork would let a few bytes
	// decode many times over (a bomb past the ratio limit).
	sort.Slice(packed, func(i, j int) bool { return packed[i].offset < packed[j].offset })
	for i := 1; i < len(packed); i++ {
		if packed[i].offset < packed[i-1].offset+packed[i-1].length {
			return nil, malformedf("two chunks of the disk image overlap in its data fork (at %d and %d)", packed[i-1].offset, packed[i].offset)
		}
	}
	return img, nil
}

// withDetail adds a detail to an abi error and passes others through.
func withDetail(err error, k string, v any) error {
	var ae *abi.Error
	if errors.As(err, &ae) {
		return ae.WithDetail(k, v)
	}
	return err
}

// mish decodes one partition's block table.
func (img *udifImage) mish(s *scope, name string, b []byte) (udifPartition, error) {
	be := binary.BigEndian
	if len(b) < 204 || string(b[:4]) != "mish" || be.Uint32(b[4:]) != 1 {
		return udifPartition{}, malformedf("the block table of partition %q is not a version-1 mish table", name)
	}
	sectors, dataOff := be.Uint64(b[16:]), be.Uint64(b[24:])
	n := uint64(be.Uint32(b[200:]))
	if n > udifMaxChunks || 204+40*n > uint64(len(b)) {
		return udifPartition{}, malformedf("the block table of partition %q declares %d chunks in %d bytes", name, n, len(b))
	}
	if sectors > 1<<43/udifSector {
		return udifPartition{}, malformedf("partition %q declares %d sectors", name, sectors)
	}
	if dataOff > uint64(img.forkLen) {
		return udifPartition{}, malformedf("the chunks of partition %q start at %d, past the %d-byte data fork", name, dataOff, img.forkLen)
	}
	p := udifPartition{name: name, size: int64(sectors) * udifSector}
	ratio := int64(s.b.lim.MaxCompressionRatio)
	var next uint64
	for i := range n {
		e := b[204+40*i:]
		typ := be.Uint32(e)
		if typ == udifChunkComment {
			continue
		}
		if typ == udifChunkEnd {
			break
		}
		sec, cnt, off, ln := be.Uint64(e[8:]), be.Uint64(e[16:]), be.Uint64(e[24:]), be.Uint64(e[32:])
		if sec != next || cnt > sectors-min(sec, sectors) {
			return udifPartition{}, malformedf("chunk %d of partition %q covers sectors %d+%d where sector %d of %d comes next (chunks must tile the partition without gaps or overlaps)", i, name, sec, cnt, next, sectors)
		}
		next = sec + cnt
		if cnt == 0 {
			continue
		}
		c := udifChunk{typ: typ, start: int64(sec) * udifSector, size: int64(cnt) * udifSector}
		switch typ {
		case udifChunkZero, udifChunkIgnore:
			p.chunks = append(p.chunks, c)
			continue
		case udifChunkRaw, udifChunkZlib, udifChunkBzip2, udifChunkLZMA, udifChunkADC, udifChunkLZFSE:
		default:
			return udifPartition{}, malformedf("chunk %d of partition %q has unknown type %#x", i, name, typ)
		}
		room := uint64(img.forkLen) - dataOff
		if ln == 0 || off > room || ln > room-off {
			return udifPartition{}, malformedf("chunk %d of partition %q (%d bytes at %d) lies outside the %d-byte data fork", i, name, ln, off, img.forkLen)
		}
		c.offset, c.length = img.forkOff+int64(dataOff+off), int64(ln)
		switch {
		case typ == udifChunkRaw && c.length != c.size:
			return udifPartition{}, malformedf("stored chunk %d of partition %q holds %d bytes for %d", i, name, c.length, c.size)
		case typ != udifChunkRaw && c.size > udifMaxChunkBytes:
			return udifPartition{}, malformedf("chunk %d of partition %q decodes to %d bytes, more than the %d a chunk may", i, name, c.size, udifMaxChunkBytes)
		case typ != udifChunkRaw && c.length > udifMaxChunkBytes+udifMaxChunkBytes/8+4096:
			// Compressed data is read whole before it is decoded: a chunk
			// may not be much larger than what it decodes to may be.
			return udifPartition{}, malformedf("chunk %d of partition %q holds %d compressed bytes, more than a chunk of at most %d bytes needs", i, name, c.length, udifMaxChunkBytes)
		case typ != udifChunkRaw && c.size/ratio > c.length:
			return udifPartition{}, limitError("max_compression_ratio", ratio, c.size/c.length,
				fmt.Sprintf("chunk %d of partition %q expands %d compressed bytes to %d", i, name, c.length, c.size))
		}
		p.chunks = append(p.chunks, c)
	}
	if next != sectors {
		return udifPartition{}, malformedf("the chunks of partition %q cover %d of its %d sectors", name, next, sectors)
	}
	return p, nil
}

// blkxEntry is one partition of the property list.
type blkxEntry struct {
	name string
	data []byte
}

// plistBlkx returns the resource-fork/blkx array of a UDIF property list.
func plistBlkx(doc []byte) ([]blkxEntry, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	p := &plistParser{d: d}
	root, err := p.value(nil, 0)
	if ae := (*abi.Error)(nil); errors.As(err, &ae) {
		return nil, ae
	}
	if err != nil {
		return nil, malformedf("the disk image's property list does not parse: %v", err)
	}
	top, _ := root.(map[string]any)
	rf, _ := top["resource-fork"].(map[string]any)
	arr, _ := rf["blkx"].([]any)
	if len(arr) == 0 {
		return nil, malformedf("the disk image's property list has no resource-fork/blkx block tables")
	}
	if len(arr) > udifMaxPartitions {
		return nil, malformedf("the disk image's property list declares %d partitions (at most %d)", len(arr), udifMaxPartitions)
	}
	var out []blkxEntry
	for i, v := range arr {
		m, _ := v.(map[string]any)
		data, ok := m["Data"].([]byte)
		if !ok {
			return nil, malformedf("blkx entry %d of the disk image has no Data block table", i)
		}
		name, _ := m["Name"].(string)
		if name == "" {
			name, _ = m["CFName"].(string)
		}
		out = append(out, blkxEntry{name: name, data: data})
	}
	return out, nil
}

// plistParser reads an XML property list, counting its tokens against
// udifMaxPlistTokens.
type plistParser struct {
	d      *xml.Decoder
	tokens int
}

// token is the next XML token; past the cap, a typed error naming it.
func (p *plistParser) token() (xml.Token, error) {
	if p.tokens++; p.tokens > udifMaxPlistTokens {
		return nil, malformedf("the disk image's property list holds more than %d XML tokens, the most rea reads (hdiutil writes a few hundred)", udifMaxPlistTokens).
			WithDetail("max_tokens", udifMaxPlistTokens)
	}
	return p.d.Token()
}

// value reads one XML property-list value (dict, array, string, data;
// other scalars as their text) after start, or the first one when start
// is nil, at most 16 levels deep.
func (p *plistParser) value(start *xml.StartElement, depth int) (any, error) {
	if depth > 16 {
		return nil, fmt.Errorf("nested more than 16 levels")
	}
	for start == nil {
		tok, err := p.token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "plist" {
				start = &t
			}
		case xml.EndElement:
			return nil, fmt.Errorf("no value")
		}
	}
	switch start.Name.Local {
	case "dict":
		m := map[string]any{}
		key := ""
		for {
			tok, err := p.token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.EndElement:
				return m, nil
			case xml.StartElement:
				if t.Name.Local == "key" {
					k, err := p.text()
					if err != nil {
						return nil, err
					}
					key = k
					continue
				}
				v, err := p.value(&t, depth+1)
				if err != nil {
					return nil, err
				}
				m[key] = v
			}
		}
	case "array":
		var a []any
		for {
			tok, err := p.token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.EndElement:
				return a, nil
			case xml.StartElement:
				v, err := p.value(&t, depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
		}
	case "data":
		txt, err := p.text()
		if err != nil {
			return nil, err
		}
		txt = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, txt)
		return base64.StdEncoding.DecodeString(txt)
	default:
		return p.text()
	}
}

// text reads the text of a scalar element up to its end tag (no
// reflection: encoding/xml's DecodeElement would add its unmarshaller).
func (p *plistParser) text() (string, error) {
	var b strings.Builder
	for {
		tok, err := p.token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			return "", fmt.Errorf("<%s> inside a scalar", t.Name.Local)
		case xml.EndElement:
			return b.String(), nil
		}
	}
}

// udifReader reads a partition's decoded bytes (the volume's metadata),
// decoding chunks as needed: each chunk decoded (a cache miss) is charged
// to decoded, bounded by max_total_bytes (a symbolic link's target may
// cost a whole 1 MiB chunk); the B-tree nodes read are charged to budget,
// bounded by max_header_bytes.
type udifReader struct {
	s       *scope
	ra      io.ReaderAt
	p       *udifPartition
	cache   map[int][]byte
	cached  int64
	budget  *int64
	decoded int64
}

// chunkAt is the index of the chunk holding partition byte off.
func (r *udifReader) chunkAt(off int64) int {
	return sort.Search(len(r.p.chunks), func(i int) bool { return r.p.chunks[i].start+r.p.chunks[i].size > off })
}

// ReadAt reads decoded partition bytes; its errors are *abi.Error.
func (r *udifReader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 || off > r.p.size || int64(len(b)) > r.p.size-off {
		return 0, malformedf("the volume reads %d bytes at %d, outside its %d-byte partition", len(b), off, r.p.size)
	}
	n := 0
	for n < len(b) {
		i := r.chunkAt(off)
		c := r.p.chunks[i]
		skip := off - c.start
		take := int(min(int64(len(b)-n), c.size-skip))
		switch c.typ {
		case udifChunkZero, udifChunkIgnore:
			clear(b[n : n+take])
		case udifChunkRaw:
			if _, err := r.ra.ReadAt(b[n:n+take], c.offset+skip); err != nil {
				return n, malformedf("cannot read the disk image at %d: %v", c.offset+skip, err)
			}
		default:
			data, err := r.decode(i)
			if err != nil {
				return n, err
			}
			copy(b[n:n+take], data[skip:])
		}
		n += take
		off += int64(take)
	}
	return n, nil
}

// decode returns chunk i's decoded bytes, which must be exactly its size.
func (r *udifReader) decode(i int) ([]byte, error) {
	if data, ok := r.cache[i]; ok {
		return data, nil
	}
	c := r.p.chunks[i]
	codec := udifCodec(c.typ)
	if codec == "" {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "the disk image's file system metadata lies in a chunk compressed with %s, which rea does not decode; convert the image (hdiutil convert -format UDZO) or extract it with 7z x", udifChunkNames[c.typ]).
			WithDetail("format", "dmg").WithDetail("chunk_type", udifChunkNames[c.typ])
	}
	if r.decoded += c.size; r.decoded > r.s.b.lim.MaxTotalBytes {
		return nil, limitError("max_total_bytes", r.s.b.lim.MaxTotalBytes, r.decoded, "the disk image chunks decoded to read the volume's metadata and links")
	}
	raw := make([]byte, c.length)
	if _, err := r.ra.ReadAt(raw, c.offset); err != nil {
		return nil, malformedf("cannot read the disk image chunk at %d: %v", c.offset, err)
	}
	data, err := stream.DecodeBlock(codec, raw, c.size)
	if err != nil {
		return nil, malformedf("the disk image chunk at %d (%d bytes) does not decode: %v", c.offset, c.length, err)
	}
	if int64(len(data)) != c.size {
		return nil, malformedf("the disk image chunk at %d inflates to %d bytes, not the %d its block table declares", c.offset, len(data), c.size)
	}
	if r.cached+c.size > udifChunkCache {
		clear(r.cache)
		r.cached = 0
	}
	r.cache[i] = data
	r.cached += c.size
	return data, nil
}

// udifCodec is the block codec of a chunk type, or "" when rea has none.
func udifCodec(typ uint32) string {
	switch typ {
	case udifChunkZlib:
		return inventory.CodecZlib
	case udifChunkBzip2:
		return inventory.CodecBzip2
	case udifChunkLZMA: // ULMO: libcompression's "LZMA in an XZ container"
		return inventory.CodecXz
	case udifChunkRaw:
		return inventory.CodecStored
	}
	return ""
}

// undecodable is the type of the first chunk holding partition bytes
// [off, off+n) that rea cannot decode, or 0 when it can decode them all.
func (r *udifReader) undecodable(off, n int64) uint32 {
	for end := off + n; off < end; {
		c := r.p.chunks[r.chunkAt(off)]
		if _, bad := udifChunkNames[c.typ]; bad {
			return c.typ
		}
		off = c.start + c.size
	}
	return 0
}

// blocks lists the chunks holding partition bytes [off, off+n) as blocks
// of the file: stored bytes directly, compressed chunks whole (the entry
// takes Size bytes from Skip), zero-fill as sparse blocks. It returns the
// type of a chunk rea cannot decode instead, if the bytes lie in one.
func (r *udifReader) blocks(off, n int64) ([]inventory.Block, uint32) {
	var out []inventory.Block
	for n > 0 {
		c := r.p.chunks[r.chunkAt(off)]
		skip := off - c.start
		take := min(n, c.size-skip)
		if c.typ == udifChunkZero || c.typ == udifChunkIgnore || c.typ == udifChunkRaw {
			// No stored or sparse block larger than a merge may make (a
			// compressed chunk is one block, bounded when it is read).
			take = min(take, udifMaxMerge)
		}
		switch c.typ {
		case udifChunkZero, udifChunkIgnore:
			if k := len(out) - 1; k >= 0 && out[k].Length == 0 && out[k].Size+take <= udifMaxMerge {
				out[k].Size += take
			} else {
				out = append(out, inventory.Block{Size: take})
			}
		case udifChunkRaw:
			if k := len(out) - 1; k >= 0 && out[k].Codec == "" && out[k].Length > 0 && out[k].Size+take <= udifMaxMerge && out[k].Offset+out[k].Length == c.offset+skip {
				out[k].Length += take
				out[k].Size += take
			} else {
				out = append(out, inventory.Block{Offset: c.offset + skip, Length: take, Size: take})
			}
		default:
			codec := udifCodec(c.typ)
			if codec == "" {
				return nil, c.typ
			}
			out = append(out, inventory.Block{Offset: c.offset, Length: c.length, Size: take, Skip: skip, Whole: c.size, Codec: codec})
		}
		off += take
		n -= take
	}
	return out, 0
}

// listDMG lists the HFS+/HFSX volume of a UDIF image.
func listDMG(s *scope, ra io.ReaderAt, size int64, file string) error {
	img, err := readUDIF(s, ra, size)
	if err != nil {
		return err
	}
	// One max_header_bytes for the whole image: the property list, then
	// every B-tree node of the volume.
	budget := s.b.lim.MaxHeaderBytes - img.plistBytes
	reader := func(p *udifPartition) *udifReader {
		return &udifReader{s: s, ra: ra, p: p, cache: map[int][]byte{}, budget: &budget}
	}
	// Each partition is named by type, or else tried for an HFS+
	// signature; a partition whose start cannot be read may hold a volume,
	// and is said (or its error returned when no volume is listed).
	const (
		noVolume = iota
		hfsVolume
		apfsVolume
		unreadable
	)
	kinds := make([]int, len(img.parts))
	whyNot := make([]error, len(img.parts))
	for i := range img.parts {
		p := &img.parts[i]
		switch {
		case strings.Contains(p.name, "Apple_APFS"):
			kinds[i] = apfsVolume
		case strings.Contains(p.name, "Apple_HFS"):
			kinds[i] = hfsVolume
		case p.size >= 1024+hfsHeaderSize:
			ok, err := hfsSignature(reader(p))
			switch {
			case err != nil:
				kinds[i], whyNot[i] = unreadable, withDetail(err, "partition", fmt.Sprintf("%d (%s)", i, p.name))
			case ok:
				kinds[i] = hfsVolume
			}
		}
	}
	for i := range img.parts {
		if kinds[i] != hfsVolume {
			continue
		}
		p := &img.parts[i]
		start := len(s.b.res.Entries)
		if err := listHFSPlus(s, reader(p), img, file); err != nil {
			return err
		}
		// rea lists one volume per image: any other that holds a file
		// system, or may hold one, is said, so a second volume cannot go
		// unseen.
		var others, unread []string
		for j := range img.parts {
			switch {
			case j == i:
			case kinds[j] == hfsVolume || kinds[j] == apfsVolume:
				others = append(others, img.parts[j].name)
			case kinds[j] == unreadable:
				unread = append(unread, fmt.Sprintf("%s (%v)", img.parts[j].name, whyNot[j]))
			}
		}
		if len(others) > 0 {
			s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
				"the disk image holds %d more volume(s) than the one listed (partition %q): %s; rea lists the first HFS+ volume of an image; extract the image with 7-Zip (7z x) to read the others",
				len(others), p.name, strings.Join(others, ", ")))
		}
		if len(unread) > 0 {
			s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
				"%d more partition(s) of the disk image could not be read to tell whether they hold a volume, which would not be listed: %s; extract the image with 7-Zip (7z x) to read them",
				len(unread), strings.Join(unread, "; ")))
		}
		// The archives the volume holds (app.asar, a zip…), as for squashfs.
		return inBlocks(ra)(s, start)
	}
	var apfs, named []string
	var firstUnread error
	for i, p := range img.parts {
		switch kinds[i] {
		case apfsVolume:
			apfs = append(apfs, p.name)
		case unreadable:
			firstUnread = cmp.Or(firstUnread, whyNot[i])
		default:
			named = append(named, p.name)
		}
	}
	if len(apfs) > 0 {
		return abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an Apple disk image (UDIF) whose volume is APFS (partition %q); rea reads HFS+ disk images, not APFS; extract it with 7-Zip (`7z x %s -oDIR`) or mount it read-only on macOS (hdiutil attach -readonly -nobrowse %s), then run `rea analyze DIR/<volume>/X.app/Contents/Resources/app.asar`",
			file, apfs[0], shellQuote(file), shellQuote(file)).WithDetail("format", "dmg").WithDetail("file_system", "apfs")
	}
	if firstUnread != nil {
		// The volume may lie in the partition rea could not read: its
		// error, not "no HFS+ partition", says why nothing was listed.
		return firstUnread
	}
	return abi.Errorf(abi.CodeCapabilityUnavailable,
		"%q is an Apple disk image (UDIF) with no HFS+ partition among its %d (%s); rea reads the HFS+ volume of a disk image; extract it with 7-Zip (`7z x %s -oDIR`)",
		file, len(img.parts), strings.Join(named, ", "), shellQuote(file)).WithDetail("format", "dmg")
}

// hfsSignature reports whether a partition starts like an HFS+ volume
// (for images whose partitions are not named by type). A start that
// cannot be read (a chunk rea does not decode, or a corrupt one) is the
// reader's typed error: the partition may hold a volume all the same.
func hfsSignature(r *udifReader) (bool, error) {
	var h [4]byte
	if _, err := r.ReadAt(h[:], 1024); err != nil {
		return false, err
	}
	return isHFSPlusSignature(string(h[:])), nil
}
