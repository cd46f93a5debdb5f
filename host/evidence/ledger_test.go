package evidence

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"rea/abi"
)

// records returns n distinct sealed records.
func records(t testing.TB, n int) []Record {
	t.Helper()
	out := make([]Record, n)
	for i := range out {
		d := testDraft()
		d.NormalizedResult = map[string]any{"index": i}
		out[i] = mustNew(t, d)
	}
	return out
}

func TestLedgerAddReportsAddedThenDuplicate(t *testing.T) {
	l := NewLedger(Limits{})
	r := mustNew(t, testDraft())
	for i, want := range []AddResult{Added, Duplicate} {
		got, err := l.Add(r)
		if err != nil || got != want {
			t.Fatalf("add %d: %v %v, want %v", i, got, err, want)
		}
	}
	// The same observation of the same bytes at another path is a duplicate.
	d := testDraft()
	d.Subject.LocalPath = "/other/app.asar"
	if got, _ := l.Add(mustNew(t, d)); got != Duplicate {
		t.Errorf("moved artifact: %v", got)
	}
	if l.Len() != 1 || l.Bytes() != int64(len(r.Canonical())) {
		t.Errorf("len %d bytes %d", l.Len(), l.Bytes())
	}
	if got, ok := l.Lookup(r.EvidenceID); !ok || got.EvidenceID != r.EvidenceID {
		t.Error("lookup failed")
	}
	if _, ok := l.Lookup("ev_" + digestB); ok {
		t.Error("lookup of an absent id succeeded")
	}
}

func TestLedgerRefusesUnsealedRecords(t *testing.T) {
	_, err := NewLedger(Limits{}).Add(Record{EvidenceID: "ev_" + digestA})
	if asABI(t, err).Code != abi.CodeInvalidRequest {
		t.Errorf("got %v", err)
	}
}

func TestLedgerLimitsAreTypedTruncation(t *testing.T) {
	rs := records(t, 3)
	size := int64(len(rs[0].Canonical()))
	cases := []struct {
		name   string
		limits Limits
		fits   int
		limit  string
	}{
		{"records", Limits{MaxRecords: 2, MaxBytes: 1 << 30}, 2, "records"},
		{"bytes", Limits{MaxRecords: 100, MaxBytes: 2*size + size/2}, 2, "bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := NewLedger(c.limits)
			for i := 0; i < c.fits; i++ {
				if _, err := l.Add(rs[i]); err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
			}
			_, err := l.Add(rs[c.fits])
			e := asABI(t, err)
			if e.Code != abi.CodeTruncated || e.Details["limit"] != c.limit {
				t.Fatalf("got %v %v", e.Code, e.Details)
			}
			if l.Len() != c.fits {
				t.Errorf("a refused record was kept: len %d", l.Len())
			}
			// A duplicate is still recognised at the limit.
			if got, err := l.Add(rs[0]); err != nil || got != Duplicate {
				t.Errorf("duplicate at the limit: %v %v", got, err)
			}
		})
	}
}

func TestLedgerClearForgetsEverything(t *testing.T) {
	l := NewLedger(Limits{})
	r := mustNew(t, testDraft())
	l.Add(r)
	l.Clear()
	if l.Len() != 0 || l.Bytes() != 0 {
		t.Errorf("after Clear: len %d bytes %d", l.Len(), l.Bytes())
	}
	if got, _ := l.Add(r); got != Added {
		t.Errorf("re-adding after Clear: %v", got)
	}
}

func TestLedgerIsSafeForConcurrentUse(t *testing.T) {
	l := NewLedger(Limits{})
	rs := records(t, 40)
	var wg sync.WaitGroup
	added := make([]int, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for _, r := range rs {
				if got, err := l.Add(r); err == nil && got == Added {
					added[w]++
				}
				l.Lookup(r.EvidenceID)
				_ = l.Records()
			}
		}(w)
	}
	wg.Wait()
	total := 0
	for _, n := range added {
		total += n
	}
	if total != len(rs) || l.Len() != len(rs) {
		t.Errorf("added %d times, ledger holds %d, want %d", total, l.Len(), len(rs))
	}
}

func TestResolveAcceptsInlineEvidenceAndRetainedReferences(t *testing.T) {
	l := NewLedger(Limits{})
	r := mustNew(t, testDraft())
	l.Add(r)
	ref, _ := json.Marshal(ReferenceTo(r.EvidenceID))
	cases := map[string]json.RawMessage{
		"inline":         r.Canonical(),
		"reference":      ref,
		"spaced ref":     json.RawMessage(fmt.Sprintf(" { \"evidence_id\" : %q , \"kind\":\"retained-evidence\" } ", r.EvidenceID)),
		"inline, absent": mustNew(t, Draft{Provider: testProvider(), Operation: "other"}).Canonical(),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := l.Resolve(in)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := Parse(in); name != "reference" && name != "spaced ref" && got.EvidenceID != want.EvidenceID {
				t.Errorf("inline resolved to %s", got.EvidenceID)
			}
			if (name == "reference" || name == "spaced ref") && got.EvidenceID != r.EvidenceID {
				t.Errorf("reference resolved to %s", got.EvidenceID)
			}
		})
	}
}

func TestResolveReportsAMissingReferenceWithItsID(t *testing.T) {
	r := mustNew(t, testDraft())
	ref, _ := json.Marshal(ReferenceTo(r.EvidenceID))
	for name, l := range map[string]*Ledger{"empty ledger": NewLedger(Limits{}), "no ledger (CLI)": nil} {
		t.Run(name, func(t *testing.T) {
			_, err := l.Resolve(ref)
			e := asABI(t, err)
			if e.Details["reason"] != "missing" || e.Details["evidence_id"] != r.EvidenceID {
				t.Errorf("details %v", e.Details)
			}
		})
	}
	// After close_binary the reference is missing too.
	l := NewLedger(Limits{})
	l.Add(r)
	l.Clear()
	if _, err := l.Resolve(ref); asABI(t, err).Details["reason"] != "missing" {
		t.Errorf("after Clear: %v", err)
	}
}

func TestResolveRejectsMalformedInput(t *testing.T) {
	l := NewLedger(Limits{})
	cases := []struct {
		name, in, field string
	}{
		{"wrong kind", `{"kind":"evidence","evidence_id":"ev_` + digestA + `"}`, "kind"},
		{"bad id", `{"kind":"retained-evidence","evidence_id":"ev_1"}`, "evidence_id"},
		{"extra field", `{"kind":"retained-evidence","evidence_id":"ev_` + digestA + `","x":1}`, "x"},
		{"missing id", `{"kind":"retained-evidence"}`, "evidence_id"},
		{"array", `[]`, "(root)"},
		{"inline missing fields", `{"schema_version":2}`, "analysis_profile"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := l.Resolve(json.RawMessage(c.in))
			if got := issuePath(t, err); got != c.field {
				t.Errorf("field %q, want %q (%v)", got, c.field, err)
			}
		})
	}
}
