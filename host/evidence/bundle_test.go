package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	"rea/abi"
)

// mixedRecords covers every manifest section.
func mixedRecords(t testing.TB) []Record {
	t.Helper()
	plain := mustNew(t, testDraft())
	sameArtifact := testDraft()
	sameArtifact.Operation = "inspect_artifact"
	replay := testDraft()
	replay.Authority = AuthorityControlledReplay
	replay.Operation = "capture_electron_scenario"
	replay.Environment = &Environment{ID: "env-1", Platform: "linux", Architecture: "x86_64", Isolation: "container"}
	capture := Draft{
		Provider:      Provider{ID: "rea.capture", Name: "rea process capture", Version: nil},
		PredicateType: "rea.process-capture/v1",
		Operation:     "capture_process",
		Environment:   &Environment{ID: "env-0", Platform: "linux", Architecture: "arm64", Isolation: "process"},
	}
	elf := testDraft()
	elf.Subject = &Subject{Name: "a.out", Digest: Digest{SHA256: digestB}, Format: "elf", Architecture: "x86_64", LocalPath: "/bin/a.out"}
	return []Record{plain, mustNew(t, sameArtifact), mustNew(t, replay), mustNew(t, capture), mustNew(t, elf)}
}

func unknownJSON(id string, rev int, extra string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"unknown_id":%q,"revision":%d,"question":"Which window loads preload.js?"%s}`, id, rev, extra))
}

func mustUnknown(t testing.TB, doc json.RawMessage) Unknown {
	t.Helper()
	u, err := ParseUnknown(doc)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestBundleManifestIsDerivedFromRecords(t *testing.T) {
	rs := mixedRecords(t)
	b, err := NewBundle([]Record{rs[4], rs[3], rs[2], rs[1], rs[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Artifacts) != 2 || len(b.Providers) != 2 || len(b.Environments) != 2 || len(b.Scenarios) != 1 || len(b.Captures) != 1 {
		t.Fatalf("manifest: %d artifacts %d providers %d environments %d scenarios %d captures",
			len(b.Artifacts), len(b.Providers), len(b.Environments), len(b.Scenarios), len(b.Captures))
	}
	for i := 1; i < len(b.Records); i++ {
		if b.Records[i-1].EvidenceID >= b.Records[i].EvidenceID {
			t.Error("records are not sorted by evidence_id")
		}
	}
	// digestB sorts before digestA, so the ELF artifact comes first.
	if b.Artifacts[0].Digest.SHA256 != digestB || b.Artifacts[1].Format != "asar" {
		t.Errorf("artifacts %+v", b.Artifacts)
	}
	if b.Scenarios[0].Operation != "capture_electron_scenario" || b.Captures[0].PredicateType != "rea.process-capture/v1" {
		t.Errorf("scenarios %+v captures %+v", b.Scenarios, b.Captures)
	}
}

func TestBundleSerialisesAsRFC8785(t *testing.T) {
	rs := mixedRecords(t)
	b, err := NewBundle(rs, []Unknown{mustUnknown(t, unknownJSON("unk_b", 1, "")), mustUnknown(t, unknownJSON("unk_a", 2, "")), mustUnknown(t, unknownJSON("unk_a", 1, ""))})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := b.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo: %d %v", n, err)
	}
	again, err := jcs.Transform(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, buf.Bytes()) {
		t.Error("bundle bytes are not RFC 8785 canonical")
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte(`{"artifacts":[`)) || !bytes.Contains(buf.Bytes(), []byte(`"bundle_version":2,"captures":[`)) {
		t.Errorf("unexpected layout: %.200s", buf.Bytes())
	}
	var order []string
	for _, u := range b.Unknowns {
		order = append(order, fmt.Sprintf("%s@%d", u.UnknownID, u.Revision))
	}
	if strings.Join(order, ",") != "unk_a@1,unk_a@2,unk_b@1" {
		t.Errorf("unknown order %v", order)
	}
}

func TestParseBundleRoundTrips(t *testing.T) {
	rs := mixedRecords(t)
	b, _ := NewBundle(rs, []Unknown{mustUnknown(t, unknownJSON("unk_a", 1, ""))})
	data, _ := json.Marshal(b)
	got, err := ParseBundle(context.Background(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(got)
	if !bytes.Equal(data, again) {
		t.Error("parse and re-serialise changed the bundle")
	}
	// Pretty-printed, with records out of order, it still parses to the same bundle.
	var m map[string]json.RawMessage
	json.Unmarshal(data, &m)
	var recs []json.RawMessage
	json.Unmarshal(m["records"], &recs)
	recs[0], recs[len(recs)-1] = recs[len(recs)-1], recs[0]
	m["records"], _ = json.Marshal(recs)
	shuffled, _ := json.MarshalIndent(m, "", "  ")
	got2, err := ParseBundle(context.Background(), shuffled, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again2, _ := json.Marshal(got2); !bytes.Equal(again2, data) {
		t.Error("record order changed the parsed bundle")
	}
}

// bundleDoc is a bundle as a generic map for editing.
func bundleDoc(t *testing.T) map[string]any {
	t.Helper()
	b, err := NewBundle(mixedRecords(t), []Unknown{mustUnknown(t, unknownJSON("unk_a", 1, ""))})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(b)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseBundleRejectsBrokenBundles(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		code  string
		field string
	}{
		{"duplicate record", func(m map[string]any) {
			recs := m["records"].([]any)
			m["records"] = append(recs, recs[0])
		}, abi.CodeEvidenceIntegrity, ""},
		{"tampered record", func(m map[string]any) {
			m["records"].([]any)[1].(map[string]any)["operation"] = "forged"
		}, abi.CodeEvidenceIntegrity, ""},
		{"record missing analysis_profile", func(m map[string]any) {
			delete(m["records"].([]any)[2].(map[string]any), "analysis_profile")
		}, abi.CodeInvalidRequest, "records[2].analysis_profile"},
		{"record with a bad enum", func(m map[string]any) {
			m["records"].([]any)[1].(map[string]any)["confidence"] = "sure"
		}, abi.CodeInvalidRequest, "records[1].confidence"},
		{"artifact missing from manifest", func(m map[string]any) { m["artifacts"] = m["artifacts"].([]any)[1:] }, abi.CodeEvidenceIntegrity, "artifacts"},
		{"manifest out of order", func(m map[string]any) {
			a := m["artifacts"].([]any)
			a[0], a[1] = a[1], a[0]
		}, abi.CodeEvidenceIntegrity, "artifacts"},
		{"extra provider", func(m map[string]any) {
			m["providers"] = append(m["providers"].([]any), map[string]any{"id": "x", "name": "x", "version": nil})
		}, abi.CodeEvidenceIntegrity, "providers"},
		{"scenario dropped", func(m map[string]any) { m["scenarios"] = []any{} }, abi.CodeEvidenceIntegrity, "scenarios"},
		{"capture dropped", func(m map[string]any) { m["captures"] = []any{} }, abi.CodeEvidenceIntegrity, "captures"},
		{"environment dropped", func(m map[string]any) { m["environments"] = []any{} }, abi.CodeEvidenceIntegrity, "environments"},
		{"duplicate unknown", func(m map[string]any) {
			m["unknowns"] = append(m["unknowns"].([]any), m["unknowns"].([]any)[0])
		}, abi.CodeEvidenceIntegrity, ""},
		{"unknown without revision", func(m map[string]any) {
			m["unknowns"] = []any{map[string]any{"unknown_id": "unk_a"}}
		}, abi.CodeInvalidRequest, "unknowns[0].revision"},
		{"unknown field", func(m map[string]any) { m["signature"] = "x" }, abi.CodeInvalidRequest, "signature"},
		{"missing records", func(m map[string]any) { delete(m, "records") }, abi.CodeInvalidRequest, "records"},
		{"version 1", func(m map[string]any) { m["bundle_version"] = 1 }, abi.CodeInvalidRequest, "bundle_version"},
		{"records not an array", func(m map[string]any) { m["records"] = map[string]any{} }, abi.CodeInvalidRequest, "records"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := bundleDoc(t)
			c.edit(m)
			data, _ := json.Marshal(m)
			_, err := ParseBundle(context.Background(), data, nil)
			if err == nil {
				t.Fatal("accepted")
			}
			e := asABI(t, err)
			if e.Code != c.code {
				t.Fatalf("code %s, want %s: %v", e.Code, c.code, e)
			}
			if c.field != "" && e.Details["field"] != c.field {
				t.Errorf("field %v, want %s (%v)", e.Details["field"], c.field, e)
			}
		})
	}
}

func TestParseBundleObservesCancellation(t *testing.T) {
	data, _ := json.Marshal(bundleDoc(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ParseBundle(ctx, data, nil)
	if asABI(t, err).Code != abi.CodeCancelled {
		t.Errorf("got %v", err)
	}
}

// citedEvidence is a small residual-unknown rule: every id in
// supporting_evidence_ids must name a record of the bundle.
type citedEvidence struct{ calls int }

func (c *citedEvidence) ValidateUnknowns(us []Unknown, record func(string) (Record, bool)) error {
	c.calls++
	for _, u := range us {
		var body struct {
			Supporting []string `json:"supporting_evidence_ids"`
		}
		json.Unmarshal(u.JSON, &body)
		for _, id := range body.Supporting {
			if _, ok := record(id); !ok {
				return abi.Errorf(abi.CodeEvidenceIntegrity, "unknown %s cites missing evidence %s", u.UnknownID, id)
			}
		}
	}
	return nil
}

func TestParseBundleRunsThePluggedUnknownValidator(t *testing.T) {
	rs := mixedRecords(t)
	good := mustUnknown(t, unknownJSON("unk_a", 1, fmt.Sprintf(`,"supporting_evidence_ids":[%q]`, rs[0].EvidenceID)))
	bad := mustUnknown(t, unknownJSON("unk_b", 1, `,"supporting_evidence_ids":["ev_`+digestB+`"]`))
	for name, c := range map[string]struct {
		unknowns []Unknown
		ok       bool
	}{"cited evidence present": {[]Unknown{good}, true}, "cited evidence absent": {[]Unknown{good, bad}, false}} {
		t.Run(name, func(t *testing.T) {
			b, _ := NewBundle(rs, c.unknowns)
			data, _ := json.Marshal(b)
			v := &citedEvidence{}
			_, err := ParseBundle(context.Background(), data, v)
			if (err == nil) != c.ok || v.calls != 1 {
				t.Errorf("err %v, calls %d", err, v.calls)
			}
			var e *abi.Error
			if err != nil && !errors.As(err, &e) {
				t.Errorf("validator error lost its type: %v", err)
			}
		})
	}
}

func TestLedgerImportIsAllOrNothing(t *testing.T) {
	rs := mixedRecords(t)
	b, _ := NewBundle(rs, []Unknown{mustUnknown(t, unknownJSON("unk_a", 1, ""))})

	full := NewLedger(Limits{})
	full.Add(rs[0])
	res, err := full.Import(b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != len(rs)-1 || res.Duplicates != 1 || res.UnknownsAdded != 1 {
		t.Errorf("result %+v", res)
	}
	snap, _ := json.Marshal(full.Snapshot())
	want, _ := json.Marshal(b)
	if !bytes.Equal(snap, want) {
		t.Error("ledger snapshot after import differs from the imported bundle")
	}

	small := NewLedger(Limits{MaxRecords: len(rs) - 1})
	small.Add(rs[0])
	before := small.Bytes()
	_, err = small.Import(b)
	if e := asABI(t, err); e.Code != abi.CodeTruncated || e.Details["limit"] != "records" {
		t.Fatalf("got %v", err)
	}
	if small.Len() != 1 || small.Bytes() != before {
		t.Errorf("a refused import changed the ledger: len %d", small.Len())
	}

	conflicting := NewLedger(Limits{})
	conflicting.Import(Bundle{Unknowns: []Unknown{mustUnknown(t, unknownJSON("unk_a", 1, `,"status":"open"`))}})
	_, err = conflicting.Import(b)
	if asABI(t, err).Code != abi.CodeRevisionConflict || conflicting.Len() != 0 {
		t.Errorf("conflicting unknown: %v, len %d", err, conflicting.Len())
	}
}

func TestLedgerByteLimitCountsUnknowns(t *testing.T) {
	u := mustUnknown(t, unknownJSON("unk_a", 1, ""))
	l := NewLedger(Limits{MaxBytes: int64(len(u.JSON)) - 1})
	_, err := l.Import(Bundle{Unknowns: []Unknown{u}})
	if e := asABI(t, err); e.Details["limit"] != "bytes" {
		t.Errorf("got %v", err)
	}
}

func TestParseBundleRejectsTruncatedText(t *testing.T) {
	data, _ := json.Marshal(bundleDoc(t))
	for _, cut := range []int{1, len(data) / 2, len(data) - 1} {
		_, err := ParseBundle(context.Background(), data[:cut], nil)
		if err == nil {
			t.Fatalf("accepted %d of %d bytes", cut, len(data))
		}
		if asABI(t, err).Code != abi.CodeInvalidRequest {
			t.Errorf("cut at %d: %v", cut, err)
		}
	}
	if _, err := ParseBundle(context.Background(), append(data, []byte(` {}`)...), nil); err == nil {
		t.Error("accepted trailing data")
	}
}
