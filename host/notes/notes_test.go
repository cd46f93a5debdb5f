package notes

import (
	"testing"
	"time"

	"rea/abi"
	"rea/host/evidence"
)

var target = Target{SHA256: "ab" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"[:62], Name: "bin", Format: "elf", Architecture: "x86_64"}

func str(s string) *string { return &s }

func write(t *testing.T, l *evidence.Ledger, op string, c ...Change) *Result {
	t.Helper()
	r, err := Write(l, target, op, "test", time.Unix(1700000000, 0), c)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return r
}

// TestNotesChainAndReadback: each change names the value it replaced and
// the record that set it; the fold gives the last value; removal clears.
func TestNotesChainAndReadback(t *testing.T) {
	l := evidence.NewLedger(evidence.DefaultLimits())
	r1 := write(t, l, "set_address_name", Change{KindName, "0x401000", str("parse")})
	if !r1.Mutations[0].ReadbackMatch || r1.Mutations[0].PriorValue != nil {
		t.Fatalf("first write: %+v", r1.Mutations[0])
	}
	r2 := write(t, l, "set_address_name", Change{KindName, "4198400", str("parse_header")}) // the same address in decimal
	m := r2.Mutations[0]
	if m.PriorValue == nil || *m.PriorValue != "parse" || !m.ReadbackMatch || m.Address != "0x401000" {
		t.Fatalf("second write: %+v", m)
	}
	rec, _ := l.Lookup(m.EvidenceID)
	if rec.Authority != evidence.AuthorityAnalystInference || rec.PredicateType != PredicateType || len(rec.EvidenceLinks) != 1 || rec.EvidenceLinks[0] != r1.EvidenceID {
		t.Fatalf("record: authority %s predicate %s links %v", rec.Authority, rec.PredicateType, rec.EvidenceLinks)
	}
	v := Load(l, target.SHA256)
	if n, ok := v.At(KindName, 0x401000); !ok || n.Value != "parse_header" || n.Sequence != 2 {
		t.Fatalf("fold: %+v %v", n, ok)
	}
	if a, ok := v.Named("parse_header"); !ok || a != 0x401000 {
		t.Fatalf("Named: %v %v", a, ok)
	}
	write(t, l, "set_address_name", Change{KindName, "0x401000", nil})
	if _, ok := Load(l, target.SHA256).At(KindName, 0x401000); ok {
		t.Fatal("the removed name is still there")
	}
	if got := Load(l, "ff"+target.SHA256[2:]).Len(); got != 0 {
		t.Fatalf("another binary sees %d notes", got)
	}
}

// TestNotesFromTwoSessionsConflict: two ledgers that each started the same
// note, merged by an import, fork — reported, applied nowhere, and a
// further write refused.
func TestNotesFromTwoSessionsConflict(t *testing.T) {
	a, b := evidence.NewLedger(evidence.DefaultLimits()), evidence.NewLedger(evidence.DefaultLimits())
	write(t, a, "set_comment", Change{KindComment, "0x401000", str("from a")})
	write(t, b, "set_comment", Change{KindComment, "0x401000", str("from b")})
	write(t, b, "set_bookmark", Change{KindBookmark, "0x402000", str("entry")})
	if _, err := a.Import(b.Snapshot()); err != nil {
		t.Fatal(err)
	}
	v := Load(a, target.SHA256)
	if _, ok := v.At(KindComment, 0x401000); ok || len(v.Conflicts) != 1 || len(v.Conflicts[0].EvidenceIDs) != 2 {
		t.Fatalf("conflict not reported: %+v", v.Conflicts)
	}
	if n, ok := v.At(KindBookmark, 0x402000); !ok || n.Value != "entry" {
		t.Fatal("the bookmark without conflict is lost")
	}
	_, err := Write(a, target, "set_comment", "test", time.Now(), []Change{{KindComment, "0x401000", str("again")}})
	if ae, ok := err.(*abi.Error); !ok || ae.Code != abi.CodeRevisionConflict {
		t.Fatalf("write over a conflict: %v", err)
	}
	ann, links := v.Annotate(map[string]any{"address": "0x402000", "other": []any{"0x401000"}})
	if ann == nil || len(ann.Items) != 1 || ann.Items[0].Bookmark == nil || len(ann.Conflicts) != 1 || len(links) != 1 {
		t.Fatalf("annotations: %+v %v", ann, links)
	}
}

func TestNotesValidate(t *testing.T) {
	for _, c := range []Change{
		{KindName, "main", str("x")},
		{KindName, "0x10", str(" padded")},
		{KindName, "0x10", str("two\nlines")},
		{KindComment, "0x10", str("bell\a")},
		{"type", "0x10", str("int")},
	} {
		if _, err := Validate(c, "address"); err == nil {
			t.Errorf("%+v accepted", c)
		} else if ae, ok := err.(*abi.Error); !ok || ae.Code != abi.CodeInvalidRequest {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if _, err := Validate(Change{KindComment, "0x10", str("line 1\n\tline 2")}, "address"); err != nil {
		t.Error(err)
	}
}
