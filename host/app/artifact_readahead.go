package app

import (
	"io"
	"sync"
)

// readAhead decodes r on its own goroutine, up to depth chunks ahead of
// the reader, so decompression (a 7z folder, a tar.gz stream) and hashing
// run on two cores instead of taking turns on one. Close stops the
// goroutine whether or not r was read to its end.
type readAhead struct {
	chunks chan []byte
	free   chan []byte
	done   chan struct{}
	err    error // set before chunks is closed
	cur    []byte
	spare  []byte
	once   sync.Once
}

func newReadAhead(r io.Reader, chunk, depth int) *readAhead {
	ra := &readAhead{chunks: make(chan []byte, depth), free: make(chan []byte, depth+1), done: make(chan struct{})}
	for range depth + 1 {
		ra.free <- make([]byte, chunk)
	}
	go func() {
		defer close(ra.chunks)
		for {
			var buf []byte
			select {
			case buf = <-ra.free:
			case <-ra.done:
				return
			}
			n, err := io.ReadFull(r, buf)
			if n > 0 {
				select {
				case ra.chunks <- buf[:n]:
				case <-ra.done:
					return
				}
			}
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			if err != nil {
				ra.err = err
				return
			}
		}
	}()
	return ra
}

func (ra *readAhead) Read(p []byte) (int, error) {
	if len(ra.cur) == 0 {
		if ra.spare != nil {
			ra.free <- ra.spare[:cap(ra.spare)]
			ra.spare = nil
		}
		buf, ok := <-ra.chunks
		if !ok {
			return 0, ra.err
		}
		ra.cur, ra.spare = buf, buf
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the decoding goroutine; it does not close r.
func (ra *readAhead) Close() error {
	ra.once.Do(func() { close(ra.done) })
	for range ra.chunks { // let the goroutine finish
	}
	return nil
}
