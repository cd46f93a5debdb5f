// Package sandbox runs rea's analyzer modules inside wazero with hard limits.
//
// Each Run is one fresh instance of a WASI command: the request envelope on
// stdin, the response on stdout, progress lines on stderr. Memory is bounded
// by wazero's page limit, execution by the fuel counter the instrumenter put
// into every module (package wasm/fuel), wall time and cancellation by
// zeroing that counter from the host, output by a bounded writer. Inputs are
// mounted read-only as fs.FS values, never as host directories wazero would
// resolve itself (its dir mount follows symlinks out of the mount).
package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"rea/abi"
	"rea/wasm/module"
)

// Mount exposes a read-only file tree to the guest at GuestPath.
type Mount struct {
	GuestPath string
	FS        fs.FS
}

// Call is one request to one module.
type Call struct {
	Module    string
	Operation string
	// Params is marshalled to JSON as the envelope's params.
	Params any
	Mounts []Mount
	Limits Limits
	// Progress receives the module's progress lines as they arrive, on the
	// goroutine running the module; it must return quickly.
	Progress func(abi.Progress)
	// CacheKey, when not empty, identifies the mounted content (e.g. the
	// digests of the bytes the mounts expose). The result is then served
	// from the content-addressed cache when the same module, operation,
	// params, limits and content were run before. Leave it empty when the
	// mounts are not content-addressed.
	CacheKey string
	// Normaliser, when not empty, names the module that serves the
	// instance's "normalise" host calls (the jsapp module's TypeScript,
	// JSX and ESM files); it is loaded on the first call. Its digest is
	// part of the result's cache key.
	Normaliser string
	// StartNormaliser starts the normaliser with the instance instead of
	// on its first transform, for an application known to need it.
	StartNormaliser bool
	// SecondNormaliser starts a second normaliser instance beside the
	// first (with StartNormaliser), which takes every other one of the
	// first transforms announced: for an application of many small
	// files to transform, where the guest would wait on one instance.
	SecondNormaliser bool
}

// Usage is what a run consumed.
type Usage struct {
	FuelUsed        uint64        `json:"fuel_used"`
	PeakMemoryBytes uint64        `json:"peak_memory_bytes"`
	Wall            time.Duration `json:"wall_ns"`
}

// Outcome is a successful run: the module's result and what it cost.
type Outcome struct {
	Result json.RawMessage
	Usage  Usage
	Module module.Identity
	Limits Limits
	// Cached is true when the result came from the result cache; Usage is
	// then that of the run that produced it.
	Cached bool
}

// Options configure a Runner.
type Options struct {
	Catalog *module.Catalog
	// CacheDir holds wazero's compiled-code cache. Empty means
	// <user cache dir>/rea/wazero; "off" disables the disk cache.
	CacheDir string
	// ResultCacheDir holds the content-addressed result cache. Empty means
	// "results" beside the compile cache; "off" keeps results in memory only.
	ResultCacheDir string
	// MaxConcurrent bounds simultaneous runs; 0 means runtime.NumCPU().
	MaxConcurrent int
	// NoStandby starts every instance when its request arrives instead of
	// keeping one started ahead for calls without mounts (see standbys).
	// Benchmarks use it to measure the fresh-start cost.
	NoStandby bool
	// ReleaseWhenDone makes Done close a module's compiled code at once: a
	// one-shot command that has finished with a module (the artifact module
	// after an application's inventory) gives back its 26–58 MiB of code
	// instead of holding it to the process's end.
	ReleaseWhenDone bool
	// MaxRetainedBytes bounds the modules a long-lived Runner keeps
	// compiled, as the sum of their wasm sizes (compiled code is about four
	// times that): past it, the least recently used module no run is using
	// is closed, and loads again from the compile cache on its next use.
	// 0 keeps every module compiled.
	MaxRetainedBytes int64
	Logger           *slog.Logger
}

// Runner runs modules. It is safe for concurrent use and should live as long
// as the process: it keeps compiled modules and wazero runtimes warm.
type Runner struct {
	catalog *module.Catalog
	log     *slog.Logger
	slots   chan struct{}
	cache   wazero.CompilationCache
	cacheAt string

	results  *resultCache
	standbys *standbys // nil with Options.NoStandby
	live     sync.WaitGroup

	releaseWhenDone bool
	maxRetained     int64
	useTick         atomic.Uint64 // orders compiled modules by last use

	mu       sync.Mutex
	runtimes map[uint32]*engine // by memory limit in pages

	// Compiles may still run when Close is called: a caller that loads a
	// module ahead of need (the application analysis does, while its
	// inventory runs) can finish without it, for instance from the result
	// cache. wazero's runtimes and compilation cache must not be closed
	// under a compile, so the last compile in progress closes them.
	compileMu sync.Mutex
	compiling int
	closing   bool   // Close was called: no compile starts any more
	closeRest func() // what Close left for the last compile in progress
}

// engine is one wazero runtime (memory limits are per runtime) and the
// modules compiled for it.
type engine struct {
	rt       wazero.Runtime
	log      *slog.Logger
	mu       sync.Mutex
	compiled map[string]*compileOnce // by module digest
}

type compileOnce struct {
	once sync.Once
	mod  wazero.CompiledModule
	err  error
	size int64 // the module's wasm size

	used atomic.Uint64 // Runner.useTick at the last use

	mu      sync.Mutex
	pins    int  // runs (and standby starts) instantiating from mod
	evicted bool // removed from its engine: close mod when unpinned
	closed  bool
}

// pin marks the compiled module in use; callers hold the engine's lock, so
// a module found in the engine's map is never closed under its new user.
func (c *compileOnce) pin() {
	c.mu.Lock()
	c.pins++
	c.mu.Unlock()
}

// unpin ends a use; the last use of an evicted module closes it.
func (c *compileOnce) unpin() {
	c.mu.Lock()
	c.pins--
	closeNow := c.pins == 0 && c.evicted && !c.closed
	if closeNow {
		c.closed = true
	}
	c.mu.Unlock()
	if closeNow {
		c.close()
	}
}

// evict marks a module removed from its engine (callers hold the engine's
// lock) and closes it unless a run is using it.
func (c *compileOnce) evict() {
	c.mu.Lock()
	c.evicted = true
	closeNow := c.pins == 0 && !c.closed
	if closeNow {
		c.closed = true
	}
	c.mu.Unlock()
	if closeNow {
		c.close()
	}
}

func (c *compileOnce) inUse() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pins > 0
}

// close closes the compiled module. wazero unmaps its code when the Go
// collector finds it unreachable (instances still running keep it), so a
// collection is started, which also returns the heap the module's loads
// left behind: a one-shot run otherwise held both until the heap doubled.
func (c *compileOnce) close() {
	c.once.Do(func() {}) // a compile in progress finishes first
	if c.mod != nil {
		_ = c.mod.Close(context.Background())
		c.mod = nil
		go debug.FreeOSMemory()
	}
}

// NewRunner prepares a Runner. It does not compile anything yet.
func NewRunner(opts Options) (*Runner, error) {
	if opts.Catalog == nil {
		return nil, errors.New("sandbox: a module catalog is required")
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = runtime.NumCPU()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Runner{
		catalog:         opts.Catalog,
		log:             opts.Logger,
		slots:           make(chan struct{}, opts.MaxConcurrent),
		runtimes:        map[uint32]*engine{},
		releaseWhenDone: opts.ReleaseWhenDone,
		maxRetained:     opts.MaxRetainedBytes,
	}
	dir := opts.CacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "rea", "wazero")
		}
	}
	resultDir := opts.ResultCacheDir
	switch {
	case resultDir == "off":
		resultDir = ""
	case resultDir == "" && dir != "" && dir != "off":
		resultDir = filepath.Join(filepath.Dir(dir), "results")
	}
	r.results = newResultCache(resultDir)
	if !opts.NoStandby {
		r.standbys = newStandbys(&r.live, func(name string, err error) {
			r.log.Warn("could not start a standby instance; requests start their own", "module", name, "err", err)
		})
	}
	if dir != "" && dir != "off" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			sweep(dir, compiledCacheBytes, time.Now(), isCompiledFile)
			if c, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
				r.cache, r.cacheAt = c, dir
			}
		}
		if r.cache == nil {
			r.log.Warn("compiled-module cache unavailable; every start compiles modules again", "dir", dir)
		}
	}
	return r, nil
}

// CacheDirs names the directories of the compiled-module cache and of the
// result cache; "" means that cache is off (results then live in memory).
func (r *Runner) CacheDirs() (compiled, results string) { return r.cacheAt, r.results.dir }

// resultNamespace keeps results stored by callers (LookupResult,
// StoreResult) apart from module runs' keys.
const resultNamespace = "rea-stored-result\x00"

// LookupResult returns a result a caller stored under key with StoreResult
// (in this process or, with a disk cache, an earlier one). It runs and
// loads nothing: a caller whose key commits to everything its result
// depends on answers from here without any module. The bytes are the
// caller's own encoding (not necessarily JSON), kept as they are: the
// caller checks what it needs of them; do not modify them.
func (r *Runner) LookupResult(key string) ([]byte, bool) {
	return r.results.getRaw(storedKey(key))
}

// StoreResult keeps result under key in the result cache, beside module
// runs' results (same bounds, same `rea cache clear`). result must not be
// modified afterwards.
func (r *Runner) StoreResult(key string, result []byte) {
	r.results.putRaw(storedKey(key), result)
}

func storedKey(key string) string {
	sum := sha256.Sum256([]byte(resultNamespace + key))
	return hex.EncodeToString(sum[:])
}

// ClearResults forgets every cached result, in memory and on disk.
func (r *Runner) ClearResults() error { return r.results.clear() }

// ClearCompiled empties the compiled-module cache directory. Modules this
// Runner already compiled stay compiled in memory; later processes compile
// them again.
func (r *Runner) ClearCompiled() error {
	if r.cacheAt == "" {
		return nil
	}
	return removeContents(r.cacheAt)
}

// Catalog returns the modules this Runner can run.
func (r *Runner) Catalog() *module.Catalog { return r.catalog }

// Close releases every runtime and compiled module. Compiles still in
// progress finish first, in the background; none starts afterwards.
func (r *Runner) Close(ctx context.Context) error {
	if r.standbys != nil {
		r.standbys.close()
	}
	// Runtimes unmap their instances' memory: wait for every guest to end
	// first (runs end by their own limits; standbys were told to exit).
	r.live.Wait()
	r.results.flush()
	closeAll := func(ctx context.Context) error {
		r.mu.Lock()
		runtimes := r.runtimes
		r.runtimes = map[uint32]*engine{}
		r.mu.Unlock()
		var errs []error
		for _, e := range runtimes {
			errs = append(errs, e.rt.Close(ctx))
		}
		if r.cache != nil {
			errs = append(errs, r.cache.Close(ctx))
		}
		return errors.Join(errs...)
	}
	r.compileMu.Lock()
	r.closing = true // from here on engine adds no runtime and no compile starts
	busy := r.compiling > 0
	if busy {
		r.closeRest = func() { _ = closeAll(context.Background()) }
	}
	r.compileMu.Unlock()
	if busy {
		return nil
	}
	return closeAll(ctx)
}

// errShuttingDown refuses compiles once Close was called.
var errShuttingDown = errors.New("the sandbox is shutting down")

// beginCompile counts a compile in progress; false once Close was called.
func (r *Runner) beginCompile() bool {
	r.compileMu.Lock()
	defer r.compileMu.Unlock()
	if r.closing {
		return false
	}
	r.compiling++
	return true
}

// endCompile ends a compile; the last one after Close closes what Close
// left open.
func (r *Runner) endCompile() {
	r.compileMu.Lock()
	r.compiling--
	var rest func()
	if r.compiling == 0 && r.closeRest != nil {
		rest, r.closeRest = r.closeRest, nil
	}
	r.compileMu.Unlock()
	if rest != nil {
		rest()
	}
}

func (r *Runner) engine(ctx context.Context, pages uint32) (*engine, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.compileMu.Lock()
	closing := r.closing
	r.compileMu.Unlock()
	if closing {
		return nil, abi.Errorf(abi.CodeCancelled, "%v", errShuttingDown)
	}
	if e, ok := r.runtimes[pages]; ok {
		return e, nil
	}
	cfg := wazero.NewRuntimeConfigCompiler().
		WithMemoryLimitPages(pages).
		WithMemoryCapacityFromMax(true).
		WithCloseOnContextDone(false) // fuel does this, 2.5–13x cheaper
	if r.cache != nil {
		cfg = cfg.WithCompilationCache(r.cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("sandbox: instantiate WASI: %w", err)
	}
	if err := InstantiateHostModule(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, err
	}
	e := &engine{rt: rt, log: r.log, compiled: map[string]*compileOnce{}}
	r.runtimes[pages] = e
	return e, nil
}

// Compile compiles the named module for the given limits (warming the disk
// cache) without running it, and reports whether it was compiled from
// scratch rather than found in a cache.
func (r *Runner) Compile(ctx context.Context, name string, limits Limits) (module.Identity, time.Duration, error) {
	mod, err := r.catalog.Get(name)
	if err != nil {
		return module.Identity{}, 0, err
	}
	eng, err := r.engine(ctx, limits.WithDefaults().pages())
	if err != nil {
		return mod.Identity, 0, err
	}
	start := time.Now()
	c, err := r.compile(ctx, eng, mod)
	if c != nil {
		c.unpin()
	}
	return mod.Identity, time.Since(start), err
}

// Done tells the Runner that the caller has finished with the named module
// for now. With Options.ReleaseWhenDone its compiled code is closed in
// every runtime (when no run is using it; otherwise when the last one
// ends), and a later run loads it again from the compile cache; otherwise
// Done does nothing and MaxRetainedBytes decides.
func (r *Runner) Done(name string) {
	if !r.releaseWhenDone {
		return
	}
	mod, err := r.catalog.Get(name)
	if err != nil {
		return
	}
	r.mu.Lock()
	engines := make([]*engine, 0, len(r.runtimes))
	for _, e := range r.runtimes {
		engines = append(engines, e)
	}
	r.mu.Unlock()
	for _, e := range engines {
		e.mu.Lock()
		c, ok := e.compiled[mod.SHA256]
		if ok {
			delete(e.compiled, mod.SHA256)
			c.evict()
		}
		e.mu.Unlock()
		if ok {
			r.log.Debug("module released", "module", name)
		}
	}
	if r.standbys != nil {
		r.standbys.forget(mod)
	}
}

// retain closes the least recently used compiled modules no run is using
// until the rest fit MaxRetainedBytes (keep is never closed).
func (r *Runner) retain(keep *compileOnce) {
	if r.maxRetained <= 0 {
		return
	}
	r.mu.Lock()
	engines := make([]*engine, 0, len(r.runtimes))
	for _, e := range r.runtimes {
		engines = append(engines, e)
	}
	r.mu.Unlock()
	for {
		var total int64
		var victim *compileOnce
		var victimEng *engine
		var victimKey string
		for _, e := range engines {
			e.mu.Lock()
			for k, c := range e.compiled {
				total += c.size
				if c != keep && !c.inUse() && (victim == nil || c.used.Load() < victim.used.Load()) {
					victim, victimEng, victimKey = c, e, k
				}
			}
			e.mu.Unlock()
		}
		if total <= r.maxRetained || victim == nil {
			return
		}
		victimEng.mu.Lock()
		if victimEng.compiled[victimKey] == victim && !victim.inUse() {
			delete(victimEng.compiled, victimKey)
			victim.evict()
			r.log.Debug("compiled module closed to stay within the retained bound", "bytes", victim.size, "bound", r.maxRetained)
		}
		victimEng.mu.Unlock()
	}
}

// StartStandby compiles the named module and starts a standby instance of
// it for calls without mounts under limits, so even the first such call is
// served without start-up cost. A long-lived server calls it for modules it
// expects to serve small requests from (guidance); it does nothing with
// Options.NoStandby.
func (r *Runner) StartStandby(ctx context.Context, name string, limits Limits) error {
	if r.standbys == nil {
		return nil
	}
	limits = limits.WithDefaults()
	mod, err := r.catalog.Get(name)
	if err != nil {
		return err
	}
	eng, c, err := r.compiledFor(ctx, mod, limits)
	if err != nil {
		return err
	}
	defer c.unpin()
	r.standbys.expect(mod, limits)
	r.standbys.replenish(eng, c, mod, limits)
	return nil
}

// compiledFor returns the runtime for limits' memory limit and mod compiled
// in it, pinned: the caller unpins it when it no longer instantiates it.
func (r *Runner) compiledFor(ctx context.Context, mod *module.Module, limits Limits) (*engine, *compileOnce, error) {
	eng, err := r.engine(ctx, limits.pages())
	if err != nil {
		return nil, nil, err
	}
	c, err := r.compile(ctx, eng, mod)
	if err != nil {
		c.unpin()
		return nil, nil, err
	}
	return eng, c, nil
}

// compile returns mod compiled in eng, pinned (also with an error: the
// caller unpins whatever it got).
func (r *Runner) compile(ctx context.Context, eng *engine, mod *module.Module) (*compileOnce, error) {
	eng.mu.Lock()
	c, ok := eng.compiled[mod.SHA256]
	if !ok {
		c = &compileOnce{size: mod.Size}
		eng.compiled[mod.SHA256] = c
	}
	c.pin()
	c.used.Store(r.useTick.Add(1))
	eng.mu.Unlock()
	c.once.Do(func() {
		if !r.beginCompile() {
			c.err = errShuttingDown
			return
		}
		defer r.endCompile()
		marker := ""
		if r.cacheAt != "" {
			marker = filepath.Join(r.cacheAt, "rea-seen-"+mod.SHA256)
			if _, err := os.Stat(marker); err != nil {
				r.log.Info("compiling module for the first time; later runs load it from the cache",
					"module", mod.Name, "size_bytes", mod.Size, "cache", r.cacheAt)
			}
		}
		start := time.Now()
		// An embedded module's bytes are the executable's read-only data,
		// handed over in place; a module file's are read for this compile.
		// The patched wazero keeps function bodies as views of them
		// (third_party/wazero/REA_PATCHES.md) and never writes them.
		wasm, err := mod.Read()
		if err != nil {
			c.err = err
			return
		}
		c.mod, c.err = eng.rt.CompileModule(ctx, wasm)
		if c.err != nil && r.cacheAt != "" && corruptCacheEntry(c.err) {
			// A truncated or damaged entry (a crash mid-write, a full
			// disk) must not fail every later run until `rea cache
			// clear`: wazero names no entry, so discard the compiled
			// cache and compile again.
			r.log.Warn("the compiled-module cache holds a damaged entry; discarding the cache and compiling again",
				"module", mod.Name, "cache", r.cacheAt, "error", c.err)
			if err := removeFiles(r.cacheAt); err != nil {
				r.log.Warn("could not empty the compiled-module cache", "cache", r.cacheAt, "error", err)
			}
			c.mod, c.err = eng.rt.CompileModule(ctx, wasm)
		}
		if c.err == nil && marker != "" {
			_ = os.WriteFile(marker, nil, 0o644)
		}
		// Compiled (or loaded from the cache): the embedded bytes are not
		// read again but for the data segments an instance copies.
		releaseModuleData(mod)
		r.log.Debug("module compiled", "module", mod.Name, "elapsed", time.Since(start))
		if c.err == nil {
			r.retain(c)
		}
		if r.releaseWhenDone {
			// A load reads and decodes megabytes (the module's bytes,
			// wazero's buffers) that are garbage once it is done; a
			// one-shot run returns them now rather than keep them
			// resident beside the analysis.
			go debug.FreeOSMemory()
		}
	})
	var unavailable *abi.Error
	if errors.As(c.err, &unavailable) && unavailable.Code == abi.CodeModuleUnavailable {
		return c, c.err
	}
	if errors.Is(c.err, errShuttingDown) {
		return c, abi.Errorf(abi.CodeCancelled, "module %q was not loaded: %v", mod.Name, c.err).WithDetail("module", mod.Name)
	}
	if c.err != nil {
		return c, abi.Errorf(abi.CodeModuleUnavailable, "module %q does not compile: %v; rebuild it with `make modules`", mod.Name, c.err).
			WithDetail("module", mod.Name)
	}
	return c, nil
}

// removeFiles removes every file under dir and keeps its directories:
// wazero creates its cache directory once, when the cache is opened, and
// writes new entries into it.
func removeFiles(dir string) error {
	var errs []error
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			errs = append(errs, os.Remove(p))
		}
		return nil
	})
	return errors.Join(errs...)
}

// corruptCacheEntry reports whether a compile error came from reading the
// compiled-module cache (wazero prefixes those "compilationcache:") rather
// than from the module itself.
func corruptCacheEntry(err error) bool {
	return strings.Contains(err.Error(), "compilationcache")
}

// Run executes one call in a fresh instance. A domain error written by the
// module, a limit hit, a cancellation or a crash all come back as *abi.Error;
// the Runner stays usable after each.
func (r *Runner) Run(ctx context.Context, call Call) (*Outcome, error) {
	limits := call.Limits.WithDefaults()
	if limits.MemoryBytes < 16<<20 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "memory limit %s is below the 16MiB minimum a Go module needs; raise --memory-limit", FormatBytes(limits.MemoryBytes)).
			WithDetail("flag", "--memory-limit")
	}
	params, err := json.Marshal(call.Params)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "request params do not encode as JSON: %v", err)
	}
	if call.Params == nil {
		params = []byte("{}")
	}
	envelope, _ := json.Marshal(abi.Request{ABI: abi.Version, Operation: call.Operation, Params: params})

	mod, err := r.catalog.Get(call.Module)
	if err != nil {
		return nil, err
	}
	var norm *normaliser
	if norm, err = r.newNormaliser(call.Normaliser, limits); err != nil {
		return nil, err
	}
	var key string
	if call.CacheKey != "" {
		id := mod.Identity
		if norm != nil {
			id.SHA256 += "+" + norm.mod.SHA256
		}
		key = cacheKey(id, call, limits, params)
		if v, ok := r.results.get(key); ok {
			return &Outcome{Result: v.Result, Usage: v.Usage, Module: mod.Identity, Limits: limits, Cached: true}, nil
		}
	}
	eng, compiled, err := r.compiledFor(ctx, mod, limits)
	if err != nil {
		return nil, err
	}
	defer compiled.unpin()

	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, cancelledError(ctx)
	}
	defer func() { <-r.slots }()
	if call.StartNormaliser {
		if call.SecondNormaliser {
			norm.addSecondLane()
		}
		norm.prestart()
	}

	out, err := r.runInstance(ctx, eng, compiled, mod, call, limits, envelope, norm)
	if err == nil && key != "" {
		r.results.put(key, cachedOutcome{Result: out.Result, Usage: out.Usage})
	}
	return out, err
}

// stopReason records why the host zeroed the fuel counter.
type stopReason int

const (
	stopNone stopReason = iota
	stopCancelled
	stopDeadline
	stopOutput
)

func (r *Runner) runInstance(ctx context.Context, eng *engine, compiled *compileOnce, mod *module.Module, call Call, limits Limits, envelope []byte, norm *normaliser) (*Outcome, error) {
	var in *instance
	if len(call.Mounts) == 0 && r.standbys != nil && norm == nil {
		var replenish bool
		if in, replenish = r.standbys.take(mod, limits); replenish {
			defer r.standbys.replenish(eng, compiled, mod, limits)
		}
	}
	if in == nil {
		var err error
		if in, err = startInstance(eng, compiled.mod, mod, call.Mounts, limits, &r.live, norm); err != nil {
			// A prestarted normaliser is running: end it with the request.
			norm.abandon()
			return nil, err
		}
	}
	return in.serve(ctx, call, limits, envelope)
}

// response reads the outcome of a guest that ran to its end: its exit
// status, then the response envelope on stdout.
func (in *instance) response(out *Outcome, left uint64, limits Limits) error {
	mod, stderr, callErr := in.mod, in.stderr, in.callErr
	exitCode := uint32(0)
	if callErr != nil {
		var exit *sys.ExitError
		if !errors.As(callErr, &exit) {
			return classifyTrap(mod.Name, callErr, left, limits, stderr)
		}
		exitCode = exit.ExitCode()
	}
	switch exitCode {
	case abi.ExitOK:
	case abi.ExitRuntimeAbort:
		if stderr.mentions("out of memory") {
			return resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
				"module %q ran out of memory under the %s limit; raise --memory-limit or narrow the request",
				mod.Name, FormatBytes(limits.MemoryBytes)))
		}
		if stderr.mentions("stack exceeds") {
			return resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
				"module %q exhausted its stack (deep recursion on this input)", mod.Name)).WithDetail("stack", true)
		}
		if used := in.memoryUsed(); nearLimit(used, limits.MemoryBytes) {
			// The Go runtime under memory pressure does not always say
			// "out of memory": near its limit it has aborted with
			// scheduler or allocator faults ("fatal error: steal with
			// local work available"). With the memory at the limit, that
			// is the limit.
			return resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
				"module %q aborted with its memory at %s of the %s limit (%s); raise --memory-limit or narrow the request",
				mod.Name, FormatBytes(used), FormatBytes(limits.MemoryBytes), stderr.abortReason()))
		}
		return moduleFailed(mod.Name, "crashed ("+stderr.abortReason()+")", stderr)
	case abi.ExitBadRequest:
		return abi.Errorf(abi.CodeInvalidRequest, "module %q rejected the request envelope: %s", mod.Name, withoutStackTraces(stderr.excerpt())).
			WithDetail("module", mod.Name)
	default:
		return moduleFailed(mod.Name, fmt.Sprintf("exited with status %d", exitCode), stderr)
	}

	var resp abi.Response
	if err := json.Unmarshal(in.stdout.buf.Bytes(), &resp); err != nil {
		return moduleFailed(mod.Name, fmt.Sprintf("wrote an unreadable response (%v)", err), stderr)
	}
	if !resp.OK {
		if resp.Error == nil {
			return moduleFailed(mod.Name, "reported failure without an error", stderr)
		}
		return resp.Error
	}
	out.Result = resp.Result
	return nil
}

func classifyTrap(name string, err error, left uint64, limits Limits, stderr *progressWriter) error {
	msg := err.Error()
	switch {
	case left == 0 || int64(left) <= 0:
		return resourceError("fuel", limits.Fuel, fmt.Sprintf(
			"module %q used all %d fuel units; raise --fuel or narrow the request", name, limits.Fuel))
	case strings.Contains(msg, "stack overflow"):
		return resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
			"module %q exhausted its call stack (deep recursion on this input)", name)).WithDetail("stack", true)
	case strings.Contains(msg, "out of bounds memory") || strings.Contains(msg, "memory"):
		return resourceError("memory", limits.MemoryBytes, fmt.Sprintf(
			"module %q hit the %s memory limit (%v); raise --memory-limit", name, FormatBytes(limits.MemoryBytes), msg))
	}
	return moduleFailed(name, "trapped: "+msg, stderr)
}

func moduleFailed(name, what string, stderr *progressWriter) *abi.Error {
	return abi.Errorf(abi.CodeModuleFailed, "module %q %s; this is a bug in the module or an input it cannot handle — report it with the stderr excerpt", name, what).
		WithDetail("module", name).
		WithDetail("stderr_excerpt", withoutStackTraces(stderr.excerpt()))
}

// nearLimit reports whether a guest's memory grew to within a quarter of
// its limit. Linear memory never shrinks, so this is the peak; the Go
// runtime needs headroom to collect (its heap target is twice the live
// data), so a runtime that aborts past three quarters of its limit is
// treated as having hit it.
func nearLimit(used, limit uint64) bool {
	return limit > 0 && used >= limit/4*3
}

func cancelledError(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return resourceError("deadline", "context", "the request deadline passed before a sandbox slot was free")
	}
	return abi.Errorf(abi.CodeCancelled, "cancelled before the module started")
}
