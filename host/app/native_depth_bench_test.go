package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"rea/analysis/native/nativetest"
	"rea/host/sandbox"
	"rea/wasm/wasmtest"
)

// BenchmarkNativeDepthDiscoveryAndDiff times, on rea's own binary (a Go
// binary of more than 50 MB), function discovery (list_procedures: every
// table, the sweep), the DWARF type listing and a whole-binary diff
// against a stripped copy, each through the sandbox with a fresh App (no
// result cache), against objdump -d and readelf --debug-dump=info of the
// same file, interleaved so both see the same load.
func BenchmarkNativeDepthDiscoveryAndDiff(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	stripped := filepath.Join(b.TempDir(), "rea-stripped")
	if err := nativetest.Run("", nil, "strip", "-o", stripped, bin); err != nil {
		b.Fatal(err)
	}
	b.Setenv("REA_ANALYSIS_PROVIDER", "")
	fresh := func() *App {
		// The default 1 GiB memory limit stays (the diff must fit it); the
		// deadline is raised, since on the shared loaded machine a run's
		// wall time says little and the benchmark measures it anyway.
		a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(b, NativeModule), Limits: sandbox.Limits{Deadline: 30 * time.Minute}})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := a.Runner.Compile(context.Background(), NativeModule, a.Config.Limits); err != nil {
			b.Fatal(err)
		}
		return a
	}
	timed := func(run func(a *App) error) time.Duration {
		a := fresh()
		defer a.Close(context.Background())
		start := time.Now()
		if err := run(a); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var discovery, strippedDiscovery, types, diff, objdump, readelf time.Duration
	var procs, strippedProcs, changed, unchanged int
	n := 0
	for b.Loop() {
		took, _ := nativetest.ObjdumpBaseline(b, bin)
		objdump += took
		took, _ = nativetest.MeasureCommand(b, nil, "readelf", "--debug-dump=info", bin)
		readelf += took
		discovery += timed(func(a *App) error {
			res, err := a.ListProcedures(context.Background(), NativeRequest{InputPath: bin, Limit: 1}, nil)
			if err == nil {
				procs = res.Result.Procedures.Total
			}
			return err
		})
		strippedDiscovery += timed(func(a *App) error {
			res, err := a.ListProcedures(context.Background(), NativeRequest{InputPath: stripped, Limit: 1}, nil)
			if err == nil {
				strippedProcs = res.Result.Procedures.Total
			}
			return err
		})
		types += timed(func(a *App) error {
			_, err := a.ListTypes(context.Background(), NativeRequest{InputPath: bin, Limit: 1}, nil)
			return err
		})
		diff += timed(func(a *App) error {
			res, err := a.DiffBinaries(context.Background(), DiffBinariesRequest{NativeRequest: NativeRequest{InputPath: bin, Limit: 1}, OtherPath: stripped}, nil)
			if err == nil {
				changed, unchanged = res.Result.Summary.Changed, res.Result.Summary.Unchanged
			}
			return err
		})
		n++
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(n) }
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(float64(procs), "procedures")
	b.ReportMetric(float64(strippedProcs), "stripped-procedures")
	b.ReportMetric(per(discovery), "discovery-s")
	b.ReportMetric(per(strippedDiscovery), "stripped-discovery-s")
	b.ReportMetric(per(types), "types-s")
	b.ReportMetric(per(diff), "diff-s")
	b.ReportMetric(float64(changed), "diff-changed")
	b.ReportMetric(float64(unchanged), "diff-unchanged")
	b.ReportMetric(per(objdump), "objdump-s")
	b.ReportMetric(per(readelf), "readelf-debug-s")
	b.ReportMetric(per(discovery)/per(objdump), "discovery-x-objdump")
	b.ReportMetric(per(diff)/per(objdump), "diff-x-objdump")
	b.ReportMetric(per(types)/per(readelf), "types-x-readelf")
}
