package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"rea/host/regularfile"
)

// errUnpackedLinkEscapes is why an unpacked companion file was not read:
// it is a symbolic link whose target lies outside the companion directory.
var errUnpackedLinkEscapes = errors.New("it is a symbolic link leading outside the .asar.unpacked directory; links there are recorded, never followed out of it")

// openUnpacked opens an unpacked ASAR entry's bytes inside the archive's
// companion directory, <archive>.unpacked, opened as a root of its own: the
// companion is its own mount, so a link planted in it (x -> ../../.ssh/id_rsa)
// can never reach a sibling of the archive, even though the archive's mount
// is the parent directory. The companion must itself be a directory, not a
// link to one.
func (s *artifactScan) openUnpacked(root *os.Root, i int) (*os.File, error) {
	e := s.res.Entries[i]
	dir := s.res.Containers[e.Container].File + ".unpacked"
	st, err := root.Lstat(filepath.FromSlash(dir))
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fmt.Errorf("the companion is a %s, not a directory; it is not followed", fileKind(st.Mode()))}
	}
	sub, err := root.OpenRoot(filepath.FromSlash(dir))
	if err != nil {
		return nil, err
	}
	defer sub.Close() // files opened through it stay open
	f, err := regularfile.OpenIn(sub, filepath.FromSlash(e.Path))
	if err == nil {
		return f, nil
	}
	if linkEscapes(sub, e.Path) {
		return nil, &fs.PathError{Op: "open", Path: path.Join(dir, e.Path), Err: errUnpackedLinkEscapes}
	}
	return nil, err
}

// linkEscapes reports whether p, or a directory on the way to it, is a
// link under sub that cannot be followed without leaving sub.
func linkEscapes(sub *os.Root, p string) bool {
	for q := ""; ; {
		seg, rest, more := strings.Cut(p, "/")
		q = path.Join(q, seg)
		st, err := sub.Lstat(filepath.FromSlash(q))
		if err != nil {
			return false
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			if _, err := sub.Stat(filepath.FromSlash(q)); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
				return true
			}
		}
		if !more {
			return false
		}
		p = rest
	}
}

// unpackedLimitation says why an unpacked entry's bytes were not observed.
func (s *artifactScan) unpackedLimitation(i int, err error) string {
	e := s.res.Entries[i]
	if errors.Is(err, errUnpackedLinkEscapes) {
		return fmt.Sprintf("Unpacked entry %q is a symbolic link at %s leading outside the .asar.unpacked directory; it was recorded, not followed, and its bytes were not observed.", e.Path, s.unpackedPath(i))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("Unpacked entry %q has no companion file at %s; its bytes were not observed.", e.Path, s.unpackedPath(i))
	}
	return fmt.Sprintf("Unpacked entry %q could not be read at %s (%v); its bytes were not observed.", e.Path, s.unpackedPath(i), err)
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}
