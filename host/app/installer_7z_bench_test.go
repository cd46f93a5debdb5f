package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"rea/analysis/artifact/inventory"
)

// BenchmarkSevenZipVersusTool inspects (inventory, then every member
// decoded and hashed) a ≥ 200 MiB 7z archive written by the real 7z and
// times `7z x` unpacking the same file in the same run. The target
// is within 1.5x of the tool. The tree is writeBenchTree's (half random,
// half token text); the archive is 7z's default LZMA2 at -mx=5 (solid, with
// the BCJ filters 7z chooses).
// Run: go test -run XXX -bench SevenZipVersusTool -benchtime 1x ./host/app/
func BenchmarkSevenZipVersusTool(b *testing.B) {
	if _, err := exec.LookPath("7z"); err != nil {
		b.Fatal("7z is needed: apt-get install -y p7zip-full")
	}
	a := newArtifactApp(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	files := writeBenchTree(b, root, 360<<20)
	archive := filepath.Join(dir, "bench.7z")
	run(b, filepath.Join(root, "opt"), "7z", "a", "-bd", "-mx=5", archive, ".")
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: archive, Limits: inventory.Limits{MaxTotalBytes: 1 << 30}}}
	exec.Command("cat", archive).Run() // warm the page cache
	if _, err := a.InspectArtifact(context.Background(), req, nil); err != nil {
		b.Fatal(err) // and the module compile cache
	}
	b.ResetTimer()
	var ours, theirs time.Duration
	for i := range b.N {
		out := filepath.Join(b.TempDir(), fmt.Sprint("x", i))
		theirs += run(b, dir, "7z", "x", "-bd", "-o"+out, archive)
		os.RemoveAll(out)
		t0 := time.Now()
		res, err := a.InspectArtifact(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		ours += time.Since(t0)
		if res.Inventory.Counts.Verified < files {
			b.Fatalf("verified %d of %d files", res.Inventory.Counts.Verified, files)
		}
	}
	st, _ := os.Stat(archive)
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(ours.Seconds()/float64(b.N), "inspect-s")
	b.ReportMetric(theirs.Seconds()/float64(b.N), "tool-s")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "x-tool")
}
