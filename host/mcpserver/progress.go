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
// 100 ms plus the terminal one, a heartbeat at least once a second while
// the call runs (heartbeat.go), a total only while the current phase
// knows how much work remains, the phase and elapsed time in the message.
type progress struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	start   time.Time

	mu       sync.Mutex
	count    int
	lastSent time.Time
	pending  string
	// phase is the latest phase message; fraction how much of it is done
	// when the phase counts its work (0: unknown), which makes a total
	// (heartbeat.go).
	phase    string
	fraction float64
	// notify sends one notification (the session's NotifyProgress).
	notify func(*mcp.ProgressNotificationParams)
}

const progressInterval = 100 * time.Millisecond

func newProgress(ctx context.Context, req *mcp.CallToolRequest) *progress {
	p := &progress{ctx: ctx, session: req.Session, start: time.Now()}
	p.notify = func(n *mcp.ProgressNotificationParams) { _ = p.session.NotifyProgress(context.WithoutCancel(p.ctx), n) }
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
	p.phase = msg
	p.fraction = 0
	if m.Total > 0 && m.Done > 0 && m.Done <= m.Total {
		p.fraction = float64(m.Done) / float64(m.Total)
	}
	if time.Since(p.lastSent) < progressInterval {
		return
	}
	p.sendLocked(msg)
}

func (p *progress) sendLocked(msg string) {
	p.lastSent = time.Now()
	p.pending = ""
	elapsed := time.Since(p.start).Round(time.Millisecond)
	p.notify(&mcp.ProgressNotificationParams{
		ProgressToken: p.token,
		Progress:      float64(p.count),
		Total:         p.totalLocked(),
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
	p.fraction = 1
	p.sendLocked(outcome)
}
