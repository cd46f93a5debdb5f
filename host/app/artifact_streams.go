package app

import (
	"context"
	"os"
	"sync"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// streamWorkers is how many compressed streams of one file are decoded
// and hashed at once: the machine's two cores. Each stream has its own
// read-ahead goroutine, so a worker keeps one core decoding.
const streamWorkers = 2

// hashStreams decodes and hashes every compressed stream of a file (a
// 7z archive's folders, a package's data stream), each once, front to
// back. The streams are independent, so streamWorkers of them run at
// once: electron-builder writes its app-64.7z with -ms=off, a folder per
// file, and one LZMA2 decoder is the whole cost of such an archive.
func (s *artifactScan) hashStreams(ctx context.Context, fh *os.File, size int64, fj *fileJobs) error {
	return inParallel(ctx, len(fj.streamOrder), func(ctx context.Context, _, n int) error {
		return s.hashStream(ctx, fh, size, fj, fj.streamOrder[n])
	})
}

// hashAllBlocks hashes the entries stored as separately compressed
// blocks (a squashfs image's files), streamWorkers files at once, each
// worker with its own block cache.
func (s *artifactScan) hashAllBlocks(ctx context.Context, fh *os.File, size int64, fj *fileJobs) error {
	caches := make([]*stream.BlockCache, streamWorkers)
	for w := range caches {
		caches[w] = &stream.BlockCache{}
		defer caches[w].Close()
	}
	return inParallel(ctx, len(fj.blocks), func(ctx context.Context, w, n int) error {
		return s.hashBlocks(ctx, fh, size, fj.blocks[n], caches[w])
	})
}

// inParallel runs do for 0 … count-1, streamWorkers at a time; worker
// says which of them runs it (for state a worker keeps). The error
// returned is the first, in order, of the calls that failed before any
// other had (later failures are the cancel's echo).
func inParallel(ctx context.Context, count int, do func(ctx context.Context, worker, n int) error) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, count)
	own := make([]bool, count) // failed before any cancel: not a consequence of one
	var mu sync.Mutex
	workers := make(chan int, streamWorkers)
	for w := range streamWorkers {
		workers <- w
	}
	var wg sync.WaitGroup
	for n := range count {
		if ctx.Err() != nil {
			break
		}
		w := <-workers
		wg.Add(1)
		go func() {
			defer func() { workers <- w; wg.Done() }()
			if err := do(ctx, w, n); err != nil {
				mu.Lock()
				errs[n], own[n] = err, ctx.Err() == nil
				cancel()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for n, err := range errs {
		if err != nil && own[n] {
			return err
		}
	}
	if parent.Err() != nil { // possibly before any call began
		return abi.Errorf(abi.CodeCancelled, "hashing was cancelled")
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hashStream decodes stream k once (from its staged copy when the
// inventory left one) and hashes and CRC-checks every member in it.
// Members whose bytes the stage summed while the inventory read the
// stream without a copy (a non-solid NSIS item staged for its size, a
// solid block's item skipped over) take those sums, when every member
// of the stream has one.
func (s *artifactScan) hashStream(ctx context.Context, fh *os.File, size int64, fj *fileJobs, k streamKey) error {
	jobs := fj.streams[k]
	if s.summed(fj.streamRange[k], jobs) {
		for _, j := range jobs {
			s.observe(j.entry, j)
		}
		return nil
	}
	sortJobs(jobs)
	if p, ok := s.decodedCopy(fj.streamRange[k]); ok {
		// A plain file: read and hashed here; the other worker hashes
		// another stream meanwhile.
		f, err := os.Open(p)
		if err != nil {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "%q: %v", fj.file, err)
		}
		_, err = streamRanges(ctx, f, jobs, nil)
		f.Close()
		if err != nil {
			return err
		}
	} else {
		zr, err := stream.Open(fh, size, fj.streamRange[k])
		if err != nil {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "%q: %v", fj.file, err)
		}
		ahead := stream.NewAhead(zr, 4, -1)
		_, err = streamRanges(ctx, ahead, jobs, nil)
		ahead.Close()
		zr.Close()
		if err != nil {
			return err
		}
	}
	for _, j := range jobs {
		if err := s.checkCRC(j); err != nil {
			return err
		}
		s.observe(j.entry, j)
	}
	return nil
}

// summed finishes every job of stream r from the stage's sums, if each
// non-empty one has its sum, at least one job has one (a stream of empty
// members the stage never summed was never decoded: it takes the
// decoding path), and none has block hashes or a CRC-32 to check (a sum
// carries neither); otherwise it finishes none.
func (s *artifactScan) summed(r inventory.Range, jobs []*digestJob) bool {
	if s.stage == nil {
		return false
	}
	sums := make([]stream.StreamDigest, len(jobs))
	used := false
	for n, j := range jobs {
		if j.blockSize > 0 || j.crc != nil {
			return false
		}
		r.Offset, r.Length = j.offset, j.length
		d, ok := s.stage.Sum(r)
		if ok && d.Size != j.length || !ok && j.length > 0 {
			return false
		}
		used = used || ok
		sums[n] = d
	}
	if !used {
		return false
	}
	for n, j := range jobs {
		if j.length == 0 {
			j.finish()
			continue
		}
		j.fromDigest(sums[n])
	}
	return true
}
