package app

import (
	"io"
	"io/fs"
	"os"
	"time"
)

// fileFS exposes exactly one open host file to a module as a read-only
// file system holding just that name: the guest sees neither the file's
// siblings nor anything a later rename puts at its path.
type fileFS struct {
	name string
	f    *os.File
	info fs.FileInfo
}

func (m *fileFS) Open(name string) (fs.File, error) {
	switch name {
	case ".":
		return &fileFSDir{m: m}, nil
	case m.name:
		return &fileFSFile{SectionReader: io.NewSectionReader(m.f, 0, m.info.Size()), info: m.info}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type fileFSFile struct {
	*io.SectionReader
	info fs.FileInfo
}

func (f *fileFSFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *fileFSFile) Close() error               { return nil }

type fileFSDir struct {
	m    *fileFS
	read bool
}

func (d *fileFSDir) Stat() (fs.FileInfo, error) { return dirInfo{}, nil }
func (d *fileFSDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}
func (d *fileFSDir) Close() error { return nil }
func (d *fileFSDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.read {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.read = true
	return []fs.DirEntry{fs.FileInfoToDirEntry(d.m.info)}, nil
}

type dirInfo struct{}

func (dirInfo) Name() string       { return "." }
func (dirInfo) Size() int64        { return 0 }
func (dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (dirInfo) ModTime() time.Time { return time.Time{} }
func (dirInfo) IsDir() bool        { return true }
func (dirInfo) Sys() any           { return nil }
