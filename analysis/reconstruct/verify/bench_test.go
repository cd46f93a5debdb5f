package verify

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkEvaluate100Claims is the pure cost of 100 claims natively; the
// sandboxed cost is measured in host/app.
func BenchmarkEvaluate100Claims(b *testing.B) {
	var recs []Record
	var claims []Claim
	for i := 0; i < 100; i++ {
		r := comparison(fmt.Sprint("bench", i), "unchanged", "calls", "unchanged")
		recs = append(recs, r)
		claims = append(claims, Claim{ClaimID: fmt.Sprint("c", i), Kind: KindStructuralFunction, EvidenceID: r.EvidenceID, Dimension: "calls"})
	}
	req := Request{Specification: spec(claims...), Comparisons: recs}
	wire, _ := json.Marshal(req)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r Request
		if err := json.Unmarshal(wire, &r); err != nil {
			b.Fatal(err)
		}
		res, err := Evaluate(r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(res); err != nil {
			b.Fatal(err)
		}
	}
}
