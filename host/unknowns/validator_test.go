package unknowns

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"rea/abi"
	"rea/host/evidence"
)

// session builds a ledger with two observations, an unknown A resolved as
// verified by one of them, and B depending on A.
func session(t *testing.T) (*evidence.Ledger, Unknown, Unknown) {
	t.Helper()
	l := evidence.NewLedger(evidence.Limits{})
	obs := observation(t, 1, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil)
	con := observation(t, 2, evidence.ConfidenceDerived, evidence.AuthorityShippedArtifact, nil)
	retain(t, l, obs, con)
	r := New(l)
	a := mustRecord(t, r, Proposal{Question: "Which window loads preload.js?", Domain: "electron", SupportingEvidenceIDs: []string{obs.EvidenceID}})
	m, err := r.Update(context.Background(), a.UnknownID, 1, map[string]json.RawMessage{
		"status":     raw("resolved"),
		"resolution": raw(Resolution{Disposition: DispositionVerified, Rationale: "the main window names it", EvidenceIDs: []string{obs.EvidenceID}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	b := mustRecord(t, r, Proposal{Question: "Does the preload expose fs?", Domain: "electron",
		ContradictingEvidenceIDs: []string{con.EvidenceID}, Status: StatusContradicted,
		Relationships: []Relationship{{RelationDependsOn, a.UnknownID}}})
	return l, m.Unknown, b
}

func TestBundleRoundTripKeepsUnknownHistoriesValid(t *testing.T) {
	l, a2, b := session(t)
	path := filepath.Join(t.TempDir(), "bundle.json")
	res, err := evidence.Export(context.Background(), l, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unknowns != 3 {
		t.Fatalf("exported %d unknown revisions, want 3", res.Unknowns)
	}
	bundle, err := evidence.ReadBundleFile(context.Background(), path, evidence.DefaultLimits(), Validator{})
	if err != nil {
		t.Fatalf("a bundle exported from the registry does not validate: %v", err)
	}
	fresh := evidence.NewLedger(evidence.Limits{})
	if _, err := fresh.Import(bundle); err != nil {
		t.Fatal(err)
	}
	heads, err := New(fresh).Heads()
	if err != nil {
		t.Fatal(err)
	}
	if heads[a2.UnknownID].RevisionDigest != a2.RevisionDigest || heads[b.UnknownID].RevisionDigest != b.RevisionDigest {
		t.Fatal("imported heads differ from the exported ones")
	}
	// The imported registry keeps working: CAS continues from revision 2.
	if _, err := New(fresh).Update(context.Background(), a2.UnknownID, 1, map[string]json.RawMessage{"severity": raw("low")}); code(err) != abi.CodeRevisionConflict {
		t.Fatalf("stale revision after import: %v", err)
	}
	m, err := New(fresh).Update(context.Background(), a2.UnknownID, 2, map[string]json.RawMessage{"severity": raw("low")})
	if err != nil || m.Unknown.Revision != 3 {
		t.Fatalf("update after import: %v", err)
	}
}

// TestBundleValidatorRefusesBrokenHistories: one row per rule the bundle
// parser enforces on unknowns.
func TestBundleValidatorRefusesBrokenHistories(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(t *testing.T, records []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown)
		reason string
	}{
		{"a valid bundle is accepted", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			return rs, us
		}, ""},
		{"a gap in a history is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			return rs, without(us, func(u Unknown) bool {
				return u.Revision == 1 && u.Status == StatusOpen && len(u.SupportingEvidenceIDs) == 1
			})
		}, "gap"},
		{"a broken previous digest chain is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			for i, u := range us {
				if u.Revision == 2 {
					bad := u
					other := "ff" + u.RevisionDigest[2:]
					bad.PreviousRevisionDigest = &other
					forged, rec := forge(t, nil, bad)
					us[i] = forged
					rs = append(rs, rec)
				}
			}
			return rs, us
		}, "broken-chain"},
		{"an edited revision is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			us[0].Severity = SeverityCritical // digest no longer matches
			return rs, us
		}, "digest-mismatch"},
		{"missing supporting evidence is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			return withoutRecord(rs, func(r evidence.Record) bool {
				return r.Operation == "observe" && r.Confidence == evidence.ConfidenceObserved
			}), us
		}, "missing-evidence"},
		{"a missing mutation record is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			return withoutRecord(rs, func(r evidence.Record) bool { return r.EvidenceID == us[0].MutationEvidenceIDs[0] }), us
		}, "missing-evidence"},
		{"a mutation record of another revision is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			a, b := us[0], us[1]
			a.MutationEvidenceIDs = b.MutationEvidenceIDs
			if err := a.Seal(); err != nil {
				t.Fatal(err)
			}
			us[0] = a
			return rs, us
		}, "mutation-mismatch"},
		{"a missing related unknown is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			return rs, without(us, func(u Unknown) bool { return u.Domain == "electron" && u.Question == "Which window loads preload.js?" })
		}, "missing-related-unknown"},
		{"a depends-on cycle is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			var head Unknown
			var depender string
			for _, u := range us {
				if u.Question == "Which window loads preload.js?" && u.Revision == 2 {
					head = u
				}
				if len(u.Relationships) > 0 {
					depender = u.UnknownID
				}
			}
			next := head
			next.Relationships = []Relationship{{RelationDependsOn, depender}}
			forged, rec := forge(t, &head, next)
			return append(rs, rec), append(us, forged)
		}, "depends-on-cycle"},
		{"a verified resolution without qualifying evidence is refused", func(t *testing.T, rs []evidence.Record, us []Unknown) ([]evidence.Record, []Unknown) {
			var head Unknown
			for _, u := range us {
				if u.Question == "Which window loads preload.js?" && u.Revision == 2 {
					head = u
				}
			}
			weak := observation(t, 3, evidence.ConfidenceInferred, evidence.AuthorityAnalystInference, nil)
			next := head
			next.SupportingEvidenceIDs = []string{weak.EvidenceID}
			next.Resolution = &Resolution{Disposition: DispositionVerified, Rationale: "guess", EvidenceIDs: []string{weak.EvidenceID}}
			forged, rec := forge(t, &head, next)
			return append(rs, rec, weak), append(us, forged)
		}, "unqualified-verified-resolution"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, _, _ := session(t)
			var us []Unknown
			for _, eu := range l.Unknowns() {
				u, err := Parse(eu.JSON)
				if err != nil {
					t.Fatal(err)
				}
				us = append(us, u)
			}
			rs, us := tc.edit(t, l.Records(), us)
			var eus []evidence.Unknown
			for _, u := range us {
				eus = append(eus, evidence.Unknown{UnknownID: u.UnknownID, Revision: u.Revision, JSON: must(u.Canonical())})
			}
			b, err := evidence.NewBundle(rs, eus)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := b.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			_, err = evidence.ParseBundle(context.Background(), buf.Bytes(), Validator{})
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("valid bundle refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want refusal %s, got success", tc.reason)
			}
			if got := detail(err, "reason"); got != tc.reason {
				t.Fatalf("want reason %s, got %v (%v)", tc.reason, got, err)
			}
			if c := code(err); c == "" || c == abi.CodeInternal {
				t.Fatalf("untyped error: %v", err)
			}
		})
	}
}

func without(us []Unknown, drop func(Unknown) bool) []Unknown {
	var out []Unknown
	for _, u := range us {
		if !drop(u) {
			out = append(out, u)
		}
	}
	return out
}

func withoutRecord(rs []evidence.Record, drop func(evidence.Record) bool) []evidence.Record {
	var out []evidence.Record
	for _, r := range rs {
		if !drop(r) {
			out = append(out, r)
		}
	}
	return out
}
