package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/unknowns"
	"rea/wasm/wasmtest"
)

func reconstructApp(t testing.TB) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, ReconstructModule), CacheDir: filepath.Join(os.TempDir(), "rea-reconstruct-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

// functionObservation is a stand-in analyze_function record for one side.
func functionObservation(t testing.TB, side string, n int) evidence.Record {
	t.Helper()
	r, err := evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: "test.functions", Name: "test function provider"},
		Operation:        "analyze_function",
		Parameters:       map[string]any{"side": side, "n": n},
		NormalizedResult: map[string]any{"name": fmt.Sprintf("handler_%d", n)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// functionComparison is compare_functions Evidence in REA's shape:
// status, left/right ids and the eight dimensions.
func functionComparison(t testing.TB, left, right evidence.Record, status string, changed ...string) evidence.Record {
	t.Helper()
	dims := map[string]any{}
	for _, d := range []string{"identity", "pseudocode", "assembly", "comments", "calls", "references", "strings_names", "cfg"} {
		st := "unchanged"
		for _, c := range changed {
			if c == d {
				st = "changed"
			}
		}
		dims[d] = map[string]any{"status": st, "limitations": []string{}}
	}
	r, err := evidence.New(evidence.Draft{
		Provider:   evidence.Provider{ID: "rea.compare", Name: "rea comparison"},
		Operation:  "compare_functions",
		Parameters: map[string]any{"left_evidence_ids": []string{left.EvidenceID}, "right_evidence_ids": []string{right.EvidenceID}},
		NormalizedResult: map[string]any{"status": status, "left_evidence_ids": []string{left.EvidenceID},
			"right_evidence_ids": []string{right.EvidenceID}, "dimensions": dims},
		Confidence:    evidence.ConfidenceDerived,
		EvidenceLinks: []string{left.EvidenceID, right.EvidenceID},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func specOf(claims ...map[string]any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"schema_version": 1, "name": "save flow", "claims": claims})
	return b
}

func TestVerifyReconstructionThroughTheSandbox(t *testing.T) {
	a := reconstructApp(t)
	l := evidence.NewLedger(evidence.Limits{})
	l1, r1 := functionObservation(t, "left", 1), functionObservation(t, "right", 1)
	l2, r2 := functionObservation(t, "left", 2), functionObservation(t, "right", 2)
	same := functionComparison(t, l1, r1, "unchanged")
	diff := functionComparison(t, l2, r2, "changed", "calls")
	for _, r := range []evidence.Record{l1, r1, l2, r2, same, diff} {
		if _, err := l.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	spec := specOf(
		map[string]any{"claim_id": "open-dialog", "kind": "structural-function", "evidence_id": same.EvidenceID},
		map[string]any{"claim_id": "save-calls", "kind": "structural-function", "evidence_id": diff.EvidenceID, "dimension": "calls"},
		map[string]any{"claim_id": "save-cfg", "kind": "structural-function", "evidence_id": diff.EvidenceID, "dimension": "cfg"},
	)
	rec, err := a.VerifyReconstruction(context.Background(), VerifyReconstructionRequest{Specification: spec}, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res ReconstructionVerification
	if err := json.Unmarshal(rec.NormalizedResult, &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res.Claims {
		got[c.ClaimID] = c.Status
	}
	if res.Verdict != "fail" || got["open-dialog"] != "pass" || got["save-calls"] != "fail" || got["save-cfg"] != "pass" {
		t.Fatalf("verdict %s, claims %v", res.Verdict, got)
	}
	if rec.Operation != "verify_reconstruction" || rec.Confidence != evidence.ConfidenceDerived || len(rec.EvidenceLinks) != 6 {
		t.Fatalf("evidence: %s %s links %v", rec.Operation, rec.Confidence, rec.EvidenceLinks)
	}

	// An open unknown about the unchanged comparison turns its pass into unknown.
	if _, err := unknowns.New(l).Record(context.Background(), unknowns.Proposal{Question: "Is the dialog's default path the same?", Domain: "electron",
		SupportingEvidenceIDs: []string{same.EvidenceID}}); err != nil {
		t.Fatal(err)
	}
	rec2, err := a.VerifyReconstruction(context.Background(), VerifyReconstructionRequest{Specification: spec}, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res2 ReconstructionVerification
	_ = json.Unmarshal(rec2.NormalizedResult, &res2)
	if res2.Claims[0].Status != "unknown" || len(res2.Claims[0].UnknownIDs) != 1 || len(res2.RecommendedProbes) == 0 {
		t.Fatalf("open unknown: %+v", res2.Claims[0])
	}
	// Same inputs, same Evidence.
	rec3, err := a.VerifyReconstruction(context.Background(), VerifyReconstructionRequest{Specification: spec}, l, nil)
	if err != nil || rec3.EvidenceID != rec2.EvidenceID {
		t.Fatalf("verification is not deterministic: %s vs %s (%v)", rec3.EvidenceID, rec2.EvidenceID, err)
	}
}

func TestVerifyReconstructionNamesAMissingComparison(t *testing.T) {
	a := reconstructApp(t)
	missing := "ev_" + fmt.Sprintf("%064x", 7)
	_, err := a.VerifyReconstruction(context.Background(), VerifyReconstructionRequest{Specification: specOf(
		map[string]any{"claim_id": "c", "kind": "structural-artifact", "evidence_id": missing})}, evidence.NewLedger(evidence.Limits{}), nil)
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeUnavailable || e.Details["evidence_id"] != missing || e.Details["reason"] != "missing" {
		t.Fatalf("want unavailable naming %s, got %v", missing, err)
	}
}

func TestEvaluateReconstructionCoverageThroughTheSandbox(t *testing.T) {
	a := reconstructApp(t)
	ws := json.RawMessage(`{"schema_version":1,"workspace_id":"rcw_demo","boundaries":[{"boundary_id":"ipc","inventory_complete":true,"owners":["main"],
		"surfaces":[{"surface_id":"save","owner_id":"main"}],
		"verifiers":[{"verifier_id":"v","surface_ids":["save"],"authority":"protocol","required_authority":"protocol","max_age_ms":1000,"minimum_repeats":1,"normalization_digest":"n","results":[{"status":"truncated","age_ms":1,"normalization_digest":"n"}]}],
		"contradictions":[]}]}`)
	rec, err := a.EvaluateReconstructionCoverage(context.Background(), EvaluateCoverageRequest{Workspace: ws}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res ReconstructionCoverage
	_ = json.Unmarshal(rec.NormalizedResult, &res)
	if res.Status != "unknown" || len(rec.Limitations) == 0 {
		t.Fatalf("a truncated verifier result leaves coverage unknown: %+v", res)
	}
}

func TestBuildObligationLedgerFromRetainedApplicationEvidence(t *testing.T) {
	a := reconstructApp(t)
	l := evidence.NewLedger(evidence.Limits{})
	appRec, err := evidence.New(evidence.Draft{
		Provider:  evidence.Provider{ID: "rea.javascript-application", Name: "rea JavaScript application analysis"},
		Operation: "analyze_javascript_application",
		NormalizedResult: map[string]any{"application": map[string]any{
			"ipc": []any{map[string]any{"module": "main.js", "side": "main", "channel": "settings:save", "channel_state": "literal"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Add(appRec); err != nil {
		t.Fatal(err)
	}
	var req ObligationLedgerRequest
	req.Manifest.SchemaVersion = 1
	rec, err := a.BuildObligationLedger(context.Background(), req, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res ReconstructionObligationLedger
	_ = json.Unmarshal(rec.NormalizedResult, &res)
	if res.Summary.Total != 1 || res.Obligations[0].ObligationID != "ipc:settings:save" || res.Obligations[0].Status != "unowned" || res.Status != "open" {
		t.Fatalf("ledger: %+v", res)
	}
	if len(rec.EvidenceLinks) != 1 || rec.EvidenceLinks[0] != appRec.EvidenceID {
		t.Fatalf("links %v", rec.EvidenceLinks)
	}
	// An empty session gives an unknown ledger with no obligations.
	rec, err = a.BuildObligationLedger(context.Background(), req, evidence.NewLedger(evidence.Limits{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(rec.NormalizedResult, &res)
	if res.Status != "unknown" || res.Summary.Total != 0 {
		t.Fatalf("empty ledger: %+v", res)
	}
}
