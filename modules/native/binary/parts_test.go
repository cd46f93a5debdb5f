package binary

import (
	"encoding/json"
	"errors"
	"testing"

	"rea/modules/abi"
	"rea/modules/native/nativetest"
	"rea/wasm/wasmtest"
)

// inventoryJSON is everything an Analysis reports, as bytes to compare.
func inventoryJSON(t *testing.T, a *Analysis) []byte {
	t.Helper()
	b, err := json.Marshal([]any{a.Procedures, a.Names, a.Calls, a.References, a.Strings,
		a.Instructions, a.CodeBytes, a.StringCount, a.ReferenceCount, a.StringsTruncated, a.Limitations})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sweepParts(t *testing.T, f *File, n int) [][]byte {
	t.Helper()
	parts := make([][]byte, n)
	for k := range parts {
		b, err := SweepPart(f, k, n, nil)
		if err != nil {
			t.Fatalf("part %d of %d: %v", k, n, err)
		}
		parts[k] = b
	}
	return parts
}

func TestPartsAssembleTheSameInventory(t *testing.T) {
	for _, c := range []struct {
		name string
		bin  func(testing.TB) string
		// split says the binary has 0xcc padding to cut at, so every
		// part must have decoded something.
		split bool
	}{
		{"gcc hardened", func(t testing.TB) string { return nativetest.ChainELF(t, "hardened") }, false},
		{"gcc stripped", func(t testing.TB) string { return nativetest.ChainELF(t, "stripped") }, false},
		{"gcc generated", nativetest.GeneratedELF, false},
		{"go linux amd64", func(t testing.TB) string { return nativetest.GoBinary(t, "linux", "amd64") }, true},
		{"go linux 386", func(t testing.TB) string { return nativetest.GoBinary(t, "linux", "386") }, true},
		{"go windows amd64", func(t testing.TB) string { return nativetest.GoBinary(t, "windows", "amd64") }, true},
		{"go darwin arm64", func(t testing.TB) string { return nativetest.GoBinary(t, "darwin", "arm64") }, false},
		{"rea itself", wasmtest.ReaBinary, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := openPath(t, c.bin(t), Options{})
			whole, err := Analyze(f, AnalyzeOptions{CountOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			want := inventoryJSON(t, whole)
			for _, n := range []int{1, 2, 3, 7} {
				parts := sweepParts(t, f, n)
				got, err := Analyze(f, AnalyzeOptions{CountOnly: true, Parts: parts})
				if err != nil {
					t.Fatalf("%d parts: %v", n, err)
				}
				if string(inventoryJSON(t, got)) != string(want) {
					t.Fatalf("%d parts assemble another inventory than one sweep: %d procedures, %d calls, %d instructions; one sweep %d, %d, %d",
						n, len(got.Procedures), len(got.Calls), got.Instructions, len(whole.Procedures), len(whole.Calls), whole.Instructions)
				}
				if c.split && n > 1 {
					for k, b := range parts {
						p, err := decodePart(b, k, n)
						if err != nil {
							t.Fatal(err)
						}
						if p.instructions == 0 {
							t.Errorf("%d parts: part %d decoded nothing; the cut found no padding to start at", n, k)
						}
					}
				}
			}
		})
	}
}

func TestPartsThatDoNotJoinUpAreRefused(t *testing.T) {
	f := openPath(t, nativetest.GoBinary(t, "linux", "amd64"), Options{})
	parts := sweepParts(t, f, 3)
	for _, c := range []struct {
		name  string
		parts [][]byte
	}{
		{"out of order", [][]byte{parts[0], parts[2], parts[1]}},
		{"one missing", [][]byte{parts[0], parts[2]}},
		{"truncated", [][]byte{parts[0], parts[1][:len(parts[1])/2], parts[2]}},
		{"not a part", [][]byte{parts[0], []byte("hello"), parts[2]}},
	} {
		_, err := Analyze(f, AnalyzeOptions{CountOnly: true, Parts: c.parts})
		var typed *abi.Error
		if err == nil || !errors.As(err, &typed) || typed.Code != abi.CodeInternal {
			t.Errorf("%s: assembled with error %v, want an internal error", c.name, err)
		}
	}
}
