//go:build linux

package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"rea/wasm/wasmtest"
)

// BenchmarkAnalyzeApplicationPeakRSS runs `rea analyze-javascript-application`
// cold (empty result cache, compiled modules cached) and reports the
// process's peak RSS (issue 22: ≤ 250 MB) and CPU. It asserts nothing about
// either: peak-MiB is what to read. The fixtures are a TypeScript app (the
// normaliser loads) and a CommonJS one; REA_BENCH_RSS_APP adds a real
// application directory (e.g. build/realworld/_theia_core_1.75.0/package/lib).
func BenchmarkAnalyzeApplicationPeakRSS(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	dir := wasmtest.ModuleDir(b)
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	apps := map[string]string{
		"typescript": filepath.Join(root, "testdata/electron/typescript"),
		"insecure":   filepath.Join(root, "testdata/electron/insecure"),
	}
	if app := os.Getenv("REA_BENCH_RSS_APP"); app != "" {
		apps["REA_BENCH_RSS_APP"] = app
	}
	for name, app := range apps {
		b.Run(name, func(b *testing.B) {
			var peak int64
			var cpu float64
			for range b.N {
				cmd := exec.Command(bin, "analyze-javascript-application", app, "--format", "json",
					"--fail-on-partial=false", "--max-ast-nodes", "20000000")
				cmd.Env = append(os.Environ(), moduleEnv(dir)...)
				cmd.Env = append(cmd.Env, "REA_RESULT_CACHE_DIR="+b.TempDir())
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				peak = max(peak, ru.Maxrss) // KiB on Linux
				cpu += float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
			}
			b.ReportMetric(float64(peak)/1024, "peak-MiB")
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
		})
	}
}
