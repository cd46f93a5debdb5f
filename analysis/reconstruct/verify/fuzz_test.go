package verify

import (
	"encoding/json"
	"testing"
)

// FuzzEvaluateComparisonResult feeds arbitrary comparison results to a
// one-claim specification: evaluation never panics, every claim gets one of
// the three statuses, and a claim only passes when its comparison reports
// "unchanged" for the claimed dimension.
func FuzzEvaluateComparisonResult(f *testing.F) {
	f.Add([]byte(`{"status":"unchanged","left_evidence_id":"`+left+`","right_evidence_id":"`+right+`"}`), "overall")
	f.Add([]byte(`{"status":"changed","dimensions":{"calls":{"status":"unchanged","limitations":[]}}}`), "calls")
	f.Add([]byte(`{"dimensions":[{"name":"cfg","status":"truncated"}]}`), "cfg")
	f.Add([]byte(`{"coverage":"complete","summary":{"statuses":{"unchanged":3},"by_kind":{"module":{"unchanged":3}}}}`), "overall")
	f.Add([]byte(`[]`), "overall")
	f.Add([]byte(`{"status":7,"dimensions":"x"}`), "identity")
	f.Fuzz(func(t *testing.T, result []byte, dim string) {
		if !json.Valid(result) || !contains(Dimensions(KindStructuralFunction), dim) {
			return
		}
		rec := Record{EvidenceID: id("ev_", "fuzz"), Operation: "compare_functions", EvidenceLinks: []string{left, right}, NormalizedResult: result}
		res, err := Evaluate(Request{Specification: spec(Claim{ClaimID: "c", Kind: KindStructuralFunction, EvidenceID: rec.EvidenceID, Dimension: dim}),
			Comparisons: []Record{rec}})
		if err != nil {
			t.Fatalf("a valid specification failed: %v", err)
		}
		c := res.Claims[0]
		if c.Status != Pass && c.Status != Fail && c.Status != Unknown {
			t.Fatalf("status %q", c.Status)
		}
		if c.Status == Pass && c.ObservedStatus != "unchanged" {
			t.Fatalf("passed with observed status %q", c.ObservedStatus)
		}
		if c.Status == Unknown && len(res.RecommendedProbes) == 0 {
			t.Fatal("unknown claim without a probe")
		}
	})
}
