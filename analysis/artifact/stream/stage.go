package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"rea/analysis/artifact/inventory"
)

// Stage decodes the compressed streams an inventory asks for, each once,
// into files under Dir, and serves them as a read-only fs.FS whose names
// are inventory.StreamName values. The artifact module lists a decoded
// copy (reading only headers, seeking over data, and the headers of
// nested archives at random offsets); the host then hashes the same copy,
// so nobody decompresses a stream twice.
//
// A stream decodes to at most inventory.StreamBudget bytes: the copy
// stops one byte past the budget, which tells the reader the limit cut
// it. A stream that does not decode is not served (the open fails), and
// Err says why.
type Stage struct {
	Ctx context.Context
	Dir string
	// OpenInput opens a file of the input, relative to its mount.
	OpenInput func(name string) (*os.File, error)
	Limits    inventory.Limits

	mu     sync.Mutex
	staged map[string]*stagedStream
	errs   []error
	// total is what every staged copy holds together; a hostile input
	// (a directory of packages) may not spend more disk than one input
	// within the limits could list.
	total int64
}

// ErrTotalBudget is the error of a stream that would take the staged
// copies of one input past inventory.StreamBudget's total-bytes bound.
var ErrTotalBudget = errors.New("the decoded streams of this input would exceed max_total_bytes plus their headers")

type stagedStream struct {
	path string
	size int64
	err  error
	// full: the stream decoded to its end within the budget.
	full bool
}

// Open serves "." (an empty directory listing) and decoded streams.
func (st *Stage) Open(name string) (fs.File, error) {
	if name == "." {
		return stageDir{}, nil
	}
	s, err := st.stage(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.Open(s.path)
}

// Decoded returns the path of the fully decoded copy of the stream r
// points into, if one was staged (a 7-Zip folder's only for the same
// coder chain).
func (st *Stage) Decoded(r inventory.Range) (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.staged[inventory.StreamNameOf(r)]
	if !ok || !s.full {
		return "", false
	}
	return s.path, true
}

// Err is the first stream that failed to decode, or nil.
func (st *Stage) Err() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return errors.Join(st.errs...)
}

func (st *Stage) stage(name string) (*stagedStream, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.stageLocked(name)
}

// stageLocked is stage with st.mu held; a stream read from another's
// decoded bytes (Range.Source) stages that one first.
func (st *Stage) stageLocked(name string) (*stagedStream, error) {
	if s, ok := st.staged[name]; ok {
		return s, s.err
	}
	r, ok := inventory.ParseStreamRange(name)
	if !ok || !IsStream(r.Compression) || !fs.ValidPath(r.File) {
		return nil, fs.ErrNotExist
	}
	file, comp, off, n := r.File, r.Compression, r.StreamOffset, r.StreamLength
	if st.staged == nil {
		st.staged = map[string]*stagedStream{}
	}
	s := &stagedStream{path: filepath.Join(st.Dir, fmt.Sprintf("stream-%d", len(st.staged)))}
	st.staged[name] = s
	s.err = st.decode(s, r)
	if s.err != nil {
		st.errs = append(st.errs, fmt.Errorf("the %s stream at bytes %d–%d of %q: %w", comp, off, off+n, file, s.err))
	}
	return s, s.err
}

func (st *Stage) decode(s *stagedStream, r inventory.Range) error {
	n := r.StreamLength
	in, err := st.openSource(r)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	// The host decodes natively, so zstd may use two goroutines and its
	// normal buffers (the module's decoder keeps to one and low memory).
	// A 7-Zip folder's coder chain came in the name: OpenFolder checks it
	// against the file (packed streams inside it, sizes, bonds) as it
	// does for hashing.
	dec, err := OpenWith(in, info.Size(), r, true)
	if err != nil {
		return err
	}
	defer dec.Close()
	out, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	bn := n
	if bn == 0 { // the whole file is the stream (a tar.gz)
		bn = info.Size()
	}
	budget, _ := BudgetOf(st.Limits, bn)
	totalCap, _ := BudgetOf(st.Limits, 0x7fff_ffff_ffff) // the total-bytes bound alone
	left := totalCap - st.total
	limit := min(budget+1, left+1)
	w, err := copyBounded(st.ctx(), out, dec, limit)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	s.size = w
	st.total += w
	if err != nil {
		return err
	}
	if w > left && left < budget {
		os.Remove(s.path)
		return ErrTotalBudget
	}
	s.full = w <= budget
	return nil
}

// openSource opens the bytes r's offsets address: its file, or the
// staged copy of its Source stream (st.mu held), which must have decoded
// whole within its budget.
func (st *Stage) openSource(r inventory.Range) (*os.File, error) {
	if r.Source == nil {
		return st.OpenInput(r.File)
	}
	if r.Sources() < 0 {
		return nil, fmt.Errorf("the stream is nested in more than %d compressed streams", inventory.MaxSourceDepth)
	}
	src, err := st.stageLocked(inventory.StreamNameOf(*r.Source))
	if err != nil {
		return nil, err
	}
	if !src.full {
		return nil, fmt.Errorf("the %s stream holding it decodes past its budget", r.Source.Compression)
	}
	return os.Open(src.path)
}

func (st *Stage) ctx() context.Context {
	if st.Ctx == nil {
		return context.Background()
	}
	return st.Ctx
}

// BudgetOf is inventory.StreamBudget with lim's defaults filled.
func BudgetOf(lim inventory.Limits, n int64) (int64, string) {
	return inventory.StreamBudget(lim.WithDefaults(), n)
}

// copyBounded copies at most limit bytes, checking ctx between chunks.
func copyBounded(ctx context.Context, w io.Writer, r io.Reader, limit int64) (int64, error) {
	buf := make([]byte, 1<<20)
	var total int64
	for total < limit {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, err := r.Read(buf[:min(int64(len(buf)), limit-total)])
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return total, werr
			}
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

type stageDir struct{}

func (stageDir) Stat() (fs.FileInfo, error)         { return stageDirInfo{}, nil }
func (stageDir) Read([]byte) (int, error)           { return 0, io.EOF }
func (stageDir) Close() error                       { return nil }
func (stageDir) ReadDir(int) ([]fs.DirEntry, error) { return nil, nil }

type stageDirInfo struct{}

func (stageDirInfo) Name() string       { return "." }
func (stageDirInfo) Size() int64        { return 0 }
func (stageDirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (stageDirInfo) ModTime() time.Time { return time.Time{} }
func (stageDirInfo) IsDir() bool        { return true }
func (stageDirInfo) Sys() any           { return nil }
