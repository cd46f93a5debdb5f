package jsengine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/jsengine/jstest"
)

func BenchmarkAnalyzeFixtures(b *testing.B) {
	for _, fx := range []string{"secure", "insecure", "typescript", "esm", "bundled"} {
		b.Run(fx, func(b *testing.B) {
			fsys := os.DirFS(filepath.Join(fixtures, fx))
			for i := 0; i < b.N; i++ {
				if _, err := Analyze(context.Background(), fsys, Options{}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyzeOneMegabyteBundle(b *testing.B) {
	fsys := jstest.BundleApp(1 << 20)
	b.SetBytes(int64(len(fsys["dist/main.js"].Data)))
	b.ResetTimer()
	var r *Result
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Analyze(context.Background(), fsys, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(r.Bundles) != 1 || len(r.Windows) != 1 || r.Coverage.Status != "complete" {
		b.Fatalf("bundles %d windows %d coverage %s", len(r.Bundles), len(r.Windows), r.Coverage.Status)
	}
	b.ReportMetric(float64(len(r.Bundles[0].Modules)), "modules")
	b.ReportMetric(float64(r.Statistics.VisitedASTNodes), "ast-nodes")
}

func TestGeneratedBundleIsAnalysedCompletely(t *testing.T) {
	src := jstest.Bundle(64 << 10)
	r, err := Analyze(context.Background(), fstest.MapFS{"main.js": {Data: []byte(src)}}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(src, `"./src/mod`)
	if len(r.Bundles) != 1 || len(r.Bundles[0].Modules) != n+2 {
		t.Fatalf("bundles %+v, want %d modules", len(r.Bundles), n+2)
	}
	if r.Summary.IPC.MainHandlers != n || r.Summary.IPC.LiteralChannels != n {
		t.Fatalf("ipc summary %+v, want %d handlers on %d channels", r.Summary.IPC, n, n)
	}
	if !hasFinding(r, wantFinding{"context-isolation-disabled", "main.js", 4, 87, "inferred"}) {
		t.Fatalf("helper-returned contextIsolation:false not found:\n%s", listFindings(r))
	}
}

// BenchmarkAnalyzeGeneratedApp is the scale point: 3,000 modules,
// about 50 MB of JavaScript.
func BenchmarkAnalyzeGeneratedApp(b *testing.B) {
	fsys := jstest.App(3000, 17<<10)
	b.SetBytes(int64(jstest.Size(fsys)))
	b.ResetTimer()
	var r *Result
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Analyze(context.Background(), fsys, Options{MaxASTNodes: 50_000_000}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if r.Coverage.Status != "complete" || r.Summary.IPC.MainHandlers != 3000 {
		b.Fatalf("coverage %+v handlers %d", r.Coverage, r.Summary.IPC.MainHandlers)
	}
	b.ReportMetric(float64(len(r.Modules)), "modules")
}
