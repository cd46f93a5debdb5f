package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
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
