package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// FuzzParseRecord: Parse never panics, and whatever it accepts is sealed
// consistently — its canonical bytes parse again to the same record, and
// sealing its fields anew reproduces the id.
func FuzzParseRecord(f *testing.F) {
	f.Add(mustNew(f, testDraft()).Canonical())
	f.Add(mustNew(f, Draft{Provider: testProvider(), Operation: "x"}).Canonical())
	f.Add([]byte(`{"schema_version":1}`))
	f.Add([]byte(`{"kind":"retained-evidence","evidence_id":"ev_0"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(r.Canonical())
		if err != nil {
			t.Fatalf("canonical form of an accepted record was rejected: %v", err)
		}
		if again.EvidenceID != r.EvidenceID || !bytes.Equal(again.Canonical(), r.Canonical()) {
			t.Fatal("re-parsing changed the record")
		}
		sealed, err := Seal(r)
		if err != nil {
			t.Fatalf("Seal of an accepted record failed: %v", err)
		}
		if sealed.EvidenceID != r.EvidenceID {
			t.Fatalf("re-sealing changed the id: %s → %s", r.EvidenceID, sealed.EvidenceID)
		}
	})
}

// FuzzParseBundle: ParseBundle never panics, and an accepted bundle
// re-serialises to bytes that parse to the same bundle.
func FuzzParseBundle(f *testing.F) {
	b, err := NewBundle(mixedRecords(f), []Unknown{mustUnknown(f, unknownJSON("unk_a", 1, ""))})
	if err != nil {
		f.Fatal(err)
	}
	data, _ := b.MarshalJSON()
	f.Add(data)
	empty, _ := Bundle{}.MarshalJSON()
	f.Add(empty)
	f.Add([]byte(`{"bundle_version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseBundle(context.Background(), data, nil)
		if err != nil {
			return
		}
		out, _ := b.MarshalJSON()
		again, err := ParseBundle(context.Background(), out, nil)
		if err != nil {
			t.Fatalf("canonical form of an accepted bundle was rejected: %v", err)
		}
		if out2, _ := again.MarshalJSON(); !bytes.Equal(out, out2) {
			t.Fatal("re-parsing changed the bundle")
		}
	})
}

// FuzzReopenRecord: Reopen never panics, accepts only what Parse accepts
// as the same record, and accepts every sealed record's canonical bytes.
func FuzzReopenRecord(f *testing.F) {
	for _, d := range reopenDrafts() {
		f.Add(mustNew(f, d).Canonical())
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"a":"\"","b":[{"c":"]"}],"d":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Reopen(data)
		if err != nil {
			return
		}
		parsed, err := Parse(data)
		if err != nil {
			t.Fatalf("Reopen accepted what Parse refuses: %v", err)
		}
		if parsed.EvidenceID != r.EvidenceID || !bytes.Equal(parsed.Canonical(), r.Canonical()) {
			t.Fatal("Reopen and Parse read two records")
		}
	})
}

// FuzzIndentCompact: on compact valid JSON the one-pass indenter writes
// exactly json.Indent's bytes, and on anything else it does not panic.
func FuzzIndentCompact(f *testing.F) {
	for _, d := range reopenDrafts() {
		f.Add(mustNew(f, d).Canonical())
	}
	f.Add([]byte(`[1,{"a":{}},[],"x\\\"y",-0.5e+3,true]`))
	f.Add([]byte(`"\u2028"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := appendIndentCompact(nil, data, "> ", "\t", nil)
		var compact bytes.Buffer
		if json.Compact(&compact, data) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "> ", "\t"); err != nil {
			t.Fatal(err)
		}
		got = appendIndentCompact(nil, compact.Bytes(), "> ", "\t", nil)
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indented %q:\n%q\njson.Indent:\n%q", compact.Bytes(), got, want.Bytes())
		}
	})
}
