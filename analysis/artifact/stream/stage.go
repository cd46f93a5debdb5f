package stream

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
// Two more ways to read a stream take no copy. Under
// inventory.StreamSizePrefix the stage serves a stream's decoded size
// alone, summing the stream as it decodes it; under
// inventory.StreamWalkPrefix it serves the decoded bytes front to back,
// summing every span the reader skips (a solid NSIS block's items). The
// host hashes a member whose range is such a sum from it (Sum).
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
	// sums are the sums of the spans of decoded streams read without a
	// copy: a stream staged for its size is one span, a walked stream
	// one per skip.
	sums map[string]map[span]StreamDigest
}

// span is bytes [off, off+n) of a decoded stream.
type span struct{ off, n int64 }

// ErrTotalBudget is the error of a stream that would take the staged
// copies of one input past inventory.StreamBudget's total-bytes bound.
var ErrTotalBudget = errors.New("the decoded streams of this input would exceed max_total_bytes plus their headers")

type stagedStream struct {
	path string
	size int64
	err  error
	// full: the stream decoded to its end within the budget.
	full bool
	// kept: path holds the decoded bytes (a stream staged for its size
	// only keeps none, and is decoded again if its bytes are asked for).
	kept bool
}

// StreamDigest is what a span of a decoded stream holds (Sum).
type StreamDigest struct {
	Size   int64
	SHA256 [sha256.Size]byte
	// Head holds the first HeadN bytes.
	Head  [4]byte
	HeadN int
}

// Open serves "." (an empty directory listing), decoded streams, and,
// under inventory.StreamSizePrefix, a stream's decoded size.
func (st *Stage) Open(name string) (fs.File, error) {
	if name == "." {
		return stageDir{}, nil
	}
	if rest, ok := strings.CutPrefix(name, inventory.StreamSizePrefix); ok {
		s, err := st.stage(rest, false)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return newSizeFile(name, s.size), nil
	}
	if rest, ok := strings.CutPrefix(name, inventory.StreamWalkPrefix); ok {
		f, err := st.walk(rest)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return f, nil
	}
	s, err := st.stage(name, true)
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
	if !ok || !s.full || !s.kept {
		return "", false
	}
	return s.path, true
}

// Sum returns the sum of exactly the bytes r addresses (Offset, Length)
// of the stream it points into, if the stage summed that span while
// decoding it without a copy: the whole of a stream staged for its size
// (a non-solid NSIS item), or a span a walk skipped (an item of a solid
// block). The host then observes the member without decoding or
// reading it again.
func (st *Stage) Sum(r inventory.Range) (StreamDigest, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	d, ok := st.sums[inventory.StreamNameOf(r)][span{r.Offset, r.Length}]
	return d, ok
}

// record keeps the sum of span sp of the stream called name (st.mu held).
func (st *Stage) record(name string, sp span, d StreamDigest) {
	if st.sums == nil {
		st.sums = map[string]map[span]StreamDigest{}
	}
	if st.sums[name] == nil {
		st.sums[name] = map[span]StreamDigest{}
	}
	st.sums[name][sp] = d
}

// Err is the first stream that failed to decode, or nil.
func (st *Stage) Err() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return errors.Join(st.errs...)
}

// stage decodes the stream called name, once; keep asks for its decoded
// bytes on disk, not only its size.
func (st *Stage) stage(name string, keep bool) (*stagedStream, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.stageLocked(name, keep)
}

// stageLocked is stage with st.mu held; a stream read from another's
// decoded bytes (Range.Source) stages that one first. A stream staged
// for its size is decoded again, into a copy, when its bytes are asked
// for (its digest and size stay as they were).
func (st *Stage) stageLocked(name string, keep bool) (*stagedStream, error) {
	s, ok := st.staged[name]
	if ok && (s.err != nil || s.kept || !keep) {
		return s, s.err
	}
	r, parsed := inventory.ParseStreamRange(name)
	if !parsed || !IsStream(r.Compression) || !fs.ValidPath(r.File) {
		return nil, fs.ErrNotExist
	}
	file, comp, off, n := r.File, r.Compression, r.StreamOffset, r.StreamLength
	if st.staged == nil {
		st.staged = map[string]*stagedStream{}
	}
	if !ok {
		s = &stagedStream{path: filepath.Join(st.Dir, fmt.Sprintf("stream-%d", len(st.staged)))}
		st.staged[name] = s
	}
	var sum *StreamDigest
	sum, s.err = st.decode(s, r, keep)
	if sum != nil {
		st.record(name, span{0, s.size}, *sum)
	}
	if s.err != nil {
		st.errs = append(st.errs, fmt.Errorf("the %s stream at bytes %d–%d of %q: %w", comp, off, off+n, file, s.err))
	}
	return s, s.err
}

// decode decodes r within its budget: into s.path when keep, else only
// summed, which takes no disk (the sum is returned when the stream
// decoded whole).
func (st *Stage) decode(s *stagedStream, r inventory.Range, keep bool) (*StreamDigest, error) {
	n := r.StreamLength
	in, err := st.openSource(r)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return nil, err
	}
	// The host decodes natively, so zstd may use two goroutines and its
	// normal buffers (the module's decoder keeps to one and low memory).
	// A 7-Zip folder's coder chain came in the name: OpenFolder checks it
	// against the file (packed streams inside it, sizes, bonds) as it
	// does for hashing.
	dec, err := OpenWith(in, info.Size(), r, true)
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	bn := n
	if bn == 0 { // the whole file is the stream (a tar.gz)
		bn = info.Size()
	}
	budget, _ := BudgetOf(st.Limits, bn)
	if !keep {
		d := &StreamDigest{}
		w, cut, err := pump(st.ctx(), nil, dec, budget+1, d)
		s.size = w
		if s.full = err == nil && !cut && w <= budget; !s.full {
			d = nil
		}
		return d, err
	}
	out, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	totalCap, _ := BudgetOf(st.Limits, 0x7fff_ffff_ffff) // the total-bytes bound alone
	left := totalCap - st.total
	limit := min(budget+1, left+1)
	w, cut, err := pump(st.ctx(), out, dec, limit, nil)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	s.size = w
	st.total += w
	if err != nil {
		return nil, err
	}
	if cut && w > left && left < budget {
		os.Remove(s.path)
		return nil, ErrTotalBudget
	}
	// A cut copy holds one byte past the budget, which tells the reader
	// the limit cut it.
	s.full, s.kept = !cut && w <= budget, true
	return nil, nil
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
	src, err := st.stageLocked(inventory.StreamNameOf(*r.Source), true)
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

// pump copies at most limit bytes of r to w (nil: nowhere) and sums
// them into d (nil: not summed), checking ctx between chunks; cut says
// the limit stopped it (d is then not filled). r is read ahead on a
// goroutine of its own (decoding on one core, writing or summing on the
// other); pump returns once that goroutine has stopped, so the caller
// may close r.
func pump(ctx context.Context, w io.Writer, r io.Reader, limit int64, d *StreamDigest) (total int64, cut bool, err error) {
	a := NewAhead(r, 2, limit)
	defer a.Close()
	var sha hash.Hash
	if d != nil {
		sha = sha256.New()
	}
	for {
		if err := ctx.Err(); err != nil {
			return total, false, err
		}
		p, err := a.Next()
		if err == io.EOF {
			break
		}
		if le := (*LimitError)(nil); errors.As(err, &le) {
			return total, true, nil
		}
		if err != nil {
			return total, false, err
		}
		if w != nil {
			if _, err := w.Write(p); err != nil {
				return total, false, err
			}
		}
		if d != nil {
			sha.Write(p)
			if d.HeadN < len(d.Head) {
				d.HeadN += copy(d.Head[d.HeadN:], p)
			}
		}
		total += int64(len(p))
	}
	if d != nil {
		d.Size = total
		sha.Sum(d.SHA256[:0])
	}
	return total, false, nil
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

// sizeFile serves a stream's decoded size, in decimal, under
// inventory.StreamSizePrefix: what a lister reads of a stream whose
// bytes it does not need (a non-solid NSIS item that holds no archive).
type sizeFile struct {
	name string
	*strings.Reader
}

func newSizeFile(name string, size int64) sizeFile {
	return sizeFile{name: name, Reader: strings.NewReader(strconv.FormatInt(size, 10))}
}

func (f sizeFile) Stat() (fs.FileInfo, error) { return sizeFileInfo{f}, nil }
func (sizeFile) Close() error                 { return nil }

type sizeFileInfo struct{ f sizeFile }

func (i sizeFileInfo) Name() string     { return i.f.name }
func (i sizeFileInfo) Size() int64      { return i.f.Reader.Size() }
func (sizeFileInfo) Mode() fs.FileMode  { return 0o444 }
func (sizeFileInfo) ModTime() time.Time { return time.Time{} }
func (sizeFileInfo) IsDir() bool        { return false }
func (sizeFileInfo) Sys() any           { return nil }
