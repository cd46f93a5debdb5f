package container

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"rea/analysis/artifact/inventory"
)

// listTar lists an uncompressed tar. Member data is skipped by seeking, so
// only headers are read.
func listTar(s *scope, ra io.ReaderAt, size int64, file string) error {
	sr := io.NewSectionReader(ra, 0, size)
	pos := func() int64 { p, _ := sr.Seek(0, io.SeekCurrent); return p }
	start := len(s.b.res.Entries)
	if err := listTarStream(s, tar.NewReader(sr), pos, size, file, inventory.CompressionNone, nil); err != nil {
		return err
	}
	return expandMembers(s, start, ra, size)
}

// listTarGz lists a gzip-compressed tar by decompressing it as a stream.
// Offsets address the decompressed stream; the stream may expand at most
// max_compression_ratio times the file size (with 1 MiB of slack for tiny
// archives).
func listTarGz(s *scope, ra io.ReaderAt, size int64, file string) error {
	if d, err := s.decodedStream(0, 0, size, file, inventory.CompressionGzipStream); err != nil {
		return err
	} else if d != nil {
		defer d.Close()
		return listDecodedTar(s, d, size, file, inventory.CompressionGzipStream, nil)
	}
	gz, err := gzip.NewReader(bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 64<<10))
	if err != nil {
		return malformedf("cannot read the gzip stream: %v", err)
	}
	budget := max(size*int64(s.b.lim.MaxCompressionRatio), 1<<20)
	if size > 0 && budget/size < int64(s.b.lim.MaxCompressionRatio) { // overflow
		budget = 1<<63 - 1
	}
	cr := &countingReader{r: gz, budget: budget, fileSize: size, ratio: int64(s.b.lim.MaxCompressionRatio)}
	pos := func() int64 { return cr.n }
	if err := listTarStream(s, tar.NewReader(cr), pos, -1, file, inventory.CompressionGzipStream, cr); err != nil {
		return err
	}
	// Read the rest so gzip checks its CRC and length trailer.
	if _, err := io.Copy(io.Discard, cr); err != nil {
		if cr.err != nil {
			return cr.err
		}
		return malformedf("the gzip stream is corrupt or truncated: %v", err)
	}
	return nil
}

// gzipHoldsTar reports whether the gzip file ra starts, once inflated,
// with a tar header whose checksum holds (or with the zero block of an
// empty tar). Only the first 512 decoded bytes are read.
func gzipHoldsTar(ra io.ReaderAt, size int64) bool {
	gz, err := gzip.NewReader(io.NewSectionReader(ra, 0, size))
	if err != nil {
		return false
	}
	var h [512]byte
	if _, err := io.ReadFull(gz, h[:]); err != nil {
		return false
	}
	return tarHeaderValid(h[:])
}

// tarHeaderValid reports whether h is a tar header block whose checksum
// (the unsigned or the historical signed sum, the checksum field counted
// as spaces) matches the octal number it records, or a zero block.
func tarHeaderValid(h []byte) bool {
	var unsigned, signed int64
	zero := true
	for i, c := range h {
		if c != 0 {
			zero = false
		}
		if i >= 148 && i < 156 {
			c = ' '
		}
		unsigned += int64(c)
		signed += int64(int8(c))
	}
	if zero {
		return true
	}
	field := strings.Trim(string(h[148:156]), " \x00")
	want, err := strconv.ParseInt(field, 8, 64)
	return err == nil && field != "" && (want == unsigned || want == signed)
}

// countingReader counts decompressed bytes and stops a stream that expands
// past its budget.
type countingReader struct {
	r        io.Reader
	n        int64
	budget   int64
	fileSize int64
	ratio    int64
	err      error
	// stream names the compression in messages ("gzip" when empty).
	stream string
	// seeker, when set, is r itself able to seek (a decoded copy), so
	// skip moves past data without reading it.
	seeker io.Seeker
}

// skip moves n bytes on, by seeking when it can; a short skip is
// io.ErrUnexpectedEOF.
func (c *countingReader) skip(n int64) (int64, error) {
	if c.seeker != nil && n > 0 {
		if c.n+n > c.budget {
			return 0, io.ErrUnexpectedEOF
		}
		if _, err := c.seeker.Seek(n, io.SeekCurrent); err != nil {
			return 0, err
		}
		c.n += n
		return n, nil
	}
	return io.CopyN(io.Discard, c, n)
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.budget {
		name := c.stream
		if name == "" {
			name = "gzip"
		}
		c.err = limitError("max_compression_ratio", c.ratio, c.n/max(c.fileSize, 1),
			fmt.Sprintf("the %s stream of %d bytes expands past %d bytes", name, c.fileSize, c.budget))
		return n, c.err
	}
	return n, err
}

func listTarStream(s *scope, tr *tar.Reader, pos func() int64, size int64, file, compression string, cr *countingReader) error {
	return listTarStreamStamped(s, tr, pos, size, file, compression, cr, nil)
}

// listTarStreamStamped is listTarStream with stamp applied to each file
// entry before it is added (a .deb member places its stream in the file).
func listTarStreamStamped(s *scope, tr *tar.Reader, pos func() int64, size int64, file, compression string, cr *countingReader, stamp func(*inventory.Entry)) error {
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if cr != nil && cr.err != nil {
				return cr.err
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return malformedf("the tar stream is truncated: %v", err)
			}
			return malformedf("cannot read a tar header: %v", err)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		name, isDir := archiveName(hdr.Name)
		if name == "" {
			continue
		}
		norm, err := s.normalize(name)
		if err != nil {
			return err
		}
		if isSparse(hdr) {
			return malformedf("tar member %q is sparse; rea does not inventory sparse members", norm).WithDetail("path", norm)
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			_, err = s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory})
		case tar.TypeSymlink:
			_, err = s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink(hdr.Linkname, path.Dir(norm))})
		case tar.TypeLink:
			l := inventory.NewLink(hdr.Linkname, "")
			l.Hard = true
			_, err = s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: l})
		case tar.TypeReg, tar.TypeRegA:
			if isDir {
				return malformedf("tar member %q is a regular file with a directory name", norm).WithDetail("path", norm)
			}
			off := pos()
			if hdr.Size < 0 {
				return malformedf("tar member %q declares a negative size", norm).WithDetail("path", norm)
			}
			if size >= 0 && (off > size || hdr.Size > size-off) {
				return malformedf("tar member %q declares bytes %d–%d past the end of the file (%d bytes)", norm, off, off+hdr.Size, size).WithDetail("path", norm)
			}
			e := inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: hdr.Size, Executable: hdr.Mode&0o111 != 0,
				Data: &inventory.Range{File: file, Offset: off, Length: hdr.Size, Compression: compression}}
			if stamp != nil {
				stamp(&e)
			}
			_, err = s.add(e)
		default:
			return malformedf("tar member %q has type %q (device, FIFO or unknown); rea only inventories files, directories and links", norm, string(rune(hdr.Typeflag))).WithDetail("path", norm)
		}
		if err != nil {
			return err
		}
	}
}

func isSparse(hdr *tar.Header) bool {
	if hdr.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}
