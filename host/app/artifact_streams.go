package app

import (
	"cmp"
	"context"
	"errors"
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
// error returned is the first stream's, in file order, that failed of
// its own accord.
func (s *artifactScan) hashStreams(ctx context.Context, fh *os.File, size int64, fj *fileJobs) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(fj.streamOrder))
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
			if errs[n] = s.hashStream(ctx, fh, size, fj, k); errs[n] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if parent.Err() == nil && errors.Is(err, context.Canceled) {
			first = cmp.Or(first, err) // stopped because another stream failed
			continue
		}
		return err
	}
	if first == nil {
		first = parent.Err()
	}
	return first
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
