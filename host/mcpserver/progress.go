package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
)

// progress forwards status observations to a client that sent a progress
// token: a strictly increasing count, at most one intermediate update per
// 100 ms plus the terminal one, no total (future observations are unknown),
// the phase and elapsed time in the message.
type progress struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	start   time.Time

	mu       sync.Mutex
	count    int
	lastSent time.Time
	pending  string
}

const progressInterval = 100 * time.Millisecond

func newProgress(ctx context.Context, req *mcp.CallToolRequest) *progress {
	p := &progress{ctx: ctx, session: req.Session, start: time.Now()}
	if req.Params != nil {
		p.token = req.Params.GetProgressToken()
	}
	return p
}

// module receives a module's (or service's) progress line.
func (p *progress) module(m abi.Progress) {
	if p == nil || p.token == nil {
		return
	}
	msg := m.Phase
	switch {
	case m.Total > 0:
		msg = fmt.Sprintf("%s %d/%d", m.Phase, m.Done, m.Total)
	case m.Done > 0:
		msg = fmt.Sprintf("%s %d", m.Phase, m.Done)
	}
	if m.Message != "" {
		msg += ": " + m.Message
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count++
	p.pending = msg
	if time.Since(p.lastSent) < progressInterval {
		return
	}
	p.sendLocked(msg)
}

func (p *progress) sendLocked(msg string) {
	p.lastSent = time.Now()
	p.pending = ""
	elapsed := time.Since(p.start).Round(time.Millisecond)
	_ = p.session.NotifyProgress(context.WithoutCancel(p.ctx), &mcp.ProgressNotificationParams{
		ProgressToken: p.token,
		Progress:      float64(p.count),
		Message:       fmt.Sprintf("%s (elapsed %s)", msg, elapsed),
	})
}

// finish sends the terminal update.
func (p *progress) finish(outcome string) {
	if p == nil || p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count++
	p.sendLocked(outcome)
}
