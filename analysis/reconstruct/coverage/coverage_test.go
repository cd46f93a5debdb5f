package coverage

import (
	"encoding/json"
	"testing"
)

func owner(s string) *string { return &s }

// healthy is a boundary whose one surface passes.
func healthy() Boundary {
	return Boundary{
		BoundaryID: "ipc", InventoryComplete: true, Owners: []string{"main-process"},
		Surfaces: []Surface{{SurfaceID: "save-file", OwnerID: owner("main-process")}},
		Verifiers: []Verifier{{VerifierID: "ipc-replay", SurfaceIDs: []string{"save-file"}, Authority: "packaged-process",
			RequiredAuthority: "protocol", MaxAgeMS: 60000, MinimumRepeats: 2, NormalizationDigest: "n1",
			Results: []Run{{Status: "pass", AgeMS: 10, NormalizationDigest: "n1"}, {Status: "pass", AgeMS: 20, NormalizationDigest: "n1"}}}},
		Contradictions: []Contradiction{},
	}
}

func evaluate(t *testing.T, b Boundary) Result {
	t.Helper()
	ws, _ := json.Marshal(Workspace{SchemaVersion: 1, WorkspaceID: "rcw_test", Boundaries: []Boundary{b}})
	res, err := Evaluate(Request{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBoundaryStatusFailsClosed: one row per diagnostic.
func TestBoundaryStatusFailsClosed(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(b *Boundary)
		status string
		code   string
	}{
		{"owned, inventoried, fresh repeated passes is pass", func(b *Boundary) {}, Pass, ""},
		{"incomplete inventory is partial", func(b *Boundary) { b.InventoryComplete = false }, Partial, "missing-inventory"},
		{"a surface without owner is partial", func(b *Boundary) { b.Surfaces[0].OwnerID = nil }, Partial, "missing-ownership"},
		{"an undeclared owner fails", func(b *Boundary) { b.Surfaces[0].OwnerID = owner("renderer") }, Fail, "missing-owner"},
		{"a contradiction fails", func(b *Boundary) {
			b.Contradictions = []Contradiction{{SurfaceID: "save-file", EvidenceIDs: []string{"ev_x"}, Note: "writes elsewhere"}}
		}, Fail, "contradiction"},
		{"a failed result fails", func(b *Boundary) { b.Verifiers[0].Results[1].Status = "fail" }, Fail, "failed"},
		{"a stale result is unknown", func(b *Boundary) { b.Verifiers[0].Results[1].AgeMS = 60001 }, Unknown, "stale"},
		{"weak authority is unknown", func(b *Boundary) { b.Verifiers[0].Authority = "unit" }, Unknown, "weak-authority"},
		{"a truncated result is unknown", func(b *Boundary) { b.Verifiers[0].Results[0].Status = "truncated" }, Unknown, "truncated"},
		{"a skipped result is unknown", func(b *Boundary) { b.Verifiers[0].Results[0].Status = "skipped" }, Unknown, "skipped"},
		{"an unsupported result is unknown", func(b *Boundary) { b.Verifiers[0].Results[0].Status = "unsupported" }, Unknown, "unsupported"},
		{"an unresolved result is unknown", func(b *Boundary) { b.Verifiers[0].Results[0].Status = "unknown" }, Unknown, "unknown"},
		{"too few repeats is unknown", func(b *Boundary) { b.Verifiers[0].MinimumRepeats = 3 }, Unknown, "insufficient-repeats"},
		{"another normalization is unknown", func(b *Boundary) { b.Verifiers[0].Results[0].NormalizationDigest = "n2" }, Unknown, "normalization-mismatch"},
		{"no verifier is unknown", func(b *Boundary) { b.Verifiers = nil }, Unknown, "missing-verifier"},
		{"fail outranks unknown and partial", func(b *Boundary) {
			b.InventoryComplete = false
			b.Verifiers[0].Results[0].Status = "skipped"
			b.Verifiers[0].Results[1].Status = "fail"
		}, Fail, "failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := healthy()
			tc.edit(&b)
			res := evaluate(t, b)
			br := res.Boundaries[0]
			if br.Status != tc.status || res.Status != tc.status {
				t.Fatalf("status %s (workspace %s), want %s: %+v", br.Status, res.Status, tc.status, br)
			}
			var codes []string
			for _, d := range br.Diagnostics {
				codes = append(codes, d.Code)
			}
			for _, s := range br.Surfaces {
				for _, d := range s.Diagnostics {
					codes = append(codes, d.Code)
				}
			}
			if tc.code == "" && len(codes) != 0 {
				t.Fatalf("pass with diagnostics %v", codes)
			}
			if tc.code != "" && !contains(codes, tc.code) {
				t.Fatalf("want diagnostic %s, got %v", tc.code, codes)
			}
		})
	}
}

func TestWorkspaceValidation(t *testing.T) {
	bad := []string{
		`{"schema_version":2,"workspace_id":"rcw_a","boundaries":[]}`,
		`{"schema_version":1,"workspace_id":"a","boundaries":[{"boundary_id":"b","inventory_complete":true,"owners":[],"surfaces":[],"verifiers":[],"contradictions":[]}]}`,
		`{"schema_version":1,"workspace_id":"rcw_a","boundaries":[]}`,
		`{"schema_version":1,"workspace_id":"rcw_a","boundaries":[{"boundary_id":"b","inventory_complete":true,"owners":[],"surfaces":[],"verifiers":[{"verifier_id":"v","surface_ids":["nowhere"],"authority":"unit","required_authority":"unit","max_age_ms":1,"minimum_repeats":1,"normalization_digest":"","results":[]}],"contradictions":[]}]}`,
		`{"schema_version":1,"workspace_id":"rcw_a","boundaries":[],"extra":1}`,
	}
	for _, b := range bad {
		if _, err := Evaluate(Request{Workspace: json.RawMessage(b)}); err == nil {
			t.Errorf("accepted %s", b)
		}
	}
	ws, _ := json.Marshal(Workspace{SchemaVersion: 1, WorkspaceID: "rcw_x", Boundaries: []Boundary{healthy()}})
	if _, err := Evaluate(Request{Workspace: ws, BoundaryID: "missing"}); err == nil {
		t.Error("an unknown boundary_id is refused")
	}
}
