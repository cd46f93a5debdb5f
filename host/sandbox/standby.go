package sandbox

import (
	"sync"
	"time"

	"rea/wasm/module"
)

// standbys keeps, for each module and memory limit that served a request
// without mounts, one instance started ahead of the next such request (see
// instance). Taking one starts its replacement in the background, so a
// stream of small requests — guidance searches, comparisons of records —
// pays for instantiation and Go runtime start-up off its latency path.
//
// Calls with mounts always start a fresh instance at request time: the
// mounts are part of the instance's configuration.
type standbys struct {
	mu      sync.Mutex
	ready   map[standbyKey]*instance
	pending map[standbyKey]bool // a replacement is being started
	seen    map[standbyKey]bool // served once: the next call starts standbys
	closed  bool
	wg      sync.WaitGroup
	onError func(name string, err error)
	live    *sync.WaitGroup // the Runner's running guests
}

// replenishDelay postpones a replacement's start-up until the request that
// used its predecessor has had time to deliver its response (an MCP server
// still encodes and writes it after Run returns): on a small machine the
// start-up competing for CPU doubled that request's latency.
const replenishDelay = 3 * time.Millisecond

// prefaultHeadroom is how much memory past what the Go runtime uses after
// starting a standby prefaults for its request (resident while it waits).
const prefaultHeadroom = 4 << 20

type standbyKey struct {
	pages  uint32
	module string // digest
}

func newStandbys(live *sync.WaitGroup, onError func(string, error)) *standbys {
	return &standbys{ready: map[standbyKey]*instance{}, pending: map[standbyKey]bool{}, seen: map[standbyKey]bool{}, onError: onError, live: live}
}

// take returns the standby for this module and limit, or nil when none is
// ready. From the second request of a key on, the caller must call
// replenish when its request is done: a one-shot command that runs a module
// once never pays for an instance it won't use, and the replacement's
// start-up never competes with the request for CPU.
func (s *standbys) take(mod *module.Module, limits Limits) (in *instance, replenish bool) {
	key := standbyKey{pages: limits.pages(), module: mod.SHA256}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	in = s.ready[key]
	delete(s.ready, key)
	if !s.seen[key] {
		s.seen[key] = true
		return nil, false
	}
	return in, true
}

// expect marks a module and limit as served repeatedly, so its first call
// already takes a standby and replenishes.
func (s *standbys) expect(mod *module.Module, limits Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[standbyKey{pages: limits.pages(), module: mod.SHA256}] = true
}

// replenish starts a standby for this module and limit unless one is ready
// or starting.
// The caller holds a pin on compiled; the start takes its own.
func (s *standbys) replenish(eng *engine, compiled *compileOnce, mod *module.Module, limits Limits) {
	key := standbyKey{pages: limits.pages(), module: mod.SHA256}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.ready[key] != nil || s.pending[key] || !s.seen[key] {
		return
	}
	s.pending[key] = true
	s.wg.Add(1)
	compiled.pin()
	time.AfterFunc(replenishDelay, func() { s.start(key, eng, compiled, mod, limits) })
}

func (s *standbys) start(key standbyKey, eng *engine, compiled *compileOnce, mod *module.Module, limits Limits) {
	defer s.wg.Done()
	defer compiled.unpin()
	s.mu.Lock()
	if s.closed || !s.seen[key] { // closed or forgotten during replenishDelay
		delete(s.pending, key)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	in, err := startInstance(eng, compiled.mod, mod, nil, limits, s.live, nil)
	if err == nil {
		// Wait until the runtime has started and prefault what the request
		// will touch: the memory in use plus prefaultHeadroom.
		select {
		case <-in.stdin.waiting:
			if mem := in.inst.Memory(); mem != nil {
				in.memory.prefault(uint64(mem.Size()) + prefaultHeadroom)
			}
		case <-in.exited:
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pending, key)
	if err != nil {
		s.onError(mod.Name, err)
		return
	}
	if s.closed || s.ready[key] != nil {
		in.discard()
		return
	}
	s.ready[key] = in
}

// forget discards the module's ready standbys and starts no more until it
// is served again (Runner.Done released its compiled code).
func (s *standbys) forget(mod *module.Module) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, in := range s.ready {
		if key.module == mod.SHA256 {
			delete(s.ready, key)
			in.discard()
		}
	}
	for key := range s.seen {
		if key.module == mod.SHA256 {
			delete(s.seen, key)
		}
	}
}

// close discards every standby and waits for instances being started.
func (s *standbys) close() {
	s.mu.Lock()
	s.closed = true
	ready := s.ready
	s.ready = map[standbyKey]*instance{}
	s.mu.Unlock()
	s.wg.Wait() // a standby finishing its start now is discarded by start
	for _, in := range ready {
		in.stdin.deliver(nil)
		<-in.exited
		_ = in.inst.Close(in.ctx)
	}
}
