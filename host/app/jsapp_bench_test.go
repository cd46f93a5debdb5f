package app

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"rea/analysis/native/nativetest"
	"rea/host/sandbox"
	"rea/jsengine"
	"rea/jsengine/jstest"
	"rea/jsengine/report"
	"rea/wasm/wasmtest"
)

// jsappBenchLimits lets the generated 50 MB application be analysed
// completely: its syntax trees hold more nodes than the default allows.
var jsappBenchLimits = report.Options{MaxASTNodes: report.LimitCaps.MaxASTNodes}

// jsappBenchSandbox gives the module time for the 50 MB app in one
// instance; memory stays at the default limit.
var jsappBenchSandbox = sandbox.Limits{Deadline: 20 * time.Minute}

// jsappMeasure is what one child process measured for one way of running
// the analysis.
type jsappMeasure struct {
	Wall       time.Duration `json:"wall"`
	ModuleWall time.Duration `json:"module_wall"` // inside the jsapp module runs
	Fuel       uint64        `json:"fuel"`
	ModulePeak uint64        `json:"module_peak"`
	Modules    int           `json:"modules"`
	Coverage   string        `json:"coverage"`
	// Digest identifies the analysis result, so that the parent can check
	// that both ways found the same thing.
	Digest string `json:"digest"`
}

const jsappMeasureLine = "JSAPP-MEASURE "

// analyseNatively runs the library in this process over the directory.
func analyseNatively(ctx context.Context, dir string) (*jsengine.Result, error) {
	return jsengine.Analyze(ctx, os.DirFS(dir), jsappBenchLimits, nil)
}

// analyseInSandbox runs the service (inventory, then the jsapp module)
// with the result cache off.
// shards 0 lets the service choose by size.
func analyseInSandbox(ctx context.Context, a *App, dir string, shards int) (*AnalyzeApplicationResult, sandbox.Usage, error) {
	var usage sandbox.Usage
	res, err := a.analyzeApplication(ctx, AnalyzeApplicationRequest{InputPath: dir, Options: jsappBenchLimits}, nil, jsappTuning{usage: &usage, shards: shards})
	return res, usage, err
}

func newJSAppBenchApp(t testing.TB) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, JSAppModule, NormaliseModule, "artifact"), Limits: jsappBenchSandbox})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	// Compile before measuring: the compile cache is measured elsewhere.
	for _, m := range []string{JSAppModule, "artifact"} {
		if _, _, err := a.Runner.Compile(context.Background(), m, a.Config.Limits); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func resultJSON(t testing.TB, r any) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSandboxedAnalysisMatchesNativeAnalysis proves that the service finds
// exactly what the library finds natively over the same files. The
// benchmark below also runs it as a child process (REA_JSAPP_BENCH_DIR,
// REA_JSAPP_BENCH_MODE) to measure one way of running alone, with its own
// peak RSS.
func TestSandboxedAnalysisMatchesNativeAnalysis(t *testing.T) {
	if dir := os.Getenv("REA_JSAPP_BENCH_DIR"); dir != "" {
		measureJSAppChild(t, dir, os.Getenv("REA_JSAPP_BENCH_MODE"))
		return
	}
	for name, fsys := range map[string]fstest.MapFS{
		"modules": jstest.App(60, 2<<10),
		"bundle":  jstest.BundleApp(64 << 10),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := jstest.WriteDir(dir, fsys); err != nil {
				t.Fatal(err)
			}
			native, err := analyseNatively(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			// The service adds each fact's source_ref with the inventory's
			// digests; the native result gets the same from the files.
			digests := map[string]string{}
			for p, f := range fsys {
				digests[p] = fmt.Sprintf("%x", sha256.Sum256(f.Data))
			}
			report.AttachSourceRefs(native, digests)
			res, usage, err := analyseInSandbox(context.Background(), newJSAppBenchApp(t), dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			if usage.FuelUsed == 0 || usage.PeakMemoryBytes == 0 {
				t.Fatalf("usage not reported: %+v", usage)
			}
			if want, got := resultJSON(t, native), resultJSON(t, analysisOf(t, res).Application); !bytes.Equal(want, got) {
				t.Fatalf("sandboxed result differs from the native one:\nnative  %.2000s\nsandbox %.2000s", want, got)
			}
		})
	}
}

// measureJSAppChild analyses dir one way (native or sandbox) and prints
// what it measured for the parent benchmark.
func measureJSAppChild(t *testing.T, dir, mode string) {
	ctx := context.Background()
	var m jsappMeasure
	var result any
	switch mode {
	case "native":
		t0 := time.Now()
		r, err := analyseNatively(ctx, dir)
		m.Wall = time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		result, m.Modules, m.Coverage = r, r.Statistics.Modules, r.Coverage.Status
	case "sandbox", "sandbox-one":
		a := newJSAppBenchApp(t)
		shards := 0
		if mode == "sandbox-one" {
			shards = 1
		}
		t0 := time.Now()
		r, usage, err := analyseInSandbox(ctx, a, dir, shards)
		m.Wall = time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		app := analysisOf(t, r).Application
		result, m.Modules, m.Coverage = app, app.Statistics.Modules, app.Coverage.Status
		m.Fuel, m.ModulePeak, m.ModuleWall = usage.FuelUsed, usage.PeakMemoryBytes, usage.Wall
	default:
		t.Fatalf("REA_JSAPP_BENCH_MODE %q is not native or sandbox", mode)
	}
	m.Digest = fmt.Sprintf("%x", sha256.Sum256(resultJSON(t, result)))
	line, _ := json.Marshal(m)
	fmt.Println(jsappMeasureLine + string(line))
}

// jsappChild is what the parent saw of a child: its measure, peak RSS and
// CPU time (user + system, all threads).
type jsappChild struct {
	jsappMeasure
	rss int64
	cpu time.Duration
}

// medianChild is the run with the median wall time.
func medianChild(runs []jsappChild) jsappChild {
	sorted := slices.SortedFunc(slices.Values(runs), func(a, b jsappChild) int { return cmp.Compare(a.Wall, b.Wall) })
	return sorted[len(sorted)/2]
}

// runJSAppChild measures one way of analysing dir in a fresh process.
func runJSAppChild(b *testing.B, dir, mode string) jsappChild {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSandboxedAnalysisMatchesNativeAnalysis$", "-test.count", "1", "-test.v")
	cmd.Env = append(os.Environ(), "REA_JSAPP_BENCH_DIR="+dir, "REA_JSAPP_BENCH_MODE="+mode,
		"REA_TEST_MODULE_DIR="+wasmtest.ModuleDir(b, JSAppModule, NormaliseModule, "artifact"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("%s child: %v\n%s", mode, err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, jsappMeasureLine); ok {
			var m jsappMeasure
			if err := json.Unmarshal([]byte(rest), &m); err != nil {
				b.Fatal(err)
			}
			return jsappChild{m, nativetest.PeakRSS(cmd.ProcessState), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
		}
	}
	b.Fatalf("%s child printed no measure:\n%s", mode, out)
	return jsappChild{}
}

// BenchmarkJSApp3000ModulesVersusNative is the scale point of the sandbox-to-native ratio: a
// generated application of 3,000 CommonJS modules (~52 MB) and one of a
// single 1 MB webpack bundle (1,780 factories), each analysed natively
// (jsengine.Analyze in-process over the same directory) and through the
// service (inventory, then the sandboxed jsapp module; result cache off),
// each in its own child process so that peak RSS is that run's alone.
// Target: sandbox ≤ 4x native.
// Run: go test -run '^$' -bench JSApp3000ModulesVersusNative -benchtime 1x ./host/app/
func BenchmarkJSApp3000ModulesVersusNative(b *testing.B) {
	for _, in := range []struct {
		name string
		fsys func() fstest.MapFS
	}{
		{"bundle-1MB", func() fstest.MapFS { return jstest.BundleApp(1 << 20) }},
		{"app-3000-modules", func() fstest.MapFS { return jstest.App(3000, 17<<10) }},
	} {
		b.Run(in.name, func(b *testing.B) {
			dir := b.TempDir()
			fsys := in.fsys()
			if err := jstest.WriteDir(dir, fsys); err != nil {
				b.Fatal(err)
			}
			size := jstest.Size(fsys)
			fsys = nil
			// Per mode: summed wall, module wall and CPU; largest RSS.
			modes := []string{"native", "sandbox-one", "sandbox"}
			wall, module, cpu := map[string]time.Duration{}, map[string]time.Duration{}, map[string]time.Duration{}
			rss := map[string]int64{}
			last := map[string]jsappChild{}
			// A 0.1 s native run swings by half from run to run on a shared
			// machine, so small inputs take the median of five children per
			// mode (interleaved); large ones run once.
			reps := 1
			if size < 8<<20 {
				reps = 5
			}
			for b.Loop() {
				runs := map[string][]jsappChild{}
				for range reps {
					for _, mode := range modes {
						runs[mode] = append(runs[mode], runJSAppChild(b, dir, mode))
					}
				}
				for _, mode := range modes {
					c := medianChild(runs[mode])
					wall[mode] += c.Wall
					module[mode] += c.ModuleWall
					cpu[mode] += c.cpu
					for _, r := range runs[mode] {
						rss[mode] = max(rss[mode], r.rss)
					}
					last[mode] = c
				}
				for _, mode := range modes[1:] {
					if last[mode].Digest != last["native"].Digest || last[mode].Coverage != "complete" {
						b.Fatalf("%s and native results differ or are partial: %+v vs %+v", mode, last[mode], last["native"])
					}
				}
			}
			runs := float64(b.N)
			s := last["sandbox"]
			b.ReportMetric(float64(size)/(1<<20), "input-MiB")
			b.ReportMetric(float64(s.Modules), "modules")
			b.ReportMetric(wall["native"].Seconds()/runs, "native-s")
			b.ReportMetric(wall["sandbox-one"].Seconds()/runs, "one-instance-s")
			b.ReportMetric(wall["sandbox"].Seconds()/runs, "sandbox-s")
			b.ReportMetric(module["sandbox"].Seconds()/runs, "module-s")
			b.ReportMetric(wall["sandbox-one"].Seconds()/wall["native"].Seconds(), "x-native-one-instance")
			b.ReportMetric(wall["sandbox"].Seconds()/wall["native"].Seconds(), "x-native")
			b.ReportMetric(cpu["native"].Seconds()/runs, "native-cpu-s")
			b.ReportMetric(cpu["sandbox"].Seconds()/runs, "sandbox-cpu-s")
			b.ReportMetric(float64(rss["native"])/(1<<20), "native-peak-rss-MiB")
			b.ReportMetric(float64(rss["sandbox"])/(1<<20), "sandbox-peak-rss-MiB")
			b.ReportMetric(float64(rss["sandbox-one"])/(1<<20), "one-instance-peak-rss-MiB")
			b.ReportMetric(cpu["sandbox-one"].Seconds()/runs, "one-instance-cpu-s")
			b.ReportMetric(float64(s.ModulePeak)/(1<<20), "module-peak-MiB")
			b.ReportMetric(float64(last["sandbox-one"].ModulePeak)/(1<<20), "one-instance-peak-MiB")
			b.ReportMetric(float64(last["sandbox-one"].Fuel)/1e9, "one-instance-Gfuel")
			b.ReportMetric(float64(s.Fuel)/1e9, "Gfuel")
		})
	}
}
