package stream

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"rea/analysis/artifact/inventory"
)

// errWalkBack is the error of a walk asked to seek backwards.
var errWalkBack = errors.New("a walked stream reads front to back only")

// walk opens the stream called name for reading front to back without a
// copy (inventory.StreamWalkPrefix), within its budget: the file ends
// one byte past it, as a copy would.
func (st *Stage) walk(name string) (*walkFile, error) {
	r, ok := inventory.ParseStreamRange(name)
	if !ok || !IsStream(r.Compression) || !fs.ValidPath(r.File) {
		return nil, fs.ErrNotExist
	}
	st.mu.Lock()
	in, err := st.openSource(r)
	st.mu.Unlock()
	if err != nil {
		return nil, st.walkFailed(r, err)
	}
	info, err := in.Stat()
	if err != nil {
		in.Close()
		return nil, err
	}
	dec, err := OpenWith(in, info.Size(), r, true)
	if err != nil {
		in.Close()
		return nil, st.walkFailed(r, err)
	}
	n := r.StreamLength
	if n == 0 { // the whole file is the stream
		n = info.Size()
	}
	budget, _ := BudgetOf(st.Limits, n)
	return &walkFile{st: st, r: r, name: inventory.StreamNameOf(r), in: in, dec: dec, ahead: NewAhead(dec, 2, budget+1)}, nil
}

// walkFailed records why stream r could not be walked, for Err.
func (st *Stage) walkFailed(r inventory.Range, err error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.errs = append(st.errs, fmt.Errorf("the %s stream at bytes %d–%d of %q: %w", r.Compression, r.StreamOffset, r.StreamOffset+r.StreamLength, r.File, err))
	return err
}

// walkFile is a decoded stream read front to back (Stage.walk): Read
// reads on, Seek skips forward, summing the span it skips.
type walkFile struct {
	st     *Stage
	r      inventory.Range
	name   string
	in     *os.File
	dec    io.ReadCloser
	ahead  *Ahead
	pos    int64
	cur    []byte // the unread part of the current chunk
	failed error
}

// fill makes the next chunk current; a decoder's failure is recorded
// once, for Err. The budget's cut ends the file as the end of a copy
// would, one byte past the budget, which tells the reader the limit cut
// it (through WASI an error would reach it as a bare EIO, which says
// nothing of a limit); it is no decoder's failure.
func (f *walkFile) fill() error {
	if f.failed != nil {
		return f.failed
	}
	b, err := f.ahead.Next()
	if le := (*LimitError)(nil); errors.As(err, &le) {
		f.failed = io.EOF
		return io.EOF
	}
	if err != nil {
		if err != io.EOF {
			f.st.walkFailed(f.r, err)
		}
		f.failed = err
		return err
	}
	f.cur = b
	return nil
}

func (f *walkFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(f.cur) == 0 {
		if err := f.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	f.pos += int64(n)
	return n, nil
}

// Seek moves forward only (Seek(0, io.SeekCurrent) tells where it is).
// The bytes skipped are summed as one span. A stream that ends before
// the target stops there: Seek returns that offset, short of the target,
// and sums nothing (through WASI an error would reach the reader as a
// bare EIO, indistinguishable from a decoder's failure).
func (f *walkFile) Seek(offset int64, whence int) (int64, error) {
	target := offset
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		target = f.pos + offset
	default:
		return f.pos, errWalkBack
	}
	if target < f.pos {
		return f.pos, errWalkBack
	}
	if target == f.pos {
		return f.pos, nil
	}
	from := f.pos
	sha := sha256.New()
	var d StreamDigest
	for f.pos < target {
		if err := f.st.ctx().Err(); err != nil {
			return f.pos, err
		}
		if len(f.cur) == 0 {
			if err := f.fill(); err == io.EOF {
				return f.pos, nil
			} else if err != nil {
				return f.pos, err
			}
		}
		p := f.cur[:min(int64(len(f.cur)), target-f.pos)]
		sha.Write(p)
		if d.HeadN < len(d.Head) {
			d.HeadN += copy(d.Head[d.HeadN:], p)
		}
		f.cur = f.cur[len(p):]
		f.pos += int64(len(p))
	}
	d.Size = target - from
	sha.Sum(d.SHA256[:0])
	f.st.mu.Lock()
	f.st.record(f.name, span{from, d.Size}, d)
	f.st.mu.Unlock()
	return f.pos, nil
}

// Close stops decoding; the sums stay with the stage.
func (f *walkFile) Close() error {
	f.ahead.Close()
	f.dec.Close()
	return f.in.Close()
}

func (f *walkFile) Stat() (fs.FileInfo, error) { return walkFileInfo{f.name}, nil }

// walkFileInfo: a walked stream's size is not known before its end.
type walkFileInfo struct{ name string }

func (i walkFileInfo) Name() string     { return i.name }
func (walkFileInfo) Size() int64        { return 0 }
func (walkFileInfo) Mode() fs.FileMode  { return 0o444 }
func (walkFileInfo) ModTime() time.Time { return time.Time{} }
func (walkFileInfo) IsDir() bool        { return false }
func (walkFileInfo) Sys() any           { return nil }
