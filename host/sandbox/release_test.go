package sandbox_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"rea/host/sandbox"
)

// logBuffer collects a Runner's debug log for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), `msg="`+msg+`"`)
}

func loggedRunner(t *testing.T, o sandbox.Options) (*sandbox.Runner, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return newRunner(t, o), logs
}

// With ReleaseWhenDone, Done closes the module's compiled code: the next
// run loads it again and answers the same; standbys of the module are
// dropped with it, never started from closed code. Without it Done keeps
// the module compiled.
func TestDoneReleasesACompiledModuleOnlyInOneShotMode(t *testing.T) {
	for _, release := range []bool{true, false} {
		r, logs := loggedRunner(t, sandbox.Options{ReleaseWhenDone: release})
		params := map[string]any{"n": 2}
		want, err := run(t, r, "hash", params, smallLimits())
		if err != nil {
			t.Fatal(err)
		}
		for range 3 { // the second and third are served by standbys
			if _, err := run(t, r, "hash", params, smallLimits()); err != nil {
				t.Fatal(err)
			}
		}
		r.Done("probe")
		got, err := run(t, r, "hash", params, smallLimits())
		if err != nil {
			t.Fatalf("release %v: run after Done: %v", release, err)
		}
		if string(got.Result) != string(want.Result) || got.Usage.FuelUsed != want.Usage.FuelUsed {
			t.Fatalf("release %v: after Done %s fuel %d, before %s fuel %d", release, got.Result, got.Usage.FuelUsed, want.Result, want.Usage.FuelUsed)
		}
		compiles, released := logs.count("module compiled"), logs.count("module released")
		if release && (compiles != 2 || released != 1) {
			t.Fatalf("one-shot: %d compiles and %d releases, want 2 and 1", compiles, released)
		}
		if !release && (compiles != 1 || released != 0) {
			t.Fatalf("server: %d compiles and %d releases, want 1 and 0", compiles, released)
		}
		if n := logs.count("could not start a standby instance; requests start their own"); n != 0 {
			t.Fatalf("release %v: %d standby starts failed", release, n)
		}
		assertStillServing(t, r)
	}
}

// MaxRetainedBytes closes the least recently used compiled module once the
// compiled ones exceed it (two memory limits are two runtimes, each with its
// own compile of the probe), and a closed one loads again when it is used.
func TestMaxRetainedBytesClosesTheLeastRecentlyUsedModule(t *testing.T) {
	probe, err := probeCatalog(t).Get("probe")
	if err != nil {
		t.Fatal(err)
	}
	r, logs := loggedRunner(t, sandbox.Options{MaxRetainedBytes: probe.Size, NoStandby: true})
	small, large := smallLimits(), smallLimits()
	large.MemoryBytes *= 2
	for i, l := range []sandbox.Limits{small, large, small} {
		if _, err := run(t, r, "echo", map[string]int{"x": i}, l); err != nil {
			t.Fatal(err)
		}
	}
	if c, e := logs.count("module compiled"), logs.count("compiled module closed to stay within the retained bound"); c != 3 || e != 2 {
		t.Fatalf("%d compiles and %d evictions, want 3 and 2 (each limit's compile evicts the other's)", c, e)
	}
	// Unbounded: each compiles once.
	r, logs = loggedRunner(t, sandbox.Options{NoStandby: true})
	for i, l := range []sandbox.Limits{small, large, small} {
		if _, err := run(t, r, "echo", map[string]int{"x": i}, l); err != nil {
			t.Fatal(err)
		}
	}
	if c := logs.count("module compiled"); c != 2 {
		t.Fatalf("unbounded: %d compiles, want 2", c)
	}
}
