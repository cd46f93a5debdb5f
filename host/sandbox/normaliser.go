package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"

	"rea/abi"
	"rea/wasm/fuel"
	"rea/wasm/module"
)

// normaliser serves one request's calls of the "rea.normalise" host
// function: the jsapp module links no esbuild (17 → 7 MB of wasm, and no
// esbuild package initialisers at each start), so when it meets a
// TypeScript, JSX or ESM file it hands the source to the host, which runs
// the transform in the normaliser module. The normaliser instance is
// started on the request's first such file — an application of plain
// CommonJS never loads the module — and serves every later one, as frames
// on its stdin and stdout; it ends with the request. It runs under the
// request's limits: its own memory limit, its own fuel budget (the fuel it
// used is added to the request's), and the request's deadline and
// cancellation stop it too.
type normaliser struct {
	r      *Runner
	mod    *module.Module
	limits Limits

	mu      sync.Mutex
	started bool
	inst    api.Module
	fuel    api.MutableGlobal
	in      *frameIn
	out     *frameOut
	exited  chan struct{}
	callErr error
	err     error  // the first failure; it fails the request
	pending []byte // the last result, until normalise_result copies it
	stopped bool
}

type normaliserKey struct{}

// withNormaliser gives the host functions of an instance started with ctx
// their normaliser.
func withNormaliser(ctx context.Context, n *normaliser) context.Context {
	if n == nil {
		return ctx
	}
	return context.WithValue(ctx, normaliserKey{}, n)
}

func normaliserFrom(ctx context.Context) *normaliser {
	n, _ := ctx.Value(normaliserKey{}).(*normaliser)
	return n
}

// newNormaliser prepares the service for one request; nothing is loaded
// until the first transform.
func (r *Runner) newNormaliser(name string, limits Limits) (*normaliser, error) {
	if name == "" {
		return nil, nil
	}
	mod, err := r.catalog.Get(name)
	if err != nil {
		return nil, err
	}
	return &normaliser{r: r, mod: mod, limits: limits}, nil
}

// transform sends one encoded request and returns the encoded result.
// Only the calling instance's goroutine calls it (a guest runs on one),
// so calls never overlap; n.mu guards what stop and close read.
func (n *normaliser) transform(req []byte) ([]byte, error) {
	n.mu.Lock()
	err, stopped, started := n.err, n.stopped, n.started
	n.mu.Unlock()
	switch {
	case err != nil:
		return nil, err
	case stopped:
		return nil, errStopped
	case len(req) > normaliseMaxFrame:
		return nil, n.fail(abi.Errorf(abi.CodeInvalidRequest, "a source file too large for the normaliser (%d bytes)", len(req)))
	}
	if !started {
		if err := n.start(); err != nil {
			return nil, n.fail(err)
		}
	}
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(req)))
	n.in.send(append(head[:], req...))
	select {
	case frame := <-n.out.frames:
		return frame, nil
	case <-n.exited:
		return nil, n.fail(n.failure())
	}
}

// normaliseMaxFrame matches normalise.MaxFrame (the host imports no
// jsengine package).
const normaliseMaxFrame = 1 << 30

var errStopped = errors.New("the normaliser was stopped with its request")

// fail records the first failure.
func (n *normaliser) fail(err error) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.err == nil {
		n.err = err
	}
	return n.err
}

// start loads the normaliser (from the compile cache) and starts it.
func (n *normaliser) start() error {
	n.mu.Lock()
	n.started = true
	n.mu.Unlock()
	eng, c, err := n.r.compiledFor(context.Background(), n.mod, n.limits)
	if err != nil {
		return err
	}
	defer c.unpin()
	compiled := c.mod
	ctx, _ := withLinearMemory(context.Background())
	n.in = &frameIn{ch: make(chan []byte, 1)}
	n.out = &frameOut{frames: make(chan []byte, 1), limit: n.limits.OutputBytes}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions().
		WithStdin(n.in).WithStdout(n.out).WithStderr(io.Discard)
	inst, err := eng.rt.InstantiateModule(ctx, compiled, cfg)
	if err != nil {
		return abi.Errorf(abi.CodeModuleFailed, "module %q failed to instantiate: %v", n.mod.Name, err).WithDetail("module", n.mod.Name)
	}
	g, ok := inst.ExportedGlobal(fuel.GlobalName).(api.MutableGlobal)
	if !ok {
		_ = inst.Close(ctx)
		return abi.Errorf(abi.CodeModuleUnavailable, "module %q carries no fuel counter; rea refuses to run unmetered code", n.mod.Name)
	}
	g.Set(min(n.limits.Fuel, 1<<62))
	if eng.log != nil {
		eng.log.Debug("module instantiated", "module", n.mod.Name)
	}
	exited := make(chan struct{})
	n.mu.Lock()
	n.inst, n.fuel, n.exited = inst, g, exited
	stopped := n.stopped
	n.mu.Unlock()
	n.r.live.Add(1)
	go func() {
		defer n.r.live.Done()
		_, n.callErr = inst.ExportedFunction("_start").Call(ctx)
		close(exited)
	}()
	if stopped {
		go fuel.Exhaust(g, exited)
	}
	return nil
}

// failure says why the normaliser ended without answering.
func (n *normaliser) failure() error {
	n.mu.Lock()
	stopped := n.stopped
	n.mu.Unlock()
	if stopped {
		return errStopped
	}
	left := n.fuel.Get()
	var exit *sys.ExitError
	switch {
	case n.callErr == nil || errors.As(n.callErr, &exit):
		return moduleFailed(n.mod.Name, fmt.Sprintf("ended without answering (%v)", n.callErr), &progressWriter{})
	case left == 0:
		return resourceError("fuel", n.limits.Fuel, fmt.Sprintf(
			"module %q used all %d fuel units; raise --fuel or narrow the request", n.mod.Name, n.limits.Fuel))
	}
	return classifyTrap(n.mod.Name, n.callErr, left, n.limits, &progressWriter{})
}

// stop ends a normaliser that is running (cancellation, deadline): its
// fuel is zeroed until it has exited.
func (n *normaliser) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopped = true
	if n.inst != nil {
		go fuel.Exhaust(n.fuel, n.exited)
	}
}

// close ends the normaliser when its request is done and returns the fuel
// it used and its first failure.
func (n *normaliser) close() (uint64, error) {
	if n == nil {
		return 0, nil
	}
	n.mu.Lock()
	inst, exited, err := n.inst, n.exited, n.err
	n.mu.Unlock()
	if inst == nil {
		return 0, err
	}
	n.in.send(nil)
	<-exited
	used := min(n.limits.Fuel, 1<<62) - min(n.fuel.Get(), min(n.limits.Fuel, 1<<62))
	_ = inst.Close(context.Background())
	return used, err
}

// frameIn is the normaliser's stdin: each send is read in full; nil is end
// of input.
type frameIn struct {
	ch  chan []byte
	cur []byte
	eof bool
}

func (f *frameIn) send(b []byte) {
	if b == nil {
		close(f.ch)
		return
	}
	f.ch <- b
}

func (f *frameIn) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.eof {
			return 0, io.EOF
		}
		b, ok := <-f.ch
		if !ok {
			f.eof = true
			return 0, io.EOF
		}
		f.cur = b
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

// frameOut collects the normaliser's stdout into frames.
type frameOut struct {
	buf    []byte
	frames chan []byte
	limit  int64
}

func (f *frameOut) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	for len(f.buf) >= 4 {
		n := int64(binary.BigEndian.Uint32(f.buf))
		if f.limit > 0 && n > f.limit {
			return 0, fmt.Errorf("normaliser result of %d bytes is over the output limit", n)
		}
		if int64(len(f.buf)-4) < n {
			break
		}
		frame := append([]byte(nil), f.buf[4:4+n]...)
		f.buf = f.buf[4+n:]
		select {
		case f.frames <- frame:
		default: // a frame nobody asked for: the guest breaks the protocol
			return 0, errors.New("normaliser wrote a result no request asked for")
		}
	}
	return len(p), nil
}

// hostNormalise is normalise(req, len) -> result length, or -1: it runs
// one transform for the calling instance's request. The result waits in
// the host until normalise_result(out, len) copies it into the guest.
func hostNormalise(ctx context.Context, m api.Module, stack []uint64) {
	ptr, n := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
	stack[0] = api.EncodeI32(-1)
	norm := normaliserFrom(ctx)
	mem := m.Memory()
	if norm == nil || mem == nil {
		return
	}
	req, ok := mem.Read(ptr, n)
	if !ok {
		return
	}
	res, err := norm.transform(append([]byte(nil), req...))
	if err != nil {
		// The request fails with the normaliser's error: stop the
		// caller at its next fuel check rather than analyse on.
		if g, ok := m.ExportedGlobal(fuel.GlobalName).(api.MutableGlobal); ok {
			g.Set(0)
		}
		return
	}
	norm.mu.Lock()
	norm.pending = res
	norm.mu.Unlock()
	stack[0] = api.EncodeI32(int32(len(res)))
}

// hostNormaliseResult is normalise_result(out, len) -> 0, or 1 when there
// is no result of that length or out is outside the guest's memory.
func hostNormaliseResult(ctx context.Context, m api.Module, stack []uint64) {
	ptr, n := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
	stack[0] = 1
	norm := normaliserFrom(ctx)
	mem := m.Memory()
	if norm == nil || mem == nil {
		return
	}
	norm.mu.Lock()
	res := norm.pending
	norm.pending = nil
	norm.mu.Unlock()
	if uint32(len(res)) != n || !mem.Write(ptr, res) {
		return
	}
	stack[0] = 0
}
