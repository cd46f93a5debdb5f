package executable

import (
	"bytes"
	"errors"
	"testing"

	"rea/abi"
)

// fuzzOpen opens arbitrary bytes and, when they parse, analyses them under
// small limits: every failure must be a typed error and nothing may panic.
func fuzzOpen(t *testing.T, data []byte) {
	lim := Limits{MaxFileBytes: 1 << 20, MaxCodeBytes: 64 << 10, MaxStrings: 1000, MaxSymbols: 10_000, MaxSections: 256, MaxSegments: 256}
	f, err := Open(bytes.NewReader(data), int64(len(data)), Options{Limits: lim})
	if err != nil {
		var e *abi.Error
		if !errors.As(err, &e) {
			t.Fatalf("untyped error %T: %v", err, err)
		}
		return
	}
	a, err := Analyze(f, AnalyzeOptions{References: true, Strings: true})
	if err != nil {
		var e *abi.Error
		if !errors.As(err, &e) {
			t.Fatalf("untyped analysis error %T: %v", err, err)
		}
		return
	}
	// The overview's counts must be the lists' lengths.
	counted, err := Analyze(f, AnalyzeOptions{CountOnly: true})
	if err != nil {
		t.Fatalf("the lists were built but counting failed: %v", err)
	}
	if !a.StringsTruncated && counted.StringCount != len(a.Strings) || counted.ReferenceCount != len(a.References) || len(counted.Procedures) != len(a.Procedures) {
		t.Fatalf("counted %d strings, %d references, %d procedures; listed %d, %d, %d", counted.StringCount, counted.ReferenceCount, len(counted.Procedures), len(a.Strings), len(a.References), len(a.Procedures))
	}
	for i := range a.Procedures {
		if i > 8 {
			break
		}
		if _, err := a.Decode(&a.Procedures[i]); err != nil {
			var e *abi.Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped decode error %T: %v", err, err)
			}
		}
		// The diff's streaming digest reads the same bytes.
		if _, err := a.DigestOf(&a.Procedures[i]); err != nil {
			var e *abi.Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped digest error %T: %v", err, err)
			}
		}
	}
}

// Seeds: the committed corpora under testdata/fuzz hold truncated headers
// of the fixtures; these add the bare magics.
func FuzzOpenELF(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01\x00"))
	f.Add([]byte("\x7fELF\x01\x02\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03"))
	f.Fuzz(fuzzOpen)
}

func FuzzOpenPE(f *testing.F) {
	f.Add([]byte("MZ"))
	f.Add(append([]byte("MZ"), make([]byte, 0x3e)...))
	f.Fuzz(fuzzOpen)
}

func FuzzOpenMachO(f *testing.F) {
	f.Add([]byte("\xcf\xfa\xed\xfe\x0c\x00\x00\x01"))
	f.Add([]byte("\xca\xfe\xba\xbe\x00\x00\x00\x01\x01\x00\x00\x0c\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x20\x00\x00\x00\x0e"))
	f.Fuzz(fuzzOpen)
}
