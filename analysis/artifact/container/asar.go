package container

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"rea/analysis/artifact/artpath"
	"rea/analysis/artifact/inventory"
)

// asarPrefixSize is the size pickle (8 bytes) plus the header pickle's own
// two length words (8 bytes) that precede the JSON.
const asarPrefixSize = 16

// maxSafeInteger is the largest integer a JavaScript writer can represent
// exactly; ASAR sizes above it cannot have been written honestly.
const maxSafeInteger = 1<<53 - 1

// ASAR is a parsed ASAR header: where the data starts and what it holds.
type ASAR struct {
	// DataBase is 8 + the header pickle size: offsets count from here.
	DataBase int64
	// Entries in declaration order (the order `asar list` prints).
	Entries []inventory.Entry
}

// ParseASAR reads and validates the header of an ASAR archive of the given
// size. Entries' data ranges name file.
func ParseASAR(r io.ReaderAt, size int64, file string, lim inventory.Limits) (*ASAR, error) {
	lim = lim.WithDefaults()
	b := newBuilder(lim, nil)
	s, err := b.openContainer(inventory.Container{Parent: -1, Entry: -1, File: file, Format: inventory.FormatASAR})
	if err != nil {
		return nil, err
	}
	base, err := parseASAR(s, r, size, file)
	if err != nil {
		return nil, err
	}
	return &ASAR{DataBase: base, Entries: b.res.Entries}, nil
}

// readASARHeader validates the pickle prefix and returns the JSON header and
// the data base.
func readASARHeader(r io.ReaderAt, size int64, maxHeader int64) ([]byte, int64, error) {
	if size < asarPrefixSize {
		return nil, 0, malformedf("file is %d bytes, shorter than an ASAR header prefix (16 bytes)", size)
	}
	var prefix [asarPrefixSize]byte
	if _, err := r.ReadAt(prefix[:], 0); err != nil {
		return nil, 0, malformedf("cannot read the ASAR header prefix: %v", err)
	}
	sizePayload := binary.LittleEndian.Uint32(prefix[0:])
	headerPickle := int64(binary.LittleEndian.Uint32(prefix[4:]))
	headerPayload := int64(binary.LittleEndian.Uint32(prefix[8:]))
	jsonLen := int64(binary.LittleEndian.Uint32(prefix[12:]))
	if sizePayload != 4 {
		return nil, 0, malformedf("size pickle declares a %d-byte payload, not 4: this is not an ASAR archive", sizePayload)
	}
	base := 8 + headerPickle
	if base > size {
		return nil, 0, malformedf("header size %d is larger than the file (%d bytes)", headerPickle, size)
	}
	if headerPayload+4 > headerPickle || jsonLen+4 > headerPayload {
		return nil, 0, malformedf("header pickle lengths are inconsistent (pickle %d, payload %d, JSON %d)", headerPickle, headerPayload, jsonLen)
	}
	if jsonLen > maxHeader {
		return nil, 0, limitError("max_header_bytes", maxHeader, jsonLen, fmt.Sprintf("the ASAR JSON header is %d bytes", jsonLen))
	}
	header := make([]byte, jsonLen)
	if _, err := r.ReadAt(header, asarPrefixSize); err != nil {
		return nil, 0, malformedf("cannot read the %d-byte ASAR JSON header: %v", jsonLen, err)
	}
	if !utf8.Valid(header) {
		return nil, 0, malformedf("ASAR JSON header is not valid UTF-8")
	}
	return header, base, nil
}

// listASAR lists an ASAR archive held plainly (the input, or stored in
// a zip or a tar), then the archives among its members, which are plain
// ranges of r like a zip's stored members (a zip or another ASAR in it).
func listASAR(s *scope, r io.ReaderAt, size int64, file string) error {
	start := len(s.b.res.Entries)
	if _, err := parseASAR(s, r, size, file); err != nil {
		return err
	}
	return expandMembers(s, start, r, size)
}

func parseASAR(s *scope, r io.ReaderAt, size int64, file string) (int64, error) {
	header, base, err := readASARHeader(r, size, s.b.lim.MaxHeaderBytes)
	if err != nil {
		return 0, err
	}
	c := &s.b.res.Containers[s.index]
	c.HeaderSize = base
	var prefix [asarPrefixSize]byte
	r.ReadAt(prefix[:], 0) // read successfully by readASARHeader
	h := sha256.New()
	h.Write(prefix[:])
	h.Write(header)
	c.ParsedBytes, c.ParsedSHA256 = asarPrefixSize+int64(len(header)), hex.EncodeToString(h.Sum(nil))
	p := &asarParser{s: s, sc: headerScanner{b: header}, file: file, base: base, size: size}
	if err := p.node(""); err != nil {
		return 0, err
	}
	if p.sc.ws(); p.sc.pos != len(header) {
		return 0, malformedf("ASAR JSON header has content after the root object")
	}
	if err := checkOverlaps(p.spans); err != nil {
		return 0, err
	}
	return base, nil
}

type asarParser struct {
	s     *scope
	sc    headerScanner
	file  string
	base  int64
	size  int64
	spans []span
}

// span is one entry's packed bytes, for the overlap check.
type span struct {
	start, end int64
	path       string
}

// checkOverlaps refuses entries whose bytes overlap: an honest writer never
// shares bytes, and overlapping entries are how bombs amplify.
func checkOverlaps(spans []span) error {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return cmpInt64(a.start, b.start)
		}
		return cmpInt64(a.end, b.end)
	})
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return malformedf("entries %q and %q overlap (bytes %d–%d and %d–%d)",
				spans[i-1].path, spans[i].path, spans[i-1].start, spans[i-1].end, spans[i].start, spans[i].end).
				WithDetail("path", spans[i].path)
		}
	}
	return nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// asarNode gathers the fields of one header node.
type asarNode struct {
	size       int64
	hasSize    bool
	offset     int64
	hasOffset  bool
	unpacked   bool
	executable bool
	link       string
	hasLink    bool
	integrity  *inventory.Integrity
	isDir      bool
}

func describe(p string) string {
	if p == "" {
		return "the ASAR root"
	}
	return fmt.Sprintf("entry %q", p)
}

// node parses one node object at a normalised path ("" for the root).
func (p *asarParser) node(at string) error {
	if err := p.sc.open(func() string { return describe(at) }); err != nil {
		return err
	}
	var n asarNode
	var seenKeys [8]string
	seen := keySet(seenKeys[:0])
	for {
		key, more, err := p.sc.member()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if seen.add(key) {
			return malformedf("%s declares %q twice", describe(at), key)
		}
		switch key {
		case "files":
			if n.hasSize || n.hasLink || n.hasOffset {
				return malformedf("%s is both a directory and a file or link", describe(at))
			}
			n.isDir = true
			if at != "" {
				if _, err := p.s.add(inventory.Entry{Path: at, Kind: inventory.KindDirectory}); err != nil {
					return err
				}
			}
			if err := p.files(at); err != nil {
				return err
			}
		case "size":
			n.size, err = p.size64(at)
			n.hasSize = true
		case "offset":
			n.offset, err = p.offset(at)
			n.hasOffset = true
		case "unpacked":
			n.unpacked, err = p.boolean(at, key)
		case "executable":
			n.executable, err = p.boolean(at, key)
		case "link":
			n.link, err = p.str(at, key)
			n.hasLink = true
		case "integrity":
			n.integrity, err = p.integrity(at)
		default:
			_, err = p.sc.skip()
		}
		if err != nil {
			return err
		}
		if n.isDir && (n.hasSize || n.hasLink || n.hasOffset) {
			return malformedf("%s is both a directory and a file or link", describe(at))
		}
	}
	if at == "" {
		if !n.isDir {
			return malformedf("the ASAR root has no \"files\" object")
		}
		return nil
	}
	switch {
	case n.isDir:
		return nil
	case n.hasLink:
		if n.hasSize {
			return malformedf("%s is both a link and a file", describe(at))
		}
		_, err := p.s.add(inventory.Entry{Path: at, Kind: inventory.KindLink, Link: inventory.NewLink(n.link, "")})
		return err
	case !n.hasSize:
		return malformedf("%s has neither \"files\", \"link\" nor \"size\"", describe(at))
	}
	e := inventory.Entry{Path: at, Kind: inventory.KindFile, Size: n.size, Executable: n.executable, Unpacked: n.unpacked, Integrity: n.integrity}
	if e.Integrity != nil && e.Integrity.Known() {
		if err := checkBlocks(at, e.Size, e.Integrity); err != nil {
			return err
		}
	}
	if !n.unpacked {
		if !n.hasOffset {
			return malformedf("%s is packed but declares no offset", describe(at))
		}
		avail := p.size - p.base
		if n.offset > avail || n.size > avail-n.offset {
			return malformedf("%s declares bytes %d–%d past the end of the archive data (%d bytes)",
				describe(at), n.offset, n.offset+n.size, avail).WithDetail("path", at)
		}
		e.Data = &inventory.Range{File: p.file, Offset: p.base + n.offset, Length: n.size}
		if n.size > 0 {
			p.spans = append(p.spans, span{start: e.Data.Offset, end: e.Data.End(), path: at})
		}
	}
	_, err := p.s.add(e)
	return err
}

// files parses a directory's "files" object.
func (p *asarParser) files(dir string) error {
	if err := p.sc.open(func() string { return fmt.Sprintf("the \"files\" of %s", describe(dir)) }); err != nil {
		return err
	}
	names := map[string]bool{}
	for {
		name, more, err := p.sc.member()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		if names[name] {
			return malformedf("%s declares member %q twice", describe(dir), name)
		}
		names[name] = true
		if err := artpath.ValidSegment(name); err != nil {
			return err
		}
		child := name
		if dir != "" {
			child = dir + "/" + name
		}
		norm, err := p.s.normalize(child)
		if err != nil {
			return err
		}
		if err := p.node(norm); err != nil {
			return err
		}
	}
}

// parseDecimal accepts only plain non-negative decimal integers that fit in
// an int64: no sign, fraction, exponent or spaces.
func parseDecimal(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// checkBlocks requires the block list @electron/asar writes: one hash per
// full block plus one for the (possibly empty) remainder. A list without the
// empty trailing block of an exact multiple is accepted too.
func checkBlocks(at string, size int64, in *inventory.Integrity) error {
	want := size/in.BlockSize + 1
	n := int64(len(in.Blocks))
	if n == want || (size > 0 && size%in.BlockSize == 0 && n == want-1) {
		return nil
	}
	return malformedf("%s declares %d integrity blocks for %d bytes in %d-byte blocks (expected %d)",
		describe(at), n, size, in.BlockSize, want).WithDetail("path", at)
}

func sha256Hex(at, s string) (string, error) {
	if len(s) != 64 {
		return "", malformedf("%s declares integrity hash %q, not 64 hex digits", describe(at), clipText(strings.ToLower(s))).WithDetail("path", at)
	}
	lower := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			lower = false
		default:
			return "", malformedf("%s declares integrity hash %q, not 64 hex digits", describe(at), clipText(strings.ToLower(s))).WithDetail("path", at)
		}
	}
	if !lower {
		s = strings.ToLower(s)
	}
	return s, nil
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
