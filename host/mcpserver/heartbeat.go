package mcpserver

import (
	"sync"
	"time"
)

// heartbeatInterval is how long a call that a client asked progress for
// may stay silent: a module or service that reports nothing for a while
// (one long section scan, one large hash) still shows the client, at
// least once a second, that the call is alive and which phase it is in.
const heartbeatInterval = 750 * time.Millisecond

// heartbeat sends a status observation whenever heartbeatInterval passed
// without one, until stop is called (before the terminal update); stop may
// be called more than once.
func (p *progress) heartbeat() (stop func()) {
	if p == nil || p.token == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(progressInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-p.ctx.Done():
				return
			case <-t.C:
				p.beat()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); <-finished }) }
}

func (p *progress) beat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	since := time.Since(p.lastSent)
	switch {
	case p.pending != "" && since >= progressInterval:
		// An observation held back by the rate bound goes out now.
		p.sendLocked(p.pending)
	case since >= heartbeatInterval:
		p.count++
		msg := "running"
		if p.phase != "" {
			msg = "still in " + p.phase
		}
		p.sendLocked(msg)
	}
}

// totalLocked is the total of the next notification, so that
// progress/total is the fraction of its work the current phase reports
// done (files analysed, bytes hashed, milliseconds observed): progress
// stays the strictly increasing count of observations. 0 (omitted) while
// no phase counts its work; equal to progress on the terminal update.
func (p *progress) totalLocked() float64 {
	if p.fraction <= 0 {
		return 0
	}
	return float64(p.count) / p.fraction
}
