package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"rea/abi"
	"rea/host/evidence"
)

func TestCheckWrittenPageDefaultsAndRefusals(t *testing.T) {
	for _, c := range []struct {
		detail     string
		limit      int
		wantDetail string
		wantLimit  int
		field      string
	}{
		{"", 0, DetailSummary, DefaultViewLimit, ""},
		{"complete", 5, DetailComplete, 5, ""},
		{"summary", MaxViewLimit, DetailSummary, MaxViewLimit, ""},
		{"summary", MaxViewLimit + 1, "", 0, "limit"},
		{"summary", -1, "", 0, "limit"},
		{"all", 0, "", 0, "detail"},
	} {
		d, l, err := CheckWrittenPage(c.detail, c.limit)
		if c.field != "" {
			var ae *abi.Error
			if err == nil || !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest || ae.Details["field"] != c.field {
				t.Errorf("%q %d: error %v, want invalid_request on %s", c.detail, c.limit, err, c.field)
			}
			continue
		}
		if err != nil || d != c.wantDetail || l != c.wantLimit {
			t.Errorf("%q %d: %q %d %v, want %q %d", c.detail, c.limit, d, l, err, c.wantDetail, c.wantLimit)
		}
	}
}

// unpackRecord is unpack Evidence of n modules, every third one an
// external and every module with one unresolved require.
func unpackRecord(t *testing.T, n int, pad int) evidence.Record {
	t.Helper()
	var modules, files []map[string]any
	for i := range n {
		m := map[string]any{"key": fmt.Sprintf("./m%d.js", i), "file": fmt.Sprintf("m%d.js", i),
			"requires": []map[string]any{{"key": "./x", "to": ""}, {"key": "./y", "to": "./y.js"}}, "pad": strings.Repeat("p", pad)}
		if i%3 == 0 {
			m["external"] = "electron"
		}
		modules = append(modules, m)
		files = append(files, map[string]any{"path": fmt.Sprintf("m%d.js", i), "sha256": "00", "bytes": 10})
	}
	rec, err := evidence.New(evidence.Draft{Provider: evidence.Provider{ID: "rea.javascript-source", Name: "x"}, Operation: "unpack_javascript_bundle",
		NormalizedResult: map[string]any{"application_root": ".", "result": map[string]any{"bundle": "dist/main.js", "kind": "webpack5", "modules": modules,
			"files": files, "limitations": []string{"one"}}}, Limitations: []string{"one"}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestWrittenSummaryCountsAndPagesByBytes(t *testing.T) {
	rec := unpackRecord(t, 300, 2000) // ~2 KB a module: a 64-item page is over 64 KiB
	view, err := WrittenSummary(rec, "/out", "/app", 64)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		ParentEvidenceID string         `json:"parent_evidence_id"`
		ManifestPath     string         `json:"manifest_path"`
		Totals           map[string]int `json:"totals"`
		Page             abi.Page[json.RawMessage]
		NextCalls        []struct {
			Tool      string         `json:"tool"`
			Arguments map[string]any `json:"arguments"`
		} `json:"next_calls"`
	}
	if err := json.Unmarshal(view.NormalizedResult, &s); err != nil {
		t.Fatal(err)
	}
	if s.ParentEvidenceID != rec.EvidenceID || len(view.EvidenceLinks) != 1 || view.EvidenceLinks[0] != rec.EvidenceID {
		t.Errorf("summary not linked to its source: %s %v", s.ParentEvidenceID, view.EvidenceLinks)
	}
	if !slices.Equal(view.Limitations, rec.Limitations) {
		t.Errorf("the summary record's limitations %v, its source's %v: a partial write would read complete", view.Limitations, rec.Limitations)
	}
	if s.ManifestPath != "/out/manifest.json" {
		t.Errorf("manifest_path %q", s.ManifestPath)
	}
	want := map[string]int{"modules_written": 300, "externals": 100, "requires": 600, "unresolved_requires": 300, "files_written": 300, "bytes_written": 3000}
	for k, v := range want {
		if s.Totals[k] != v {
			t.Errorf("totals[%s] = %d, want %d", k, s.Totals[k], v)
		}
	}
	if !s.Page.ByteLimited || s.Page.NextOffset == nil || len(s.Page.Items) >= 64 || *s.Page.NextOffset != len(s.Page.Items) {
		t.Fatalf("page of 2 KB modules: %d items, byte_limited %v, next %v", len(s.Page.Items), s.Page.ByteLimited, s.Page.NextOffset)
	}
	tools := map[string]map[string]any{}
	for _, c := range s.NextCalls {
		if tools[c.Tool] == nil {
			tools[c.Tool] = c.Arguments
		}
	}
	if a := tools["inspect_analysis_view"]; a == nil || a["offset"] != float64(*s.Page.NextOffset) || a["collection"] != "modules" {
		t.Errorf("next page call %v, next_offset %d", a, *s.Page.NextOffset)
	}
	if a := tools["read_javascript_source"]; a == nil || a["module"] != "bundled:dist/main.js#./m0.js" || a["input_path"] != "/app" {
		t.Errorf("read call %v", a)
	}
}

func TestWrittenViewPagesAndItems(t *testing.T) {
	rec := unpackRecord(t, 10, 0)
	page, err := (&App{}).InspectAnalysisView(rec, AnalysisViewRequest{View: "page", Offset: 8, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Collection string                    `json:"collection"`
		Page       abi.Page[json.RawMessage] `json:"page"`
	}
	_ = json.Unmarshal(page.NormalizedResult, &p)
	if p.Collection != "modules" || len(p.Page.Items) != 2 || p.Page.NextOffset != nil || p.Page.Total != 10 {
		t.Errorf("last page: %+v", p)
	}
	item, err := (&App{}).InspectAnalysisView(rec, AnalysisViewRequest{View: "item", Collection: "files", Selector: "m3.js"})
	if err != nil {
		t.Fatal(err)
	}
	var it struct {
		Matches int            `json:"matches"`
		Item    map[string]any `json:"item"`
	}
	_ = json.Unmarshal(item.NormalizedResult, &it)
	if it.Matches != 1 || it.Item["path"] != "m3.js" {
		t.Errorf("item m3.js: %+v", it)
	}
	if _, err := (&App{}).InspectAnalysisView(rec, AnalysisViewRequest{View: "page", Collection: "findings"}); err == nil {
		t.Errorf("an unpack has no findings collection, but the page was served")
	}
}

func TestReasonClassGroupsParticulars(t *testing.T) {
	for in, want := range map[string]string{
		"link to ../x: links are recorded, never materialised": "link",
		"over max_file_bytes":             "over max_file_bytes",
		"device file: not a regular file": "device file",
	} {
		if got := reasonClass(in); got != want {
			t.Errorf("reasonClass(%q) = %q, want %q", in, got, want)
		}
	}
}
