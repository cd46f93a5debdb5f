package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"rea/jsengine/normalise"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

// logSink is a log the normaliser's goroutines may write to.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logSink) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

// TestNormaliserRetiresAndStartsAgainWhenAskedOnceMore drives the real
// normaliser module the way a jsapp guest does (with the size bound for
// retiring lowered to these sources): two transforms announced
// and asked for, which retires the instance and releases its code (the
// CLI's ReleaseWhenDone), then one more asked for without an announcement,
// which starts a new instance. Every answer is esbuild's, and the fuel the
// request reports is the same in two runs and more than one instance's.
func TestNormaliserRetiresAndStartsAgainWhenAskedOnceMore(t *testing.T) {
	cat, err := module.Load(nil, wasmtest.ModuleDir(t, "normalise"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []normalise.Request{
		{Loader: "ts", Sourcefile: "a.ts", Source: "export const a: number = 1;\n"},
		{Loader: "ts", Sourcefile: "b.ts", Source: "import { a } from './a';\nexport const b = (x: string) => x + a;\n"},
		{Loader: "tsx", Sourcefile: "c.tsx", Source: "export const C = () => <div>{1 as number}</div>;\n"},
	}
	wants := []string{"const a = 1", "require(\"./a\")", "createElement"}
	run := func() (uint64, *logSink) {
		logs := &logSink{}
		r, err := NewRunner(Options{Catalog: cat, CacheDir: filepath.Join(t.TempDir(), "cache"), ResultCacheDir: "off",
			ReleaseWhenDone: true, NoStandby: true,
			Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		n, err := r.newNormaliser("normalise", Limits{}.WithDefaults())
		if err != nil {
			t.Fatal(err)
		}
		n.retireBytes = 0 // these sources are far below the bound
		closed := false
		defer func() {
			if !closed {
				_, _ = n.close() // a failed check must not leave the instance running
			}
		}()
		enc := make([][]byte, len(reqs))
		for i, q := range reqs {
			enc[i] = normalise.EncodeRequest(q)
		}
		for _, e := range enc[:2] {
			// The first announcement starts the service, as the guest's
			// first transform does.
			if err := n.admit(e); err != nil {
				t.Fatal(err)
			}
			if !n.announce(e) {
				t.Fatal("an announcement was refused")
			}
		}
		for i, e := range enc {
			out, err := n.transform(e)
			if err != nil {
				t.Fatalf("%s: %v", reqs[i].Sourcefile, err)
			}
			res, err := normalise.DecodeResult(out)
			if err != nil || len(res.Errors) > 0 || !strings.Contains(res.Code, wants[i]) {
				t.Fatalf("%s: %v %+v, want code with %q:\n%s", reqs[i].Sourcefile, err, res.Errors, wants[i], res.Code)
			}
			if i == 1 {
				// The retirement is queued behind the last announced
				// transform; the third request then finds no instance.
				n.mu.Lock()
				retiring := n.retiring
				n.mu.Unlock()
				if !retiring {
					t.Fatal("every announced transform was asked for, yet no retirement was queued")
				}
			}
		}
		used, err := n.close()
		closed = true
		if err != nil {
			t.Fatal(err)
		}
		if n.instances != 2 || !n.restarted {
			t.Errorf("instances %d, restarted %v: want the instance retired and a second one started", n.instances, n.restarted)
		}
		return used, logs
	}
	first, logs := run()
	if logs.count("normaliser retired") != 1 || logs.count(`module released" module=normalise`) != 1 || logs.count(`module instantiated" module=normalise`) != 2 {
		t.Errorf("want one retirement, one release and two instances in the log:\n%s", logs.buf.String())
	}
	second, _ := run()
	if first == 0 || first != second {
		t.Errorf("fuel %d then %d: want the same, nonzero", first, second)
	}
}

// TestPrestartedNormaliser drives the real normaliser module started ahead
// of its first transform (Call.StartNormaliser): a transform asked for at
// once waits for the start under way and gets esbuild's answer from the
// one instance; a request that transforms nothing closes it and reports
// its start-up fuel, the same in two runs; and a prestart that cannot
// instantiate (a memory limit below what the module declares) fails only
// a request that asks for a transform.
func TestPrestartedNormaliser(t *testing.T) {
	cat, err := module.Load(nil, wasmtest.ModuleDir(t, "normalise"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() // compiled once, loaded by the later Runners
	newRunner := func() *Runner { return quietRunner(t, cat, cache) }
	req := normalise.EncodeRequest(normalise.Request{Loader: "ts", Sourcefile: "a.ts", Source: "export const a: number = 1;\n"})

	t.Run("a transform waits for the prestart", func(t *testing.T) {
		n, err := newRunner().newNormaliser("normalise", Limits{}.WithDefaults())
		if err != nil {
			t.Fatal(err)
		}
		n.prestart()
		out, err := n.transform(req)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := normalise.DecodeResult(out); err != nil || !strings.Contains(res.Code, "const a = 1") {
			t.Fatalf("%v %+v", err, res)
		}
		if _, err := n.close(); err != nil {
			t.Fatal(err)
		}
		if n.instances != 1 {
			t.Errorf("%d instances, want the prestarted one only", n.instances)
		}
	})

	t.Run("nothing transformed", func(t *testing.T) {
		startUp := func() uint64 {
			used, n := startUpFuel(t, newRunner())
			if n.instances != 1 {
				t.Fatalf("%d instances: close did not wait for the prestart", n.instances)
			}
			return used
		}
		if first, second := startUp(), startUp(); first == 0 || first != second {
			t.Errorf("start-up fuel %d then %d: want the same, nonzero", first, second)
		}
	})

	t.Run("a failed prestart fails only a transform", func(t *testing.T) {
		tight := Limits{MemoryBytes: 1 << 20}.WithDefaults() // below the module's declared minimum
		for _, transform := range []bool{false, true} {
			n, err := newRunner().newNormaliser("normalise", tight)
			if err != nil {
				t.Fatal(err)
			}
			n.prestart()
			if transform {
				if _, err := n.transform(req); err == nil {
					t.Fatal("a transform on a normaliser that could not start succeeded")
				}
			}
			if _, err := n.close(); (err != nil) != transform {
				t.Fatalf("transform %v: close says %v", transform, err)
			}
		}
	})
}

// TestSecondNormaliserLane drives the real normaliser module with a second
// lane (Call.SecondNormaliser): announced transforms alternate between the
// two instances and every answer is esbuild's; and a second lane that fails
// (here: its fuel runs out on its first transform) costs the request
// nothing but that fuel — the first lane runs what it failed, and close
// reports no error.
func TestSecondNormaliserLane(t *testing.T) {
	cat, err := module.Load(nil, wasmtest.ModuleDir(t, "normalise"))
	if err != nil {
		t.Fatal(err)
	}
	// Compiled once per machine (the key is the module's digest): under
	// the race detector a compile of this module takes a minute.
	cache := filepath.Join(os.TempDir(), "rea-test-wazero-cache")
	newRunner := func() *Runner { return quietRunner(t, cat, cache) }
	var enc [][]byte
	for i := range 6 {
		enc = append(enc, normalise.EncodeRequest(normalise.Request{Loader: "ts", Sourcefile: fmt.Sprintf("m%d.ts", i),
			Source: fmt.Sprintf("export const v%d: number = %d;\n", i, i)}))
	}
	startUp, _ := startUpFuel(t, newRunner())
	for _, starved := range []bool{false, true} {
		n, err := newRunner().newNormaliser("normalise", Limits{}.WithDefaults())
		if err != nil {
			t.Fatal(err)
		}
		n.addSecondLane()
		if n.second == nil {
			t.Fatal("no second lane with the default fuel")
		}
		if starved {
			n.second.limits.Fuel = startUp + 1000 // starts, then runs out
		}
		n.prestart()
		for _, e := range enc {
			if !n.announce(e) {
				t.Fatal("an announcement was refused")
			}
		}
		n.mu.Lock()
		routed := len(n.onSecond)
		n.mu.Unlock()
		if routed != len(enc)/2 {
			t.Fatalf("starved %v: %d of %d transforms on the second lane, want every other one", starved, routed, len(enc))
		}
		for i, e := range enc {
			out, err := n.transform(e)
			if err != nil {
				t.Fatalf("starved %v: m%d.ts: %v", starved, i, err)
			}
			res, err := normalise.DecodeResult(out)
			if want := fmt.Sprintf("const v%d = %d", i, i); err != nil || !strings.Contains(res.Code, want) {
				t.Fatalf("starved %v: m%d.ts: %v %+v, want %q", starved, i, err, res, want)
			}
		}
		used, err := n.close()
		if err != nil {
			t.Fatalf("starved %v: close: %v", starved, err)
		}
		secondFailed := n.second.err != nil
		if secondFailed != starved {
			t.Fatalf("starved %v: the second lane's failure is %v", starved, n.second.err)
		}
		if starved && (n.unannounced != len(enc)/2 || used < 2*startUp) {
			t.Errorf("the first lane ran %d of the second's transforms again (want %d), fuel %d (want both lanes' start-up, ≥ %d)",
				n.unannounced, len(enc)/2, used, 2*startUp)
		}
	}
}

// startUpFuel prestarts a normaliser on r and closes it without a
// transform: the fuel one instance takes to start, and the service.
func startUpFuel(t *testing.T, r *Runner) (uint64, *normaliser) {
	t.Helper()
	n, err := r.newNormaliser("normalise", Limits{}.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	n.prestart()
	used, err := n.close()
	if err != nil {
		t.Fatal(err)
	}
	return used, n
}

// quietRunner is a Runner over cat compiling into cache, with no result
// cache and no standby instances, closed with the test.
func quietRunner(t *testing.T, cat *module.Catalog, cache string) *Runner {
	t.Helper()
	r, err := NewRunner(Options{Catalog: cat, CacheDir: cache, ResultCacheDir: "off", NoStandby: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	return r
}
