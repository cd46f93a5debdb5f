package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"rea/analysis/jssource/sourcewire"
	"rea/jsengine/jstest"
	"rea/wasm/wasmtest"
)

// BenchmarkReadJavaScriptSourceOneMegabyteMinified is issue 23's speed
// point: read_javascript_source through the service (inventory, then the
// source module) at a new position of a 1 MB minified webpack bundle each
// time, warm: modules compiled, the bundle's module list cached by its
// digest (the first read pays for that parse; it is reported apart).
func BenchmarkReadJavaScriptSourceOneMegabyteMinified(b *testing.B) {
	src := jstest.Bundle(1600 << 10)
	min := api.Transform(src, api.TransformOptions{MinifyWhitespace: true, LogLevel: api.LogLevelSilent})
	if len(min.Errors) > 0 || len(min.Code) < 1<<20 {
		b.Fatalf("minify: %d bytes, %v", len(min.Code), min.Errors)
	}
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "main.js"), min.Code, 0o644); err != nil {
		b.Fatal(err)
	}
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(b, "artifact", SourceModule)})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()
	code := string(min.Code)
	// Positions of the IPC registrations, spread over the bundle.
	var at []int
	for i := 0; ; {
		j := strings.Index(code[i:], "ipcMain.handle(")
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + 1
	}
	read := func(off int) *sourcewire.ReadResult {
		rec, err := a.ReadJavaScriptSource(ctx, ReadSourceRequest{SourceInput: SourceInput{InputPath: dir},
			ReadRequest: sourcewire.ReadRequest{Path: "dist/main.js", Line: 1, Column: off + 1}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		var r SourceResult
		var page sourcewire.ReadResult
		if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(r.Result, &page); err != nil {
			b.Fatal(err)
		}
		return &page
	}
	start := time.Now()
	first := read(at[0])
	firstRead := time.Since(start) // reported at the end: ResetTimer drops reported metrics
	if first.View != "pretty" || first.Module == nil {
		b.Fatalf("first read: view %s module %+v %v", first.View, first.Module, first.Limitations)
	}
	b.SetBytes(int64(len(code)))
	cpu := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		page := read(at[(i*7919+1)%len(at)])
		if page.View != "pretty" || page.Module == nil || len(page.Lines) == 0 {
			b.Fatalf("view %s module %+v", page.View, page.Module)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "warm-ms")
	// The CPU the reads took (every thread of this process: inventory,
	// guest code, host): what the wall time would be on an idle core.
	b.ReportMetric(float64((processCPU()-cpu).Milliseconds())/float64(b.N), "warm-cpu-ms")
	b.ReportMetric(firstRead.Seconds(), "first-read-s")
}
