package unknowns

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"rea/host/evidence"
)

// FuzzParse feeds arbitrary bytes to the residual-unknown parser: it must
// never panic, and whatever it accepts must be a fixed point (its canonical
// form parses to the same revision digest and satisfies Validate).
// testdata/fuzz/FuzzParse holds seeds; the registry's own output is added
// here so mutations start from valid records.
func FuzzParse(f *testing.F) {
	l := evidence.NewLedger(evidence.Limits{})
	obs := observation(f, 1, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil)
	retain(f, l, obs)
	r := New(l)
	a := mustRecord(f, r, Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: []string{obs.EvidenceID}})
	m, err := r.Update(context.Background(), a.UnknownID, 1, map[string]json.RawMessage{
		"status":     raw("resolved"),
		"resolution": raw(Resolution{Disposition: DispositionVerified, Rationale: "seen", EvidenceIDs: []string{obs.EvidenceID}}),
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(must(a.Canonical()))
	f.Add(must(m.Unknown.Canonical()))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := Parse(data)
		if err != nil {
			return
		}
		if verr := u.Validate(); verr != nil {
			t.Fatalf("Parse accepted a record Validate refuses: %v", verr)
		}
		again, err := Parse(must(u.Canonical()))
		if err != nil {
			t.Fatalf("the canonical form of an accepted record does not parse: %v", err)
		}
		if again.RevisionDigest != u.RevisionDigest || !bytes.Equal(must(again.Canonical()), must(u.Canonical())) {
			t.Fatal("parse is not a fixed point")
		}
	})
}
