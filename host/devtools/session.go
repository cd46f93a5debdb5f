package devtools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp/remote"

	"rea/abi"
)

// eventBuffer is how many events of one method a subscription holds before
// it drops (and counts) the rest: a page that spams the console cannot make
// rea's memory grow.
const eventBuffer = 4096

// Session is one attached target. It implements cdp.Session, so cdproto's
// typed commands (cdp.Call) and events (cdp.Events) work on it.
type Session struct {
	conn    *remote.Conn
	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan *cdproto.Message
	subs    map[string][]*subscription
	closed  chan struct{}
	err     error
	dropped atomic.Int64
	bytes   atomic.Int64
}

type subscription struct {
	ch chan jsonv2.Value
}

// ErrDetached is the error of a call on a target that went away.
var ErrDetached = errors.New("the target closed or detached")

// Attach dials a target's debugger socket (which ListTargets checked is on
// loopback).
func Attach(ctx context.Context, t Target) (*Session, error) {
	if t.WebSocketURL == "" {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "target %s has no debugger socket", t.ID).WithDetail("field", "target_id")
	}
	conn, err := remote.DialContext(ctx, t.WebSocketURL)
	if err != nil {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "cannot attach to target %s: %v (is another debugger attached?)", t.ID, err).WithDetail("field", "target_id")
	}
	s := &Session{conn: conn, pending: map[int64]chan *cdproto.Message{}, subs: map[string][]*subscription{}, closed: make(chan struct{})}
	go s.read()
	return s, nil
}

func (s *Session) read() {
	for {
		var msg cdproto.Message
		if err := s.conn.Read(context.Background(), &msg); err != nil {
			s.mu.Lock()
			s.err = err
			for id, ch := range s.pending {
				close(ch)
				delete(s.pending, id)
			}
			for m, subs := range s.subs {
				for _, sub := range subs {
					close(sub.ch)
				}
				delete(s.subs, m)
			}
			s.mu.Unlock()
			close(s.closed)
			return
		}
		s.bytes.Add(int64(len(msg.Params) + len(msg.Result)))
		s.mu.Lock()
		if msg.ID != 0 {
			if ch, ok := s.pending[msg.ID]; ok {
				delete(s.pending, msg.ID)
				ch <- &msg
			}
		} else if msg.Method != "" {
			for _, sub := range s.subs[string(msg.Method)] {
				select {
				case sub.ch <- msg.Params:
				default:
					s.dropped.Add(1)
				}
			}
		}
		s.mu.Unlock()
	}
}

// Call implements cdp.Session.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	id := s.nextID.Add(1)
	ch := make(chan *cdproto.Message, 1)
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return ErrDetached
	}
	s.pending[id] = ch
	s.mu.Unlock()
	var raw jsonv2.Value
	if params != nil {
		b, err := jsonv2.Marshal(params)
		if err != nil {
			return fmt.Errorf("encode %s: %w", method, err)
		}
		raw = b
	}
	if string(raw) == "null" {
		raw = nil
	}
	if err := s.conn.Write(ctx, &cdproto.Message{ID: id, Method: cdproto.MethodType(method), Params: raw}); err != nil {
		s.forget(id)
		return fmt.Errorf("%s: %w", method, ErrDetached)
	}
	select {
	case msg, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: %w", method, ErrDetached)
		}
		if msg.Error != nil {
			return fmt.Errorf("%s: %s", method, msg.Error.Message)
		}
		if result != nil && len(msg.Result) > 0 {
			if err := jsonv2.Unmarshal(msg.Result, result); err != nil {
				return fmt.Errorf("decode %s: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		s.forget(id)
		return ctx.Err()
	case <-s.closed:
		return fmt.Errorf("%s: %w", method, ErrDetached)
	}
}

func (s *Session) forget(id int64) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// Subscribe implements cdp.Session.
func (s *Session) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	sub := &subscription{ch: make(chan jsonv2.Value, eventBuffer)}
	s.mu.Lock()
	if s.err != nil {
		close(sub.ch)
		s.mu.Unlock()
		return sub.ch, func() {}
	}
	s.subs[method] = append(s.subs[method], sub)
	s.mu.Unlock()
	var once sync.Once
	return sub.ch, func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			subs := s.subs[method]
			for i, x := range subs {
				if x == sub {
					s.subs[method] = append(subs[:i], subs[i+1:]...)
					close(sub.ch)
					break
				}
			}
		})
	}
}

// Closed is closed when the target goes away.
func (s *Session) Closed() <-chan struct{} { return s.closed }

// Dropped counts events dropped because a subscription's buffer was full.
func (s *Session) Dropped() int64 { return s.dropped.Load() }

// BytesReceived counts protocol payload bytes received.
func (s *Session) BytesReceived() int64 { return s.bytes.Load() }

// Close ends the session.
func (s *Session) Close() error { return s.conn.Close() }

// detachedErr says whether err means the target went away.
func detachedErr(err error) bool {
	return errors.Is(err, ErrDetached) || err != nil && strings.Contains(err.Error(), "use of closed network connection")
}

var _ cdp.Session = (*Session)(nil)

func unmarshal(raw []byte, v any) error { return jsonv2.Unmarshal(raw, v) }
