package fuel_test

import (
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/api"

	"rea/wasm/fuel"
)

func TestInstrumentedGuestPrintsWhatUninstrumentedPrints(t *testing.T) {
	cases := []struct {
		guest string
		opts  runOpts
	}{
		{"echo", runOpts{args: []string{"a", "b c"}, stdin: "the quick brown fox jumps over the lazy dog The DOG"}},
		{"sha", runOpts{args: []string{"300000", "3"}}},
	}
	sb := newSandbox(t)
	for _, tc := range cases {
		t.Run(tc.guest, func(t *testing.T) {
			plain := sb.run(t, sb.compile(t, guest(t, tc.guest)), tc.opts)
			metered := sb.run(t, sb.compile(t, meteredGuest(t, tc.guest)), tc.opts)
			if plain.err != nil {
				t.Fatalf("uninstrumented run failed: %v\n%s", plain.err, plain.stderr)
			}
			if metered.err != nil {
				t.Fatalf("instrumented run failed: %v\n%s", metered.err, metered.stderr)
			}
			if plain.stdout == "" || metered.stdout != plain.stdout {
				t.Fatalf("stdout differs:\nuninstrumented %q\ninstrumented   %q", plain.stdout, metered.stdout)
			}
			if metered.stderr != plain.stderr {
				t.Fatalf("stderr differs:\nuninstrumented %q\ninstrumented   %q", plain.stderr, metered.stderr)
			}
		})
	}
}

func TestInstrumentedModuleRunsStandaloneWithInitialFuel(t *testing.T) {
	sb := newSandbox(t)
	res := sb.run(t, sb.compile(t, meteredGuest(t, "sha")), runOpts{args: []string{"1000", "1"}})
	if res.err != nil {
		t.Fatalf("run without setting a budget: %v", res.err)
	}
	if res.left >= math.MaxInt64 || res.left < math.MaxInt64-100_000_000 {
		t.Fatalf("fuel left %d; want a little below MaxInt64 (%d)", res.left, int64(math.MaxInt64))
	}
}

func TestSpinningGuestTrapsWhenFuelRunsOut(t *testing.T) {
	sb := newSandbox(t)
	c := sb.compile(t, meteredGuest(t, "spin"))
	for _, budget := range []uint64{1_000_000, 50_000_000} {
		start := time.Now()
		res := sb.run(t, c, runOpts{budget: budget})
		if res.err == nil || !strings.Contains(res.err.Error(), "unreachable") {
			t.Fatalf("budget %d: want an unreachable trap, got %v", budget, res.err)
		}
		if res.left != 0 {
			t.Fatalf("budget %d: %d fuel left after the trap; want 0", budget, res.left)
		}
		if budget > 1_000_000 && res.stdout != "spinning\n" {
			t.Fatalf("budget %d: the guest never reached its loop (stdout %q)", budget, res.stdout)
		}
		t.Logf("budget %d exhausted in %v", budget, time.Since(start))
	}
}

func TestSameRunTwiceUsesSameFuel(t *testing.T) {
	sb := newSandbox(t)
	for _, tc := range []struct {
		guest string
		opts  runOpts
	}{
		{"sha", runOpts{args: []string{"200000", "2"}, budget: 1 << 40}},
		{"echo", runOpts{stdin: "b a b c", budget: 1 << 40}},
	} {
		c := sb.compile(t, meteredGuest(t, tc.guest))
		first := sb.run(t, c, tc.opts)
		second := sb.run(t, c, tc.opts)
		if first.err != nil || second.err != nil {
			t.Fatalf("%s: runs failed: %v / %v", tc.guest, first.err, second.err)
		}
		used1, used2 := tc.opts.budget-first.left, tc.opts.budget-second.left
		if used1 == 0 || used1 != used2 {
			t.Fatalf("%s: fuel used %d then %d; want the same non-zero count", tc.guest, used1, used2)
		}
		t.Logf("%s used %d fuel both times", tc.guest, used1)
	}
}

func TestFuelUsedGrowsWithWork(t *testing.T) {
	sb := newSandbox(t)
	c := sb.compile(t, meteredGuest(t, "sha"))
	used := func(size string) uint64 {
		res := sb.run(t, c, runOpts{args: []string{size, "1"}, budget: 1 << 40})
		if res.err != nil {
			t.Fatal(res.err)
		}
		return 1<<40 - res.left
	}
	small, big := used("100000"), used("1000000")
	// sha256 runs one loop iteration per 64-byte block: 900 kB more input is
	// at least 14,000 more iterations.
	if big < small+14_000 {
		t.Fatalf("fuel for 1 MB (%d) is not well above fuel for 100 kB (%d)", big, small)
	}
}

// TestExhaustStopsSpinningGuestUnderGCPressure cancels a guest spinning in a
// loop that never calls the host, while another goroutine forces a garbage
// collection every few milliseconds. Without the check's periodic yield the first
// stop-the-world would wait forever for the guest's goroutine, and the
// cancelling goroutine with it.
func TestExhaustStopsSpinningGuestUnderGCPressure(t *testing.T) {
	sb := newSandbox(t)
	c := sb.compile(t, meteredGuest(t, "spin"))
	for i := 0; i < 10; i++ {
		var requested, returnedAt time.Time
		returned := make(chan struct{})
		exhausted := make(chan struct{})
		gcDone := make(chan struct{})
		go func() {
			defer close(gcDone)
			for {
				select {
				case <-returned:
					return
				case <-time.After(3 * time.Millisecond):
					runtime.GC()
				}
			}
		}()
		res := sb.run(t, c, runOpts{
			started: func(g api.MutableGlobal) {
				go func() {
					defer close(exhausted)
					time.Sleep(100 * time.Millisecond) // let it spin
					requested = time.Now()
					fuel.Exhaust(g, returned)
				}()
			},
			afterCall: func() {
				returnedAt = time.Now()
				close(returned)
				<-exhausted
			},
		})
		<-gcDone
		took := returnedAt.Sub(requested)
		if res.err == nil || !strings.Contains(res.err.Error(), "unreachable") {
			t.Fatalf("want an unreachable trap after cancellation, got %v", res.err)
		}
		if res.left != 0 {
			t.Fatalf("%d fuel left after cancellation; want 0", res.left)
		}
		// Without the yield this never returns (the test times out); how
		// fast it returns is logged, not asserted, on a shared machine.
		t.Logf("stopped %v after cancellation", took)
	}
}

// TestSpinningGuestDoesNotStallTheHostGC measures how long a full garbage
// collection takes in the host while a metered guest spins without calling
// the host: the yield in the check keeps it short.
func TestSpinningGuestDoesNotStallTheHostGC(t *testing.T) {
	sb := newSandbox(t)
	c := sb.compile(t, meteredGuest(t, "spin"))
	done := make(chan outcome, 1)
	globals := make(chan api.MutableGlobal, 1)
	returned := make(chan struct{})
	exhausted := make(chan struct{})
	go func() {
		done <- sb.run(t, c, runOpts{
			started:   func(g api.MutableGlobal) { globals <- g },
			afterCall: func() { close(returned); <-exhausted },
		})
	}()
	g := <-globals
	time.Sleep(50 * time.Millisecond)
	var worst time.Duration
	for i := 0; i < 20; i++ {
		start := time.Now()
		runtime.GC()
		worst = max(worst, time.Since(start))
	}
	go func() {
		defer close(exhausted)
		fuel.Exhaust(g, returned)
	}()
	res := <-done
	if res.err == nil {
		t.Fatal("the spinning guest returned without being cancelled")
	}
	// Without the yield the first GC would never finish (the test would
	// hang until its timeout); with it a GC costs what it costs on a busy
	// 2-core machine, tens of milliseconds.
	// Without the yield a GC waits for the guest for ever; 30 s is a stall,
	// not a speed bound (the figure is logged below).
	if worst > 30*time.Second {
		t.Fatalf("a GC stalled %v while the guest spun", worst)
	}
	t.Logf("slowest of 20 GCs while the guest spun: %v", worst)
}

func TestInstrumentingTwiceIsRefused(t *testing.T) {
	plain := guest(t, "echo")
	if m, err := fuel.Metered(plain); err != nil || m {
		t.Fatalf("Metered(plain) = %v, %v; want false, nil", m, err)
	}
	metered := meteredGuest(t, "echo")
	if m, err := fuel.Metered(metered); err != nil || !m {
		t.Fatalf("Metered(instrumented) = %v, %v; want true, nil", m, err)
	}
	_, err := fuel.Instrument(metered)
	if !errors.Is(err, fuel.ErrAlreadyMetered) {
		t.Fatalf("second Instrument: %v; want ErrAlreadyMetered", err)
	}
}

func TestInstrumentIsDeterministic(t *testing.T) {
	plain := guest(t, "echo")
	a, err := fuel.Instrument(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fuel.Instrument(append([]byte(nil), plain...))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatal("instrumenting the same module twice gave different bytes")
	}
}

func TestTruncatedGuestIsRefusedNotPanicking(t *testing.T) {
	bin := guest(t, "echo")
	code := findSection(t, bin, 10)
	// Every cut inside the code section leaves a module whose code section
	// (or a body in it) runs past the end.
	step := (code.end - code.start) / 500
	for cut := code.start + 1; cut < code.end; cut += step {
		if _, err := fuel.Instrument(bin[:cut]); err == nil {
			t.Fatalf("module cut at %d (inside the code section %d..%d) was accepted", cut, code.start, code.end)
		}
	}
}

// TestBigGoModuleIsMetered instruments a guest that links esbuild and goja
// (the jsapp module's dependencies, ~14 MB of wasm), runs it under wazero's
// compiler, and compares its output with the same program built natively.
func TestBigGoModuleIsMetered(t *testing.T) {
	start := time.Now()
	metered := meteredGuest(t, "jsparse")
	t.Logf("instrumented %d bytes -> %d bytes in %v", len(guest(t, "jsparse")), len(metered), time.Since(start))

	native := filepath.Join(t.TempDir(), "jsparse")
	if msg, err := exec.Command("go", "build", "-o", native, "./testdata/guests/jsparse").CombinedOutput(); err != nil {
		t.Fatalf("native build: %v\n%s", err, msg)
	}
	want, err := exec.Command(native).Output()
	if err != nil {
		t.Fatalf("native run: %v", err)
	}
	if !strings.Contains(string(want), "goja parsed") {
		t.Fatalf("native output lacks the parse summary: %q", want)
	}

	sb := newSandbox(t)
	start = time.Now()
	c := sb.compile(t, metered)
	t.Logf("compiled in %v", time.Since(start))
	const budget = 1 << 50
	res := sb.run(t, c, runOpts{budget: budget})
	if res.err != nil {
		t.Fatalf("instrumented run: %v\n%s", res.err, res.stderr)
	}
	if res.stdout != string(want) {
		t.Fatalf("wasm output differs from native:\nwasm   %q\nnative %q", res.stdout, want)
	}
	t.Logf("used %d fuel", budget-res.left)

	// The same budget cut short traps instead of finishing.
	short := sb.run(t, c, runOpts{budget: (budget - res.left) / 2})
	if short.err == nil || short.left != 0 {
		t.Fatalf("half the fuel: err %v, left %d; want a trap with 0 left", short.err, short.left)
	}
}
