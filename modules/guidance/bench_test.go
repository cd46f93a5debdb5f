package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"rea/guidance/index"
	"rea/host/sandbox"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

// BenchmarkSearchThroughSandbox is one complete module request over the
// packaged bundle (fresh instance, index build, search) in wazero, warm.
func BenchmarkSearchThroughSandbox(b *testing.B) {
	cat, err := module.Load(nil, wasmtest.ModuleDir(b, "guidance"))
	if err != nil {
		b.Fatal(err)
	}
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: filepath.Join(os.TempDir(), "rea-test-wazero-cache")})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close(context.Background())
	call := sandbox.Call{Module: "guidance", Operation: "search",
		Params: index.SearchParams{Query: "preload contextBridge ipc"},
		Limits: sandbox.Limits{MemoryBytes: 32 << 20, Deadline: time.Minute, OutputBytes: 8 << 20}}
	var fuel, mem uint64
	for b.Loop() {
		out, err := r.Run(context.Background(), call)
		if err != nil {
			b.Fatal(err)
		}
		fuel, mem = out.Usage.FuelUsed, out.Usage.PeakMemoryBytes
	}
	b.ReportMetric(float64(fuel), "fuel/op")
	b.ReportMetric(float64(mem)/(1<<20), "peakMiB")
}
