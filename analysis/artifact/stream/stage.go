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
	// kept: path holds the decoded bytes (a stream staged for its size
	// only keeps none, and is decoded again if its bytes are asked for).
	kept bool
	// digest of the decoded bytes, when the stream was staged for its
	// size (summed while it decoded).
	digest *StreamDigest
}

// StreamDigest is what a stream staged for its size decoded to.
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

// Digest returns what the stream r points into decoded to, if it was
// staged for its size and decoded whole within its budget: the host
// then observes a member that is the whole stream (a non-solid NSIS
// item) without decoding or reading it again.
func (st *Stage) Digest(r inventory.Range) (StreamDigest, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.staged[inventory.StreamNameOf(r)]
	if !ok || !s.full || s.digest == nil {
		return StreamDigest{}, false
	}
	return *s.digest, true
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
	s.err = st.decode(s, r, keep)
	if s.err != nil {
		st.errs = append(st.errs, fmt.Errorf("the %s stream at bytes %d–%d of %q: %w", comp, off, off+n, file, s.err))
	}
	return s, s.err
}

// decode decodes r within its budget: into s.path when keep, else only
// summed (s.digest), which takes no disk.
func (st *Stage) decode(s *stagedStream, r inventory.Range, keep bool) error {
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
	bn := n
	if bn == 0 { // the whole file is the stream (a tar.gz)
		bn = info.Size()
	}
	budget, _ := BudgetOf(st.Limits, bn)
	if !keep {
		d := &StreamDigest{}
		w, err := pump(st.ctx(), nil, dec, budget+1, d)
		s.size = w
		if err != nil {
			return err
		}
		s.full, s.digest = w <= budget, d
		return nil
	}
	out, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	totalCap, _ := BudgetOf(st.Limits, 0x7fff_ffff_ffff) // the total-bytes bound alone
	left := totalCap - st.total
	limit := min(budget+1, left+1)
	w, err := pump(st.ctx(), out, dec, limit, nil)
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
	s.full, s.kept = w <= budget, true
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

// pumpChunk is the read size of pump, pumpDepth how many chunks the
// decoder may run ahead of the writer.
const (
	pumpChunk = 1 << 20
	pumpDepth = 2
)

// pumpBuffers are pump's chunks, shared by every stream: a
// non-solid installer stages hundreds of small streams, and a fresh
// megabyte for each was a tenth of its inventory's CPU (zeroing).
var pumpBuffers = sync.Pool{New: func() any { b := make([]byte, pumpChunk); return &b }}

// pump copies at most limit bytes of r to w (nil: nowhere) and sums
// them into d (nil: not summed), checking ctx between chunks. r is read
// on a goroutine of its own, so decoding and writing or summing run on
// two cores; pump returns only once that goroutine has stopped reading
// r, so the caller may close r.
func pump(ctx context.Context, w io.Writer, r io.Reader, limit int64, d *StreamDigest) (int64, error) {
	type chunk struct {
		b   *[]byte
		n   int
		err error
	}
	chunks := make(chan chunk, pumpDepth)
	free := make(chan *[]byte, pumpDepth+1)
	for range pumpDepth + 1 {
		free <- pumpBuffers.Get().(*[]byte)
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		var read int64
		for {
			// b stays nil once the limit is read: that chunk says so.
			var b *[]byte
			if read < limit {
				select {
				case b = <-free:
				case <-done:
					return
				}
			}
			var n int
			var err error
			if b != nil {
				n, err = io.ReadFull(r, (*b)[:min(int64(len(*b)), limit-read)])
				read += int64(n)
				if err == io.ErrUnexpectedEOF {
					err = io.EOF
				}
			}
			select {
			case chunks <- chunk{b, n, err}:
			case <-done:
				if b != nil {
					free <- b
				}
				return
			}
			if err != nil || b == nil {
				return
			}
		}
	}()
	var sha hash.Hash
	if d != nil {
		sha = sha256.New()
	}
	var total int64
	var err error
	for err == nil {
		if err = ctx.Err(); err != nil {
			break
		}
		c := <-chunks
		if c.b == nil {
			break // limit bytes read
		}
		p := (*c.b)[:c.n]
		if w != nil && len(p) > 0 {
			_, err = w.Write(p)
		}
		if d != nil {
			sha.Write(p)
			if d.HeadN < len(d.Head) {
				d.HeadN += copy(d.Head[d.HeadN:], p)
			}
		}
		total += int64(len(p))
		free <- c.b
		if c.err == io.EOF {
			break
		}
		if c.err != nil && err == nil {
			err = c.err
		}
	}
	close(done)
	<-exited
drain:
	for {
		select {
		case c := <-chunks:
			if c.b != nil {
				pumpBuffers.Put(c.b)
			}
		case b := <-free:
			pumpBuffers.Put(b)
		default:
			break drain
		}
	}
	if err != nil {
		return total, err
	}
	if d != nil {
		d.Size = total
		sha.Sum(d.SHA256[:0])
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
