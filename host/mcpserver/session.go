package mcpserver

import (
	"crypto/rand"
	"fmt"
	"sync"

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
