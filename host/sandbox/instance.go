package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"rea/abi"
	"rea/wasm/fuel"
	"rea/wasm/module"
)

// instance is one module instance serving exactly one request. It is
// started (instantiated, _start running on its own goroutine) before it is
// given its request: the Go runtime inside initialises and then blocks in
// its first read of stdin until serve delivers the envelope. A Runner can
// therefore start an instance ahead of the request it will serve (a standby,
// see standby.go) and take the instantiation and runtime start-up — most of
// a small request's cost — off the request's latency, while every request
// still gets an instance no other request has touched.
type instance struct {
	mod    *module.Module
	inst   api.Module
	fuel   api.MutableGlobal
	stdin  *pendingStdin
	stdout *boundedWriter
	stderr *progressWriter
	ctx    context.Context
	memory *linearMemory

	exited  chan struct{} // closed when _start returns
	callErr error         // _start's error, valid after exited
	norm    *normaliser   // nil unless the call names a normaliser
}

// startBudget is the fuel the guest may use before its request arrives (the
// Go runtime start-up); serve charges what it used to the request.
const startBudget = 1 << 62

// startInstance instantiates compiled with the given mounts and starts its
// _start function, which runs until it reads stdin.
// live counts running guests, so a closing Runner can wait for them before
// its runtimes unmap their memory.
func startInstance(eng *engine, compiled wazero.CompiledModule, mod *module.Module, mounts []Mount, limits Limits, live *sync.WaitGroup, norm *normaliser) (*instance, error) {
	in := &instance{
		norm:   norm,
		mod:    mod,
		stdin:  newPendingStdin(),
		stdout: &boundedWriter{limit: 0},
		stderr: &progressWriter{},
		exited: make(chan struct{}),
	}
	// The instance outlives the call that started it (a standby), so it
	// runs under no caller's context: serve stops it through fuel.
	in.ctx, in.memory = withLinearMemory(context.Background())
	in.ctx = withNormaliser(in.ctx, norm)
	fsCfg := wazero.NewFSConfig()
	for _, m := range mounts {
		fsCfg = fsCfg.WithFSMount(m.FS, m.GuestPath)
	}
	// No args, no environment, fake clocks and a deterministic random
	// source (wazero's defaults): the guest sees nothing of the host and the
	// same request gives the same bytes and the same fuel count.
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithStdin(in.stdin).
		WithStdout(in.stdout).
		WithStderr(in.stderr).
		WithFSConfig(fsCfg)
	inst, err := eng.rt.InstantiateModule(in.ctx, compiled, cfg)
	if err != nil {
		if strings.Contains(err.Error(), "memory") {
			return nil, resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
				"module %q needs more memory than the %s limit allows just to start (%v); raise --memory-limit",
				mod.Name, FormatBytes(limits.MemoryBytes), err))
		}
		return nil, abi.Errorf(abi.CodeModuleFailed, "module %q failed to instantiate: %v", mod.Name, err).WithDetail("module", mod.Name)
	}
	g, ok := inst.ExportedGlobal(fuel.GlobalName).(api.MutableGlobal)
	if !ok {
		_ = inst.Close(in.ctx)
		return nil, abi.Errorf(abi.CodeModuleUnavailable, "module %q carries no fuel counter; rea refuses to run unmetered code", mod.Name)
	}
	in.inst, in.fuel = inst, g
	releaseModuleData(mod)
	if eng.log != nil {
		// Tests read this line to tell a run that loaded nothing.
		eng.log.Debug("module instantiated", "module", mod.Name)
	}
	g.Set(startBudget)
	live.Add(1)
	go func() {
		defer live.Done()
		_, in.callErr = inst.ExportedFunction("_start").Call(in.ctx)
		close(in.exited)
	}()
	return in, nil
}

// discard ends an instance that will serve no request: its stdin reports
// end of input, so the guest exits, and the instance is closed.
func (in *instance) discard() {
	in.stdin.deliver(nil)
	go func() {
		<-in.exited
		_ = in.inst.Close(in.ctx)
	}()
}

// serve delivers the request envelope and waits for the response, enforcing
// limits: fuel (the start-up's use counts against it), deadline,
// cancellation and output. The instance is closed when serve returns.
func (in *instance) serve(ctx context.Context, call Call, limits Limits, envelope []byte) (*Outcome, error) {
	start := time.Now()
	mod, g := in.mod, in.fuel
	in.stdout.limit = limits.OutputBytes
	in.stderr.setProgress(call.Progress)
	deadline := time.NewTimer(limits.Deadline)
	defer deadline.Stop()

	// The guest must be parked in its read of stdin (or finished) before
	// the counter is touched: it is not running then, so the store below
	// cannot race its load-subtract-store.
	select {
	case <-in.stdin.waiting:
	case <-in.exited:
	case <-ctx.Done():
		in.discard()
		in.norm.abandon()
		return nil, cancelledError(ctx)
	case <-deadline.C:
		in.discard()
		in.norm.abandon()
		return nil, resourceError("deadline", limits.Deadline.String(), fmt.Sprintf(
			"module %q did not start within its %s deadline; raise --timeout", mod.Name, limits.Deadline))
	}
	defer func() { _ = in.inst.Close(in.ctx) }()
	budget := min(limits.Fuel, 1<<62)
	startUsed := startBudget - min(g.Get(), startBudget)
	g.Set(budget - min(startUsed, budget))

	// The watchdog zeroes the counter on cancellation, deadline or output
	// overflow; the guest traps at its next loop header or call. One store
	// can be lost to the guest's load-subtract-store, so fuel.Exhaust keeps
	// re-zeroing until the run returns.
	var (
		stopMu    sync.Mutex
		reason    stopReason
		remaining uint64
		stopped   = make(chan struct{})
	)
	stop := func(why stopReason) {
		stopMu.Lock()
		defer stopMu.Unlock()
		if reason != stopNone {
			return
		}
		reason = why
		remaining = g.Get()
		g.Set(0)
		if in.norm != nil {
			in.norm.stop()
		}
		close(stopped)
	}
	// Set before the envelope goes out: from then on the guest writes.
	in.stdout.onOverflow = func() { stop(stopOutput) }
	in.stdin.deliver(envelope)
	watchdogDone := make(chan struct{})
	go func() {
		defer close(watchdogDone)
		select {
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				stop(stopDeadline)
			} else {
				stop(stopCancelled)
			}
		case <-deadline.C:
			stop(stopDeadline)
		case <-stopped:
		case <-in.exited:
			return
		}
		fuel.Exhaust(g, in.exited)
	}()
	<-in.exited
	<-watchdogDone
	normFuel, normErr := in.norm.close()

	stopMu.Lock()
	why := reason
	left := g.Get()
	if why != stopNone {
		left = remaining
	}
	stopMu.Unlock()
	usage := Usage{
		FuelUsed: budget - min(left, budget) + normFuel,
		Wall:     time.Since(start),
	}
	if mem := in.inst.Memory(); mem != nil {
		usage.PeakMemoryBytes = uint64(mem.Size())
	}
	out := &Outcome{Usage: usage, Module: mod.Identity, Limits: limits}

	switch why {
	case stopCancelled:
		return nil, abi.Errorf(abi.CodeCancelled, "module %q was cancelled after %s", mod.Name, usage.Wall.Round(time.Millisecond)).
			WithDetail("module", mod.Name)
	case stopDeadline:
		return nil, resourceError("deadline", limits.Deadline.String(), fmt.Sprintf(
			"module %q ran past its %s deadline; raise --timeout or narrow the request", mod.Name, limits.Deadline))
	case stopOutput:
		return nil, resourceError("output", limits.OutputBytes, fmt.Sprintf(
			"module %q wrote more than the %s output limit; narrow the request (paging, filters) or raise the output limit",
			mod.Name, FormatBytes(uint64(limits.OutputBytes))))
	}
	if normErr != nil {
		// The guest was stopped because its normaliser failed.
		return nil, normErr
	}
	if err := in.response(out, left, limits); err != nil {
		return nil, err
	}
	return out, nil
}

// pendingStdin is the guest's stdin: its first Read marks the instance as
// waiting and blocks until the request envelope is delivered.
type pendingStdin struct {
	waiting   chan struct{} // closed at the first Read
	envelope  chan []byte   // receives the envelope once; nil means end of input
	markOnce  sync.Once
	sendOnce  sync.Once
	r         *bytes.Reader
	delivered bool
}

func newPendingStdin() *pendingStdin {
	return &pendingStdin{waiting: make(chan struct{}), envelope: make(chan []byte, 1)}
}

func (s *pendingStdin) deliver(envelope []byte) {
	s.sendOnce.Do(func() { s.envelope <- envelope })
}

// Read is only ever called from the guest's goroutine.
func (s *pendingStdin) Read(p []byte) (int, error) {
	if !s.delivered {
		s.markOnce.Do(func() { close(s.waiting) })
		env := <-s.envelope
		s.delivered = true
		if env == nil {
			return 0, io.EOF
		}
		s.r = bytes.NewReader(env)
	}
	if s.r == nil {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

// memoryUsed is the size the guest's linear memory grew to, 0 when unknown.
func (in *instance) memoryUsed() (n uint64) {
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	if in.inst == nil || in.inst.Memory() == nil {
		return 0
	}
	return uint64(in.inst.Memory().Size())
}

// releaseModuleData drops the resident pages of an embedded module's bytes
// after they were read: once loaded, and after each instantiation, which
// copies the module's data segments out of them (the Go runtime's
// read-only data, megabytes per module). Left resident, they were 10 MB of
// whole @theia/core's peak. A module read from a file lives in the heap,
// not the executable, and is left alone.
func releaseModuleData(mod *module.Module) {
	if b, ok := mod.InPlaceBytes(); ok {
		releaseExecutableData(b)
	}
}
