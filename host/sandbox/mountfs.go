package sandbox

import (
	"io/fs"
	"os"

	"rea/host/regularfile"
)

// DirFS is root as the read-only fs.FS of a mount: paths cannot leave root
// (os.Root) and no open blocks (regularfile). A FIFO, socket or device opens
// as a file that reports its real metadata — wazero stats a mounted path by
// opening it, and the guest must see what the path is — but refuses to be
// read.
func DirFS(root *os.Root) fs.FS { return dirFS{root} }

type dirFS struct{ root *os.Root }

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, st, err := regularfile.OpenAnyIn(d.root, name)
	if err != nil {
		// A Unix socket cannot be opened at all (ENXIO), which the guest
		// would see as an I/O error on its directory: give it the
		// socket's metadata instead, as for any special file.
		if st, serr := d.root.Stat(name); serr == nil && regularfile.Special(st.Mode()) {
			return specialFile{name, st}, nil
		}
		return nil, err
	}
	if regularfile.Special(st.Mode()) {
		f.Close()
		return specialFile{name, st}, nil
	}
	return f, nil
}

// Stat reads metadata without opening the file.
func (d dirFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return d.root.Stat(name)
}

// specialFile is a FIFO, socket or device of a mount: its metadata, no
// bytes.
type specialFile struct {
	name string
	info fs.FileInfo
}

func (s specialFile) Stat() (fs.FileInfo, error) { return s.info, nil }
func (s specialFile) Close() error               { return nil }
func (s specialFile) Read([]byte) (int, error) {
	return 0, regularfile.NotRegular(s.name, s.info.Mode())
}
