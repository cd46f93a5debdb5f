package sandbox_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"rea/abi"
	"rea/host/sandbox"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

const probePkg = "./host/sandbox/testdata/guests/probe"

// newRunner returns a Runner over a catalog holding the probe guest, loaded
// unmetered from a module dir so that load-time metering is exercised too.
func newRunner(t *testing.T, opts ...sandbox.Options) *sandbox.Runner {
	t.Helper()
	cat := probeCatalog(t)
	var o sandbox.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	o.Catalog, o.CacheDir = cat, filepath.Join(os.TempDir(), "rea-test-wazero-cache")
	r, err := sandbox.NewRunner(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	return r
}

// probeCatalog is a catalog holding the probe guest, unmetered on disk so
// that loading meters it.
func probeCatalog(t *testing.T) *module.Catalog {
	t.Helper()
	raw, err := os.ReadFile(wasmtest.BuildGuest(t, probePkg, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "probe.wasm"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := module.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func smallLimits() sandbox.Limits {
	return sandbox.Limits{MemoryBytes: 64 << 20, Fuel: 5_000_000_000, Deadline: 20 * time.Second, OutputBytes: 1 << 20}
}

func run(t *testing.T, r *sandbox.Runner, op string, params any, limits sandbox.Limits, mounts ...sandbox.Mount) (*sandbox.Outcome, *abi.Error) {
	t.Helper()
	out, err := r.Run(context.Background(), sandbox.Call{Module: "probe", Operation: op, Params: params, Limits: limits, Mounts: mounts})
	if err == nil {
		return out, nil
	}
	var typed *abi.Error
	if !errors.As(err, &typed) {
		t.Fatalf("%s: error is not typed: %T %v", op, err, err)
	}
	return nil, typed
}

func wantResource(t *testing.T, err *abi.Error, resource string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want resource_constraint/%s, got success", resource)
	}
	if err.Code != abi.CodeResourceConstraint || err.Details["resource"] != resource {
		t.Fatalf("want resource_constraint/%s, got %s %v: %s", resource, err.Code, err.Details, err.Message)
	}
	if _, ok := err.Details["limit"]; !ok {
		t.Fatalf("resource_constraint must name the limit that was hit: %v", err.Details)
	}
}

// assertStillServing proves the host keeps serving after a failed run.
func assertStillServing(t *testing.T, r *sandbox.Runner) {
	t.Helper()
	out, err := run(t, r, "echo", map[string]string{"still": "serving"}, smallLimits())
	if err != nil {
		t.Fatalf("host stopped serving after a failed run: %v", err)
	}
	if string(out.Result) != `{"still":"serving"}` {
		t.Fatalf("echo after failure = %s", out.Result)
	}
}

func TestSameRequestTwiceGivesSameBytesAndSameFuel(t *testing.T) {
	r := newRunner(t)
	params := map[string]any{"n": 3}
	a, err := run(t, r, "hash", params, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(t, r, "hash", params, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Result) != string(b.Result) {
		t.Fatalf("results differ: %s vs %s", a.Result, b.Result)
	}
	if a.Usage.FuelUsed == 0 || a.Usage.FuelUsed != b.Usage.FuelUsed {
		t.Fatalf("fuel differs or is zero: %d vs %d", a.Usage.FuelUsed, b.Usage.FuelUsed)
	}
	if a.Usage.PeakMemoryBytes == 0 || a.Module.SHA256 == "" || !a.Module.MeteredAtLoad {
		t.Fatalf("usage/identity incomplete: %+v %+v", a.Usage, a.Module)
	}
}

func TestSpinForeverStopsOnFuel(t *testing.T) {
	r := newRunner(t)
	l := smallLimits()
	l.Fuel = 50_000_000
	_, err := run(t, r, "spin", nil, l)
	wantResource(t, err, "fuel")
	assertStillServing(t, r)
}

func TestAllocateForeverStopsOnMemoryAndHostRSSStaysBounded(t *testing.T) {
	r := newRunner(t)
	// The first run pays for compilation and sizes the heap; after it, more
	// runs that each fill their 64 MiB must leave the host's RSS flat.
	_, err := run(t, r, "alloc", nil, smallLimits())
	wantResource(t, err, "memory")
	before := rssBytes(t)
	for i := 0; i < 6; i++ {
		_, err := run(t, r, "alloc", nil, smallLimits())
		wantResource(t, err, "memory")
	}
	after := rssBytes(t)
	if after > before+2*64<<20 {
		t.Fatalf("host RSS grew from %d MiB to %d MiB over six 64 MiB runs", before>>20, after>>20)
	}
	assertStillServing(t, r)
}

func TestDeepRecursionIsStopped(t *testing.T) {
	r := newRunner(t)
	_, err := run(t, r, "recurse", nil, smallLimits())
	if err == nil || err.Code != abi.CodeResourceConstraint {
		t.Fatalf("deep recursion: want resource_constraint, got %v", err)
	}
	assertStillServing(t, r)
}

func TestPanicIsModuleFailedWithStderrExcerpt(t *testing.T) {
	r := newRunner(t)
	_, err := run(t, r, "panic", nil, smallLimits())
	if err == nil || err.Code != abi.CodeModuleFailed {
		t.Fatalf("want module_failed, got %v", err)
	}
	ex, _ := err.Details["stderr_excerpt"].(string)
	if !strings.Contains(ex, "deliberate panic") || len(ex) > 9<<10 {
		t.Fatalf("stderr excerpt missing or unbounded (%d bytes): %q", len(ex), ex)
	}
	if strings.Contains(ex, "goroutine ") || strings.Contains(ex, ".go:") {
		t.Fatalf("a Go stack trace reached the error: %q", ex)
	}
	assertStillServing(t, r)
}

func TestAbortWithMemoryAtTheLimitIsAMemoryLimit(t *testing.T) {
	r := newRunner(t)
	lim := smallLimits()
	mib := int(lim.WithDefaults().MemoryBytes>>20) * 3 / 4
	_, err := run(t, r, "fill-then-panic", map[string]int{"mib": mib}, lim)
	wantResource(t, err, "memory")
	t.Log(err.Message)
	if strings.Contains(err.Message, "goroutine ") {
		t.Fatalf("a Go stack trace reached the error: %q", err.Message)
	}
	// Far below the limit the same abort is a module failure, not a limit.
	_, err = run(t, r, "fill-then-panic", map[string]int{"mib": 1}, lim)
	if err == nil || err.Code != abi.CodeModuleFailed {
		t.Fatalf("want module_failed, got %v", err)
	}
	assertStillServing(t, r)
}

func TestGigabyteToStdoutStopsOnOutput(t *testing.T) {
	r := newRunner(t)
	start := time.Now()
	_, err := run(t, r, "flood", nil, smallLimits())
	wantResource(t, err, "output")
	t.Logf("the output overflow stopped the run in %s", time.Since(start)) // logged, not asserted
	assertStillServing(t, r)
}

func TestReadsOutsideTheMountFail(t *testing.T) {
	r := newRunner(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../../../../etc/hostname", filepath.Join(dir, "relative-link")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	mount := sandbox.Mount{GuestPath: "/in", FS: root.FS()}

	out, aerr := run(t, r, "read", map[string]string{"path": "/in/inside.txt"}, smallLimits(), mount)
	if aerr != nil || !strings.Contains(string(out.Result), `"inside"`) {
		t.Fatalf("reading inside the mount failed: %v %s", aerr, resultOf(out))
	}
	for _, p := range []string{"/etc/passwd", "/in/passwd-link", "/in/relative-link", "/in/../etc/passwd", "/in/../../etc/passwd"} {
		out, aerr := run(t, r, "read", map[string]string{"path": p}, smallLimits(), mount)
		if aerr == nil {
			t.Fatalf("guest read %s outside its mount: %s", p, out.Result)
		}
		if aerr.Code != abi.CodeUnavailable {
			t.Fatalf("%s: want the guest's own not-found error, got %v", p, aerr)
		}
	}
}

func TestGuestSeesNoHostEnvironmentArgumentsOrClock(t *testing.T) {
	t.Setenv("REA_SECRET_PROBE", "must-not-leak")
	r := newRunner(t)
	out, err := run(t, r, "env", nil, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Args     []string `json:"args"`
		Environ  []string `json:"environ"`
		UnixTime int64    `json:"unix_time"`
	}
	if err := json.Unmarshal(out.Result, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Args) > 0 || len(got.Environ) > 0 {
		t.Fatalf("guest sees host args %q or environment %q", got.Args, got.Environ)
	}
	if diff := time.Now().Unix() - got.UnixTime; diff < 3600 && diff > -3600 {
		t.Fatalf("guest clock %d is the real clock", got.UnixTime)
	}
}

func TestCancelMidRunStopsTheRun(t *testing.T) {
	r := newRunner(t)
	if _, _, err := r.Compile(context.Background(), "probe", smallLimits()); err != nil {
		t.Fatal(err)
	}
	// The spin has fuel for ever and the default deadline: only the cancel
	// ends it early. How long that takes is logged, not asserted (shared machines
	// stall); a cancel that does not stop the run at all fails.
	ctx, cancel := context.WithCancel(context.Background())
	l := smallLimits()
	l.Fuel = 1 << 60
	l.Deadline = 0
	var cancelledAt time.Time
	time.AfterFunc(300*time.Millisecond, func() { cancelledAt = time.Now(); cancel() })
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(ctx, sandbox.Call{Module: "probe", Operation: "spin", Limits: l})
		done <- err
	}()
	select {
	case err := <-done:
		var typed *abi.Error
		if !errors.As(err, &typed) || typed.Code != abi.CodeCancelled {
			t.Fatalf("want cancelled, got %v", err)
		}
		t.Logf("the run returned %v after the cancel", time.Since(cancelledAt))
		assertStillServing(t, r)
	case <-time.After(2 * time.Minute):
		t.Fatal("the cancel did not stop a spinning module")
	}
}

func TestDeadlineIsAResourceConstraint(t *testing.T) {
	r := newRunner(t)
	l := smallLimits()
	l.Fuel = 1 << 60
	l.Deadline = 200 * time.Millisecond
	_, err := run(t, r, "spin", nil, l)
	wantResource(t, err, "deadline")
}

func TestEightConcurrentRunsCompleteCorrectly(t *testing.T) {
	r := newRunner(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out, err := r.Run(context.Background(), sandbox.Call{Module: "probe", Operation: "echo", Params: map[string]int{"i": i}, Limits: smallLimits()})
			if err != nil {
				errs <- err
				return
			}
			if want := `{"i":` + strconv.Itoa(i) + `}`; string(out.Result) != want {
				errs <- errors.New("run " + strconv.Itoa(i) + " got " + string(out.Result))
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestProgressLinesArriveWhileTheModuleRuns(t *testing.T) {
	r := newRunner(t)
	if _, _, err := r.Compile(context.Background(), "probe", smallLimits()); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []abi.Progress
	var firstAt time.Time
	start := time.Now()
	out, err := r.Run(context.Background(), sandbox.Call{Module: "probe", Operation: "progress", Params: map[string]int{"n": 5}, Limits: smallLimits(),
		Progress: func(p abi.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if firstAt.IsZero() {
				firstAt = time.Now()
			}
			seen = append(seen, p)
		}})
	end := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 5 {
		t.Fatalf("got %d progress lines, want 5: %+v (%s)", len(seen), seen, out.Result)
	}
	for i, p := range seen {
		if p.Done != int64(i+1) || p.Total != 5 || p.Phase != "count" {
			t.Fatalf("progress %d = %+v", i, p)
		}
	}
	// Delivered as they arrive: the first line comes well before the end.
	if firstAt.Sub(start) > end.Sub(start)*3/4 {
		t.Fatalf("first progress at %s of a %s run: not delivered live", firstAt.Sub(start), end.Sub(start))
	}
}

func TestUnknownModuleListsAvailableModules(t *testing.T) {
	r := newRunner(t)
	_, err := r.Run(context.Background(), sandbox.Call{Module: "nope", Operation: "x"})
	var typed *abi.Error
	if !errors.As(err, &typed) || typed.Code != abi.CodeModuleUnavailable {
		t.Fatalf("want module_unavailable, got %v", err)
	}
	if !strings.Contains(typed.Message, "probe") || !strings.Contains(typed.Message, "make modules") {
		t.Fatalf("message must list modules and say how to build: %s", typed.Message)
	}
}

func TestCompiledModulesLandInTheDiskCache(t *testing.T) {
	dir := t.TempDir()
	cat := probeCatalog(t)
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Compile(context.Background(), "probe", smallLimits()); err != nil {
		t.Fatal(err)
	}
	_ = r.Close(context.Background())
	var files int
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Size() > 1024 {
			files++
		}
		return nil
	})
	if files == 0 {
		t.Fatalf("no compiled module was written to the cache dir %s", dir)
	}
}

func TestMemoryLimitBelowGoMinimumIsInvalidRequest(t *testing.T) {
	r := newRunner(t)
	_, err := run(t, r, "echo", nil, sandbox.Limits{MemoryBytes: 1 << 20})
	if err == nil || err.Code != abi.CodeInvalidRequest || err.Details["flag"] != "--memory-limit" {
		t.Fatalf("want invalid_request naming --memory-limit, got %v", err)
	}
}

func resultOf(o *sandbox.Outcome) string {
	if o == nil {
		return ""
	}
	return string(o.Result)
}

func rssBytes(t *testing.T) uint64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if strings.HasPrefix(s.Text(), "VmRSS:") {
			fields := strings.Fields(s.Text())
			kb, _ := strconv.ParseUint(fields[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

func TestContentAddressedResultCacheServesRepeatsButNeverFailures(t *testing.T) {
	r := newRunner(t)
	// The result cache persists on disk beside the compile cache: keys
	// unique to this run keep earlier runs from answering.
	nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
	call := sandbox.Call{Module: "probe", Operation: "hash", Params: map[string]int{"n": 2}, Limits: smallLimits(), CacheKey: "content-1-" + nonce}
	first, err := r.Run(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Run(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || !second.Cached || string(first.Result) != string(second.Result) || first.Usage.FuelUsed != second.Usage.FuelUsed {
		t.Fatalf("repeat not served from cache: first cached=%v second cached=%v", first.Cached, second.Cached)
	}
	// Other content is another key.
	call.CacheKey = "content-2-" + nonce
	if third, err := r.Run(context.Background(), call); err != nil || third.Cached {
		t.Fatalf("different content served from cache: %v", err)
	}
	// No key, no cache.
	call.CacheKey = ""
	if fourth, err := r.Run(context.Background(), call); err != nil || fourth.Cached {
		t.Fatalf("uncached call served from cache: %v", err)
	}
	// Failures are never cached.
	spin := sandbox.Call{Module: "probe", Operation: "spin", Limits: sandbox.Limits{MemoryBytes: 64 << 20, Fuel: 10_000_000}, CacheKey: "spin-" + nonce}
	for i := 0; i < 2; i++ {
		if _, err := r.Run(context.Background(), spin); err == nil {
			t.Fatal("a failed run was served as a success")
		}
	}
}

// An instance started ahead of its request (a standby) answers exactly as an
// instance started at request time: same bytes, same fuel — the start-up's
// fuel is charged to the request either way — and limits set by the request
// (output) still hold on it.
func TestStandbyInstanceAnswersExactlyAsAFreshStart(t *testing.T) {
	fresh := newRunner(t, sandbox.Options{NoStandby: true})
	warm := newRunner(t)
	params := map[string]any{"n": 2}
	want, err := run(t, fresh, "hash", params, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 { // the first starts fresh, the rest are standbys
		got, err := run(t, warm, "hash", params, smallLimits())
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Result) != string(want.Result) || got.Usage.FuelUsed != want.Usage.FuelUsed {
			t.Fatalf("run %d: %s fuel %d, fresh start gave %s fuel %d", i, got.Result, got.Usage.FuelUsed, want.Result, want.Usage.FuelUsed)
		}
	}
	l := smallLimits()
	l.OutputBytes = 1 << 10
	_, err = run(t, warm, "flood", nil, l)
	wantResource(t, err, "output")
	// A fuel budget smaller than the Go runtime's start-up is exhausted on
	// a standby as on a fresh start.
	l = smallLimits()
	l.Fuel = 1000
	_, err = run(t, warm, "echo", map[string]int{"x": 1}, l)
	wantResource(t, err, "fuel")
	assertStillServing(t, warm)
}

// TestHostSHA256AnswersAsTheGuestWouldAndChargesFuel covers the one host
// function besides WASI: the same digest as Go's sha256 inside the guest, a
// refusal (status 1, nothing written) for memory the guest does not have,
// and fuel charged per block hashed, so a budget that covers the guest's
// own work but not the hashing it asks for runs out.
func TestHostSHA256AnswersAsTheGuestWouldAndChargesFuel(t *testing.T) {
	r := newRunner(t)
	type answer struct {
		Status      uint32
		Host, Guest string
		Sum         string
	}
	call := func(params map[string]any, l sandbox.Limits) (answer, *sandbox.Outcome, *abi.Error) {
		t.Helper()
		out, err := run(t, r, "host-sha256", params, l)
		var a answer
		if err == nil {
			if jerr := json.Unmarshal(out.Result, &a); jerr != nil {
				t.Fatal(jerr)
			}
		}
		return a, out, err
	}
	const mib = 1 << 20
	_, none, err := call(map[string]any{"bytes": mib, "repeat": 0}, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	b, hundred, err := call(map[string]any{"bytes": mib, "repeat": 100}, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != 0 || b.Host != b.Guest || b.Host == "" {
		t.Fatalf("host sha256 %q (status %d), guest sha256 %q", b.Host, b.Status, b.Guest)
	}
	perCall := uint64(mib/64 + 1)
	if extra := hundred.Usage.FuelUsed - none.Usage.FuelUsed; extra < 100*perCall || extra > 100*perCall+100_000 {
		t.Fatalf("100 host hashes of 1 MiB cost %d fuel; want %d plus the loop", extra, 100*perCall)
	}

	w, _, err := call(map[string]any{"wild": true}, smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	if w.Status != 1 || w.Sum != strings.Repeat("0", 64) {
		t.Fatalf("hash outside memory: status %d, sum %s; want 1 and nothing written", w.Status, w.Sum)
	}
	l := smallLimits()
	l.Fuel = none.Usage.FuelUsed + 50*perCall
	_, _, err = call(map[string]any{"bytes": mib, "repeat": 100}, l)
	wantResource(t, err, "fuel")
	assertStillServing(t, r)
}

// A caller may load a module ahead of need and finish without it (the
// application analysis loads jsapp while its inventory runs, then may be
// served from the result cache): Close must not pull wazero's runtime from
// under that compile, which panicked in wazero's store.
func TestCloseWhileAModuleCompilesLetsTheCompileFinish(t *testing.T) {
	cat := probeCatalog(t)
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: "off"}) // a cold compile: seconds
	if err != nil {
		t.Fatal(err)
	}
	// The first compile also meters the module; the second, for another
	// memory limit (another wazero runtime), only compiles.
	_, took, err := r.Compile(context.Background(), "probe", smallLimits())
	if err != nil {
		t.Fatal(err)
	}
	other := smallLimits()
	other.MemoryBytes *= 2
	done := make(chan error, 1)
	started := time.Now()
	go func() {
		_, _, err := r.Compile(context.Background(), "probe", other)
		done <- err
	}()
	time.Sleep(took / 4) // well inside the compile
	if err := r.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	closed := time.Since(started)
	err = <-done
	compiled := time.Since(started)
	var ae *abi.Error
	if err != nil && !(errors.As(err, &ae) && ae.Code == abi.CodeCancelled) {
		t.Fatalf("the compile in progress ended with %v, want success or cancelled", err)
	}
	t.Logf("a compile takes %v; Close returned after %v, the compile ended after %v (err %v)", took, closed, compiled, err)
	if err != nil || compiled < closed {
		t.Fatalf("Close came before the compile started, which this test cannot then prove anything about")
	}
	_, err = r.Run(context.Background(), sandbox.Call{Module: "probe", Operation: "echo", Params: map[string]any{}, Limits: smallLimits()})
	if !errors.As(err, &ae) || ae.Code != abi.CodeCancelled {
		t.Fatalf("a run after Close: %v, want cancelled", err)
	}
}
