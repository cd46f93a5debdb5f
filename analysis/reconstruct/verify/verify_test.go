package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"rea/abi"
)

func id(prefix, s string) string {
	sum := sha256.Sum256([]byte(s))
	return prefix + hex.EncodeToString(sum[:])
}

func js(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	left  = id("ev_", "left")
	right = id("ev_", "right")
)

// comparison builds a compare_functions record with the given overall
// status and one dimension.
func comparison(name, overall, dim, dimStatus string, limitations ...string) Record {
	return Record{
		EvidenceID: id("ev_", name), Operation: "compare_functions", Authority: "shipped-artifact", Confidence: "derived",
		Limitations:   append([]string{NoSubjectLimitation}, limitations...),
		EvidenceLinks: []string{left, right},
		NormalizedResult: js(map[string]any{
			"status": overall, "left_evidence_ids": []string{left}, "right_evidence_ids": []string{right},
			"dimensions": map[string]any{dim: map[string]any{"status": dimStatus, "limitations": []string{}}},
		}),
	}
}

func spec(claims ...Claim) json.RawMessage {
	return js(Specification{SchemaVersion: 1, Name: "save flow", Claims: claims})
}

func claim(idn string, r Record, dim string) Claim {
	return Claim{ClaimID: idn, Kind: KindStructuralFunction, EvidenceID: r.EvidenceID, Dimension: dim}
}

// TestClaimVerdictRule has one row per clause of the rule, including the
// traps: truncated is never pass, a contradiction is fail, absence is never
// pass.
func TestClaimVerdictRule(t *testing.T) {
	unk := id("unk_", "open question")
	cases := []struct {
		name     string
		rec      Record
		dim      string
		unknowns []UnknownHead
		claimUnk []string
		status   string
		observed string
		reason   string
	}{
		{"unchanged without limitation passes", comparison("a", "unchanged", "cfg", "unchanged"), "overall", nil, nil, Pass, "unchanged", "unchanged"},
		{"unchanged dimension passes", comparison("b", "changed", "cfg", "unchanged"), "cfg", nil, nil, Pass, "unchanged", "unchanged"},
		{"changed fails", comparison("c", "changed", "cfg", "changed"), "overall", nil, nil, Fail, "changed", "changed"},
		{"added fails", comparison("d", "added", "cfg", "changed"), "overall", nil, nil, Fail, "added", "added"},
		{"removed fails", comparison("e", "removed", "cfg", "changed"), "overall", nil, nil, Fail, "removed", "removed"},
		{"contradiction fails", comparison("f", "contradiction", "cfg", "changed"), "overall", nil, nil, Fail, "contradiction", "contradiction"},
		{"truncated is unknown, never pass", comparison("g", "truncated", "cfg", "unchanged"), "overall", nil, nil, Unknown, "truncated", "truncated"},
		{"unknown comparison is unknown", comparison("h", "unknown", "cfg", "unchanged"), "overall", nil, nil, Unknown, "unknown", "unresolved-comparison"},
		{"a record limitation makes unchanged unknown", comparison("i", "unchanged", "cfg", "unchanged", "Left side paged: 10 of 12 functions."), "overall", nil, nil, Unknown, "unchanged", "limitation"},
		{"any limitation comes before fail", comparison("j", "changed", "cfg", "changed", "pseudocode unavailable"), "overall", nil, nil, Unknown, "changed", "limitation"},
		{"a missing dimension is unknown, never pass", comparison("k", "unchanged", "cfg", "unchanged"), "calls", nil, nil, Unknown, "unknown", "limitation"},
		{"an unrecognised status is unknown", comparison("l", "equivalent", "cfg", "unchanged"), "overall", nil, nil, Unknown, "unknown", "limitation"},
		{"an open unknown tied to the comparison makes pass unknown", comparison("m", "unchanged", "cfg", "unchanged"), "overall",
			[]UnknownHead{{UnknownID: unk, Status: "open", Question: "q", SupportingEvidenceIDs: []string{id("ev_", "m")}}}, nil, Unknown, "unchanged", "open-unknown"},
		{"an open unknown tied to an input makes pass unknown", comparison("n", "unchanged", "cfg", "unchanged"), "overall",
			[]UnknownHead{{UnknownID: unk, Status: "investigating", Question: "q", ContradictingEvidenceIDs: []string{left}}}, nil, Unknown, "unchanged", "open-unknown"},
		{"a resolved related unknown does not block pass", comparison("o", "unchanged", "cfg", "unchanged"), "overall",
			[]UnknownHead{{UnknownID: unk, Status: "resolved", Question: "q", SupportingEvidenceIDs: []string{left}}}, []string{unk}, Pass, "unchanged", "unchanged"},
		{"an open unknown named by the claim makes pass unknown", comparison("p", "unchanged", "cfg", "unchanged"), "overall",
			[]UnknownHead{{UnknownID: unk, Status: "blocked", Question: "q"}}, []string{unk}, Unknown, "unchanged", "open-unknown"},
		{"a claimed unknown the session does not hold is a limitation", comparison("q", "unchanged", "cfg", "unchanged"), "overall", nil, []string{unk}, Unknown, "unchanged", "limitation"},
		{"changed still fails with an open unknown", comparison("r", "changed", "cfg", "changed"), "overall",
			[]UnknownHead{{UnknownID: unk, Status: "open", Question: "q"}}, []string{unk}, Fail, "changed", "changed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := claim("c1", tc.rec, tc.dim)
			c.UnknownIDs = tc.claimUnk
			res, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{tc.rec}, Unknowns: tc.unknowns})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Claims[0]
			if got.Status != tc.status || got.ObservedStatus != tc.observed || got.Reason != tc.reason {
				t.Fatalf("got %s/%s/%s, want %s/%s/%s (limitations %v)", got.Status, got.ObservedStatus, got.Reason, tc.status, tc.observed, tc.reason, got.Limitations)
			}
			if res.Verdict != tc.status {
				t.Fatalf("one claim: verdict %s, want %s", res.Verdict, tc.status)
			}
			if len(got.EvidenceLinks) < 3 {
				t.Fatalf("a claim links its comparison and both inputs: %v", got.EvidenceLinks)
			}
			if tc.status == Unknown && len(res.RecommendedProbes) == 0 {
				t.Fatal("every unknown claim gets a recommended probe")
			}
			if tc.status != Unknown && len(res.RecommendedProbes) != 0 {
				t.Fatalf("probes for a decided claim: %v", res.RecommendedProbes)
			}
		})
	}
}

func TestOverallVerdictIsTheWorstClaim(t *testing.T) {
	pass := comparison("pass", "unchanged", "cfg", "unchanged")
	fail := comparison("fail", "changed", "cfg", "changed")
	unknown := comparison("unknown", "truncated", "cfg", "unchanged")
	cases := []struct {
		recs []Record
		want string
	}{
		{[]Record{pass}, Pass},
		{[]Record{pass, unknown}, Unknown},
		{[]Record{pass, unknown, fail}, Fail},
		{[]Record{fail, pass}, Fail},
	}
	for _, tc := range cases {
		var claims []Claim
		for i, r := range tc.recs {
			claims = append(claims, claim(fmt.Sprint("c", i), r, "overall"))
		}
		res, err := Evaluate(Request{Specification: spec(claims...), Comparisons: tc.recs})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != tc.want {
			t.Errorf("%d claims: verdict %s, want %s", len(tc.recs), res.Verdict, tc.want)
		}
		if res.Summary.Total != len(tc.recs) || res.Summary.Passed+res.Summary.Failed+res.Summary.Unknown != len(tc.recs) || res.Summary.Structural != len(tc.recs) {
			t.Errorf("summary %+v", res.Summary)
		}
	}
}

func TestBehavioralClaimsNeedMatchingControlledReplayEnvironments(t *testing.T) {
	rec := Record{EvidenceID: id("ev_", "cap"), Operation: "compare_process_captures", EvidenceLinks: []string{left, right},
		NormalizedResult: js(map[string]any{"status": "unchanged", "left_evidence_id": left, "right_evidence_id": right,
			"dimensions": map[string]any{"exit": map[string]any{"status": "unchanged"}}})}
	linux := &Environment{ID: "a", Platform: "linux", Architecture: "x86_64", Isolation: "process"}
	mac := &Environment{ID: "b", Platform: "darwin", Architecture: "arm64", Isolation: "process"}
	cases := []struct {
		name   string
		inputs []Record
		want   string
	}{
		{"same environment passes", []Record{{EvidenceID: left, Authority: "controlled-replay", Environment: linux}, {EvidenceID: right, Authority: "controlled-replay", Environment: linux}}, Pass},
		{"different environments are unknown", []Record{{EvidenceID: left, Authority: "controlled-replay", Environment: linux}, {EvidenceID: right, Authority: "controlled-replay", Environment: mac}}, Unknown},
		{"an input that is not retained is unknown", []Record{{EvidenceID: left, Authority: "controlled-replay", Environment: linux}}, Unknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Claim{ClaimID: "exit", Kind: KindBehavioral, EvidenceID: rec.EvidenceID, Dimension: "exit"}
			res, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{rec}, Inputs: tc.inputs})
			if err != nil {
				t.Fatal(err)
			}
			if res.Claims[0].Status != tc.want || res.Summary.Behavioral != 1 {
				t.Fatalf("got %s (%v), want %s", res.Claims[0].Status, res.Claims[0].Limitations, tc.want)
			}
		})
	}
}

func TestDimensionsMayBeAnArrayOfNamedEntries(t *testing.T) {
	rec := Record{EvidenceID: id("ev_", "arr"), Operation: "compare_functions", EvidenceLinks: []string{left, right},
		NormalizedResult: js(map[string]any{"status": "changed", "dimensions": []any{
			map[string]any{"name": "calls", "status": "unchanged"},
			map[string]any{"dimension": "strings_names", "status": "changed"}}})}
	res, err := Evaluate(Request{Specification: spec(claim("calls", rec, "calls"), claim("strings", rec, "strings_names")), Comparisons: []Record{rec}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Claims[0].Status != Pass || res.Claims[1].Status != Fail {
		t.Fatalf("got %s and %s", res.Claims[0].Status, res.Claims[1].Status)
	}
}

// TestSpecificationRules: one row per specification rule.
func TestSpecificationRules(t *testing.T) {
	r := comparison("s", "unchanged", "cfg", "unchanged")
	good := claim("c", r, "cfg")
	many := make([]Claim, 101)
	for i := range many {
		many[i] = Claim{ClaimID: fmt.Sprint(i), Kind: KindStructuralFunction, EvidenceID: id("ev_", fmt.Sprint(i))}
	}
	cases := []struct {
		name string
		spec Specification
	}{
		{"schema version 1 only", Specification{SchemaVersion: 2, Name: "n", Claims: []Claim{good}}},
		{"a name is required", Specification{SchemaVersion: 1, Name: " ", Claims: []Claim{good}}},
		{"a name is at most 200 characters", Specification{SchemaVersion: 1, Name: strings.Repeat("n", 201), Claims: []Claim{good}}},
		{"at least one claim", Specification{SchemaVersion: 1, Name: "n"}},
		{"at most 100 claims", Specification{SchemaVersion: 1, Name: "n", Claims: many}},
		{"claim ids are unique", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{good, claim("c", r, "calls")}}},
		{"kind:evidence:dimension is unique", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{good, claim("d", r, "cfg")}}},
		{"overall spelled or omitted is the same claim", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{claim("a", r, ""), claim("b", r, "overall")}}},
		{"unknown kind", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{{ClaimID: "x", Kind: "semantic", EvidenceID: r.EvidenceID}}}},
		{"dimension of another kind", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{{ClaimID: "x", Kind: KindStructuralArtifact, EvidenceID: r.EvidenceID, Dimension: "cfg"}}}},
		{"evidence id format", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{{ClaimID: "x", Kind: KindStructuralArtifact, EvidenceID: "ev_1"}}}},
		{"unknown id format", Specification{SchemaVersion: 1, Name: "n", Claims: []Claim{{ClaimID: "x", Kind: KindStructuralArtifact, EvidenceID: r.EvidenceID, UnknownIDs: []string{"unk_1"}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(Request{Specification: js(tc.spec), Comparisons: []Record{r}})
			var e *abi.Error
			if !errors.As(err, &e) || e.Code != abi.CodeInvalidRequest || e.Details["issues"] == nil {
				t.Fatalf("want invalid_request with issues, got %v", err)
			}
		})
	}
	_, err := Evaluate(Request{Specification: json.RawMessage(`{"schema_version":1,"name":"n","claims":[],"extra":1}`)})
	if err == nil {
		t.Fatal("unknown specification fields are refused")
	}
}

func TestClaimKindMustMatchTheComparisonOperation(t *testing.T) {
	r := comparison("op", "unchanged", "cfg", "unchanged")
	c := Claim{ClaimID: "x", Kind: KindStructuralArtifact, EvidenceID: r.EvidenceID}
	_, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{r}})
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeInvalidRequest {
		t.Fatalf("a compare_functions record cannot back a structural-artifact claim: %v", err)
	}
}

func TestPagesRepeatTheVerdictAndCoverEveryClaimOnce(t *testing.T) {
	var recs []Record
	var claims []Claim
	for i := 0; i < 7; i++ {
		st := "unchanged"
		if i == 5 {
			st = "changed"
		}
		r := comparison(fmt.Sprint("p", i), st, "cfg", "unchanged")
		recs = append(recs, r)
		claims = append(claims, claim(fmt.Sprint("claim-", i), r, "overall"))
	}
	var seen []string
	var digest string
	for off := 0; ; {
		res, err := Evaluate(Request{Specification: spec(claims...), Comparisons: recs, Offset: off, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Fail || res.Summary.Total != 7 || res.Summary.Failed != 1 {
			t.Fatalf("page at %d: verdict %s summary %+v", off, res.Verdict, res.Summary)
		}
		if digest != "" && res.SpecificationSHA256 != digest {
			t.Fatal("specification digest changes between pages")
		}
		digest = res.SpecificationSHA256
		for _, c := range res.Claims {
			seen = append(seen, c.ClaimID)
		}
		if res.Page.NextOffset == nil {
			break
		}
		off = *res.Page.NextOffset
	}
	if strings.Join(seen, ",") != "claim-0,claim-1,claim-2,claim-3,claim-4,claim-5,claim-6" {
		t.Fatalf("pages saw %v", seen)
	}
}

func TestSpecificationDigestIsJCSOfTheSpecification(t *testing.T) {
	r := comparison("dg", "unchanged", "cfg", "unchanged")
	a, _ := ParseSpecification(spec(claim("c", r, "")))
	b, _ := ParseSpecification(spec(claim("c", r, "overall")))
	digest := func(s Specification) string {
		d, err := s.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if digest(a) != digest(b) {
		t.Fatal("the default dimension must not change the digest")
	}
	c, _ := ParseSpecification(spec(claim("c2", r, "overall")))
	if digest(a) == digest(c) {
		t.Fatal("a different claim id must change the digest")
	}
}

// TestApplicationComparisonCountsGiveStatuses covers compare_application
// _versions results, which report counts per status and kind instead of
// one status.
func TestApplicationComparisonCountsGiveStatuses(t *testing.T) {
	mk := func(name, coverage string, byKind map[string]map[string]int) Record {
		statuses := map[string]int{}
		for _, m := range byKind {
			for s, n := range m {
				statuses[s] += n
			}
		}
		return Record{EvidenceID: id("ev_", name), Operation: "compare_application_versions", EvidenceLinks: []string{left, right},
			NormalizedResult: js(map[string]any{"coverage": coverage, "left": map[string]any{"evidence_id": left}, "right": map[string]any{"evidence_id": right},
				"summary": map[string]any{"statuses": statuses, "by_kind": byKind}})}
	}
	changedIPC := mk("ipc", "complete", map[string]map[string]int{"ipc-channel": {"unchanged": 2, "added": 1}, "browser-window": {"unchanged": 1}, "module": {"unchanged": 4}})
	partial := mk("partial", "partial", map[string]map[string]int{"browser-window": {"unchanged": 1}})
	contra := mk("contra", "complete", map[string]map[string]int{"module": {"contradiction": 1, "changed": 1}})
	cases := []struct {
		name string
		rec  Record
		dim  string
		want string
		obs  string
	}{
		{"an added channel fails the ipc dimension", changedIPC, "ipc_channels", Fail, "changed"},
		{"an added channel fails overall", changedIPC, "overall", Fail, "changed"},
		{"unchanged windows pass", changedIPC, "windows", Pass, "unchanged"},
		{"no facts of a kind is unknown, not pass", changedIPC, "endpoints", Unknown, "unknown"},
		{"partial coverage is truncated, never pass", partial, "windows", Unknown, "truncated"},
		{"a contradiction outranks a change", contra, "modules", Fail, "contradiction"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Claim{ClaimID: "c", Kind: KindStructuralApplication, EvidenceID: tc.rec.EvidenceID, Dimension: tc.dim}
			res, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{tc.rec}})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Claims[0]
			if got.Status != tc.want || got.ObservedStatus != tc.obs {
				t.Fatalf("got %s/%s, want %s/%s (%v)", got.Status, got.ObservedStatus, tc.want, tc.obs, got.Limitations)
			}
			if len(got.LeftEvidenceIDs) != 1 || got.LeftEvidenceIDs[0] != left || got.RightEvidenceIDs[0] != right {
				t.Fatalf("sides %v %v", got.LeftEvidenceIDs, got.RightEvidenceIDs)
			}
		})
	}
}

// TestProcessCaptureVerdictsGiveStatuses covers compare_process_captures
// results, which report verdicts (equivalent/divergent, equal/different).
func TestProcessCaptureVerdictsGiveStatuses(t *testing.T) {
	env := &Environment{ID: "ci", Platform: "linux", Architecture: "x86_64", Isolation: "process"}
	inputs := []Record{{EvidenceID: left, Authority: "controlled-replay", Environment: env}, {EvidenceID: right, Authority: "controlled-replay", Environment: env}}
	rec := Record{EvidenceID: id("ev_", "pc"), Operation: "compare_process_captures", EvidenceLinks: []string{left, right},
		NormalizedResult: js(map[string]any{"verdict": "divergent", "dimensions": []any{
			map[string]any{"name": "exit", "verdict": "equal"}, map[string]any{"name": "filesystem", "verdict": "different"},
			map[string]any{"name": "terminal", "verdict": "incomparable"}}})}
	cases := map[string]string{"overall": Fail, "exit": Pass, "filesystem": Fail, "terminal": Unknown, "shim": Unknown}
	for dim, want := range cases {
		c := Claim{ClaimID: dim, Kind: KindBehavioral, EvidenceID: rec.EvidenceID, Dimension: dim}
		res, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{rec}, Inputs: inputs})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Claims[0].Status; got != want {
			t.Errorf("%s: %s, want %s (%v)", dim, got, want, res.Claims[0].Limitations)
		}
	}
}

// TestFunctionComparisonPairsGiveDimensionStatuses covers compare_functions
// results: dimensions per function pair in a changes page, inputs named in
// the request parameters.
func TestFunctionComparisonPairsGiveDimensionStatuses(t *testing.T) {
	l2, r2 := id("ev_", "left2"), id("ev_", "right2")
	pair := func(calls, cfg string) map[string]any {
		return map[string]any{"status": "changed", "dimensions": []any{
			map[string]any{"dimension": "calls", "status": calls, "limitations": []string{}},
			map[string]any{"dimension": "cfg", "status": cfg, "limitations": []string{}}}}
	}
	mk := func(name string, page map[string]any) Record {
		return Record{EvidenceID: id("ev_", name), Operation: "compare_functions", EvidenceLinks: []string{left, l2, right, r2},
			Parameters:       js(map[string]any{"left": []string{left, l2}, "right": []string{right, r2}, "offset": 0, "limit": 100}),
			NormalizedResult: js(map[string]any{"status": "changed", "limitations": []string{}, "changes": page})}
	}
	whole := mk("whole", map[string]any{"offset": 0, "limit": 100, "total": 2, "next_offset": nil,
		"items": []any{pair("unchanged", "changed"), pair("unchanged", "unchanged")}})
	paged := mk("paged", map[string]any{"offset": 0, "limit": 1, "total": 2, "next_offset": 1,
		"items": []any{pair("unchanged", "changed")}})
	added := mk("added", map[string]any{"offset": 0, "limit": 100, "total": 2, "next_offset": nil,
		"items": []any{pair("unchanged", "unchanged"), map[string]any{"status": "added", "dimensions": []any{}}}})
	cases := []struct {
		name string
		rec  Record
		dim  string
		want string
	}{
		{"every pair unchanged in a dimension passes", whole, "calls", Pass},
		{"one pair changed fails the dimension", whole, "cfg", Fail},
		{"a change on a partial page still fails", paged, "cfg", Fail},
		{"unchanged on a partial page is truncated, never pass", paged, "calls", Unknown},
		{"a function on one side only changes every dimension", added, "calls", Fail},
		{"a dimension no pair reports is unknown", whole, "comments", Unknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Claim{ClaimID: "c", Kind: KindStructuralFunction, EvidenceID: tc.rec.EvidenceID, Dimension: tc.dim}
			res, err := Evaluate(Request{Specification: spec(c), Comparisons: []Record{tc.rec}})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Claims[0]
			if got.Status != tc.want {
				t.Fatalf("got %s/%s, want %s (%v)", got.Status, got.ObservedStatus, tc.want, got.Limitations)
			}
			if len(got.LeftEvidenceIDs) != 2 || len(got.RightEvidenceIDs) != 2 || len(got.EvidenceLinks) != 5 {
				t.Fatalf("inputs from parameters: %v %v", got.LeftEvidenceIDs, got.RightEvidenceIDs)
			}
		})
	}
}
