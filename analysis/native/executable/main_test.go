package executable

import (
	"os"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

func TestMain(m *testing.M) { wasmtest.Main(m, nativetest.Cleanup) }

// openPath opens a fixture and fails the test on error.
func openPath(t testing.TB, p string, opt Options) *File {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	f, err := Open(fh, st.Size(), opt)
	if err != nil {
		t.Fatalf("Open(%s): %v", p, err)
	}
	return f
}

func analyzePath(t testing.TB, p string) *Analysis {
	t.Helper()
	a, err := Analyze(openPath(t, p, Options{}), AnalyzeOptions{References: true, Strings: true})
	if err != nil {
		t.Fatalf("Analyze(%s): %v", p, err)
	}
	return a
}

func mitigation(f *File, name string) Mitigation {
	for _, m := range f.Mitigations {
		if m.Name == name {
			return m
		}
	}
	return Mitigation{Name: name, Status: "missing"}
}
