package container

import (
	"fmt"
	"io"
	"io/fs"
	"sort"
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
	return s.decodedRange(inventory.Range{File: file, Compression: compression, StreamOffset: off, StreamLength: n}, fileSize)
}

// decodedRange is decodedStream for the stream r points into (a 7-Zip
// folder's too), placed in the outer file by the scope's base.
func (s *scope) decodedRange(r inventory.Range, fileSize int64) (*decoded, error) {
	if s.b.streams == nil {
		return nil, nil
	}
	r = s.outer(r, fileSize)
	off, n, compression := r.StreamOffset, r.StreamLength, r.Compression
	name := inventory.StreamNameOf(r)
	f, err := s.b.streams.Open(name)
	what := strings.TrimSuffix(compression, "-stream")
	if err != nil {
		if compression == inventory.CompressionBlocksStream {
			return nil, malformedf("the %d bytes of its squashfs blocks do not decode (the host could not decode them: %v)", n, err)
		}
		return nil, malformedf("the %s stream at bytes %d–%d is corrupt or truncated (the host could not decode it: %v)", what, off, off+n, err)
	}
	info, err := f.Stat()
	ra, ok := f.(io.ReaderAt)
	if err != nil || !ok {
		f.Close()
		return nil, malformedf("the decoded %s stream cannot be read at offsets", what)
	}
	if n == 0 { // the whole file is the stream (a tar.gz)
		n = fileSize
	}
	if err := s.checkDecodedSize(what, n, info.Size()); err != nil {
		f.Close()
		return nil, err
	}
	return &decoded{ra: ra, size: info.Size(), f: f}, nil
}

// outer is r, listed by scope s, in the outer file's terms: moved by the
// scope's base and read from its source stream, if any.
func (s *scope) outer(r inventory.Range, size int64) inventory.Range {
	if s.section {
		r = rebase(r, s.base, size)
	}
	if s.source != nil {
		r = r.WithSource(*s.source)
	}
	return r
}

// rebase moves a range listed from a section of the outer file that
// starts at base (size bytes long) to the outer file. A stream that was
// the whole section (a tar.gz) becomes that section, even at base 0 (a
// tar.gz at the start of a 7-Zip folder is not the whole folder); only
// a container listed from a whole file (the input, a directory's file)
// keeps such a stream as listed. A range read from a stream's decoded
// bytes (Source) is moved with that stream.
func rebase(r inventory.Range, base, size int64) inventory.Range {
	if r.Source != nil {
		src := rebase(*r.Source, base, size)
		r.Source = &src
		return r
	}
	if stream.IsStream(r.Compression) && r.StreamLength == 0 {
		r.StreamOffset, r.StreamLength = 0, size
	}
	switch {
	case r.Compression == inventory.CompressionNone || r.Compression == inventory.CompressionDeflate:
		r.Offset += base
	case r.Compression == inventory.CompressionBlocks || r.Compression == inventory.CompressionBlocksStream:
		r.Blocks = append([]inventory.Block(nil), r.Blocks...)
		for i := range r.Blocks {
			if r.Blocks[i].Length > 0 {
				r.Blocks[i].Offset += base
			}
		}
	case stream.IsStream(r.Compression):
		r.StreamOffset += base
		if r.Folder != nil {
			f := *r.Folder
			f.Packed = append([]inventory.PackedStream(nil), f.Packed...)
			for i := range f.Packed {
				f.Packed[i].Offset += base
			}
			r.Folder = &f
		}
	}
	return r
}

// expandNestedASARs lists, as nested containers, the ASAR archives among
// the files container s declared from entry index start on. open gives
// random access to a file's bytes (nil: the entry cannot be expanded);
// place turns a range inside that file's bytes into a range of the
// outer file; inner then expands the archives among the ASAR's members
// (placed where the ASAR is: in a decoded stream, in squashfs blocks).
// An archive nested deeper than max_depth is left listed but not
// expanded (the inventory then says so: depthLimitation).
func expandNestedASARs(s *scope, start int, open func(e inventory.Entry) io.ReaderAt, place func(e inventory.Entry, r inventory.Range) inventory.Range, inner innerExpander) error {
	if s.b.topOnly {
		return nil
	}
	return expandNestedASARsErr(s, start, func(_ int, e inventory.Entry) (io.ReaderAt, error) { return open(e), nil }, place, inner)
}

// innerExpander expands the archives among the entries container c
// declared from entry index first on.
type innerExpander func(c *scope, first int) error

// inStreams expands the archives among entries whose ranges lie in
// decoded streams (an ASAR's members, placed in the stream holding it):
// ASARs from the stream's copy, any other archive with its ranges read
// from that copy.
func inStreams(fileSize int64) innerExpander {
	return func(c *scope, first int) error {
		if err := expandDecodedASARs(c, first, fileSize, func(e inventory.Entry) bool { return stream.IsStream(e.Data.Compression) },
			"%q lies past the end of its decoded stream (%d bytes)"); err != nil {
			return err
		}
		return expandStreamArchives(c, first, fileSize)
	}
}

// inBlocks expands the archives among entries stored as squashfs blocks
// of ra (an ASAR's members, placed in the blocks of the file holding it).
func inBlocks(ra io.ReaderAt) innerExpander {
	return func(c *scope, first int) error {
		if err := expandBlockASARs(c, first, ra); err != nil {
			return err
		}
		return expandBlockArchives(c, first, ra)
	}
}

// expandNestedASARsErr is expandNestedASARs whose open may fail (a
// decoded copy past its budget).
func expandNestedASARsErr(s *scope, start int, open func(i int, e inventory.Entry) (io.ReaderAt, error), place func(e inventory.Entry, r inventory.Range) inventory.Range, inner innerExpander) error {
	if s.b.topOnly {
		return nil
	}
	depth := s.b.res.Containers[s.index].Depth + 1
	end := len(s.b.res.Entries)
	for i := start; i < end; i++ {
		e := s.b.res.Entries[i]
		if e.Container != s.index || e.Kind != inventory.KindFile || e.Data == nil || formatByName(e.Path) != inventory.FormatASAR || depth > s.b.lim.MaxDepth {
			continue
		}
		ra, err := open(i, e)
		if err != nil {
			return err
		}
		e = s.b.res.Entries[i] // open may have moved the entry into a staged stream
		if ra == nil || sniff(ra, e.Size) != inventory.FormatASAR {
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
		if err := inner(child, first); err != nil {
			return inContainer(err, e.Path, depth)
		}
	}
	return nil
}

// streamPlace places a range inside the decoded bytes of a stream
// member e into the same stream.
func streamPlace(e inventory.Entry, r inventory.Range) inventory.Range {
	out := *e.Data
	out.Offset, out.Length = e.Data.Offset+r.Offset, r.Length
	return out
}

// expandStreamASARs expands the ASAR archives a stream container listed:
// their bytes are a range of the decoded stream, so are their members'.
func expandStreamASARs(s *scope, start int, d *decoded, fileSize int64) error {
	if s.b.topOnly {
		return nil
	}
	return expandNestedASARs(s, start,
		func(e inventory.Entry) io.ReaderAt {
			if e.Data.Offset > d.size || e.Data.Length > d.size-e.Data.Offset {
				return nil
			}
			return io.NewSectionReader(d.ra, e.Data.Offset, e.Data.Length)
		}, streamPlace, inStreams(fileSize))
}

// expandFolderASARs expands the ASAR archives among a 7-Zip archive's
// members (electron-builder's app-64.7z holds resources/app.asar): the
// host decodes the folder holding one once into the staging mount, and
// the archive's members are ranges of the same folder output. Without
// a stage (native callers) they stay listed, not expanded.
func expandFolderASARs(s *scope, start int, fileSize int64) error {
	if s.b.topOnly {
		return nil
	}
	return expandDecodedASARs(s, start, fileSize, func(e inventory.Entry) bool {
		return e.Data.Compression == inventory.CompressionSevenZipFolder && e.Data.Folder != nil
	}, "7-Zip member %q lies past the end of its decoded folder (%d bytes)")
}

// expandDecodedASARs expands the ASAR archives among the entries inStream
// accepts from the host's decoded copy of the stream each lies in (each
// stream decoded once, closed at the end); pastEnd is the message of a
// member that lies past its stream's end.
func expandDecodedASARs(s *scope, start int, fileSize int64, inStream func(inventory.Entry) bool, pastEnd string) error {
	if s.b.topOnly {
		return nil
	}
	if s.b.streams == nil {
		return nil
	}
	open := map[string]*decoded{}
	defer func() {
		for _, d := range open {
			d.Close()
		}
	}()
	return expandNestedASARsErr(s, start, func(_ int, e inventory.Entry) (io.ReaderAt, error) {
		if !inStream(e) {
			return nil, nil
		}
		key := inventory.StreamNameOf(*e.Data)
		d, ok := open[key]
		if !ok {
			var err error
			if d, err = s.decodedRange(*e.Data, fileSize); err != nil {
				return nil, inContainer(err, e.Path, s.b.res.Containers[s.index].Depth+1)
			}
			open[key] = d
		}
		if e.Data.Offset > d.size || e.Data.Length > d.size-e.Data.Offset {
			return nil, malformedf(pastEnd, e.Path, d.size)
		}
		return io.NewSectionReader(d.ra, e.Data.Offset, e.Data.Length), nil
	}, streamPlace, inStreams(fileSize))
}

// expandMembers expands the archives among the files a zip or a plain
// tar listed from entry index start on (ra is the container's own bytes,
// size long). An archive stored as it is (a stored zip member, a tar
// member) is listed in place from a section of the file, in any format
// rea reads — a zip in a zip, an AppImage or a .deb in a zip — and its
// ranges are moved into the outer file. An ASAR in a deflated zip member
// is expanded from the host's decoded copy of the member (the member
// becomes a deflate-stream range, so the host hashes that copy too), and
// so is any other archive in a deflated member (expandDeflatedArchives).
// An archive past max_depth is listed, not expanded.
func expandMembers(s *scope, start int, ra io.ReaderAt, size int64) error {
	if s.b.topOnly {
		return nil
	}
	depth := s.b.res.Containers[s.index].Depth + 1
	end := len(s.b.res.Entries)
	var deflated []int
	for i := start; i < end; i++ {
		e := s.b.res.Entries[i]
		if e.Container != s.index || e.Kind != inventory.KindFile || e.Data == nil || e.Size == 0 || depth > s.b.lim.MaxDepth {
			continue
		}
		want := formatByName(e.Path)
		if want == "" {
			continue
		}
		switch e.Data.Compression {
		case inventory.CompressionNone:
			if e.Data.Offset < 0 || e.Data.Offset > size || e.Data.Length > size-e.Data.Offset {
				continue
			}
			sec := io.NewSectionReader(ra, e.Data.Offset, e.Data.Length)
			if nestedFormat(e.Path, sec, e.Size) != want {
				continue
			}
			if err := listPlaced(s, sec, i, want, depth); err != nil {
				return err
			}
		case inventory.CompressionDeflate:
			deflated = append(deflated, i)
		}
	}
	if len(deflated) == 0 || s.b.streams == nil {
		return nil
	}
	var asars, others []int
	for _, i := range deflated {
		if formatByName(s.b.res.Entries[i].Path) == inventory.FormatASAR {
			asars = append(asars, i)
		} else {
			others = append(others, i)
		}
	}
	if len(asars) > 0 {
		if err := expandDeflatedASARs(s, asars, size); err != nil {
			return err
		}
	}
	if len(others) > 0 {
		return expandDeflatedArchives(s, others, size)
	}
	return nil
}

// expandDeflatedArchives expands the archives other than ASAR (a zip, 7z,
// .deb, AppImage, tar.gz, …) held in deflated zip members: each member
// that decodes to the format its name says becomes a deflate-stream range
// of the host's decoded copy (which the host hashes, checking the zip's
// CRC-32), and expandStreamArchives lists it from that copy, its ranges
// read from it (Range.Source) — as an archive in a compressed NSIS item.
func expandDeflatedArchives(s *scope, idx []int, size int64) error {
	if s.b.topOnly {
		return nil
	}
	depth := s.b.res.Containers[s.index].Depth + 1
	for _, i := range idx {
		e := s.b.res.Entries[i]
		r := inventory.Range{File: e.Data.File, Compression: inventory.CompressionDeflateStream,
			StreamOffset: e.Data.Offset, StreamLength: e.Data.Length}
		d, err := s.decodedRange(r, size)
		if err != nil {
			return inContainer(err, e.Path, depth)
		}
		if d == nil {
			return nil
		}
		got := d.size
		ok := got == e.Size && nestedFormat(e.Path, io.NewSectionReader(d.ra, 0, got), e.Size) == formatByName(e.Path)
		d.Close()
		if got != e.Size {
			return malformedf("zip member %q declares %d bytes but inflates to %d", e.Path, e.Size, got).WithDetail("path", e.Path)
		}
		if !ok {
			continue
		}
		r.Offset, r.Length = 0, e.Size
		s.b.res.Entries[i].Data = &r
	}
	return expandStreamArchives(s, idx[0], size)
}

// listPlaced lists the archive stored as entry i's bytes sec as a nested
// container, then moves every range it and its own nested containers
// declared by the entry's offset.
func listPlaced(s *scope, sec *io.SectionReader, i int, format string, depth int) error {
	e := s.b.res.Entries[i]
	off := e.Data.Offset
	firstC, first := len(s.b.res.Containers), len(s.b.res.Entries)
	saved, savedSection := s.b.base, s.b.section
	s.b.base, s.b.section = s.base+off, true
	child, err := listArchiveAs(s.b, sec, e.Size, e.Data.File, e.Path, format, s.index, i, depth)
	s.b.base, s.b.section = saved, savedSection
	if err != nil {
		return err
	}
	for j := first; j < len(s.b.res.Entries); j++ {
		if d := s.b.res.Entries[j].Data; d != nil {
			r := rebase(*d, off, e.Size)
			s.b.res.Entries[j].Data = &r
		}
	}
	// The headers were read from inside the member, which the host
	// hashes as the member's bytes: no prefix of the file to re-check.
	for c := firstC; c < len(s.b.res.Containers); c++ {
		s.b.res.Containers[c].ParsedBytes, s.b.res.Containers[c].ParsedSHA256 = 0, ""
	}
	s.b.res.Entries[i].Nested = child
	return nil
}

// expandDeflatedASARs expands the ASAR archives held in deflated zip
// members from the host's decoded copies of those members.
func expandDeflatedASARs(s *scope, idx []int, size int64) error {
	if s.b.topOnly {
		return nil
	}
	want := map[int]bool{}
	for _, i := range idx {
		want[i] = true
	}
	open := map[int]*decoded{}
	defer func() {
		for _, d := range open {
			d.Close()
		}
	}()
	start := idx[0]
	return expandNestedASARsErr(s, start, func(i int, e inventory.Entry) (io.ReaderAt, error) {
		if !want[i] {
			return nil, nil
		}
		d, err := s.decodedRange(inventory.Range{File: e.Data.File, Compression: inventory.CompressionDeflateStream,
			StreamOffset: e.Data.Offset, StreamLength: e.Data.Length}, size)
		if err != nil {
			return nil, inContainer(err, e.Path, s.b.res.Containers[s.index].Depth+1)
		}
		open[i] = d
		if d.size != e.Size {
			return nil, malformedf("zip member %q declares %d bytes but inflates to %d", e.Path, e.Size, d.size).WithDetail("path", e.Path)
		}
		if sniff(d.ra, d.size) != inventory.FormatASAR {
			return nil, nil
		}
		// The member is now a range of its decoded copy, which the host
		// hashes (checking the zip's CRC-32) instead of inflating again.
		r := inventory.Range{File: e.Data.File, Compression: inventory.CompressionDeflateStream, Offset: 0, Length: e.Size,
			StreamOffset: e.Data.Offset, StreamLength: e.Data.Length}
		s.b.res.Entries[i].Data = &r
		return io.NewSectionReader(d.ra, 0, d.size), nil
	}, streamPlace, inStreams(size))
}

// blockFile gives random access to the bytes of a blocks entry (a
// squashfs file): a read decodes only the blocks it covers (found by
// binary search on their declared sizes) and keeps the last one, since
// headers are read in small pieces at nearby offsets.
type blockFile struct {
	ra    io.ReaderAt
	r     inventory.Range
	cache stream.BlockCache
	// ends[i] is where block i ends in the file's bytes (the sum of the
	// declared sizes up to it); built on the first read.
	ends []int64
	// last is the index and decoded bytes of the last block read.
	last int
	data []byte
}

func newBlockFile(ra io.ReaderAt, r inventory.Range) *blockFile {
	return &blockFile{ra: ra, r: r, last: -1}
}

func (b *blockFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.EOF
	}
	if b.ends == nil {
		b.ends = make([]int64, len(b.r.Blocks))
		var end int64
		for i, blk := range b.r.Blocks {
			if blk.Size < 0 { // the listers build sizes from unsigned fields
				return 0, fmt.Errorf("block %d declares %d bytes", i, blk.Size)
			}
			end += blk.Size
			b.ends[i] = end
		}
	}
	n := 0
	// The first block that ends past off; the ones before it hold none
	// of the bytes asked for.
	first := sort.Search(len(b.ends), func(i int) bool { return b.ends[i] > off })
	for i := first; i < len(b.r.Blocks); i++ {
		if n == len(p) {
			return n, nil
		}
		var pos int64
		if i > 0 {
			pos = b.ends[i-1]
		}
		end := b.ends[i]
		if end <= off+int64(n) {
			continue
		}
		if b.last != i {
			data, err := io.ReadAll(stream.OpenBlocks(b.ra, inventory.Range{Blocks: b.r.Blocks[i : i+1]}, &b.cache))
			if err != nil {
				return n, err
			}
			b.last, b.data = i, data
		}
		at := off + int64(n) - pos
		if at >= int64(len(b.data)) {
			return n, io.ErrUnexpectedEOF
		}
		n += copy(p[n:], b.data[at:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
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
	if s.b.topOnly {
		return nil
	}
	return expandNestedASARs(s, start,
		func(e inventory.Entry) io.ReaderAt {
			if e.Data.Compression != inventory.CompressionBlocks {
				return nil
			}
			return newBlockFile(ra, *e.Data)
		},
		func(e inventory.Entry, r inventory.Range) inventory.Range {
			out := *e.Data
			out.Blocks = sliceBlocks(e.Data.Blocks, r.Offset, r.Length)
			return out
		}, inBlocks(ra))
}

// expandBlockArchives lists, as nested containers, the archives other
// than ASAR among the squashfs files container s declared from entry
// index start on (a zip, a tar.gz or a second AppImage in an AppImage or
// a snap; ra is the image's file). Each is listed from the host's decoded
// copy of its blocks (a blocks-stream naming the entry), every range it
// declares then read from that copy (Range.Source), as for an archive in
// a compressed stream. Without a stage they stay listed, not expanded.
func expandBlockArchives(s *scope, start int, ra io.ReaderAt) error {
	if s.b.topOnly {
		return nil
	}
	if s.b.streams == nil {
		return nil
	}
	depth := s.b.res.Containers[s.index].Depth + 1
	end := len(s.b.res.Entries)
	for i := start; i < end; i++ {
		e := s.b.res.Entries[i]
		if e.Container != s.index || e.Kind != inventory.KindFile || e.Data == nil || e.Size == 0 || depth > s.b.lim.MaxDepth ||
			e.Data.Compression != inventory.CompressionBlocks {
			continue
		}
		want := formatByName(e.Path)
		if want == "" || want == inventory.FormatASAR || nestedFormat(e.Path, newBlockFile(ra, *e.Data), e.Size) != want {
			continue
		}
		local := inventory.AsBlocksStream(*e.Data, i, e.Size)
		d, err := s.decodedRange(local, 0)
		if err != nil {
			return inContainer(err, e.Path, depth)
		}
		if d == nil {
			return nil
		}
		if d.size != e.Size {
			d.Close()
			return malformedf("squashfs file %q declares %d bytes but its blocks decode to %d", e.Path, e.Size, d.size).WithDetail("path", e.Path)
		}
		err = listHeld(s, i, local, io.NewSectionReader(d.ra, 0, d.size), 0, want, depth, 0)
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// expandStreamArchives lists, as nested containers, the archives other
// than ASAR (those expandDecodedASARs reads) among the files container s
// declared from entry index start on whose bytes lie in a compressed
// stream (an NSIS item compressed on its own or in a solid block): a
// zip, 7z, .deb, … packed with SetCompressor. The archive is listed from
// the host's decoded copy of the stream, and every range it declares is
// then read from that copy (Range.Source), so the host hashes its
// members from the copy and extraction decodes the stream first. The
// same limits hold as for an archive stored plainly (max_depth, the
// stream budget, every entry limit); without a stage (native callers)
// the archives stay listed, not expanded.
func expandStreamArchives(s *scope, start int, fileSize int64) error {
	if s.b.topOnly {
		return nil
	}
	if s.b.streams == nil {
		return nil
	}
	depth := s.b.res.Containers[s.index].Depth + 1
	open := map[string]*decoded{}
	defer func() {
		for _, d := range open {
			d.Close()
		}
	}()
	end := len(s.b.res.Entries)
	for i := start; i < end; i++ {
		e := s.b.res.Entries[i]
		if e.Container != s.index || e.Kind != inventory.KindFile || e.Data == nil || e.Size == 0 || depth > s.b.lim.MaxDepth ||
			!stream.IsStream(e.Data.Compression) {
			continue
		}
		want := formatByName(e.Path)
		if want == "" || want == inventory.FormatASAR {
			continue
		}
		key := inventory.StreamNameOf(*e.Data)
		d, ok := open[key]
		if !ok {
			var err error
			if d, err = s.decodedRange(*e.Data, fileSize); err != nil {
				return inContainer(err, e.Path, depth)
			}
			if d == nil {
				return nil
			}
			open[key] = d
		}
		if e.Data.Offset < 0 || e.Data.Offset > d.size || e.Data.Length > d.size-e.Data.Offset {
			return malformedf("%q lies past the end of its decoded stream (%d bytes)", e.Path, d.size).WithDetail("path", e.Path)
		}
		sec := io.NewSectionReader(d.ra, e.Data.Offset, e.Data.Length)
		if nestedFormat(e.Path, sec, e.Size) != want {
			continue
		}
		local := *e.Data
		local.Offset, local.Length = 0, 0
		if err := listHeld(s, i, local, sec, e.Data.Offset, want, depth, fileSize); err != nil {
			return err
		}
	}
	return nil
}

// listHeld lists the archive entry i holds as a nested container of
// format want: its bytes sec are bytes [off, off+size) of the decoded
// copy of stream local (in the scope's terms). Every range it declares
// is then read from that copy (moved by off, Source local).
func listHeld(s *scope, i int, local inventory.Range, sec *io.SectionReader, off int64, want string, depth int, fileSize int64) error {
	e := s.b.res.Entries[i]
	// The stream in the outer file's terms, for the child's own decoded
	// streams while it is listed.
	outerSrc := s.outer(local, fileSize)
	firstC, first := len(s.b.res.Containers), len(s.b.res.Entries)
	savedBase, savedSrc, savedSection := s.b.base, s.b.source, s.b.section
	s.b.base, s.b.source, s.b.section = off, &outerSrc, true
	child, err := listArchiveAs(s.b, sec, e.Size, e.Data.File, e.Path, want, s.index, i, depth)
	s.b.base, s.b.source, s.b.section = savedBase, savedSrc, savedSection
	if err != nil {
		return err
	}
	for j := first; j < len(s.b.res.Entries); j++ {
		if r := s.b.res.Entries[j].Data; r != nil {
			moved := rebase(*r, off, e.Size).WithSource(local)
			if moved.Sources() < 0 {
				return limitError("max_depth", inventory.MaxSourceDepth, inventory.MaxSourceDepth+1,
					fmt.Sprintf("%q is held in more than %d nested compressed streams", s.b.res.Entries[j].Path, inventory.MaxSourceDepth))
			}
			s.b.res.Entries[j].Data = &moved
		}
	}
	// The headers were read from the decoded stream, whose bytes the
	// host hashes as the archive's own entry.
	for c := firstC; c < len(s.b.res.Containers); c++ {
		s.b.res.Containers[c].ParsedBytes, s.b.res.Containers[c].ParsedSHA256 = 0, ""
	}
	s.b.res.Entries[i].Nested = child
	return nil
}

// finish is the result once every container is listed: the archives cut
// at max_depth said, and blocks-stream sources compacted for the wire.
func (b *builder) finish() *inventory.Result {
	if l := depthLimitation(b.res, b.lim.MaxDepth); l != "" {
		b.res.Limitations = append(b.res.Limitations, l)
	}
	b.res.CompactSources()
	return b.res
}

// depthLimitation says which files named as an archive rea reads were
// not opened because their container is already at max_depth — every
// expander skips exactly those — or "". The host reports it and the
// inventory is partial: their entries are in nobody's listing.
func depthLimitation(res *inventory.Result, maxDepth int) string {
	var first string
	n := 0
	for i, e := range res.Entries {
		if e.Kind != inventory.KindFile || e.Nested >= 0 || e.Data == nil || e.Size == 0 ||
			res.Containers[e.Container].Depth < maxDepth || formatByName(e.Path) == "" {
			continue
		}
		if n == 0 {
			first = logicalPath(res, i)
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d file(s) named as an archive rea reads (first: %s) were listed and hashed but not opened: they are nested deeper than max_depth (%d), so their entries are not in the inventory; raise max_depth (CLI --max-depth) if the artifact is trusted, or extract the archive (extract_artifact) and inspect it itself", n, first, maxDepth)
}
