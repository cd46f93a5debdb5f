package container

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// decoded is the host's decoded copy of a compressed stream.
type decoded struct {
	ra   io.ReaderAt
	size int64
	f    fs.File
}

func (d *decoded) Close() { d.f.Close() }

// decodedStream opens the host's decoded copy of the compressed stream
// [off, off+n) of file (n == 0: the whole file of fileSize bytes), or
// returns nil when the host staged none (native callers: the stream is
// then decoded here). A copy longer than the stream budget is the limit
// that cut it.
func (s *scope) decodedStream(off, n, fileSize int64, file, compression string) (*decoded, error) {
	if s.b.streams == nil {
		return nil, nil
	}
	name := inventory.StreamName(file, compression, off, n)
	f, err := s.b.streams.Open(name)
	what := strings.TrimSuffix(compression, "-stream")
	if err != nil {
		return nil, malformedf("the %s stream at bytes %d–%d is corrupt or truncated (the host could not decode it: %v)", what, off, off+n, err)
	}
	info, err := f.Stat()
	ra, ok := f.(io.ReaderAt)
	if err != nil || !ok {
		f.Close()
		return nil, malformedf("the decoded %s stream cannot be read at offsets", what)
	}
	bn := n
	if bn == 0 {
		bn = fileSize
	}
	budget, limit := inventory.StreamBudget(s.b.lim, bn)
	if info.Size() > budget {
		f.Close()
		if limit == "max_total_bytes" {
			return nil, limitError(limit, s.b.lim.MaxTotalBytes, info.Size(),
				fmt.Sprintf("the %s stream of %d bytes decodes past %d bytes, more than the entries max_total_bytes allows plus their headers", what, bn, budget))
		}
		ratio := int64(s.b.lim.MaxCompressionRatio)
		return nil, limitError(limit, ratio, info.Size()/max(bn, 1),
			fmt.Sprintf("the %s stream of %d bytes expands past %d bytes", what, bn, budget))
	}
	return &decoded{ra: ra, size: info.Size(), f: f}, nil
}

// expandNestedASARs lists, as nested containers, the ASAR archives among
// the files container s declared from entry index start on. open gives
// random access to a file's bytes (nil: the entry cannot be expanded);
// place turns a range inside that file's bytes into a range of the
// outer file. An archive nested deeper than max_depth is left listed but
// not expanded (the host then says the inventory is partial).
func expandNestedASARs(s *scope, start int, open func(e inventory.Entry) io.ReaderAt, place func(e inventory.Entry, r inventory.Range) inventory.Range) error {
	depth := s.b.res.Containers[s.index].Depth + 1
	end := len(s.b.res.Entries)
	for i := start; i < end; i++ {
		e := s.b.res.Entries[i]
		if e.Container != s.index || e.Kind != inventory.KindFile || e.Data == nil || formatByName(e.Path) != inventory.FormatASAR {
			continue
		}
		ra := open(e)
		if ra == nil || sniff(ra, e.Size) != inventory.FormatASAR || depth > s.b.lim.MaxDepth {
			continue
		}
		child, err := s.b.openContainer(inventory.Container{Parent: s.index, Entry: i, File: e.Data.File, Format: inventory.FormatASAR, Depth: depth})
		if err != nil {
			return err
		}
		first := len(s.b.res.Entries)
		if _, err := parseASAR(child, ra, e.Size, e.Data.File); err != nil {
			return inContainer(err, e.Path, depth)
		}
		// The module parsed the header from the decoded bytes, which the
		// host hashes as part of the archive's own entry: there is no
		// prefix of the outer file to re-check.
		c := &s.b.res.Containers[child.index]
		c.ParsedBytes, c.ParsedSHA256 = 0, ""
		for j := first; j < len(s.b.res.Entries); j++ {
			if d := s.b.res.Entries[j].Data; d != nil {
				r := place(e, *d)
				s.b.res.Entries[j].Data = &r
			}
		}
		s.b.res.Entries[i].Nested = child.index
	}
	return nil
}

// expandStreamASARs expands the ASAR archives a stream container listed:
// their bytes are a range of the decoded stream, so are their members'.
func expandStreamASARs(s *scope, start int, d *decoded) error {
	return expandNestedASARs(s, start,
		func(e inventory.Entry) io.ReaderAt {
			if e.Data.Offset > d.size || e.Data.Length > d.size-e.Data.Offset {
				return nil
			}
			return io.NewSectionReader(d.ra, e.Data.Offset, e.Data.Length)
		},
		func(e inventory.Entry, r inventory.Range) inventory.Range {
			out := *e.Data
			out.Offset, out.Length = e.Data.Offset+r.Offset, r.Length
			return out
		})
}

// blockFile gives random access to the bytes of a blocks entry (a
// squashfs file) by decoding its blocks from the start; it serves the
// small reads an ASAR header needs.
type blockFile struct {
	ra io.ReaderAt
	r  inventory.Range
}

func (b blockFile) ReadAt(p []byte, off int64) (int, error) {
	br := stream.OpenBlocks(b.ra, b.r, nil)
	if _, err := io.CopyN(io.Discard, br, off); err != nil {
		return 0, err
	}
	return io.ReadFull(br, p)
}

// sliceBlocks is the list of blocks that holds bytes [off, off+n) of the
// concatenation of blocks.
func sliceBlocks(blocks []inventory.Block, off, n int64) []inventory.Block {
	var out []inventory.Block
	var pos int64
	for _, b := range blocks {
		lo, hi := max(pos, off), min(pos+b.Size, off+n)
		if hi > lo {
			nb := inventory.Block{Offset: b.Offset, Length: b.Length, Codec: b.Codec, Size: hi - lo}
			if b.Length > 0 {
				nb.Skip = b.Skip + lo - pos
				nb.Whole = b.Whole
				if nb.Whole == 0 {
					nb.Whole = b.Skip + b.Size
				}
			}
			out = append(out, nb)
		}
		pos += b.Size
		if pos >= off+n {
			break
		}
	}
	return out
}

// expandBlockASARs expands the ASAR archives a squashfs image holds.
func expandBlockASARs(s *scope, start int, ra io.ReaderAt) error {
	return expandNestedASARs(s, start,
		func(e inventory.Entry) io.ReaderAt { return blockFile{ra: ra, r: *e.Data} },
		func(e inventory.Entry, r inventory.Range) inventory.Range {
			out := *e.Data
			out.Blocks = sliceBlocks(e.Data.Blocks, r.Offset, r.Length)
			return out
		})
}
