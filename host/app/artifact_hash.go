package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"io/fs"

	"rea/abi"
	"rea/analysis/artifact/stream"
)

// hashChunk is the read size of every hashing pass: large enough for
// sequential throughput, small enough that memory stays flat whatever the
// archive size.
const hashChunk = 1 << 20

// digestJob is one byte range to hash, with the block hashes it must match.
// The range is in the coordinates of the stream it is fed from (file bytes,
// or the decompressed stream of a tar.gz).
type digestJob struct {
	// entry is the index of the inventory entry the range belongs to.
	entry          int
	offset, length int64
	// blockSize > 0 asks for per-block verification against declared.
	blockSize int64
	declared  []string

	// Results.
	sha256 string
	// badBlock is the first block whose hash differs from declared (-1 when
	// every declared block matched), badBlockObserved its observed hash.
	badBlock         int
	badBlockObserved string
	// head holds the first bytes, for classification by magic number.
	head  [4]byte
	headN int

	// crc, when set, is fed the same bytes (a 7-Zip member's declared
	// CRC-32 is checked against it).
	crc hash.Hash32
	// crcOnly: the range is summed into crc and not hashed (a checksum
	// a container declares over its file, Container.Checksum).
	crcOnly bool

	started bool
	whole   hash.Hash
	block   hash.Hash
	fed     int64
	inBlock int64
	index   int
	done    bool
}

func (j *digestJob) end() int64 { return j.offset + j.length }

func (j *digestJob) start() {
	j.started, j.badBlock = true, -1
	if j.crcOnly {
		return
	}
	j.whole = sha256.New()
	// A range shorter than one block has a single block: its whole hash.
	if j.blockSize > 0 && j.length >= j.blockSize {
		j.block = sha256.New()
	}
}

func (j *digestJob) write(p []byte) {
	if !j.started {
		j.start()
	}
	if j.crc != nil {
		j.crc.Write(p)
	}
	j.fed += int64(len(p))
	if j.crcOnly {
		return
	}
	if j.headN < len(j.head) {
		j.headN += copy(j.head[j.headN:], p)
	}
	j.whole.Write(p)
	if j.block == nil {
		return
	}
	for len(p) > 0 {
		take := min(int64(len(p)), j.blockSize-j.inBlock)
		j.block.Write(p[:take])
		j.inBlock += take
		p = p[take:]
		if j.inBlock == j.blockSize {
			j.closeBlock()
		}
	}
}

// closeBlock compares the current block with its declared hash. Blocks
// follow @electron/asar: every full block, then the remainder even when it
// is empty; a declared list may omit that empty remainder.
func (j *digestJob) closeBlock() {
	sum := hex.EncodeToString(j.block.Sum(nil))
	if j.index < len(j.declared) && j.badBlock < 0 && j.declared[j.index] != sum {
		j.badBlock, j.badBlockObserved = j.index, sum
	}
	j.block.Reset()
	j.inBlock = 0
	j.index++
}

// fromDigest finishes a job whose bytes the stage summed as it decoded
// them (stream.Stage.Sum); it has no CRC-32 or blocks to check.
func (j *digestJob) fromDigest(d stream.StreamDigest) {
	j.sha256 = hex.EncodeToString(d.SHA256[:])
	j.head, j.headN = d.Head, d.HeadN
	j.fed, j.badBlock, j.started, j.done = d.Size, -1, true, true
}

func (j *digestJob) finish() {
	if !j.started {
		j.start()
	}
	j.done = true
	if j.crcOnly {
		return
	}
	j.sha256 = hex.EncodeToString(j.whole.Sum(nil))
	switch {
	case j.blockSize <= 0:
	case j.block != nil:
		j.closeBlock()
	case len(j.declared) > 0 && j.declared[0] != j.sha256:
		j.badBlock, j.badBlockObserved = 0, j.sha256
	}
	j.whole, j.block = nil, nil
}

// streamRanges reads r once from its current position (offset 0) and feeds
// each job the bytes of its range; jobs must be sorted by offset; a range
// may lie inside another. When whole is not nil every byte of r is also fed to it and r
// is read to its end; otherwise gaps are skipped (by seeking when r can).
func streamRanges(ctx context.Context, r io.Reader, jobs []*digestJob, whole hash.Hash) (int64, error) {
	return streamRangesProgress(ctx, r, jobs, whole, nil)
}

// hashBuffer is a read buffer for streaming at most n bytes: hashChunk, or
// less for less. Every file read allocates one, and a directory of 3,000
// small files given 1 MiB each zeroed 3 GiB of buffers and kept the host's
// GC busy (the inventory took 0.9 s).
func hashBuffer(n int64) []byte {
	return make([]byte, min(max(n+1, 4096), hashChunk)) // +1: the read that finds the end
}

// asyncWholeBytes is the size from which a file's whole digest is summed
// on a core of its own (wholeHasher): below it, the goroutine costs more
// than it saves.
const asyncWholeBytes = 8 << 20

// wholeHasher feeds a file's whole digest on a goroutine of its own
// while the reader hashes the ranges in the same chunks, so an
// installer's digest and its items' hashes take two cores, not one after
// the other. Chunks are read into a ring of buffers, and a buffer is
// reused only once the digest has taken what was read into it.
type wholeHasher struct {
	ring          [][]byte
	handed, taken int // chunks handed over, chunks the digest has taken
	chunks        chan []byte
	took          chan struct{}
	exited        chan struct{}
}

func newWholeHasher(h hash.Hash, chunk int) *wholeHasher {
	const depth = 3
	w := &wholeHasher{chunks: make(chan []byte, depth), took: make(chan struct{}, depth), exited: make(chan struct{})}
	for range depth {
		w.ring = append(w.ring, make([]byte, chunk))
	}
	go func() {
		defer close(w.exited)
		for p := range w.chunks {
			h.Write(p)
			w.took <- struct{}{}
		}
	}()
	return w
}

// buffer is where to read the next chunk: the ring's next buffer, once
// the digest has taken the chunk last read into it.
func (w *wholeHasher) buffer() []byte {
	for w.taken < w.handed-len(w.ring)+1 {
		<-w.took
		w.taken++
	}
	return w.ring[w.handed%len(w.ring)]
}

// feed hands the chunk just read into buffer() to the digest.
func (w *wholeHasher) feed(p []byte) {
	w.chunks <- p
	w.handed++
}

// close returns once the digest has taken every chunk handed over.
func (w *wholeHasher) close() {
	close(w.chunks)
	<-w.exited
}

// statSize is r's size when it is a regular file that reports one.
func statSize(r io.Reader) int64 {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return -1
}

// readSize is how much streaming a reader of size bytes (statSize; < 0
// when unknown) can read at once: at most hashChunk, and less when the
// jobs end earlier.
func readSize(size int64, jobs []*digestJob, whole hash.Hash) int64 {
	n := int64(hashChunk)
	if size >= 0 {
		n = min(n, size)
	}
	if whole == nil && len(jobs) > 0 {
		n = min(n, jobs[len(jobs)-1].end()-1)
	}
	return n
}

// streamRangesProgress is streamRanges telling onRead how many bytes each
// read brought, so long hashing can report progress.
func streamRangesProgress(ctx context.Context, r io.Reader, jobs []*digestJob, whole hash.Hash, onRead func(int64)) (int64, error) {
	var pos int64
	size := statSize(r)
	buf := hashBuffer(readSize(size, jobs, whole))
	var wh *wholeHasher
	if whole != nil && size >= asyncWholeBytes {
		wh = newWholeHasher(whole, len(buf))
		defer wh.close()
	}
	seeker, _ := r.(io.Seeker)
	// active are the jobs whose range has begun and not ended; a range may
	// lie inside another (the members of an archive inside a member).
	var active []*digestJob
	next := 0
	admit := func(limit int64, inclusive bool) {
		for next < len(jobs) && (jobs[next].offset < limit || inclusive && jobs[next].offset == limit) {
			if jobs[next].length == 0 {
				jobs[next].finish()
			} else {
				active = append(active, jobs[next])
			}
			next++
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return pos, abi.Errorf(abi.CodeCancelled, "hashing was cancelled")
		}
		admit(pos, true)
		want := len(buf)
		if whole == nil {
			if len(active) == 0 {
				if next == len(jobs) {
					return pos, nil
				}
				if gap := jobs[next].offset - pos; gap > 0 {
					if err := skip(r, seeker, pos, gap); err != nil {
						return pos, err
					}
					pos += gap
				}
				continue
			}
			var need int64
			for _, j := range active {
				need = max(need, j.end())
			}
			want = int(min(int64(len(buf)), need-pos))
		}
		if wh != nil {
			buf = wh.buffer()
		}
		n, err := r.Read(buf[:want])
		if n > 0 && onRead != nil {
			onRead(int64(n))
		}
		if n > 0 {
			chunk := buf[:n]
			switch {
			case wh != nil:
				wh.feed(chunk)
			case whole != nil:
				whole.Write(chunk)
			}
			end := pos + int64(n)
			admit(end, false)
			kept := active[:0]
			for _, job := range active {
				lo, hi := max(job.offset, pos), min(job.end(), end)
				if hi > lo {
					job.write(chunk[lo-pos : hi-pos])
				}
				if job.end() <= end {
					job.finish()
					continue
				}
				kept = append(kept, job)
			}
			active = kept
			pos = end
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return pos, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot read the artifact while hashing: %v", err)
		}
	}
	admit(pos, true)
	for _, j := range append(active, jobs[next:]...) {
		if j.end() > pos {
			return pos, abi.Errorf(abi.CodeArtifactOperationFailed,
				"the artifact ended at byte %d, before the range %d–%d the inventory validated; it changed or was truncated while rea read it",
				pos, j.offset, j.end())
		}
		j.finish()
	}
	return pos, nil
}

func skip(r io.Reader, seeker io.Seeker, pos, gap int64) error {
	if seeker != nil {
		if _, err := seeker.Seek(pos+gap, io.SeekStart); err == nil {
			return nil
		}
	}
	n, err := io.CopyN(io.Discard, r, gap)
	if err == io.EOF || n < gap {
		return abi.Errorf(abi.CodeArtifactOperationFailed,
			"the artifact ended at byte %d, before a range the inventory validated; it changed or was truncated while rea read it", pos+n)
	}
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot read the artifact while hashing: %v", err)
	}
	return nil
}
