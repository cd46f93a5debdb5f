package unknowns

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	"rea/abi"
	"rea/host/evidence"
)

func TestUnknownIDIsHashOfDomainCollapsedQuestionAndScope(t *testing.T) {
	scope := strings.Repeat("ab", 32)
	// Independent derivation: JCS by hand-written key order, hashed here.
	doc := `{"domain":"ipc","question":"Which handler answers save-file?","scope_digest":"` + scope + `"}`
	c, err := jcs.Transform([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c)
	want := "unk_" + hex.EncodeToString(sum[:])
	if got := must(DeriveID("ipc", "  Which handler\n\tanswers   save-file? ", &scope)); got != want {
		t.Fatalf("id %s, want %s", got, want)
	}
	if must(DeriveID("ipc", "Which handler answers save-file?", nil)) == want {
		t.Fatal("scope must enter the id")
	}
	if must(DeriveID("net", "Which handler answers save-file?", &scope)) == want {
		t.Fatal("domain must enter the id")
	}
}

func TestRecordWritesRevisionOneWithNullPreviousDigestAndAMutationRecord(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	m, err := r.Record(context.Background(), Proposal{Question: "Is the updater signed?", Domain: "packaging"})
	if err != nil {
		t.Fatal(err)
	}
	u := m.Unknown
	if u.Revision != 1 || u.PreviousRevisionDigest != nil || u.Status != StatusOpen || u.Severity != SeverityMedium || u.RequiredConfidence != evidence.ConfidenceObserved {
		t.Fatalf("defaults: %+v", u)
	}
	rec, ok := l.Lookup(m.MutationEvidenceID)
	if !ok || rec.PredicateType != MutationPredicate || rec.Operation != "record_unknown" {
		t.Fatalf("mutation record %s not retained as %s: %+v", m.MutationEvidenceID, MutationPredicate, rec)
	}
	var res MutationResult
	if err := json.Unmarshal(rec.NormalizedResult, &res); err != nil || res.StateDigest != must(u.StateDigest()) || res.Revision != 1 {
		t.Fatalf("mutation record does not bind revision 1: %+v %v", res, err)
	}
	if len(u.MutationEvidenceIDs) != 1 || u.MutationEvidenceIDs[0] != rec.EvidenceID {
		t.Fatalf("mutation_evidence_ids %v", u.MutationEvidenceIDs)
	}
	back, err := Parse(must(u.Canonical()))
	if err != nil || back.RevisionDigest != u.RevisionDigest {
		t.Fatalf("the stored revision does not parse back: %v", err)
	}
	if got := l.Unknowns(); len(got) != 1 || got[0].UnknownID != u.UnknownID {
		t.Fatalf("ledger unknowns %v", got)
	}
}

func TestRecordingTheSameQuestionTwiceIsAConflict(t *testing.T) {
	r := New(evidence.NewLedger(evidence.Limits{}))
	mustRecord(t, r, Proposal{Question: "Who calls init?", Domain: "native"})
	_, err := r.Record(context.Background(), Proposal{Question: "Who  calls\ninit?", Domain: "native"})
	if code(err) != abi.CodeRevisionConflict {
		t.Fatalf("want revision_conflict, got %v", err)
	}
}

func TestUpdateChainsRevisionsByDigest(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	u1 := mustRecord(t, r, Proposal{Question: "q", Domain: "d"})
	m, err := r.Update(context.Background(), u1.UnknownID, 1, map[string]json.RawMessage{"status": raw("investigating"), "severity": raw("high")})
	if err != nil {
		t.Fatal(err)
	}
	u2 := m.Unknown
	if u2.Revision != 2 || u2.PreviousRevisionDigest == nil || *u2.PreviousRevisionDigest != u1.RevisionDigest || u2.Severity != SeverityHigh {
		t.Fatalf("revision 2: %+v", u2)
	}
	rec, _ := l.Lookup(m.MutationEvidenceID)
	if !containsString(rec.EvidenceLinks, u1.MutationEvidenceIDs[0]) {
		t.Fatalf("update's mutation record should link the previous mutation record: %v", rec.EvidenceLinks)
	}
}

func containsString(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestStaleRevisionIsRefusedAndNothingChanges(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	u1 := mustRecord(t, r, Proposal{Question: "q", Domain: "d"})
	if _, err := r.Update(context.Background(), u1.UnknownID, 1, map[string]json.RawMessage{"severity": raw("low")}); err != nil {
		t.Fatal(err)
	}
	beforeRecords, beforeUnknowns := l.Len(), len(l.Unknowns())
	_, err := r.Update(context.Background(), u1.UnknownID, 1, map[string]json.RawMessage{"severity": raw("critical")})
	if code(err) != abi.CodeRevisionConflict || detail(err, "current_revision") != int64(2) {
		t.Fatalf("want revision_conflict at current 2, got %v", err)
	}
	if l.Len() != beforeRecords || len(l.Unknowns()) != beforeUnknowns {
		t.Fatal("a refused update changed the ledger")
	}
	heads, _ := r.Heads()
	if heads[u1.UnknownID].Severity != SeverityLow {
		t.Fatalf("head changed: %+v", heads[u1.UnknownID])
	}
}

func TestUpdateCannotChangeIdentityFields(t *testing.T) {
	r := New(evidence.NewLedger(evidence.Limits{}))
	u := mustRecord(t, r, Proposal{Question: "q", Domain: "d"})
	for _, f := range []string{"question", "domain", "scope_digest", "unknown_id", "revision_digest", "mutation_evidence_ids"} {
		_, err := r.Update(context.Background(), u.UnknownID, 1, map[string]json.RawMessage{f: raw("x")})
		if code(err) != abi.CodeInvalidRequest {
			t.Errorf("changing %s: want invalid_request, got %v", f, err)
		}
	}
}

// TestRecordRules is one row per rule of a single revision (REA's record rules).
func TestRecordRules(t *testing.T) {
	obs := observation(t, 1, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil)
	other := observation(t, 2, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil)
	missing := "ev_" + strings.Repeat("0", 64)
	cases := []struct {
		name string
		p    Proposal
		code string
	}{
		{"empty question is refused", Proposal{Question: "  ", Domain: "d"}, abi.CodeInvalidRequest},
		{"question over 1000 characters is refused", Proposal{Question: strings.Repeat("é", 1001), Domain: "d"}, abi.CodeInvalidRequest},
		{"question of 1000 characters is accepted", Proposal{Question: strings.Repeat("é", 1000), Domain: "d"}, ""},
		{"domain over 100 characters is refused", Proposal{Question: "q", Domain: strings.Repeat("d", 101)}, abi.CodeInvalidRequest},
		{"scope that is not a sha256 is refused", Proposal{Question: "q", Domain: "d", ScopeDigest: ptr("abc")}, abi.CodeInvalidRequest},
		{"unknown status is refused", Proposal{Question: "q", Domain: "d", Status: "done"}, abi.CodeInvalidRequest},
		{"unknown severity is refused", Proposal{Question: "q", Domain: "d", Severity: "urgent"}, abi.CodeInvalidRequest},
		{"resolved needs a resolution", Proposal{Question: "q", Domain: "d", Status: StatusResolved}, abi.CodeInvalidRequest},
		{"a resolution needs status resolved", Proposal{Question: "q", Domain: "d", Resolution: &Resolution{Disposition: DispositionWithdrawn, Rationale: "r"}}, abi.CodeInvalidRequest},
		{"contradicted needs contradicting evidence", Proposal{Question: "q", Domain: "d", Status: StatusContradicted}, abi.CodeInvalidRequest},
		{"contradicted with contradicting evidence is accepted", Proposal{Question: "q", Domain: "d", Status: StatusContradicted, ContradictingEvidenceIDs: []string{obs.EvidenceID}}, ""},
		{"supporting and contradicting must be disjoint", Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: []string{obs.EvidenceID}, ContradictingEvidenceIDs: []string{obs.EvidenceID}}, abi.CodeInvalidRequest},
		{"supporting evidence ids are unique", Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: []string{obs.EvidenceID, obs.EvidenceID}}, abi.CodeInvalidRequest},
		{"evidence ids are ev_ ids", Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: []string{"ev_xyz"}}, abi.CodeInvalidRequest},
		{"more than 100 supporting ids are refused", Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: manyIDs(101)}, abi.CodeInvalidRequest},
		{"evidence that is not retained is refused", Proposal{Question: "q", Domain: "d", SupportingEvidenceIDs: []string{missing}}, abi.CodeUnavailable},
		{"more than 20 probes are refused", Proposal{Question: "q", Domain: "d", RecommendedProbes: manyProbes(21)}, abi.CodeInvalidRequest},
		{"20 probes are accepted", Proposal{Question: "q", Domain: "d", RecommendedProbes: manyProbes(20)}, ""},
		{"a probe needs an operation", Proposal{Question: "q", Domain: "d", RecommendedProbes: []Probe{{Operation: "", Rationale: "r"}}}, abi.CodeInvalidRequest},
		{"unknown relationship type is refused", Proposal{Question: "q", Domain: "d", Relationships: []Relationship{{Type: "blocks", UnknownID: must(DeriveID("d", "other", nil))}}}, abi.CodeInvalidRequest},
		{"a relationship to an unknown not held is refused", Proposal{Question: "q", Domain: "d", Relationships: []Relationship{{Type: RelationRelatedTo, UnknownID: must(DeriveID("d", "nowhere", nil))}}}, abi.CodeUnavailable},
		{"a relationship to itself is refused", Proposal{Question: "q", Domain: "d", Relationships: []Relationship{{Type: RelationDependsOn, UnknownID: must(DeriveID("d", "q", nil))}}}, abi.CodeInvalidRequest},
		{"verified needs at least one evidence id", Proposal{Question: "q", Domain: "d", Status: StatusResolved, Resolution: &Resolution{Disposition: DispositionVerified, Rationale: "r"}}, abi.CodeInvalidRequest},
		{"withdrawn needs no evidence", Proposal{Question: "q", Domain: "d", Status: StatusResolved, Resolution: &Resolution{Disposition: DispositionWithdrawn, Rationale: "not a question any more"}}, ""},
		{"unknown disposition is refused", Proposal{Question: "q", Domain: "d", Status: StatusResolved, Resolution: &Resolution{Disposition: "done", Rationale: "r"}}, abi.CodeInvalidRequest},
		{"a resolution needs a rationale", Proposal{Question: "q", Domain: "d", Status: StatusResolved, Resolution: &Resolution{Disposition: DispositionOutOfScope}}, abi.CodeInvalidRequest},
		{"unknown required confidence is refused", Proposal{Question: "q", Domain: "d", RequiredConfidence: "certain"}, abi.CodeInvalidRequest},
		{"unknown required authority is refused", Proposal{Question: "q", Domain: "d", RequiredAuthority: ptrA("oracle")}, abi.CodeInvalidRequest},
		{"unknown required isolation is refused", Proposal{Question: "q", Domain: "d", RequiredEnvironment: &RequiredEnvironment{Isolation: ptr("jail")}}, abi.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := evidence.NewLedger(evidence.Limits{})
			retain(t, l, obs, other)
			_, err := New(l).Record(context.Background(), tc.p)
			if got := code(err); got != tc.code {
				t.Fatalf("want code %q, got %v", tc.code, err)
			}
			if tc.code != "" && len(l.Unknowns()) != 0 {
				t.Fatal("a refused record left an unknown behind")
			}
		})
	}
}

func ptr(s string) *string { return &s }

func ptrA(s string) *evidence.Authority { a := evidence.Authority(s); return &a }

func manyIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		sum := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		out[i] = "ev_" + hex.EncodeToString(sum[:])
	}
	return out
}

func manyProbes(n int) []Probe {
	out := make([]Probe, n)
	for i := range out {
		out[i] = Probe{Operation: "compare_functions", Rationale: strings.Repeat("x", i+1)}
	}
	return out
}

// TestVerifiedResolutionNeedsQualifyingEvidence: one row per requirement.
func TestVerifiedResolutionNeedsQualifyingEvidence(t *testing.T) {
	linux := &evidence.Environment{ID: "ci", Platform: "linux", Architecture: "x86_64", Isolation: "container"}
	mac := &evidence.Environment{ID: "ci", Platform: "darwin", Architecture: "arm64", Isolation: "container"}
	cases := []struct {
		name       string
		rec        evidence.Record
		supporting bool
		authority  *evidence.Authority
		confidence evidence.Confidence
		env        *RequiredEnvironment
		wantReason string
	}{
		{"observed supporting record qualifies", observation(t, 1, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil), true, nil, "", nil, ""},
		{"record not listed as supporting does not qualify", observation(t, 2, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil), false, nil, "", nil, ReasonNotSupporting},
		{"derived record under required observed does not qualify", observation(t, 3, evidence.ConfidenceDerived, evidence.AuthorityShippedArtifact, nil), true, nil, evidence.ConfidenceObserved, nil, ReasonConfidenceTooWeak},
		{"derived record meets required derived", observation(t, 4, evidence.ConfidenceDerived, evidence.AuthorityShippedArtifact, nil), true, nil, evidence.ConfidenceDerived, nil, ""},
		{"inferred record under required derived does not qualify", observation(t, 5, evidence.ConfidenceInferred, evidence.AuthorityShippedArtifact, nil), true, nil, evidence.ConfidenceDerived, nil, ReasonConfidenceTooWeak},
		{"observed record exceeds required inferred", observation(t, 6, evidence.ConfidenceObserved, evidence.AuthorityShippedArtifact, nil), true, nil, evidence.ConfidenceInferred, nil, ""},
		{"other authority than required does not qualify", observation(t, 7, evidence.ConfidenceObserved, evidence.AuthorityAnalystInference, nil), true, ptrA("controlled-replay"), "", nil, ReasonAuthorityMismatch},
		{"required authority qualifies", observation(t, 8, evidence.ConfidenceObserved, evidence.AuthorityControlledReplay, linux), true, ptrA("controlled-replay"), "", nil, ""},
		{"record without environment does not meet a required one", observation(t, 9, evidence.ConfidenceObserved, evidence.AuthorityControlledReplay, nil), true, nil, "", &RequiredEnvironment{Platform: ptr("linux")}, ReasonEnvironmentMissing},
		{"record from another platform does not qualify", observation(t, 10, evidence.ConfidenceObserved, evidence.AuthorityControlledReplay, mac), true, nil, "", &RequiredEnvironment{Platform: ptr("linux")}, ReasonEnvironmentDiffers + ":platform"},
		{"null environment fields accept any value", observation(t, 11, evidence.ConfidenceObserved, evidence.AuthorityControlledReplay, mac), true, nil, "", &RequiredEnvironment{ID: ptr("ci")}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := evidence.NewLedger(evidence.Limits{})
			retain(t, l, tc.rec)
			r := New(l)
			p := Proposal{Question: "Does save write a temp file?", Domain: "filesystem", RequiredAuthority: tc.authority,
				RequiredConfidence: tc.confidence, RequiredEnvironment: tc.env}
			if tc.supporting {
				p.SupportingEvidenceIDs = []string{tc.rec.EvidenceID}
			}
			u := mustRecord(t, r, p)
			check, err := r.VerifyResolution(u.UnknownID, []string{tc.rec.EvidenceID})
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Update(context.Background(), u.UnknownID, 1, map[string]json.RawMessage{
				"status":     raw("resolved"),
				"resolution": raw(Resolution{Disposition: DispositionVerified, Rationale: "observed", EvidenceIDs: []string{tc.rec.EvidenceID}}),
			})
			if tc.wantReason == "" {
				if err != nil || !check.Qualified {
					t.Fatalf("want qualified and accepted, got %v / %+v", err, check)
				}
				return
			}
			if code(err) != abi.CodeInvalidRequest || detail(err, "reason") != "unqualified-verified-resolution" {
				t.Fatalf("want unqualified-verified-resolution, got %v", err)
			}
			if check.Qualified || !containsString(check.Candidates[0].Reasons, tc.wantReason) {
				t.Fatalf("want reason %s, got %+v", tc.wantReason, check.Candidates)
			}
			if heads, _ := r.Heads(); heads[u.UnknownID].Revision != 1 {
				t.Fatal("the refused resolution was published")
			}
		})
	}
}

func TestMutationRecordNeverQualifiesAsResolutionEvidence(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	a := mustRecord(t, r, Proposal{Question: "a", Domain: "d"})
	mutation := a.MutationEvidenceIDs[0]
	b := mustRecord(t, r, Proposal{Question: "b", Domain: "d", SupportingEvidenceIDs: []string{mutation}})
	_, err := r.Update(context.Background(), b.UnknownID, 1, map[string]json.RawMessage{
		"status": raw("resolved"), "resolution": raw(Resolution{Disposition: DispositionVerified, Rationale: "r", EvidenceIDs: []string{mutation}}),
	})
	if detail(err, "reason") != "unqualified-verified-resolution" {
		t.Fatalf("a registry mutation record verified a resolution: %v", err)
	}
}

func TestDependsOnCycleIsRefused(t *testing.T) {
	r := New(evidence.NewLedger(evidence.Limits{}))
	a := mustRecord(t, r, Proposal{Question: "a", Domain: "d"})
	b := mustRecord(t, r, Proposal{Question: "b", Domain: "d", Relationships: []Relationship{{RelationDependsOn, a.UnknownID}}})
	c := mustRecord(t, r, Proposal{Question: "c", Domain: "d", Relationships: []Relationship{{RelationDependsOn, b.UnknownID}}})
	_, err := r.Update(context.Background(), a.UnknownID, 1, map[string]json.RawMessage{"relationships": raw([]Relationship{{RelationDependsOn, c.UnknownID}})})
	if code(err) != abi.CodeInvalidRequest || detail(err, "reason") != "depends-on-cycle" {
		t.Fatalf("want depends-on-cycle, got %v", err)
	}
	// related-to may be mutual.
	if _, err := r.Update(context.Background(), a.UnknownID, 1, map[string]json.RawMessage{"relationships": raw([]Relationship{{RelationRelatedTo, c.UnknownID}})}); err != nil {
		t.Fatalf("related-to is not ordered: %v", err)
	}
}

func TestListFiltersAndPagesHeadsDeterministically(t *testing.T) {
	r := New(evidence.NewLedger(evidence.Limits{}))
	var ids []string
	for i := 0; i < 7; i++ {
		sev := SeverityLow
		if i%2 == 0 {
			sev = SeverityHigh
		}
		ids = append(ids, mustRecord(t, r, Proposal{Question: "q" + string(rune('a'+i)), Domain: "d", Severity: sev}).UnknownID)
	}
	if _, err := r.Update(context.Background(), ids[0], 1, map[string]json.RawMessage{"status": raw("blocked")}); err != nil {
		t.Fatal(err)
	}
	p, err := r.List(Filter{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != 7 || len(p.Unknowns) != 3 || p.NextOffset == nil || *p.NextOffset != 3 {
		t.Fatalf("first page: total %d, %d items, next %v", p.Total, len(p.Unknowns), p.NextOffset)
	}
	var seen []string
	for off := 0; ; {
		pg, err := r.List(Filter{Offset: off, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range pg.Unknowns {
			seen = append(seen, u.UnknownID)
		}
		if pg.NextOffset == nil {
			break
		}
		off = *pg.NextOffset
	}
	for i := 1; i < len(seen); i++ {
		if seen[i-1] >= seen[i] {
			t.Fatalf("pages are not in unknown_id order: %v", seen)
		}
	}
	if len(seen) != 7 {
		t.Fatalf("paging saw %d unknowns", len(seen))
	}
	high, _ := r.List(Filter{Severities: []Severity{SeverityHigh}})
	if high.Total != 4 {
		t.Fatalf("high severity: %d", high.Total)
	}
	blocked, _ := r.List(Filter{Statuses: []Status{StatusBlocked}})
	if blocked.Total != 1 || blocked.Unknowns[0].Revision != 2 || blocked.ByStatus["blocked"] != 1 {
		t.Fatalf("blocked: %+v", blocked)
	}
	hist, _ := r.List(Filter{UnknownID: ids[0], History: true})
	if hist.Total != 2 || hist.Unknowns[0].Revision != 1 || hist.Unknowns[1].Revision != 2 {
		t.Fatalf("history: %+v", hist)
	}
	if _, err := r.List(Filter{Limit: 101}); code(err) != abi.CodeInvalidRequest {
		t.Fatalf("limit 101: %v", err)
	}
}

func TestClearingTheLedgerClearsTheRegistry(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	mustRecord(t, r, Proposal{Question: "q", Domain: "d"})
	l.Clear()
	p, _ := r.List(Filter{})
	if p.Total != 0 {
		t.Fatalf("unknowns survived Clear: %d", p.Total)
	}
}

func TestConcurrentUpdatesOfOneRevisionHaveOneWinner(t *testing.T) {
	l := evidence.NewLedger(evidence.Limits{})
	r := New(l)
	u := mustRecord(t, r, Proposal{Question: "q", Domain: "d"})
	const n = 8
	errs := make(chan error, n)
	sev := []string{"low", "high", "critical", "low", "high", "critical", "low", "high"}
	for i := 0; i < n; i++ {
		go func(i int) {
			_, err := New(l).Update(context.Background(), u.UnknownID, 1, map[string]json.RawMessage{
				"severity": raw(sev[i]), "recommended_probes": raw([]Probe{{Operation: "op", Rationale: strings.Repeat("r", i+1)}})})
			errs <- err
		}(i)
	}
	wins := 0
	for i := 0; i < n; i++ {
		err := <-errs
		switch {
		case err == nil:
			wins++
		case code(err) != abi.CodeRevisionConflict:
			t.Fatalf("a losing update must be a revision conflict: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d updates of revision 1 won", wins)
	}
	if p, _ := r.List(Filter{History: true}); p.Total != 2 {
		t.Fatalf("history has %d revisions, want 2", p.Total)
	}
}
