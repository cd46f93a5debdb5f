package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

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
// cancellation stop it too. An application of many small files to
// transform gets a second lane (second, addSecondLane): another instance
// that takes part of the first transforms announced.
type normaliser struct {
	r      *Runner
	mod    *module.Module
	limits Limits

	mu      sync.Mutex
	started bool
	// startOnce starts the service once, on the first transform or ahead
	// of it (prestart); a transform arriving while a prestart instantiates
	// waits for it.
	startOnce  sync.Once
	startErr   error
	prestarted bool
	inst       api.Module
	fuel       api.MutableGlobal
	in         *frameIn
	out        *frameOut
	exited     chan struct{}
	callErr    error
	err        error  // the first failure; it fails the request
	pending    []byte // the last result, until normalise_result copies it
	stopped    bool

	// The transforms, announced ahead (normalise_ahead) or asked for
	// (normalise), in the guest's order; one worker feeds them to the
	// normaliser in that order, so the normaliser works on the next file
	// while the guest parses and analyses this one, on another core, and
	// its fuel is the same run to run. ahead holds the announced ones not
	// yet asked for, by the sha256 of their encoded request.
	work       chan *transformJob
	served     chan struct{} // closed when the worker has ended
	ahead      map[[32]byte]*transformJob
	aheadBytes int
	// For the debug log: transforms announced, asked for without an
	// announcement, and the time the guest waited for results.
	announced, unannounced int
	waited                 time.Duration
	// The worker's time in transforms and between them (after its first
	// job): whether the normaliser or the guest's announcements pace it.
	busy, idle time.Duration

	// Retirement: once the guest has asked for every transform it
	// announced (and none was refused), it is parsing its last files and
	// will analyse and report without the normaliser, while its own heap is
	// at its largest; the worker then ends the instance and gives back its
	// memory and compiled code (retire). A transform asked for after that
	// starts a new instance (a file the analysis did not announce); it then
	// serves to the end of the request. Both follow the guest's order of
	// calls, never timing, so the fuel reported is the same run to run.
	// Only applications that announced retireBytes of sources or more
	// retire it: the configuration files a smaller one's analysis reads
	// at its end (Forge's forge.config.ts) would start it again, loading
	// its code once more, for less memory than that gives back.
	retireBytes int
	// The second lane: another instance, prestarted beside this one, that
	// takes every other one of the first 2×secondLaneJobs transforms
	// announced, so that two cores transform while the guest waits on its
	// first files (an analysis reaches small TypeScript files faster than
	// one instance transforms them: electron/fiddle's guest waited 0.33 s
	// of 0.53). Which lane runs a transform depends on its place among the
	// announcements only, so each lane's fuel is the same run to run. A
	// transform the second lane fails is run again here, so its share of
	// the fuel and its failures never decide a request's outcome. nil in
	// the second lane itself and where the request's fuel cannot spare
	// its share.
	second      *normaliser
	onSecond    map[[32]byte]bool // announced transforms the second lane holds
	offered     int               // transforms announced to either lane
	isSecond    bool              // this is a second lane
	requestFuel uint64            // the request's fuel (limits.Fuel is this lane's share)
	refused     bool              // an announcement was refused
	retiring    bool              // the retirement is queued or done
	restarted   bool              // an instance was started after a retirement
	usedFuel    uint64            // fuel of the instances already ended
	instances   int
}

// transformJob is one transform in the worker's queue; a job without a
// request asks the worker to retire the instance.
type transformJob struct {
	req  []byte
	res  []byte
	err  error
	done chan struct{}
}

// Bounds of the transforms announced ahead in one request: the sources
// they copy into the host (the results wait in the host until asked for),
// and the queue's length. Beyond them an announcement is refused and the
// file is transformed when its parse asks for it.
const (
	normaliseAheadBytes = 16 << 20
	normaliseQueue      = 4096
)

// The second lane's share: its transforms (every other one of the first
// 2×secondLaneJobs announced) and the fuel set aside for it, taken only
// from a request with at least four times as much (the default is
// 200 G; electron/fiddle's 48 transforms use 5 M).
const (
	secondLaneJobs = 64
	secondLaneFuel = 2_000_000_000
)

// normaliseRetireBytes is the announced sources past which the normaliser
// retires after the last of them (1 MiB: @theia/core's 3.7 MB of
// TypeScript does, each of the 17 accuracy apps' 13–520 KB does not).
const normaliseRetireBytes = 1 << 20

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
	return &normaliser{r: r, mod: mod, limits: limits, retireBytes: normaliseRetireBytes, requestFuel: limits.Fuel}, nil
}

// addSecondLane gives the service a second lane (Call.SecondNormaliser),
// unless the request's fuel cannot spare its share; it must come before
// the service starts, and the lane is used only once prestarted.
func (n *normaliser) addSecondLane() {
	if n == nil || n.isSecond || n.second != nil || n.limits.Fuel < 4*secondLaneFuel {
		return
	}
	lane := n.limits
	lane.Fuel = secondLaneFuel
	// Its retirement follows its last announced transform, whatever their
	// size (or its whole share, announce): it serves only the start.
	n.second = &normaliser{r: n.r, mod: n.mod, limits: lane, isSecond: true, requestFuel: secondLaneFuel}
	n.onSecond = map[[32]byte]bool{}
	n.limits.Fuel -= secondLaneFuel
}

// transform returns the encoded result of one encoded request: the one
// announced ahead if it was, otherwise it is queued after everything
// announced or asked for before. Only the calling instance's goroutine
// calls it (a guest runs on one), so calls never overlap; n.mu guards what
// the worker, stop and close read.
func (n *normaliser) transform(req []byte) ([]byte, error) {
	key := sha256.Sum256(req)
	n.mu.Lock()
	onSecond := n.onSecond[key]
	delete(n.onSecond, key)
	n.mu.Unlock()
	if onSecond {
		if res, err := n.second.transform(req); err == nil {
			return res, nil
		}
		// Run here as if never announced: the outcome is this lane's.
	}
	if err := n.admit(req); err != nil {
		return nil, err
	}
	n.mu.Lock()
	job := n.ahead[key]
	delete(n.ahead, key)
	retire := job != nil && len(n.ahead) == 0 && !n.refused && !n.retiring && n.aheadBytes >= n.retireBytes
	if retire {
		n.retiring = true
	}
	n.mu.Unlock()
	if job == nil {
		job = &transformJob{req: req, done: make(chan struct{})}
		n.unannounced++
		n.work <- job
	}
	if retire {
		// Queued after every transform asked for: the worker ends the
		// instance when this last one is answered.
		n.work <- &transformJob{done: make(chan struct{})}
	}
	start := time.Now()
	<-job.done
	n.waited += time.Since(start)
	return job.res, job.err
}

// announce queues a transform the guest will ask for later (its first
// parse of a TypeScript, JSX or ESM file); false when it is refused (over
// the bounds, a duplicate, or the normaliser failed), which only means it
// is done when asked for.
func (n *normaliser) announce(req []byte) bool {
	if n.admit(req) != nil {
		return false
	}
	key := sha256.Sum256(req)
	n.mu.Lock()
	i, duplicate := n.offered, n.ahead[key] != nil || n.onSecond[key]
	toSecond := n.second != nil && n.prestarted && !duplicate && i%2 == 1 && i < 2*secondLaneJobs
	n.mu.Unlock()
	if toSecond && n.second.announce(req) {
		n.mu.Lock()
		n.onSecond[key] = true
		n.offered++
		n.mu.Unlock()
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if duplicate || n.aheadBytes+len(req) > normaliseAheadBytes || len(n.work) >= normaliseQueue-2 {
		n.refused = true
		return false
	}
	n.offered++
	job := &transformJob{req: req, done: make(chan struct{})}
	n.aheadBytes += len(req)
	n.announced++
	n.ahead[key] = job
	n.work <- job // never blocks: only this goroutine sends, and the queue has room
	if n.isSecond && n.announced == secondLaneJobs && !n.retiring {
		// Its whole share: it ends once that is transformed (the results
		// wait in the host), not when the guest asks for the last of
		// them — in a large application that can be half the run later,
		// while the guest's heap grows.
		n.retiring = true
		n.work <- &transformJob{done: make(chan struct{})}
	}
	return true
}

// admit starts the normaliser on the request's first transform and
// refuses what it cannot take.
func (n *normaliser) admit(req []byte) error {
	n.mu.Lock()
	err, stopped := n.err, n.stopped
	n.mu.Unlock()
	switch {
	case err != nil:
		return err
	case stopped:
		return errStopped
	case len(req) > normaliseMaxFrame:
		return n.fail(abi.Errorf(abi.CodeInvalidRequest, "a source file too large for the normaliser (%d bytes)", len(req)))
	}
	// Waits for a prestart under way; a failed one fails this transform
	// (and the request) as a failed start on demand would.
	if err := n.ensureStarted(); err != nil {
		return n.fail(err)
	}
	return nil
}

// ensureStarted starts the service unless it was started already, and
// waits for a start under way.
func (n *normaliser) ensureStarted() error {
	n.startOnce.Do(func() { n.startErr = n.start() })
	return n.startErr
}

// prestart starts the service now, beside the guest's own start, for a
// request the caller knows will transform files (its application has
// TypeScript or JSX): instantiating the normaliser (Go's runtime start-up
// in wasm, about a quarter second) then overlaps the guest's start and
// planning instead of delaying its first transform. The instance's
// start-up fuel is the request's either way, and whether it is
// prestarted depends on the application's file names only, so the fuel
// reported does not depend on timing.
func (n *normaliser) prestart() {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.prestarted = true
	n.mu.Unlock()
	// A failure is reported by the first transform that needs the
	// normaliser, as without a prestart: a request that transforms nothing
	// is not failed by a normaliser it did not use.
	go func() { _ = n.ensureStarted() }()
	n.second.prestart()
}

// serve is the worker: it runs the queued transforms one at a time, in
// queue order, until close closes the queue; after a failure (or a stop)
// the rest fail with it without running.
func (n *normaliser) serve(done chan struct{}) {
	defer close(done)
	var last time.Time
	for job := range n.work {
		began := time.Now()
		if !last.IsZero() {
			n.idle += began.Sub(last)
		}
		n.mu.Lock()
		err, stopped := n.err, n.stopped
		n.mu.Unlock()
		switch {
		case err != nil:
			job.err = err
		case stopped:
			job.err = errStopped
		case job.req == nil:
			n.retire()
		default:
			job.res, job.err = n.run(job.req)
		}
		last = time.Now()
		n.busy += last.Sub(began)
		close(job.done)
	}
}

// run sends one request to the normaliser and waits for its result.
func (n *normaliser) run(req []byte) ([]byte, error) {
	n.mu.Lock()
	retired := n.inst == nil
	if retired {
		n.restarted = true
	}
	n.mu.Unlock()
	if retired {
		if err := n.instantiate(); err != nil {
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

// start begins the service on the request's first transform: the worker
// and the first instance.
func (n *normaliser) start() error {
	n.mu.Lock()
	n.started = true
	n.mu.Unlock()
	if err := n.instantiate(); err != nil {
		return err
	}
	n.mu.Lock()
	n.work, n.ahead, n.served = make(chan *transformJob, normaliseQueue), map[[32]byte]*transformJob{}, make(chan struct{})
	n.mu.Unlock()
	go n.serve(n.served)
	return nil
}

// budget is the fuel the instances of one request share.
func (n *normaliser) budget() uint64 { return min(n.limits.Fuel, 1<<62) }

// instantiate loads the normaliser (from the compile cache) and starts an
// instance with the fuel the request has left for it.
func (n *normaliser) instantiate() error {
	eng, c, err := n.r.compiledFor(context.Background(), n.mod, n.limits)
	if err != nil {
		return err
	}
	defer c.unpin()
	compiled := c.mod
	ctx, _ := withLinearMemory(context.Background())
	in := &frameIn{ch: make(chan []byte, 1)}
	out := &frameOut{frames: make(chan []byte, 1), limit: n.limits.OutputBytes}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions().
		WithStdin(in).WithStdout(out).WithStderr(io.Discard)
	inst, err := eng.rt.InstantiateModule(ctx, compiled, cfg)
	if err != nil {
		return abi.Errorf(abi.CodeModuleFailed, "module %q failed to instantiate: %v", n.mod.Name, err).WithDetail("module", n.mod.Name)
	}
	g, ok := inst.ExportedGlobal(fuel.GlobalName).(api.MutableGlobal)
	if !ok {
		_ = inst.Close(ctx)
		return abi.Errorf(abi.CodeModuleUnavailable, "module %q carries no fuel counter; rea refuses to run unmetered code", n.mod.Name)
	}
	releaseModuleData(n.mod)
	n.mu.Lock()
	g.Set(n.budget() - min(n.usedFuel, n.budget()))
	n.mu.Unlock()
	if eng.log != nil {
		eng.log.Debug("module instantiated", "module", n.mod.Name)
	}
	exited := make(chan struct{})
	n.mu.Lock()
	n.inst, n.fuel, n.exited, n.in, n.out = inst, g, exited, in, out
	n.instances++
	stopped := n.stopped
	n.mu.Unlock()
	n.r.live.Add(1)
	go func() {
		defer n.r.live.Done()
		_, err := inst.ExportedFunction("_start").Call(ctx)
		n.mu.Lock()
		n.callErr = err
		n.mu.Unlock()
		close(exited)
	}()
	if stopped {
		go fuel.Exhaust(g, exited)
	}
	return nil
}

// end ends the running instance (its input ends; it exits) and adds the
// fuel it used to the request's; it reports whether one was running.
func (n *normaliser) end() bool {
	n.mu.Lock()
	inst, exited, in, g := n.inst, n.exited, n.in, n.fuel
	n.mu.Unlock()
	if inst == nil {
		return false
	}
	in.send(nil)
	<-exited
	if mem := inst.Memory(); mem != nil && n.r.log != nil {
		n.r.log.Debug("normaliser ended", "module", n.mod.Name, "memory", mem.Size())
	}
	n.mu.Lock()
	left := min(g.Get(), n.budget()-min(n.usedFuel, n.budget()))
	n.usedFuel += n.budget() - min(n.usedFuel, n.budget()) - left
	// Nothing may keep the instance reachable: its compiled code is
	// unmapped when the collector finds it unreachable.
	n.inst, n.fuel, n.in, n.out = nil, nil, nil, nil
	n.mu.Unlock()
	_ = inst.Close(context.Background())
	return true
}

// retire ends the instance once the guest has asked for everything it
// announced, and, where the Runner releases modules when done (the CLI),
// the normaliser's compiled code too: neither is needed for the rest of the
// request, whose heap is then at its largest. A failed normaliser is left
// to close, which reports its failure.
func (n *normaliser) retire() {
	n.mu.Lock()
	failed := n.err != nil
	n.mu.Unlock()
	if failed || !n.end() {
		return
	}
	if n.isSecond {
		// The first lane still runs on the same compiled code.
		if n.r.log != nil {
			n.r.log.Debug("second normaliser lane retired", "module", n.mod.Name, "announced", n.announced)
		}
		return
	}
	if n.r.log != nil {
		n.r.log.Debug("normaliser retired", "module", n.mod.Name, "announced", n.announced)
	}
	n.r.Done(n.mod.Name)
}

// failure says why the normaliser ended without answering.
func (n *normaliser) failure() error {
	n.mu.Lock()
	stopped, callErr := n.stopped, n.callErr
	var left uint64
	if n.fuel != nil {
		left = n.fuel.Get()
	}
	n.mu.Unlock()
	if stopped {
		return errStopped
	}
	var exit *sys.ExitError
	switch {
	case callErr == nil || errors.As(callErr, &exit):
		return moduleFailed(n.mod.Name, fmt.Sprintf("ended without answering (%v)", callErr), &progressWriter{})
	case left == 0:
		aside := ""
		if n.second != nil {
			aside = fmt.Sprintf(" (%d of them were set aside for a second normaliser)", secondLaneFuel)
		}
		return resourceError("fuel", n.requestFuel, fmt.Sprintf(
			"module %q used all %d fuel units%s; raise --fuel or narrow the request", n.mod.Name, n.requestFuel, aside))
	}
	return classifyTrap(n.mod.Name, callErr, left, n.limits, &progressWriter{})
}

// stop ends a normaliser that is running (cancellation, deadline): its
// fuel is zeroed until it has exited.
func (n *normaliser) stop() {
	if n == nil {
		return
	}
	n.second.stop()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopped = true
	if n.inst != nil {
		go fuel.Exhaust(n.fuel, n.exited)
	}
}

// abandon stops and closes the normaliser of a request that ended before
// its guest ran (a prestarted normaliser is already running).
func (n *normaliser) abandon() {
	n.stop()
	_, _ = n.close()
}

// close ends the normaliser when its request is done and returns the fuel
// it used and its first failure.
func (n *normaliser) close() (uint64, error) {
	if n == nil {
		return 0, nil
	}
	used, err := n.closeLane()
	// The second lane's failures were each run again in this one, or
	// were of transforms nobody asked for; its fuel is the request's.
	second, _ := n.second.close()
	return used + second, err
}

// closeLane ends this lane's instance and returns its fuel and failure.
func (n *normaliser) closeLane() (uint64, error) {
	n.mu.Lock()
	prestarted := n.prestarted
	n.mu.Unlock()
	if prestarted {
		_ = n.ensureStarted() // its failure is n.err
	}
	n.mu.Lock()
	started := n.started && n.work != nil
	n.mu.Unlock()
	if !started {
		n.mu.Lock()
		defer n.mu.Unlock()
		return 0, n.err
	}
	// Announced transforms nobody asked for still run (unless stopped), so
	// the fuel a request reports does not depend on timing.
	close(n.work)
	<-n.served
	n.end()
	n.mu.Lock()
	err, used := n.err, n.usedFuel
	announced, unannounced, unasked, waited, instances := n.announced, n.unannounced, len(n.ahead), n.waited, n.instances
	n.mu.Unlock()
	if n.r.log != nil {
		// busy and idle are the worker's own (written before served closed).
		msg := "normaliser served"
		if n.isSecond {
			msg = "second normaliser lane served"
		}
		n.r.log.Debug(msg, "module", n.mod.Name, "announced", announced, "unannounced", unannounced,
			"announced_unasked", unasked, "guest_waited", waited, "instances", instances, "fuel", used,
			"worker_busy", n.busy, "worker_idle", n.idle)
	}
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

// guestNormaliseRequest reads the (req, len) arguments of a normaliser
// host call: the calling instance's normaliser and a copy of the request
// (guest memory may move once the guest runs again); ok is false when
// there is no normaliser or the request lies outside the guest's memory.
func guestNormaliseRequest(ctx context.Context, m api.Module, stack []uint64) (*normaliser, []byte, bool) {
	ptr, n := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
	norm := normaliserFrom(ctx)
	mem := m.Memory()
	if norm == nil || mem == nil {
		return nil, nil, false
	}
	req, ok := mem.Read(ptr, n)
	if !ok {
		return nil, nil, false
	}
	return norm, append([]byte(nil), req...), true
}

// hostNormalise is normalise(req, len) -> result length, or -1: it runs
// one transform for the calling instance's request. The result waits in
// the host until normalise_result(out, len) copies it into the guest.
func hostNormalise(ctx context.Context, m api.Module, stack []uint64) {
	norm, req, ok := guestNormaliseRequest(ctx, m, stack)
	stack[0] = api.EncodeI32(-1)
	if !ok {
		return
	}
	res, err := norm.transform(req)
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

// hostNormaliseAhead is normalise_ahead(req, len) -> 0, or 1 when refused:
// it announces a transform the guest will ask for with normalise, so the
// normaliser runs it while the guest works on (normaliser.announce). A
// refusal costs nothing but the overlap.
func hostNormaliseAhead(ctx context.Context, m api.Module, stack []uint64) {
	norm, req, ok := guestNormaliseRequest(ctx, m, stack)
	stack[0] = 1
	if !ok {
		return
	}
	if norm.announce(req) {
		stack[0] = 0
	}
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
