package app

import (
	"context"
	"os"
	"testing"
	"time"

	"rea/modules/native/nativetest"
	"rea/wasm/wasmtest"
)

// BenchmarkBinaryOverviewSandbox runs binary_overview (layout, full
// procedure discovery, references and strings) on rea's own binary inside
// the sandbox, against objdump -d of the same file.
func BenchmarkBinaryOverviewSandbox(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(b, NativeModule)})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	objdump, objRSS := nativetest.ObjdumpBaseline(b, bin)
	b.Setenv("REA_ANALYSIS_PROVIDER", "")
	// Compile the module first: the compile cache is measured elsewhere.
	if _, _, err := a.Runner.Compile(context.Background(), NativeModule, a.Config.Limits); err != nil {
		b.Fatal(err)
	}
	var peak, fuel uint64
	var procs int
	n := 0
	start := time.Now()
	for b.Loop() {
		res, err := a.BinaryOverview(context.Background(), NativeRequest{InputPath: bin}, nil)
		if err != nil {
			b.Fatal(err)
		}
		procs = res.Result.Procedures
		n++
	}
	per := time.Since(start) / time.Duration(n)
	// One more run to read the sandbox usage of a single request.
	in, err := openNative(bin)
	if err != nil {
		b.Fatal(err)
	}
	defer in.f.Close()
	var out struct{}
	params, _ := queryParams(NativeRequest{})
	if res, err := a.runNative(context.Background(), in, "overview", params, &out, nil); err == nil {
		peak, fuel = res.Usage.PeakMemoryBytes, res.Usage.FuelUsed
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(float64(procs), "procedures")
	b.ReportMetric(per.Seconds(), "overview-s")
	b.ReportMetric(float64(peak)/(1<<20), "module-peak-MiB")
	b.ReportMetric(float64(fuel)/1e9, "Gfuel")
	b.ReportMetric(objdump.Seconds(), "objdump-s")
	b.ReportMetric(float64(objRSS)/(1<<20), "objdump-peak-rss-MiB")
	b.ReportMetric(per.Seconds()/objdump.Seconds(), "x-objdump")
}
