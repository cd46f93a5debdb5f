package index

import (
	"encoding/binary"
	"slices"
	"strings"
)

// A snapshot is an Index serialised so a guidance module can answer from
// the packaged bundle without indexing it again on every request: `make`
// writes the packaged bundle's snapshot (guidance/bundle.index, see
// guidance.Snapshot) and the module opens it per request. Opening decodes
// the documents and sections; the term table stays in the snapshot's bytes
// and is searched in place, so a request touches only its own terms.
//
// Layout, all integers unsigned LEB128 unless noted:
//
//	magic "reaGIX" 0x00 version(1 byte)
//	bundle digest (32 bytes)
//	documents: count, then per document: path, text (length-prefixed)
//	sections: count, then per section: doc, level, start, own end, end,
//	  parent+1 (0 for a top section), UTF-16 units, hash (32 bytes), heading
//	terms: count, then count little-endian uint32 offsets into the term
//	  area (terms in ascending byte order), then the term area: per term
//	  the word, the number of sections and the ascending section indices as
//	  deltas from the previous one (the first from -1)
const (
	snapshotMagic   = "reaGIX\x00"
	snapshotVersion = 1
	// ReasonCorruptSnapshot: a snapshot does not decode (details.reason).
	ReasonCorruptSnapshot = "corrupt_snapshot"
)

// MarshalBinary returns the index's snapshot. The same index always yields
// the same bytes.
func (ix *Index) MarshalBinary() ([]byte, error) {
	b := append([]byte(snapshotMagic), snapshotVersion)
	b = append(b, ix.digest[:]...)
	b = binary.AppendUvarint(b, uint64(len(ix.docs)))
	for _, d := range ix.docs {
		b = appendString(b, d.path)
		b = appendString(b, d.src)
	}
	b = binary.AppendUvarint(b, uint64(len(ix.sections)))
	for _, s := range ix.sections {
		for _, v := range []int{s.doc, s.level, s.start, s.ownEnd, s.end, s.parent + 1, s.units} {
			b = binary.AppendUvarint(b, uint64(v))
		}
		b = append(b, s.hash[:]...)
		b = appendString(b, s.heading)
	}
	postings := ix.postings
	if postings == nil && ix.terms != nil { // an opened snapshot
		var err error
		if postings, err = ix.terms.all(); err != nil {
			return nil, err
		}
	}
	words := make([]string, 0, len(postings))
	for w := range postings {
		words = append(words, w)
	}
	slices.Sort(words)
	var area []byte
	offsets := make([]byte, 0, 4*len(words))
	for _, w := range words {
		offsets = binary.LittleEndian.AppendUint32(offsets, uint32(len(area)))
		area = appendString(area, w)
		post := postings[w]
		area = binary.AppendUvarint(area, uint64(len(post)))
		prev := int32(-1)
		for _, p := range post {
			area = binary.AppendUvarint(area, uint64(p-prev))
			prev = p
		}
	}
	b = binary.AppendUvarint(b, uint64(len(words)))
	b = append(b, offsets...)
	return append(b, area...), nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Open decodes a snapshot made by MarshalBinary. A snapshot whose header,
// documents or sections do not decode to a consistent index — wrong magic or
// version, a length past the end, a section outside its document, a parent
// after its child — is refused with bundle_unavailable (reason
// corrupt_snapshot). A term record is checked when a search reads it, and a
// malformed one fails that search the same way. Nothing panics.
//
// The index keeps substrings of snapshot instead of copies (strings are
// immutable, so sharing is free): opening the packaged snapshot costs a few
// thousand fuel units in a module instead of indexing the bundle again.
func Open(snapshot string) (*Index, error) {
	if !strings.HasPrefix(snapshot, snapshotMagic) || len(snapshot) < len(snapshotMagic)+1+32 {
		return nil, corrupt("it does not start with the snapshot magic")
	}
	if v := snapshot[len(snapshotMagic)]; v != snapshotVersion {
		return nil, corrupt("it is version %d, this rea reads version %d; rebuild with `make`", v, snapshotVersion)
	}
	d := snapshotDecoder{b: snapshot, pos: len(snapshotMagic) + 1}
	ix := &Index{}
	copy(ix.digest[:], d.bytes(32))
	nDocs := d.count(2)
	ix.docs = make([]document, 0, nDocs)
	for range nDocs {
		path := d.bytes(d.int())
		ix.docs = append(ix.docs, document{path: path, src: d.bytes(d.int())})
	}
	nSections := d.count(1 + 7 + 32)
	if d.err == nil && nSections > MaxSections {
		return nil, corrupt("it holds %d sections, more than %d", nSections, MaxSections)
	}
	ix.sections = make([]section, 0, nSections)
	for i := range nSections {
		if d.err != nil {
			break
		}
		s := section{doc: d.int(), level: d.int(), start: d.int(), ownEnd: d.int(), end: d.int(), parent: d.int() - 1, units: d.int()}
		copy(s.hash[:], d.bytes(32))
		s.heading = d.bytes(d.int())
		if d.err != nil {
			break
		}
		if s.doc >= len(ix.docs) || s.level > 6 || s.start > s.ownEnd || s.ownEnd > s.end || s.end > len(ix.docs[s.doc].src) ||
			s.parent >= i || (s.parent >= 0 && ix.sections[s.parent].doc != s.doc) {
			return nil, corrupt("section %d is inconsistent", i)
		}
		if s.parent >= 0 {
			parent := &ix.sections[s.parent]
			parent.children = append(parent.children, i)
		}
		ix.sections = append(ix.sections, s)
	}
	nTerms := d.count(4 + 2)
	offsets := d.bytes(4 * nTerms)
	if d.err != nil {
		return nil, d.err
	}
	ix.terms = &termTable{offsets: offsets, area: snapshot[d.pos:], sections: len(ix.sections)}
	for i := len(ix.sections) - 1; i >= 0; i-- {
		s := &ix.sections[i]
		s.last = i
		if n := len(s.children); n > 0 {
			s.last = ix.sections[s.children[n-1]].last
		}
	}
	return ix, nil
}

// termTable is the snapshot's sorted term area, searched in place.
type termTable struct {
	offsets  string // 4 bytes per term, little-endian
	area     string
	sections int
}

func (t *termTable) len() int { return len(t.offsets) / 4 }

// record returns the word of term k and the rest of the area from its
// posting list on.
func (t *termTable) record(k int) (word, rest string, ok bool) {
	o := t.offsets[4*k:]
	off := uint32(o[0]) | uint32(o[1])<<8 | uint32(o[2])<<16 | uint32(o[3])<<24
	if uint64(off) >= uint64(len(t.area)) {
		return "", "", false
	}
	d := snapshotDecoder{b: t.area, pos: int(off)}
	w := d.bytes(d.int())
	if d.err != nil {
		return "", "", false
	}
	return w, t.area[d.pos:], true
}

// postings decodes a posting list; ok is false when it is malformed.
func (t *termTable) postings(rest string) ([]int32, bool) {
	d := snapshotDecoder{b: rest}
	n := d.count(1)
	if d.err != nil || n > t.sections {
		return nil, false
	}
	out := make([]int32, 0, n)
	prev := -1
	for range n {
		delta := d.int()
		if d.err != nil || delta == 0 || prev+delta >= t.sections {
			return nil, false
		}
		prev += delta
		out = append(out, int32(prev))
	}
	return out, true
}

// all decodes the whole table.
func (t *termTable) all() (map[string][]int32, error) {
	out := make(map[string][]int32, t.len())
	prev := ""
	for k := range t.len() {
		w, rest, ok := t.record(k)
		if !ok || (k > 0 && prev >= w) {
			return nil, corrupt("term %d is malformed or out of order", k)
		}
		p, ok := t.postings(rest)
		if !ok {
			return nil, corrupt("the sections of term %q are malformed", w)
		}
		out[w], prev = p, w
	}
	return out, nil
}

// resolve returns the posting lists of terms, for one search.
func (t *termTable) resolve(terms []string) (map[string][]int32, error) {
	out := make(map[string][]int32, len(terms))
	for _, w := range terms {
		p, err := t.lookup(w)
		if err != nil {
			return nil, err
		}
		out[w] = p
	}
	return out, nil
}

// lookup returns the sections whose own text holds term, ascending. A
// malformed record on the search path fails the lookup.
func (t *termTable) lookup(term string) ([]int32, error) {
	lo, hi := 0, t.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		w, rest, ok := t.record(m)
		if !ok {
			return nil, corrupt("term %d lies outside the term area", m)
		}
		switch {
		case w == term:
			p, ok := t.postings(rest)
			if !ok {
				return nil, corrupt("the sections of term %q are malformed", w)
			}
			return p, nil
		case w < term:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil, nil
}

// snapshotDecoder reads a snapshot; the first failure sticks in err and
// later reads return zero values.
type snapshotDecoder struct {
	b   string
	pos int
	err error
}

// int reads an unsigned LEB128 number of at most 31 bits.
func (d *snapshotDecoder) int() int {
	if d.err != nil {
		return 0
	}
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if d.pos >= len(d.b) || shift > 28 {
			d.err = corrupt("a number at offset %d does not decode", d.pos)
			return 0
		}
		c := d.b[d.pos]
		d.pos++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	if v > 1<<31 {
		d.err = corrupt("a number before offset %d is too large", d.pos)
		return 0
	}
	return int(v)
}

// count reads a vector length whose elements take at least minSize bytes.
func (d *snapshotDecoder) count(minSize int) int {
	n := d.int()
	if d.err == nil && uint64(n)*uint64(minSize) > uint64(len(d.b)-d.pos) {
		d.err = corrupt("a count of %d at offset %d cannot fit in the snapshot", n, d.pos)
		return 0
	}
	return n
}

// bytes returns the next n bytes as a substring.
func (d *snapshotDecoder) bytes(n int) string {
	if d.err != nil {
		return ""
	}
	if n < 0 || n > len(d.b)-d.pos {
		d.err = corrupt("%d bytes at offset %d run past the end", n, d.pos)
		return ""
	}
	out := d.b[d.pos : d.pos+n]
	d.pos += n
	return out
}

func corrupt(format string, args ...any) error {
	return unavailable(ReasonCorruptSnapshot, "the guidance index snapshot is corrupt: "+format, args...)
}
