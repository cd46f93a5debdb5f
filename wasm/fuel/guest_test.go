package fuel_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"rea/wasm/fuel"
)

// guests builds the Go programs under testdata/guests once per test binary
// run into a temporary directory, and shares one compilation cache so each
// module is compiled by wazero once. Test-only state; see TestMain.
var guests *guestCache

type guestCache struct {
	dir   string
	cache wazero.CompilationCache

	mu    sync.Mutex
	built map[string][]byte
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rea-fuel-guests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	guests = &guestCache{dir: dir, cache: wazero.NewCompilationCache(), built: map[string][]byte{}}
	code := m.Run()
	guests.cache.Close(context.Background())
	os.RemoveAll(dir)
	os.Exit(code)
}

// guest returns the wasip1 binary of testdata/guests/<name>, building it with
// the same flags `make modules` uses. A build failure fails the test: the
// guests are part of this package's proof and are never skipped.
func guest(tb testing.TB, name string) []byte {
	tb.Helper()
	guests.mu.Lock()
	defer guests.mu.Unlock()
	if bin, ok := guests.built[name]; ok {
		return bin
	}
	out := filepath.Join(guests.dir, name+".wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", out, "./testdata/guests/"+name)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building guest %s: %v\n%s", name, err, msg)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	guests.built[name] = bin
	return bin
}

// meteredGuest is guest(name) instrumented.
func meteredGuest(tb testing.TB, name string) []byte {
	tb.Helper()
	bin, err := fuel.Instrument(guest(tb, name))
	if err != nil {
		tb.Fatalf("instrumenting %s: %v", name, err)
	}
	return bin
}

// sandbox is a wazero runtime with WASI, the way the host runs modules:
// compiler engine, no start function at instantiation.
type sandbox struct {
	ctx context.Context
	rt  wazero.Runtime
}

func newSandbox(tb testing.TB) *sandbox {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(guests.cache))
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	tb.Cleanup(func() { rt.Close(ctx) })
	return &sandbox{ctx: ctx, rt: rt}
}

func (s *sandbox) compile(tb testing.TB, bin []byte) wazero.CompiledModule {
	tb.Helper()
	c, err := s.rt.CompileModule(s.ctx, bin)
	if err != nil {
		tb.Fatalf("compile: %v", err)
	}
	return c
}

// outcome is what one run of a guest produced.
type outcome struct {
	stdout, stderr string
	// err is the error of _start other than a clean exit(0).
	err error
	// left is the fuel global after the run; budget-left is fuel used.
	left uint64
}

// runOpts configure one run.
type runOpts struct {
	args  []string
	stdin string
	// budget, when non-zero, is stored in the fuel global before _start.
	budget uint64
	// started, when set, is called with the fuel global once the instance
	// exists and before _start; it may keep it to cancel from elsewhere.
	started func(api.MutableGlobal)
	// afterCall, when set, runs as soon as _start returns and before the
	// fuel global is read: the place to stop a canceller (fuel.Exhaust)
	// so its stores never race the final read.
	afterCall func()
}

func (s *sandbox) run(tb testing.TB, c wazero.CompiledModule, o runOpts) outcome {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithStdin(strings.NewReader(o.stdin)).
		WithStdout(&stdout).
		WithStderr(&stderr).
		WithArgs(append([]string{"guest"}, o.args...)...)
	mod, err := s.rt.InstantiateModule(s.ctx, c, cfg)
	if err != nil {
		tb.Fatalf("instantiate: %v", err)
	}
	defer mod.Close(s.ctx)
	var g api.MutableGlobal
	if exp := mod.ExportedGlobal(fuel.GlobalName); exp != nil {
		mg, ok := exp.(api.MutableGlobal)
		if !ok {
			tb.Fatalf("%s is exported but not mutable", fuel.GlobalName)
		}
		g = mg
		if o.budget != 0 {
			g.Set(o.budget)
		}
		if o.started != nil {
			o.started(g)
		}
	} else if o.budget != 0 || o.started != nil {
		tb.Fatalf("module does not export %s", fuel.GlobalName)
	}
	_, err = mod.ExportedFunction("_start").Call(s.ctx)
	if o.afterCall != nil {
		o.afterCall()
	}
	var exit *sys.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 0 {
		err = nil
	}
	res := outcome{stdout: stdout.String(), stderr: stderr.String(), err: err}
	if g != nil {
		res.left = g.Get()
	}
	return res
}
