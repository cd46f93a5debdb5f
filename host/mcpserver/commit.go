package mcpserver

import (
	"context"
	"sync"
)

// commitPoint makes a tool's publish and the handler's cancel decision one
// step. A tool that publishes (export_evidence_bundle renames its staging
// file over the destination) asks commit first: it is refused once the
// call is cancelled, and once granted the call counts as done whatever
// arrives later, so the reply never says "cancelled, nothing was changed"
// about a destination that was replaced.
type commitPoint struct {
	ctx       context.Context
	mu        sync.Mutex
	committed bool
}

func (p *commitPoint) commit() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return false
	}
	p.committed = true
	return true
}

// cancelled reports whether the call was cancelled before it committed.
func (p *commitPoint) cancelled() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.committed && p.ctx.Err() != nil
}
