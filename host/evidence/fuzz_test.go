package evidence

import (
	"bytes"
	"context"
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
