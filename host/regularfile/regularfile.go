// Package regularfile opens the files rea reads from its inputs without
// ever blocking on them. A FIFO named like a JavaScript file, or given as
// the binary to analyse, blocks open(2) until a writer comes — and an
// interrupt cannot end a blocked open, so rea would hang for good; a
// device such as /dev/zero never ends. Every open here uses O_NONBLOCK
// (no effect on regular files) and refuses anything but a regular file or
// a directory.
package regularfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is why a path was refused: it names a FIFO, socket or
// device.
var ErrNotRegular = errors.New("not a regular file, directory or link")

// Open opens the file at path for reading; a FIFO, socket or device is
// refused with an error wrapping ErrNotRegular.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && Special(st.Mode()) {
			return nil, NotRegular(path, st.Mode()) // a socket: open(2) says ENXIO
		}
	}
	return regular(statted(f, err))
}

// OpenIn is Open for a path under root (which it cannot leave).
func OpenIn(root *os.Root, name string) (*os.File, error) {
	return regular(OpenAnyIn(root, name))
}

// OpenAnyIn opens name under root without blocking whatever it is, and
// returns its metadata: the caller decides what a special file means.
//
// A Unix socket cannot be opened at all (open(2) fails with ENXIO, "no
// such device or address"); it comes back as an error wrapping
// ErrNotRegular with its metadata.
func OpenAnyIn(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if st, serr := root.Stat(name); serr == nil && Special(st.Mode()) {
			return nil, st, NotRegular(name, st.Mode())
		}
	}
	return statted(f, err)
}

// statted adds an open file's metadata.
func statted(f *os.File, err error) (*os.File, fs.FileInfo, error) {
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// regular refuses a special file.
func regular(f *os.File, st fs.FileInfo, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	if Special(st.Mode()) {
		f.Close()
		return nil, NotRegular(f.Name(), st.Mode())
	}
	return f, nil
}

// Special reports whether m is neither a regular file nor a directory.
func Special(m fs.FileMode) bool { return !m.IsRegular() && !m.IsDir() }

// NotRegular is the error for a special file at path.
func NotRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: it is a %s", ErrNotRegular, kind(m))}
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "Unix socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
