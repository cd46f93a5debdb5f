package inventory

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

// CompressionBlocksStream: the decoded bytes of a file stored as blocks
// (a squashfs file, Range.Blocks), as a stream other ranges are read
// from — the members of a zip, a tar.gz or a second AppImage held in an
// AppImage or a snap. It is only ever a Source, never an entry's own
// range; StreamLength is the file's size (what the blocks add up to).
//
// A squashfs file may have thousands of blocks and the archive in it
// thousands of members, so the module's answer does not repeat the
// blocks in every member's Source: the link names the entry that holds
// them (BlocksOf) and ResolveSources fills them in (with that entry's own
// Source chain). The stage's names carry the blocks themselves
// (compactly), since the stage has no inventory to look them up in.
const CompressionBlocksStream = "blocks-stream"

// MaxStreamNameBlocks bounds the blocks a stream name may carry.
const MaxStreamNameBlocks = 1 << 20

// AsBlocksStream is the blocks range r of entry index holder (a squashfs
// file) as a stream to read other ranges from.
func AsBlocksStream(r Range, holder int, size int64) Range {
	h := holder
	return Range{File: r.File, Compression: CompressionBlocksStream, StreamLength: size, Blocks: r.Blocks, Source: r.Source, BlocksOf: &h}
}

// CompactSources drops, from every blocks-stream link of every entry's
// Source chain, the blocks and the chain beyond it, which the entry the
// link names (BlocksOf) holds: ResolveSources puts them back.
func (res *Result) CompactSources() {
	for i := range res.Entries {
		if d := res.Entries[i].Data; d != nil && d.Source != nil {
			c := compactChain(*d)
			res.Entries[i].Data = &c
		}
	}
}

func compactChain(r Range) Range {
	if r.Compression == CompressionBlocksStream && r.BlocksOf != nil {
		r.Blocks, r.Source = nil, nil
		return r
	}
	if r.Source != nil {
		src := compactChain(*r.Source)
		r.Source = &src
	}
	return r
}

// ResolveSources fills every blocks-stream link of every entry's Source
// chain from the entry it names: that entry must come before, be a file
// of the same file stored as blocks, and the link then reads its blocks
// through its own Source chain. A link naming anything else is an error
// (the module's answer is not trusted).
func (res *Result) ResolveSources() error {
	for i := range res.Entries {
		d := res.Entries[i].Data
		if d == nil {
			continue
		}
		if d.Compression == CompressionBlocksStream {
			return fmt.Errorf("entry %d: a blocks stream is only ever read from, never an entry's own range", i)
		}
		if d.Source == nil && d.BlocksOf == nil {
			continue
		}
		r, err := res.resolveChain(*d, i, 0)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
		res.Entries[i].Data = &r
	}
	return nil
}

func (res *Result) resolveChain(r Range, at, depth int) (Range, error) {
	if depth > MaxSourceDepth {
		return r, fmt.Errorf("read from more than %d nested streams", MaxSourceDepth)
	}
	if r.Compression == CompressionBlocksStream && depth > 0 {
		if r.BlocksOf == nil || r.Blocks != nil || r.Source != nil {
			return r, fmt.Errorf("a blocks stream must name the entry holding its blocks and nothing else")
		}
		h := *r.BlocksOf
		if h < 0 || h >= at {
			return r, fmt.Errorf("a blocks stream names entry %d, which does not come before it", h)
		}
		he := res.Entries[h]
		if he.Kind != KindFile || he.Data == nil || he.Data.Compression != CompressionBlocks || he.Data.File != r.File || he.Size != r.StreamLength {
			return r, fmt.Errorf("a blocks stream names entry %d, which is not a %d-byte file of %q stored as blocks", h, r.StreamLength, r.File)
		}
		// The holder's own chain was resolved when it was visited.
		r.Blocks, r.Source = he.Data.Blocks, he.Data.Source
		if r.Sources() < 0 || depth+r.Sources() > MaxSourceDepth {
			return r, fmt.Errorf("read from more than %d nested streams", MaxSourceDepth)
		}
		return r, nil
	}
	if r.BlocksOf != nil {
		return r, fmt.Errorf("compression %q names a holder entry", r.Compression)
	}
	if r.Source != nil {
		src, err := res.resolveChain(*r.Source, at, depth+1)
		if err != nil {
			return r, err
		}
		r.Source = &src
	}
	return r, nil
}

// appendBlocks encodes blocks compactly for a stream name: a table of the
// codecs, then per block its offset from the end of the previous one and
// its length, size, skip, whole and codec, as varints.
func appendBlocks(buf []byte, blocks []Block) []byte {
	var codecs []string
	index := map[string]int{}
	for _, b := range blocks {
		if _, ok := index[b.Codec]; !ok {
			index[b.Codec] = len(codecs)
			codecs = append(codecs, b.Codec)
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(codecs)))
	for _, c := range codecs {
		buf = binary.AppendUvarint(buf, uint64(len(c)))
		buf = append(buf, c...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(blocks)))
	var end int64
	for _, b := range blocks {
		buf = binary.AppendVarint(buf, b.Offset-end)
		for _, v := range []int64{b.Length, b.Size, b.Skip, b.Whole} {
			buf = binary.AppendVarint(buf, v)
		}
		buf = binary.AppendUvarint(buf, uint64(index[b.Codec]))
		end = b.Offset + b.Length
	}
	return buf
}

// blocksName is the name part that carries blocks.
func blocksName(blocks []Block) string {
	return base64.RawURLEncoding.EncodeToString(appendBlocks(nil, blocks))
}

// parseBlocksName reverses blocksName; ok is false for anything it did
// not write, or blocks with negative fields, none, or too many.
func parseBlocksName(s string) ([]Block, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	p := raw
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			bad = true
			return 0
		}
		p = p[n:]
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(p)
		if n <= 0 {
			bad = true
			return 0
		}
		p = p[n:]
		return v
	}
	nc := uv()
	if bad || nc > 16 {
		return nil, false
	}
	codecs := make([]string, nc)
	for i := range codecs {
		l := uv()
		if bad || l > 16 || l > uint64(len(p)) {
			return nil, false
		}
		codecs[i], p = string(p[:l]), p[l:]
	}
	nb := uv()
	if bad || nb == 0 || nb > MaxStreamNameBlocks || nb > uint64(len(p)) {
		return nil, false
	}
	blocks := make([]Block, nb)
	var end int64
	for i := range blocks {
		delta := sv()
		b := Block{Length: sv(), Size: sv(), Skip: sv(), Whole: sv()}
		c := uv()
		if bad || c >= nc || b.Length < 0 || b.Size < 0 || b.Skip < 0 || b.Whole < 0 ||
			(delta > 0 && end > 1<<62-delta) || end+delta < 0 || end+delta > 1<<62-b.Length {
			return nil, false
		}
		b.Offset, b.Codec = end+delta, codecs[c]
		end = b.Offset + b.Length
		blocks[i] = b
	}
	if len(p) != 0 {
		return nil, false
	}
	return blocks, true
}
