package container

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"

	"rea/analysis/artifact/inventory"
)

// listZip lists a zip archive from its central directory. Stored and
// deflated members are supported; encrypted members and other methods are
// refused, since their bytes cannot be hashed.
func listZip(s *scope, ra io.ReaderAt, size int64, file string) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return malformedf("cannot read the zip central directory: %v", err)
	}
	var spans []span
	start := len(s.b.res.Entries)
	for _, f := range zr.File {
		name, isDir := archiveName(f.Name)
		if name == "" {
			continue
		}
		norm, err := s.normalize(name)
		if err != nil {
			return err
		}
		mode := f.Mode()
		if isDir || mode.IsDir() {
			if _, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory}); err != nil {
				return err
			}
			continue
		}
		if f.Flags&0x1 != 0 {
			return malformedf("zip member %q is encrypted; rea cannot inventory encrypted members", norm).WithDetail("path", norm)
		}
		if f.UncompressedSize64 > math.MaxInt64 || f.CompressedSize64 > math.MaxInt64 {
			return malformedf("zip member %q declares an impossible size", norm).WithDetail("path", norm)
		}
		off, err := f.DataOffset()
		if err != nil {
			return malformedf("zip member %q has an unreadable local header: %v", norm, err).WithDetail("path", norm)
		}
		r := inventory.Range{File: file, Offset: off, Length: int64(f.CompressedSize64)}
		if off < 0 || off > size || r.Length > size-off {
			return malformedf("zip member %q declares bytes %d–%d past the end of the file (%d bytes)", norm, off, off+r.Length, size).WithDetail("path", norm)
		}
		switch f.Method {
		case zip.Store:
			if f.CompressedSize64 != f.UncompressedSize64 {
				return malformedf("stored zip member %q declares %d compressed and %d uncompressed bytes", norm, f.CompressedSize64, f.UncompressedSize64).WithDetail("path", norm)
			}
		case zip.Deflate:
			r.Compression = inventory.CompressionDeflate
		default:
			return malformedf("zip member %q uses compression method %d; only stored and deflated members are supported", norm, f.Method).WithDetail("path", norm)
		}
		if r.Length > 0 {
			spans = append(spans, span{start: r.Offset, end: r.End(), path: norm})
		}
		if mode&fs.ModeSymlink != 0 {
			target, err := zipLinkTarget(f, s.b.lim.MaxPathBytes)
			if err != nil {
				return err
			}
			if _, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink(target, path.Dir(norm))}); err != nil {
				return err
			}
			continue
		}
		crc := f.CRC32
		e := inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: int64(f.UncompressedSize64), Data: &r,
			Executable: mode&0o111 != 0, CRC32: &crc}
		if _, err := s.add(e); err != nil {
			return err
		}
	}
	if err := checkOverlaps(spans); err != nil {
		return err
	}
	return expandMembers(s, start, ra, size)
}

// zipLinkTarget reads a symlink member's target (its content), bounded.
func zipLinkTarget(f *zip.File, max int) (string, error) {
	if f.UncompressedSize64 > uint64(max) {
		return "", limitError("max_path_bytes", int64(max), int64(min(f.UncompressedSize64, math.MaxInt64)), fmt.Sprintf("the target of zip link %q is %d bytes", f.Name, f.UncompressedSize64))
	}
	rc, err := f.Open()
	if err != nil {
		return "", malformedf("cannot read zip link %q: %v", f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(max)+1))
	if err != nil {
		return "", malformedf("cannot read zip link %q: %v", f.Name, err)
	}
	return string(b), nil
}
