package app

import (
	"context"
	"io"
	"os"
	"sync"

	"rea/abi"
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
// file, and one LZMA2 decoder is the whole cost of such an archive. The
// error returned is the first, in file order, of the streams that failed
// before any other had (later failures are the cancel's echo).
func (s *artifactScan) hashStreams(ctx context.Context, fh *os.File, size int64, fj *fileJobs) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(fj.streamOrder))
	own := make([]bool, len(fj.streamOrder)) // failed before any cancel: not a consequence of one
	var mu sync.Mutex
	sem := make(chan struct{}, streamWorkers)
	var wg sync.WaitGroup
	for n, k := range fj.streamOrder {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := s.hashStream(ctx, fh, size, fj, k); err != nil {
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
	if parent.Err() != nil { // possibly before any stream began
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
func (s *artifactScan) hashStream(ctx context.Context, fh *os.File, size int64, fj *fileJobs, k streamKey) error {
	jobs := fj.streams[k]
	var zr io.ReadCloser
	var err error
	if p, ok := s.decodedCopy(fj.streamRange[k]); ok {
		zr, err = os.Open(p)
	} else {
		zr, err = stream.Open(fh, size, fj.streamRange[k])
	}
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "%q: %v", fj.file, err)
	}
	sortJobs(jobs)
	ahead := newReadAhead(zr, hashChunk, 4)
	_, err = streamRanges(ctx, ahead, jobs, nil)
	ahead.Close()
	zr.Close()
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if err := s.checkCRC(j); err != nil {
			return err
		}
		s.observe(j.entry, j)
	}
	return nil
}
