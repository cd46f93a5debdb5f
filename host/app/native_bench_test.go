package app

import (
	"context"
	"os"
	"testing"
	"time"

	"rea/analysis/native/nativetest"
	"rea/analysis/native/query"
	"rea/wasm/wasmtest"
)

// BenchmarkBinaryOverviewSandbox runs binary_overview (layout, full
// procedure discovery, references and strings) on rea's own binary inside
// the sandbox, against objdump -d of the same file, interleaved so both
// see the same load. Every iteration gets a fresh App, so no result comes
// from the result cache (the compiled module does, as in any later run);
// it also times the module run alone (no hashing, no Evidence) and the
// whole `rea analyze` process, whose peak RSS it reports beside objdump's.
func BenchmarkBinaryOverviewSandbox(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("REA_ANALYSIS_PROVIDER", "")
	fresh := func() *App {
		a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(b, NativeModule)})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := a.Runner.Compile(context.Background(), NativeModule, a.Config.Limits); err != nil {
			b.Fatal(err)
		}
		return a
	}
	var overview, module, objdump, cli time.Duration
	var objRSS, cliRSS int64
	var peak, fuel uint64
	var procs int
	n := 0
	for b.Loop() {
		took, rss := nativetest.ObjdumpBaseline(b, bin)
		objdump += took
		objRSS = max(objRSS, rss)

		a := fresh()
		start := time.Now()
		res, err := a.BinaryOverview(context.Background(), NativeRequest{InputPath: bin}, nil)
		if err != nil {
			b.Fatal(err)
		}
		overview += time.Since(start)
		procs = res.Result.Procedures
		a.Close(context.Background())

		a = fresh()
		in, err := openNative(bin)
		if err != nil {
			b.Fatal(err)
		}
		var out query.Overview
		start = time.Now()
		one, err := a.runNative(context.Background(), in, query.OpOverview, query.Params{}, &out, nil)
		if err != nil {
			b.Fatal(err)
		}
		module += time.Since(start)
		a.Close(context.Background())
		peak, fuel = one.Usage.PeakMemoryBytes, one.Usage.FuelUsed

		in.f.Close()

		took, rss = reaAnalyze(b, bin)
		cli += took
		cliRSS = max(cliRSS, rss)
		n++
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(n) }
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(float64(procs), "procedures")
	b.ReportMetric(per(overview), "overview-s")
	b.ReportMetric(per(module), "module-s")
	b.ReportMetric(float64(peak)/(1<<20), "module-peak-MiB")
	b.ReportMetric(float64(fuel)/1e9, "Gfuel")
	b.ReportMetric(per(cli), "rea-analyze-s")
	b.ReportMetric(float64(cliRSS)/(1<<20), "rea-analyze-peak-rss-MiB")
	b.ReportMetric(per(objdump), "objdump-s")
	b.ReportMetric(float64(objRSS)/(1<<20), "objdump-peak-rss-MiB")
	b.ReportMetric(per(overview)/per(objdump), "x-objdump")
	b.ReportMetric(per(cli)/per(objdump), "rea-analyze-x-objdump")
}

// reaAnalyze times `rea analyze` of a binary as a whole process (results
// kept in memory only, so nothing comes from an earlier run) and reports
// its peak RSS.
func reaAnalyze(tb testing.TB, path string) (time.Duration, int64) {
	tb.Helper()
	return nativetest.MeasureCommand(tb, []string{"REA_RESULT_CACHE_DIR=off", "REA_ANALYSIS_PROVIDER="}, wasmtest.ReaBinary(tb), "analyze", path, "--format", "json")
}
