package app

import (
	"context"
	"fmt"
	"testing"

	"rea/host/evidence"
)

// BenchmarkVerifyReconstruction100ClaimsOver1000Records verifies a
// 100-claim specification against a ledger of 1,000 records (100 function
// comparisons, their 200 inputs and 700 unrelated observations) through the
// sandbox with a warm compile cache. Target: ≤ 200 ms per verification.
func BenchmarkVerifyReconstruction100ClaimsOver1000Records(b *testing.B) {
	a := reconstructApp(b)
	l := evidence.NewLedger(evidence.Limits{})
	var claims []map[string]any
	add := func(r evidence.Record) {
		if _, err := l.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		left, right := functionObservation(b, "left", i), functionObservation(b, "right", i)
		var cmp evidence.Record
		if i%10 == 0 {
			cmp = functionComparison(b, left, right, "changed", "calls")
		} else {
			cmp = functionComparison(b, left, right, "unchanged")
		}
		add(left)
		add(right)
		add(cmp)
		claims = append(claims, map[string]any{"claim_id": fmt.Sprint("claim-", i), "kind": "structural-function", "evidence_id": cmp.EvidenceID, "dimension": "calls"})
	}
	for i := 0; l.Len() < 1000; i++ {
		add(functionObservation(b, "filler", 1000+i))
	}
	req := VerifyReconstructionRequest{Specification: specOf(claims...)}
	if _, err := a.VerifyReconstruction(context.Background(), req, l, nil); err != nil { // warm the compile cache
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.VerifyReconstruction(context.Background(), req, l, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyReconstructionOneClaim is the fixed cost: one module
// instance, one claim.
func BenchmarkVerifyReconstructionOneClaim(b *testing.B) {
	a := reconstructApp(b)
	l := evidence.NewLedger(evidence.Limits{})
	left, right := functionObservation(b, "left", 0), functionObservation(b, "right", 0)
	cmp := functionComparison(b, left, right, "unchanged")
	for _, r := range []evidence.Record{left, right, cmp} {
		if _, err := l.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	req := VerifyReconstructionRequest{Specification: specOf(map[string]any{"claim_id": "c", "kind": "structural-function", "evidence_id": cmp.EvidenceID})}
	if _, err := a.VerifyReconstruction(context.Background(), req, l, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.VerifyReconstruction(context.Background(), req, l, nil); err != nil {
			b.Fatal(err)
		}
	}
}
