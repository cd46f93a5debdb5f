package stream

import (
	"fmt"
	"io"
	"sync"
)

// AheadChunk is the size of the chunks an Ahead reads.
const AheadChunk = 1 << 20

// aheadBuffers are the chunks of every Ahead: a non-solid installer
// stages hundreds of small streams, and a fresh megabyte or more for
// each was a tenth of its inventory's CPU (zeroing, and the collections
// the garbage paid for).
var aheadBuffers = sync.Pool{New: func() any { b := make([]byte, AheadChunk); return &b }}

// Ahead reads r on a goroutine of its own, up to depth chunks ahead of
// its reader, so decoding and what is done with the bytes (hashing,
// writing a copy) run on two cores instead of taking turns on one. It
// reads at most limit bytes (limit < 0: to the end): a stream that ends
// within them ends with io.EOF, one that reaches them with a
// *LimitError, so a cut never reads as the end of the stream.
// Close stops the goroutine, whether or not r was read to its end, and
// returns once it has stopped reading r: r may then be closed.
type Ahead struct {
	chunks chan aheadChunk
	free   chan *[]byte
	done   chan struct{}
	exited chan struct{}
	err    error // set before chunks is closed
	held   *[]byte
	cur    []byte // Read's unread part of held
	once   sync.Once
}

// LimitError is what an Ahead says once it has read its limit: the
// stream was cut there and may hold more (a stream of exactly limit
// bytes is cut too; callers ask for one byte past what they accept).
type LimitError struct{ Limit int64 }

func (e *LimitError) Error() string {
	return fmt.Sprintf("the stream was cut at its read limit of %d bytes and may hold more", e.Limit)
}

type aheadChunk struct {
	b *[]byte
	n int
}

// NewAhead starts reading r.
func NewAhead(r io.Reader, depth int, limit int64) *Ahead {
	a := &Ahead{chunks: make(chan aheadChunk, depth), free: make(chan *[]byte, depth+1),
		done: make(chan struct{}), exited: make(chan struct{})}
	for range depth + 1 {
		a.free <- aheadBuffers.Get().(*[]byte)
	}
	go func() {
		defer close(a.exited)
		defer close(a.chunks)
		var read int64
		for limit < 0 || read < limit {
			var b *[]byte
			select {
			case b = <-a.free:
			case <-a.done:
				return
			}
			p := *b
			if limit >= 0 {
				p = p[:min(int64(len(p)), limit-read)]
			}
			n, err := fill(r, p)
			read += int64(n)
			if n > 0 {
				select {
				case a.chunks <- aheadChunk{b, n}:
				case <-a.done:
					a.free <- b
					return
				}
			} else {
				a.free <- b
			}
			if err != nil {
				a.err = err
				return
			}
		}
		a.err = &LimitError{Limit: limit}
	}()
	return a
}

// fill reads until p is full or r says why not: io.EOF at its end, or
// its own error (a truncated stream's io.ErrUnexpectedEOF is the
// decoder's, and stays an error, unlike io.ReadFull's short read).
func fill(r io.Reader, p []byte) (int, error) {
	n, idle := 0, 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m > 0 {
			idle = 0
		} else if idle++; idle > 100 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// Next returns the next chunk, valid until the next call of Next, Read
// or Close; at the end, io.EOF, a *LimitError at the limit, or the error
// r gave.
func (a *Ahead) Next() ([]byte, error) {
	if a.held != nil {
		a.free <- a.held
		a.held, a.cur = nil, nil
	}
	c, ok := <-a.chunks
	if !ok {
		return nil, a.err
	}
	a.held = c.b
	return (*c.b)[:c.n], nil
}

func (a *Ahead) Read(p []byte) (int, error) {
	if len(a.cur) == 0 {
		b, err := a.Next()
		if err != nil {
			return 0, err
		}
		a.cur = b
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the goroutine and gives the chunks back.
func (a *Ahead) Close() error {
	a.once.Do(func() {
		close(a.done)
		<-a.exited
		if a.held != nil {
			aheadBuffers.Put(a.held)
			a.held, a.cur = nil, nil
		}
		for c := range a.chunks {
			aheadBuffers.Put(c.b)
		}
		for {
			select {
			case b := <-a.free:
				aheadBuffers.Put(b)
				continue
			default:
			}
			break
		}
	})
	return nil
}
