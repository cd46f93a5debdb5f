package evidence

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// megabyteResult is a ~1 MB normalized_result shaped like analysis output:
// many small objects with strings and numbers.
func megabyteResult(b *testing.B) json.RawMessage {
	b.Helper()
	var sb strings.Builder
	sb.WriteString(`{"modules":[`)
	for i := 0; sb.Len() < 1<<20; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"path":"src/module_%d.js","size":%d,"exports":["init","render","dispose"],"ratio":%g,"electron":{"ipc":"channel-%d","contextIsolation":%t}}`,
			i, i*37, float64(i)/7, i%13, i%2 == 0)
	}
	sb.WriteString(`]}`)
	return json.RawMessage(sb.String())
}

func BenchmarkSealRecordWith1MBResult(b *testing.B) {
	result := megabyteResult(b)
	d := testDraft()
	d.NormalizedResult = result
	b.SetBytes(int64(len(result)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseRecordWith1MBResult(b *testing.B) {
	d := testDraft()
	d.NormalizedResult = megabyteResult(b)
	r := mustNew(b, d)
	b.SetBytes(int64(len(r.Canonical())))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(r.Canonical()); err != nil {
			b.Fatal(err)
		}
	}
}
