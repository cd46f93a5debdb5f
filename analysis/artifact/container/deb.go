package container

import (
	"archive/tar"
	"bytes"
	"io"
	"strconv"
	"strings"

	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// arMagic starts every ar archive, and so every .deb.
const arMagic = "!<arch>\n"

// listDeb lists a Debian package: the ar members (debian-binary,
// control.tar.*, data.tar.*) as files of the deb container, and each
// tar member, decompressed as a stream, as a nested tar container whose
// entries address the decompressed bytes of that member.
func listDeb(s *scope, ra io.ReaderAt, size int64, file string) error {
	var magic [8]byte
	if n, _ := ra.ReadAt(magic[:], 0); n < len(magic) || string(magic[:]) != arMagic {
		return malformedf("the file does not start with the ar magic %q", arMagic)
	}
	off := int64(len(arMagic))
	first := true
	for off < size {
		var h [60]byte
		n, err := ra.ReadAt(h[:], off)
		if n == 0 && err == io.EOF {
			break
		}
		if n < len(h) {
			return malformedf("the ar member header at %d is truncated", off)
		}
		if string(h[58:60]) != "`\n" {
			return malformedf("the ar member header at %d lacks its terminator", off)
		}
		name := strings.TrimRight(string(h[0:16]), " ")
		name = strings.TrimSuffix(name, "/") // GNU ar ends names with '/'
		msize, err := strconv.ParseInt(strings.TrimSpace(string(h[48:58])), 10, 64)
		if err != nil || msize < 0 {
			return malformedf("the ar member %q at %d declares an unreadable size %q", name, off, strings.TrimSpace(string(h[48:58])))
		}
		data := off + int64(len(h))
		if msize > size-data {
			return malformedf("the ar member %q declares bytes %d–%d past the end of the file (%d bytes)", name, data, data+msize, size)
		}
		if first && name != "debian-binary" {
			return malformedf("the first ar member is %q, not debian-binary; this is an ar archive but not a Debian package", name)
		}
		first = false
		if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
			return malformedf("the ar member at %d has the name %q", off, name)
		}
		norm, err := s.normalize(name)
		if err != nil {
			return err
		}
		idx, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: msize,
			Data: &inventory.Range{File: file, Offset: data, Length: msize}})
		if err != nil {
			return err
		}
		if comp, ok := debTarCompression(name); ok {
			child, err := s.b.openContainer(inventory.Container{Parent: s.index, Entry: idx, File: file, Format: inventory.FormatTar,
				Depth: s.b.res.Containers[s.index].Depth + 1})
			if err != nil {
				return err
			}
			if err := listTarMember(child, ra, data, msize, file, comp); err != nil {
				return inContainer(err, norm, child.b.res.Containers[child.index].Depth)
			}
			s.b.res.Entries[idx].Nested = child.index
		}
		off = data + msize
		if off%2 == 1 { // members are padded to an even offset
			off++
		}
	}
	if first {
		return malformedf("the ar archive has no members")
	}
	return nil
}

// debTarCompression maps a member name to the stream compression of its
// tar (dpkg writes control.tar.{gz,xz,zst} and data.tar.{gz,xz,zst}, or
// an uncompressed .tar).
func debTarCompression(name string) (string, bool) {
	if !strings.HasPrefix(name, "control.tar") && !strings.HasPrefix(name, "data.tar") {
		return "", false
	}
	switch path := name[strings.Index(name, ".tar"):]; path {
	case ".tar":
		return inventory.CompressionNone, true
	case ".tar.gz":
		return inventory.CompressionGzipStream, true
	case ".tar.xz":
		return inventory.CompressionXzStream, true
	case ".tar.zst":
		return inventory.CompressionZstdStream, true
	}
	return "", false
}

// listTarMember lists the tar held in bytes [off, off+n) of ra, through
// its decompressor when compression is a stream. The decompressed bytes
// may be at most max_compression_ratio times the member (1 MiB of slack).
func listTarMember(s *scope, ra io.ReaderAt, off, n int64, file, compression string) error {
	if compression == inventory.CompressionNone {
		sr := io.NewSectionReader(ra, off, n)
		pos := func() int64 { p, _ := sr.Seek(0, io.SeekCurrent); return off + p }
		start := len(s.b.res.Entries)
		if err := listTarStream(s, tar.NewReader(sr), pos, off+n, file, inventory.CompressionNone, nil); err != nil {
			return err
		}
		// An uncompressed data.tar: its archives are plain ranges of ra.
		return expandMembers(s, start, ra, off+n)
	}
	stamp := func(e *inventory.Entry) {
		if e.Data != nil {
			e.Data.StreamOffset, e.Data.StreamLength = off, n
		}
	}
	if d, err := s.decodedStream(off, n, 0, file, compression); err != nil {
		return err
	} else if d != nil {
		defer d.Close()
		return listDecodedTar(s, d, 0, file, compression, stamp)
	}
	dec, err := stream.Decoder(io.NewSectionReader(ra, off, n), compression)
	if err != nil {
		return malformedf("%v", err)
	}
	defer dec.Close()
	budget, _ := inventory.StreamBudget(s.b.lim, n)
	ratio := int64(s.b.lim.MaxCompressionRatio)
	cr := &countingReader{r: dec, budget: budget, fileSize: n, ratio: ratio, stream: strings.TrimSuffix(compression, "-stream")}
	pos := func() int64 { return cr.n }
	if err := listTarStreamStamped(s, tar.NewReader(cr), pos, -1, file, compression, cr, stamp); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, cr); err != nil {
		if cr.err != nil {
			return cr.err
		}
		return malformedf("the %s stream is corrupt or truncated: %v", compression, err)
	}
	return nil
}

// sniffDeb recognises a Debian package by its ar magic and first member.
func sniffDeb(h []byte) bool {
	return bytes.HasPrefix(h, []byte(arMagic+"debian-binary"))
}

// listDecodedTar lists a tar from the host's decoded copy of its stream
// (fileSize: the file's size when the stream is all of it, a tar.gz):
// headers are read and data seeked over, then the archives it holds are
// expanded from the same copy — ASARs in place, any other archive (a zip
// or a 7z in a .deb's data.tar) with its ranges read from the copy.
func listDecodedTar(s *scope, d *decoded, fileSize int64, file, compression string, stamp func(*inventory.Entry)) error {
	sr := io.NewSectionReader(d.ra, 0, d.size)
	pos := func() int64 { p, _ := sr.Seek(0, io.SeekCurrent); return p }
	start := len(s.b.res.Entries)
	if err := listTarStreamStamped(s, tar.NewReader(sr), pos, d.size, file, compression, nil, stamp); err != nil {
		return err
	}
	if err := expandStreamASARs(s, start, d, fileSize); err != nil {
		return err
	}
	return expandStreamArchives(s, start, fileSize)
}
