package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja/parser"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"rea/jsengine/jstest"
	"rea/wasm/wasmtest"
)

// BenchmarkGojaParseFloor measures what sits under the sandbox-to-native ratio: goja's
// parser alone — no rea code — on the 1 MB webpack bundle, natively and as
// Go compiled to wasip1 under wazero's compiler, unmetered and metered (the
// way `make modules` prepares modules), with memory reserved up front and
// GC off as the sandbox runs the jsapp module. Each way reports its fastest
// of five parses, timed inside the guest (natively with GC off too).
// Parsing is about half of the jsapp module's time; the bundle is one file,
// so one instance parses it, and this parse alone takes longer than the
// 4x budget leaves for the whole analysis of that bundle.
// Run: go test -run '^$' -bench GojaParseFloor -benchtime 1x ./modules/jsapp/
func BenchmarkGojaParseFloor(b *testing.B) {
	src := jstest.BundleApp(1 << 20)["dist/main.js"].Data
	const parses = 5
	native := func() (time.Duration, int) {
		defer debug.SetGCPercent(debug.SetGCPercent(-1)) // as in the guest
		runtime.GC()
		best, stmts := time.Duration(1<<62), 0
		for range parses {
			start := time.Now()
			prog, err := parser.ParseFile(nil, "bundle.js", string(src), 0)
			took := time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			best, stmts = min(best, took), len(prog.Body)
		}
		return best, stmts
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithMemoryLimitPages(16384).WithMemoryCapacityFromMax(true))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	const pkg = "./modules/jsapp/testdata/parsefloor"
	plainPath := wasmtest.BuildGuest(b, pkg, "parsefloor")
	meteredPath := wasmtest.MeteredGuest(b, pkg, "parsefloor", b.TempDir())
	compiled := map[string]wazero.CompiledModule{}
	for name, p := range map[string]string{"plain": plainPath, "metered": meteredPath} {
		bin, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if compiled[name], err = rt.CompileModule(ctx, bin); err != nil {
			b.Fatal(err)
		}
	}
	inWazero := func(name string) (time.Duration, int) {
		var out bytes.Buffer
		cfg := wazero.NewModuleConfig().WithName("").WithStdin(bytes.NewReader(src)).WithStdout(&out).WithStderr(os.Stderr).
			WithArgs("parsefloor", strconv.Itoa(parses)).WithSysNanotime().WithSysWalltime()
		mod, err := rt.InstantiateModule(ctx, compiled[name], cfg)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		mod.Close(ctx)
		var times []time.Duration
		stmts := 0
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			f := strings.Fields(l)
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil || len(f) != 2 {
				b.Fatalf("%s printed %q", name, l)
			}
			times = append(times, time.Duration(ns))
			stmts, _ = strconv.Atoi(f[1])
		}
		if len(times) != parses {
			b.Fatalf("%s printed %d parses, want %d", name, len(times), parses)
		}
		return slices.Min(times), stmts
	}
	var tn, tp, tm time.Duration
	for b.Loop() {
		n, sn := native()
		p, sp := inWazero("plain")
		m, sm := inWazero("metered")
		if sn != sp || sn != sm || sn == 0 {
			b.Fatalf("the parses disagree: %d, %d and %d top-level statements", sn, sp, sm)
		}
		tn, tp, tm = tn+n, tp+p, tm+m
	}
	runs := float64(b.N)
	b.ReportMetric(float64(len(src))/(1<<20), "input-MiB")
	b.ReportMetric(tn.Seconds()*1000/runs, "native-ms")
	b.ReportMetric(tp.Seconds()*1000/runs, "wazero-ms")
	b.ReportMetric(tm.Seconds()*1000/runs, "wazero-metered-ms")
	b.ReportMetric(float64(tp)/float64(tn), "x-native")
	b.ReportMetric(float64(tm)/float64(tn), "x-native-metered")
}
