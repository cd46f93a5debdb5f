package zzbench

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"rea/modules/native/binary"
	"rea/modules/native/query"
)

func TestMeasure(t *testing.T) {
	bins, _ := filepath.Glob("/tmp/rea-wasmtest-*/bin/rea")
	p := bins[0]
	fh, _ := os.Open(p)
	st, _ := fh.Stat()
	f, _ := binary.Open(fh, st.Size(), binary.Options{})
	for _, opt := range []binary.AnalyzeOptions{{}, {References: true}, {Strings: true}} {
		start := time.Now()
		a, _ := binary.Analyze(f, opt)
		t.Logf("%+v: %v refs %d strings %d", opt, time.Since(start), len(a.References), len(a.Strings))
	}
	start := time.Now()
	_, err := query.Run("overview", query.Params{Input: filepath.Base(p)}, os.DirFS(filepath.Dir(p)), nil)
	t.Logf("overview %v %v", time.Since(start), err)
}
