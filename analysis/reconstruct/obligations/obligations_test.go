package obligations

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const ev = "ev_1111111111111111111111111111111111111111111111111111111111111111"

func source(t *testing.T, app string) Source {
	t.Helper()
	var s Source
	if err := json.Unmarshal([]byte(`{"evidence_id":"`+ev+`","application":`+app+`}`), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func ipcSource(t *testing.T) Source {
	return source(t, `{"ipc":[{"module":"main.js","side":"main","channel":"settings:save","channel_state":"literal"}]}`)
}

// closing is a binding that closes ipc:settings:save.
func closing() Binding {
	return Binding{ObligationID: "ipc:settings:save", Owner: "main-process", ParserType: "SettingsValues",
		Cases:     map[string]string{"positive": "fx/save-ok", "negative": "fx/save-denied", "malformed": "fx/save-garbage"},
		Verifiers: []Verifier{{VerifierID: "ipc-replay", Authority: "protocol", Result: "pass", Enumerates: []string{"ipc:settings:save"}}}}
}

func build(t *testing.T, req Request) Ledger {
	t.Helper()
	if req.Manifest.SchemaVersion == 0 {
		req.Manifest.SchemaVersion = 1
	}
	l, err := Build(req)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestObligationStatusAndDiagnostics: one row per diagnostic and status.
func TestObligationStatusAndDiagnostics(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(b *Binding) []Binding
		reviewed []Reviewed
		contra   []Contradiction
		status   string
		ledger   string
		code     string
	}{
		{"owner, parser type, every case and a passing enumerating verifier close it", func(b *Binding) []Binding { return []Binding{*b} }, nil, nil, Verified, "closed", ""},
		{"no binding is unowned", func(b *Binding) []Binding { return nil }, nil, nil, Unowned, "open", "missing-owner"},
		{"two owners are ambiguous", func(b *Binding) []Binding { c := *b; c.Owner = "renderer"; return []Binding{*b, c} }, nil, nil, Unknown, "unknown", "ambiguous-owner"},
		{"a parsing obligation needs a parser type", func(b *Binding) []Binding { b.ParserType = ""; return []Binding{*b} }, nil, nil, Characterized, "open", "missing-parser-type"},
		{"the original positive case is required", func(b *Binding) []Binding { delete(b.Cases, "positive"); return []Binding{*b} }, nil, nil, Characterized, "open", "missing-original-case"},
		{"every required case kind is required", func(b *Binding) []Binding { delete(b.Cases, "malformed"); return []Binding{*b} }, nil, nil, Characterized, "open", "missing-case"},
		{"no verifier leaves it implemented", func(b *Binding) []Binding { b.Verifiers = nil; return []Binding{*b} }, nil, nil, Implemented, "open", "missing-verifier"},
		{"a verifier must enumerate the obligation", func(b *Binding) []Binding { b.Verifiers[0].Enumerates = []string{"ipc:other"}; return []Binding{*b} }, nil, nil, Implemented, "open", "verifier-does-not-enumerate"},
		{"unit authority is weak for the protocol layer", func(b *Binding) []Binding { b.Verifiers[0].Authority = "unit"; return []Binding{*b} }, nil, nil, Implemented, "open", "weak-protocol-authority"},
		{"packaged-process authority exceeds protocol", func(b *Binding) []Binding { b.Verifiers[0].Authority = "packaged-process"; return []Binding{*b} }, nil, nil, Verified, "closed", ""},
		{"a failing verifier contradicts", func(b *Binding) []Binding { b.Verifiers[0].Result = "fail"; return []Binding{*b} }, nil, nil, Contradicted, "contradicted", "failing-verifier"},
		{"an unresolved verifier is unknown", func(b *Binding) []Binding { b.Verifiers[0].Result = "unknown"; return []Binding{*b} }, nil, nil, Unknown, "unknown", "unresolved-verifier"},
		{"a manifest contradiction contradicts", func(b *Binding) []Binding { return []Binding{*b} }, nil,
			[]Contradiction{{ObligationID: "ipc:settings:save", EvidenceIDs: []string{ev}, Note: "posts to another host"}}, Contradicted, "contradicted", "contradiction"},
		{"a duplicate review is unknown", func(b *Binding) []Binding { return []Binding{*b} },
			[]Reviewed{{ObligationID: "ipc:settings:save", Layer: "protocol", SourceEvidenceIDs: []string{ev}}, {ObligationID: "ipc:settings:save", Layer: "protocol", SourceEvidenceIDs: []string{ev}}},
			nil, Unknown, "unknown", "duplicate-definition"},
		{"a review citing foreign Evidence is unknown", func(b *Binding) []Binding { return []Binding{*b} },
			[]Reviewed{{ObligationID: "ipc:settings:save", Layer: "protocol", SourceEvidenceIDs: []string{"ev_" + strings.Repeat("2", 64)}}},
			nil, Unknown, "unknown", "missing-source-evidence"},
		{"out of scope closes without proof", func(b *Binding) []Binding { return nil },
			[]Reviewed{{ObligationID: "ipc:settings:save", Layer: "protocol", SourceEvidenceIDs: []string{ev}, Disposition: OutOfScope, Rationale: "sync is dropped"}},
			nil, OutOfScope, "closed", ""},
		{"blocked stays open", func(b *Binding) []Binding { return nil },
			[]Reviewed{{ObligationID: "ipc:settings:save", Layer: "protocol", SourceEvidenceIDs: []string{ev}, Disposition: Blocked, Rationale: "needs the server"}},
			nil, Blocked, "open", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := closing()
			l := build(t, Request{Sources: []Source{ipcSource(t)}, ReviewedObligations: tc.reviewed,
				Manifest: Manifest{Bindings: tc.edit(&b), Contradictions: tc.contra}})
			if len(l.Obligations) != 1 {
				t.Fatalf("obligations: %+v", l.Obligations)
			}
			o := l.Obligations[0]
			if o.Status != tc.status || l.Status != tc.ledger {
				t.Fatalf("status %s / ledger %s, want %s / %s: %+v", o.Status, l.Status, tc.status, tc.ledger, o.Diagnostics)
			}
			var codes []string
			for _, d := range o.Diagnostics {
				codes = append(codes, d.Code)
			}
			if tc.code == "" && o.Status == Verified && len(codes) != 0 {
				t.Fatalf("verified with diagnostics %v", codes)
			}
			if tc.code != "" && !contains(codes, tc.code) {
				t.Fatalf("want diagnostic %s, got %v", tc.code, codes)
			}
			if tc.code != "" && l.Summary.Diagnostics[tc.code] == 0 {
				t.Fatalf("summary does not count %s: %v", tc.code, l.Summary.Diagnostics)
			}
		})
	}
}

func TestEmptyEvidenceIsAnUnknownLedgerWithNoObligations(t *testing.T) {
	l := build(t, Request{ReviewedObligations: []Reviewed{{ObligationID: "x", Layer: "cli", SourceEvidenceIDs: []string{ev}}}})
	if l.Status != Unknown || l.Summary.Total != 0 || len(l.Obligations) != 0 || l.Diagnostics[0].Code != "empty-evidence" {
		t.Fatalf("%+v", l)
	}
}

func TestStaticFactsOnlyCreateCandidates(t *testing.T) {
	s := source(t, `{"browser_windows":[{"id":"w1","module":"main.js"}],
		"context_bridge_apis":[{"module":"preload.js","key":"api","members":["save","open"]}],
		"ipc":[{"module":"main.js","channel":"a","channel_state":"literal"},{"module":"preload.js","channel":"a","channel_state":"literal"},
		       {"module":"main.js","channel":"","channel_state":"dynamic"}]}`)
	l := build(t, Request{Sources: []Source{s}})
	got := map[string]string{}
	for _, o := range l.Obligations {
		got[o.ObligationID] = o.Status
		if o.Origin != "static-candidate" {
			t.Errorf("%s origin %s", o.ObligationID, o.Origin)
		}
	}
	want := map[string]string{"ipc:a": Unowned, "api:api.save": Unowned, "api:api.open": Unowned, "window:main.js#w1": Unowned, "ipc-dynamic:main.js": Unknown}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("candidates %v, want %v", got, want)
	}
	if l.Status != Unknown || l.Summary.ByLayer["electron"] != 3 || l.Summary.ByLayer["protocol"] != 2 {
		t.Fatalf("ledger %s, layers %v", l.Status, l.Summary.ByLayer)
	}
}

func TestPagesRepeatLedgerIDClosureDigestAndSummaries(t *testing.T) {
	var ipc []string
	for i := 0; i < 7; i++ {
		ipc = append(ipc, fmt.Sprintf(`{"module":"m.js","channel":"c%d","channel_state":"literal"}`, i))
	}
	s := source(t, `{"ipc":[`+strings.Join(ipc, ",")+`]}`)
	var seen []string
	var id, closure string
	for off := 0; ; {
		req := Request{Sources: []Source{s}}
		req.Page.Offset, req.Page.Limit = off, 3
		l := build(t, req)
		if id != "" && (l.LedgerID != id || l.ClosureDigest != closure) {
			t.Fatal("pages disagree on ledger id or closure digest")
		}
		id, closure = l.LedgerID, l.ClosureDigest
		if l.Summary.Total != 7 || l.Summary.ByStatus[Unowned] != 7 {
			t.Fatalf("page summary %+v", l.Summary)
		}
		for _, o := range l.Obligations {
			seen = append(seen, o.ObligationID)
		}
		if l.Page.NextOffset == nil {
			break
		}
		off = *l.Page.NextOffset
	}
	if strings.Join(seen, ",") != "ipc:c0,ipc:c1,ipc:c2,ipc:c3,ipc:c4,ipc:c5,ipc:c6" {
		t.Fatalf("pages %v", seen)
	}
	b := closing()
	b.ObligationID = "ipc:c0"
	b.Verifiers[0].Enumerates = []string{"ipc:c0"}
	l := build(t, Request{Sources: []Source{s}, Manifest: Manifest{Bindings: []Binding{b}}})
	if l.ClosureDigest == closure || l.LedgerID == id {
		t.Fatal("closing an obligation must change the closure digest and the ledger id")
	}
}

func TestMaxObligationsTruncatesToAnUnknownLedger(t *testing.T) {
	s := source(t, `{"ipc":[{"module":"m","channel":"a","channel_state":"literal"},{"module":"m","channel":"b","channel_state":"literal"}]}`)
	req := Request{Sources: []Source{s}}
	req.Limits.MaxObligations = 1
	l := build(t, req)
	if l.Status != Unknown || l.Summary.Omitted != 1 || l.Summary.Total != 1 || l.Summary.Diagnostics["truncated"] != 1 {
		t.Fatalf("%+v", l)
	}
}

func TestRequestValidation(t *testing.T) {
	bad := []Request{
		{Manifest: Manifest{SchemaVersion: 2}},
		{Manifest: Manifest{SchemaVersion: 1}, ReviewedObligations: []Reviewed{{ObligationID: "x", Layer: "kernel"}}},
		{Manifest: Manifest{SchemaVersion: 1}, ReviewedObligations: []Reviewed{{ObligationID: "x", Layer: "cli", RequiredCases: []string{"fuzz"}}}},
		{Manifest: Manifest{SchemaVersion: 1}, ReviewedObligations: []Reviewed{{ObligationID: "x", Layer: "cli", Disposition: OutOfScope}}},
		{Manifest: Manifest{SchemaVersion: 1, Bindings: []Binding{{ObligationID: "x", Owner: "o", Verifiers: []Verifier{{Authority: "god", Result: "pass"}}}}}},
		{Manifest: Manifest{SchemaVersion: 1, Bindings: []Binding{{ObligationID: "x", Owner: ""}}}},
	}
	for i, r := range bad {
		if _, err := Build(r); err == nil {
			t.Errorf("request %d accepted", i)
		}
	}
}
