package executable

import (
	"os"
	"testing"
	"time"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

// BenchmarkLayoutAndProcedureDiscovery opens rea's own binary (≥ 30 MB)
// and discovers every procedure by a full linear sweep, natively, against
// objdump -d of the same file.
func BenchmarkLayoutAndProcedureDiscovery(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	objdump, objRSS := nativetest.ObjdumpBaseline(b, bin)
	fh, err := os.Open(bin)
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	var a *Analysis
	start := time.Now()
	n := 0
	for b.Loop() {
		f, err := Open(fh, st.Size(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if a, err = Analyze(f, AnalyzeOptions{}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	per := time.Since(start) / time.Duration(n)
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(float64(len(a.Procedures)), "procedures")
	b.ReportMetric(float64(a.Instructions)/per.Seconds()/1e6, "Minstr/s")
	b.ReportMetric(objdump.Seconds(), "objdump-s")
	b.ReportMetric(float64(objRSS)/(1<<20), "objdump-peak-rss-MiB")
	b.ReportMetric(per.Seconds()/objdump.Seconds(), "x-objdump")
}
