package evidence

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestParseQueryAcceptsSummaryFilters(t *testing.T) {
	q, err := ParseQuery(json.RawMessage(`{"path":"/tmp/e.json","detail":"summary","filters":{"operation":"analyze_function","procedure_address":"0x401000"}}`), "path")
	if err != nil {
		t.Fatal(err)
	}
	if q.Detail != DetailSummary || q.Filters == nil || q.Filters.Operation != "analyze_function" || q.Filters.ProcedureAddress != "0x401000" {
		t.Errorf("query %+v %+v", q, q.Filters)
	}
	for _, in := range []string{``, `null`, `{}`, `{"detail":"complete"}`, `{"detail":"summary"}`} {
		if _, err := ParseQuery(json.RawMessage(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestParseQueryRejectsFiltersOutsideSummary(t *testing.T) {
	cases := []struct{ name, in, field string }{
		{"filters without detail", `{"filters":{"operation":"x"}}`, "filters"},
		{"filters with complete", `{"detail":"complete","filters":{}}`, "filters"},
		{"unknown detail", `{"detail":"full"}`, "detail"},
		{"unknown filter", `{"detail":"summary","filters":{"name":"x"}}`, "filters.name"},
		{"empty filter", `{"detail":"summary","filters":{"operation":""}}`, "filters.operation"},
		{"filter not a string", `{"detail":"summary","filters":{"operation":1}}`, "filters.operation"},
		{"bad evidence id", `{"detail":"summary","filters":{"evidence_id":"ev_1"}}`, "filters.evidence_id"},
		{"bad target digest", `{"detail":"summary","filters":{"target_sha256":"ABC"}}`, "filters.target_sha256"},
		{"bad profile digest", `{"detail":"summary","filters":{"analysis_profile_digest":"x"}}`, "filters.analysis_profile_digest"},
		{"unknown parameter", `{"detail":"summary","path":"/x"}`, "path"},
		{"filters not an object", `{"detail":"summary","filters":[]}`, "filters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseQuery(json.RawMessage(c.in))
			if err == nil {
				t.Fatal("accepted")
			}
			if got := issuePath(t, err); got != c.field {
				t.Errorf("field %q, want %q (%v)", got, c.field, err)
			}
		})
	}
}

func TestProcedureAddressReadsDocumentedFields(t *testing.T) {
	cases := []struct {
		result string
		want   string
		ok     bool
	}{
		{`{"procedure_address":"0x401000"}`, "0x401000", true},
		{`{"function_address":"0x10"}`, "0x10", true},
		{`{"entry_address":4096}`, "0x1000", true},
		{`{"procedure":{"address":"0x20","name":"main"}}`, "0x20", true},
		{`{"function":{"entry":"0x30"}}`, "0x30", true},
		{`{"procedure":null,"function":{"entry_address":"0x40"}}`, "0x40", true},
		{`{"procedure_address":"0x1","procedure":{"address":"0x2"}}`, "0x1", true},
		{`{"windows":[{"address":"0x50"}]}`, "", false},
		{`{"address":"0x60"}`, "", false},
		{`[1,2]`, "", false},
		{`null`, "", false},
		{`{"procedure_address":""}`, "", false},
	}
	for _, c := range cases {
		t.Run(c.result, func(t *testing.T) {
			r := mustNew(t, Draft{Provider: testProvider(), Operation: "analyze_function", NormalizedResult: json.RawMessage(c.result)})
			got, ok := ProcedureAddress(r)
			if got != c.want || ok != c.ok {
				t.Errorf("got %q %v, want %q %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestSummaryFiltersSelectExactRecords(t *testing.T) {
	ap, _ := NewAnalysisProfile(testProvider(), 1, map[string]any{"mode": "deep"})
	withProfile := testDraft()
	withProfile.AnalysisProfile = &ap
	withProfile.Operation = "analyze_function"
	withProfile.NormalizedResult = map[string]any{"procedure": map[string]any{"address": "0x00401000"}}
	other := testDraft()
	other.Subject = &Subject{Name: "a.out", Digest: Digest{SHA256: digestB}, Format: "elf", Architecture: "arm64", LocalPath: "/a.out"}
	rs := []Record{mustNew(t, testDraft()), mustNew(t, withProfile), mustNew(t, other), mustNew(t, Draft{Provider: testProvider(), Operation: "list_tools"})}
	b, err := NewBundle(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		filters Filters
		want    []Record
	}{
		{"none", Filters{}, rs},
		{"evidence id", Filters{EvidenceID: rs[2].EvidenceID}, rs[2:3]},
		{"operation", Filters{Operation: "analyze_function"}, rs[1:2]},
		{"target", Filters{TargetSHA256: digestA}, rs[0:2]},
		{"target and operation", Filters{TargetSHA256: digestA, Operation: "analyze_javascript_application"}, rs[0:1]},
		{"profile digest", Filters{AnalysisProfileDigest: ap.Digest}, rs[1:2]},
		{"procedure address, other spelling", Filters{ProcedureAddress: "0x401000"}, rs[1:2]},
		{"procedure address, no prefix", Filters{ProcedureAddress: "401000"}, rs[1:2]},
		{"procedure address, no match", Filters{ProcedureAddress: "0x401001"}, nil},
		{"target of nothing", Filters{TargetSHA256: "f" + digestA[1:]}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := b.Summarize(c.filters)
			if s.TotalRecords != 4 || s.Detail != "summary" || s.BundleVersion != 2 {
				t.Errorf("header %+v", s)
			}
			want := map[string]bool{}
			for _, r := range c.want {
				want[r.EvidenceID] = true
			}
			if len(s.Records) != len(want) {
				t.Fatalf("got %d records, want %d", len(s.Records), len(want))
			}
			for _, sr := range s.Records {
				if !want[sr.EvidenceID] {
					t.Errorf("unexpected %s", sr.EvidenceID)
				}
			}
		})
	}
}

func TestSummaryRecordCarriesIdentityNotPayloads(t *testing.T) {
	ap, _ := NewAnalysisProfile(testProvider(), 1, map[string]any{})
	d := testDraft()
	d.AnalysisProfile = &ap
	d.NormalizedResult = map[string]any{"secret_payload": "large", "function_address": "0x10"}
	r := mustNew(t, d)
	b, _ := NewBundle([]Record{r, mustNew(t, Draft{Provider: testProvider(), Operation: "x"})}, nil)
	s := b.Summarize(Filters{})
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("secret_payload")) || bytes.Contains(out, []byte("/tmp/x/app.asar")) {
		t.Errorf("summary leaks payloads or paths: %s", out)
	}
	var decoded struct {
		Records []map[string]any `json:"records"`
	}
	json.Unmarshal(out, &decoded)
	var mine, bare map[string]any
	for _, m := range decoded.Records {
		if m["evidence_id"] == r.EvidenceID {
			mine = m
		} else {
			bare = m
		}
	}
	if mine["analysis_profile_digest"] != ap.Digest || mine["retention"] != "complete-record" || mine["procedure_address"] != "0x10" {
		t.Errorf("summary record %v", mine)
	}
	subject, _ := mine["subject"].(map[string]any)
	if subject["format"] != "asar" || subject["architecture"] != nil || subject["name"] != "app.asar" {
		t.Errorf("subject %v", subject)
	}
	for _, k := range []string{"subject", "analysis_profile_digest", "procedure_address"} {
		if v, present := bare[k]; !present || v != nil {
			t.Errorf("%s should be present and null for a bare record, got %v (%v)", k, v, present)
		}
	}
}

func TestProjectAnswersEachDetail(t *testing.T) {
	rs := mixedRecords(t)
	b, _ := NewBundle(rs, nil)
	complete, _ := json.Marshal(b)
	cases := []struct {
		name    string
		query   string
		records int // -1: the complete bundle
	}{
		{"omitted detail", `{}`, -1},
		{"complete", `{"detail":"complete"}`, -1},
		{"summary", `{"detail":"summary"}`, len(rs)},
		{"filtered summary", `{"detail":"summary","filters":{"operation":"capture_process"}}`, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := ParseQuery(json.RawMessage(c.query))
			if err != nil {
				t.Fatal(err)
			}
			v, err := b.Project(q)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(v)
			if c.records < 0 {
				if !bytes.Equal(out, complete) {
					t.Error("complete detail is not the canonical bundle")
				}
				return
			}
			var s Summary
			json.Unmarshal(out, &s)
			if len(s.Records) != c.records || s.Detail != "summary" {
				t.Errorf("got %d records, detail %q", len(s.Records), s.Detail)
			}
		})
	}
	if _, err := b.Project(Query{Filters: &Filters{Operation: "x"}}); issuePath(t, err) != "filters" {
		t.Errorf("filters without summary: %v", err)
	}
}
