package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"rea/host/sandbox"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

// BenchmarkTrivialRequestWarm is the per-request fixed cost: a fresh
// instance of a small module, one echo, warm compile cache. Target: median
// ≤ 20 ms.
func BenchmarkTrivialRequestWarm(b *testing.B) {
	dir := b.TempDir()
	wasmtest.MeteredGuest(b, probePkg, "probe", dir)
	cat, err := module.Load(nil, dir)
	if err != nil {
		b.Fatal(err)
	}
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: filepath.Join(os.TempDir(), "rea-bench-wazero-cache")})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close(context.Background())
	call := sandbox.Call{Module: "probe", Operation: "echo", Params: map[string]int{"x": 1}, Limits: sandbox.Limits{MemoryBytes: 256 << 20}}
	if _, err := r.Run(context.Background(), call); err != nil {
		b.Fatal(err)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := r.Run(context.Background(), call); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	b.StopTimer()
	reportMedian(b, samples)
}

// BenchmarkCompileLargestModule reports the cached compile (target ≤ 0.5 s)
// and, once, the cold compile of the largest real module.
func BenchmarkCompileLargestModule(b *testing.B) {
	dir := wasmtest.ModuleDir(b)
	entries, _ := filepath.Glob(filepath.Join(dir, "*.wasm"))
	if len(entries) == 0 {
		b.Fatal("no modules built")
	}
	sort.Slice(entries, func(i, j int) bool { return size(entries[i]) > size(entries[j]) })
	wasm, err := os.ReadFile(entries[0])
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("largest module: %s (%d bytes)", filepath.Base(entries[0]), len(wasm))
	cacheDir := b.TempDir()
	compile := func() time.Duration {
		ctx := context.Background()
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			b.Fatal(err)
		}
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache))
		start := time.Now()
		if _, err := rt.CompileModule(ctx, wasm); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		_ = rt.Close(ctx)
		_ = cache.Close(ctx)
		return took
	}
	cold := compile()
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		samples = append(samples, compile())
	}
	b.StopTimer()
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(samples[len(samples)/2].Seconds(), "cached-compile-s")
	// Reported after the timer reset, which clears earlier metrics.
	b.ReportMetric(cold.Seconds(), "cold-compile-s")
}

func size(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

func reportMedian(b *testing.B, samples []time.Duration) {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(samples[len(samples)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkLoadFromCompileCache is issue 22's fixed cost of the two modules
// every application analysis loads: a new Runner (as a new CLI process
// has) loads the module from a warm compile cache (load-ms), then one run
// of an unknown operation starts a fresh instance — the guest's Go runtime
// and package initialisers — and ends (first-run-ms). CPU is the process's
// user+system time over each step (steady under load where wall is not);
// medians of b.N rounds.
// Run: go test -run XXX -bench LoadFromCompileCache -benchtime 5x ./host/sandbox/
func BenchmarkLoadFromCompileCache(b *testing.B) {
	for _, name := range []string{"jsapp", "artifact"} {
		b.Run(name, func(b *testing.B) {
			cat, err := module.Load(nil, wasmtest.ModuleDir(b, name))
			if err != nil {
				b.Fatal(err)
			}
			cacheDir := filepath.Join(os.TempDir(), "rea-bench-load-cache")
			limits := sandbox.Limits{}
			newRunner := func() *sandbox.Runner {
				r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: cacheDir, ResultCacheDir: "off", NoStandby: true})
				if err != nil {
					b.Fatal(err)
				}
				return r
			}
			r := newRunner() // fills the compile cache
			if _, _, err := r.Compile(context.Background(), name, limits); err != nil {
				b.Fatal(err)
			}
			r.Close(context.Background())
			var load, run, loadCPU, runCPU []time.Duration
			b.ResetTimer()
			for range b.N {
				r := newRunner()
				c0, t0 := cpuTime(b), time.Now()
				if _, _, err := r.Compile(context.Background(), name, limits); err != nil {
					b.Fatal(err)
				}
				c1, t1 := cpuTime(b), time.Now()
				_, err := r.Run(context.Background(), sandbox.Call{Module: name, Operation: "no_such_operation", Limits: limits})
				if err == nil {
					b.Fatal("an unknown operation succeeded")
				}
				load, loadCPU = append(load, t1.Sub(t0)), append(loadCPU, c1-c0)
				run, runCPU = append(run, time.Since(t1)), append(runCPU, cpuTime(b)-c1)
				r.Close(context.Background())
			}
			b.StopTimer()
			med := func(d []time.Duration) float64 {
				sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
				return float64(d[len(d)/2].Microseconds()) / 1000
			}
			b.ReportMetric(med(load), "load-ms")
			b.ReportMetric(med(loadCPU), "load-cpu-ms")
			b.ReportMetric(med(run), "first-run-ms")
			b.ReportMetric(med(runCPU), "first-run-cpu-ms")
		})
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
