package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"rea/host/sandbox"
	"rea/jsengine"
	"rea/jsengine/report"
	"rea/wasm/wasmtest"
)

// syncBuffer is a log sink the runner's goroutines may write to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNormaliserSplitGivesTheNativeResultOnEveryFixture: with esbuild moved
// out of the jsapp module into the normaliser module (served through the
// host), every fixture application's analysis is byte for byte the one
// jsengine computes natively with esbuild linked in. The normaliser is
// loaded only by applications that need it: the CommonJS fixture analysed
// first does not load it, the ESM one does.
func TestNormaliserSplitGivesTheNativeResultOnEveryFixture(t *testing.T) {
	logs := &syncBuffer{}
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, JSAppModule, NormaliseModule),
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	fixtures, _ := filepath.Glob(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "*"))
	// Plain CommonJS first, then ESM: the order the load check needs.
	order := []string{"insecure", "esm"}
	for _, f := range fixtures {
		if n := filepath.Base(f); n != "insecure" && n != "esm" {
			order = append(order, n)
		}
	}
	normalised := 0
	for _, name := range order {
		dir := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", name)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		native, err := jsengine.Analyze(context.Background(), os.DirFS(dir), jsengine.Options{}, nil)
		if err != nil {
			t.Fatalf("%s: native: %v", name, err)
		}
		want, _ := json.Marshal(native)
		out, err := runJSApp(t, a, dir, sandbox.Call{})
		if err != nil {
			t.Fatalf("%s: sandbox: %v", name, err)
		}
		if got := bytes.TrimSpace(out.Result); !bytes.Equal(got, want) {
			t.Errorf("%s: the sandboxed result differs from the native one:\nsandbox: %.600s\nnative:  %.600s", name, got, want)
		}
		usesEsbuild := bytes.Contains(want, []byte(`"esbuild+goja"`))
		if usesEsbuild {
			normalised++
		}
		loaded := strings.Contains(logs.String(), "module=normalise")
		switch name {
		case "insecure":
			if usesEsbuild || loaded {
				t.Fatalf("insecure (CommonJS) loaded the normaliser (esbuild parse %v, loaded %v)", usesEsbuild, loaded)
			}
		case "esm":
			if !usesEsbuild || !loaded {
				t.Fatalf("esm did not go through the normaliser (esbuild parse %v, loaded %v)", usesEsbuild, loaded)
			}
		}
	}
	if normalised < 3 {
		t.Errorf("only %d fixtures needed the normaliser; the comparison proves little", normalised)
	}
}

// TestAnnouncedTransformsAreServedAheadWithTheSameFuel: the jsapp module
// announces the transforms of its TypeScript files before parsing them, the
// normaliser serves every one of them from that announcement (none is asked
// for unannounced, none is left over), and two runs report the same fuel:
// the normaliser works in the guest's announcement order, whatever the
// timing, in one instance.
func TestAnnouncedTransformsAreServedAheadWithTheSameFuel(t *testing.T) {
	dir := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "typescript")
	served := regexp.MustCompile(`normaliser served" .*announced=(\d+) unannounced=(\d+) announced_unasked=(\d+)`)
	var fuel []uint64
	for range 2 {
		// A new service each time: nothing is served from a cache.
		a, logs := debugApp(t)
		var used sandbox.Usage
		_, err := a.analyzeApplication(context.Background(), AnalyzeApplicationRequest{InputPath: dir}, nil, jsappTuning{usage: &used})
		_ = a.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fuel = append(fuel, used.FuelUsed)
		m := served.FindStringSubmatch(logs.String())
		if m == nil {
			t.Fatalf("no \"normaliser served\" line:\n%s", logs.String())
		}
		if m[1] == "0" || m[2] != "0" || m[3] != "0" {
			t.Errorf("announced=%s unannounced=%s announced_unasked=%s, want every transform announced and used", m[1], m[2], m[3])
		}
		// A small application's normaliser serves to the end in one
		// instance (retiring is for large ones, host/sandbox's tests).
		if strings.Contains(logs.String(), "normaliser retired") || !strings.Contains(logs.String(), "instances=1 ") {
			t.Errorf("a small application's normaliser retired or was started twice:\n%s", logs.String())
		}
	}
	if fuel[0] != fuel[1] {
		t.Errorf("fuel differs between two runs of the same request: %d and %d", fuel[0], fuel[1])
	}
}

// writeTypeScriptApp writes an application of n small TypeScript modules
// (each importing the next, the last holding channel names) and a main
// process that handles one channel per module: the shape where the guest
// parses faster than one normaliser instance transforms.
func writeTypeScriptApp(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"lanes","main":"src/main.ts"}`)
	main := "import { ipcMain } from 'electron';\n"
	for i := range n {
		main += fmt.Sprintf("import { handle%d } from './m%02d';\nipcMain.handle('lane:%d', handle%d);\n", i, i, i, i)
		next := ""
		if i+1 < n {
			next = fmt.Sprintf("import { handle%d as h } from './m%02d';\nexport const via%d = h;\n", i+1, i+1, i)
		}
		write(fmt.Sprintf("src/m%02d.ts", i), next+fmt.Sprintf("export function handle%d(_e: unknown, x: number): number { return x + %d; }\n", i, i))
	}
	write("src/main.ts", main)
	return dir
}

// TestSecondNormaliserLaneGivesTheNativeResultWithTheSameFuel: with a
// second normaliser instance taking every other announced transform, the
// sandboxed analysis is byte for byte the native one, the second lane did
// serve transforms, and two runs report the same fuel (each lane's share
// depends on the announcement order only).
func TestSecondNormaliserLaneGivesTheNativeResultWithTheSameFuel(t *testing.T) {
	dir := writeTypeScriptApp(t, 12)
	native, err := jsengine.Analyze(context.Background(), os.DirFS(dir), jsengine.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(native)
	if len(native.IPC) != 12 {
		t.Fatalf("the native analysis found %d handlers, want 12", len(native.IPC))
	}
	lane := regexp.MustCompile(`second normaliser lane served" module=\S+ announced=(\d+) `)
	var fuel []uint64
	for range 2 {
		a, logs := debugApp(t)
		out, err := runJSApp(t, a, dir, sandbox.Call{StartNormaliser: true, SecondNormaliser: true})
		_ = a.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.TrimSpace(out.Result); !bytes.Equal(got, want) {
			t.Fatalf("the result with two normaliser lanes differs from the native one:\nsandbox: %.600s\nnative:  %.600s", got, want)
		}
		if m := lane.FindStringSubmatch(logs.String()); m == nil || m[1] == "0" {
			t.Fatalf("the second lane served nothing:\n%s", logs.String())
		}
		fuel = append(fuel, out.Usage.FuelUsed)
	}
	if fuel[0] != fuel[1] {
		t.Errorf("fuel %d then %d: want the same", fuel[0], fuel[1])
	}
}

// TestSecondNormaliserLaneIsForManySmallFiles: the analysis starts a second
// normaliser instance for an application of several small files to
// transform, and not for one of three.
func TestSecondNormaliserLaneIsForManySmallFiles(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want bool
	}{
		{writeTypeScriptApp(t, 12), true},
		{filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "typescript"), false},
	} {
		a, logs := debugApp(t)
		_, err := a.analyzeApplication(context.Background(), AnalyzeApplicationRequest{InputPath: tc.dir}, nil, jsappTuning{})
		_ = a.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(logs.String(), "second normaliser lane served"); got != tc.want {
			t.Errorf("%s: a second lane %v, want %v:\n%s", tc.dir, got, tc.want, logs.String())
		}
	}
}

// debugApp is an App without a result cache whose debug log the test reads.
func debugApp(t *testing.T) (*App, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, JSAppModule, NormaliseModule),
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return a, logs
}

// runJSApp runs the jsapp module's analyze on dir mounted at /in, with
// the normaliser and call's normaliser settings.
func runJSApp(t *testing.T, a *App, dir string, call sandbox.Call) (*sandbox.Outcome, error) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	call.Module, call.Operation, call.Params = JSAppModule, "analyze", report.Params{Root: "/in"}
	call.Mounts = []sandbox.Mount{{GuestPath: "/in", FS: sandbox.DirFS(root)}}
	call.Limits, call.Normaliser = a.Config.Limits, NormaliseModule
	return a.Runner.Run(context.Background(), call)
}
