package mcpserver

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/evidence"
)

// Session is one client connection's state: its Evidence ledger, the
// active target and the analysis run id. A fresh connection starts empty.
type Session struct {
	conn   *mcp.ServerSession
	Ledger *evidence.Ledger

	mu     sync.Mutex
	target *Target
	runID  string
	// active holds the cancel functions of tool calls in flight, so that
	// close_binary can drain them.
	active map[*activeCall]struct{}
	// lineage holds one ownership observation per process rea started in
	// this session's analysis run (historical snapshots, not live state).
	lineage []any
	// native is the open native document, its binding and cursor (nil
	// when the target is no native binary).
	native *nativeState
}

// observeLineage records a started process family for binary_session.
func (s *Session) observeLineage(provider string, observation any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lineage = append(s.lineage, map[string]any{"provider": provider, "observation": observation})
}

// processLineage is binary_session's analysis_run.process_lineage.
func (s *Session) processLineage() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lineage) == 0 {
		return map[string]any{"status": "not_observed"}
	}
	return map[string]any{"status": "snapshots", "snapshots": append([]any(nil), s.lineage...)}
}

type activeCall struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// begin registers a call in flight; the returned function ends it.
func (s *Session) begin(cancel context.CancelFunc) (*activeCall, func()) {
	c := &activeCall{cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	if s.active == nil {
		s.active = map[*activeCall]struct{}{}
	}
	s.active[c] = struct{}{}
	s.mu.Unlock()
	return c, func() {
		s.mu.Lock()
		delete(s.active, c)
		s.mu.Unlock()
		close(c.done)
	}
}

// drain cancels every call in flight except self and waits for them to
// return, up to the deadline; it reports how many were drained and how
// many are still running.
func (s *Session) drain(self *activeCall, deadline time.Duration) (drained, remaining int) {
	s.mu.Lock()
	var calls []*activeCall
	for c := range s.active {
		if c != self {
			calls = append(calls, c)
		}
	}
	s.mu.Unlock()
	timeout := time.After(deadline)
	for _, c := range calls {
		c.cancel()
	}
	for _, c := range calls {
		select {
		case <-c.done:
			drained++
		case <-timeout:
			remaining++
		}
	}
	return drained, remaining
}

// Target is the binary or artifact opened with open_binary.
type Target struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Kind   string `json:"kind"`
	Format string `json:"format"`
}

func newSession(conn *mcp.ServerSession) *Session {
	return &Session{conn: conn, Ledger: evidence.NewLedger(evidence.DefaultLimits())}
}

// Target returns the active target, or nil.
func (s *Session) Target() *Target {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.target
}

// open makes t the active target and allocates a fresh run id before any
// provider could start.
func (s *Session) open(t *Target) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.target = t
	s.runID = newRunID()
	s.lineage = nil
	s.native = nil
	return s.runID
}

// close drops the target and clears the ledger, even with no target.
func (s *Session) close() (hadTarget bool, cleared int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hadTarget = s.target != nil
	cleared = s.Ledger.Len()
	s.target = nil
	s.runID = ""
	s.lineage = nil
	s.native = nil
	s.Ledger.Clear()
	return hadTarget, cleared
}

func (s *Session) run() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runID
}

// newRunID returns a random RFC 4122 version 4 UUID.
func newRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
