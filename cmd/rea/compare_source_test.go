package main_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type sourceComparison struct {
	EvidenceID       string   `json:"evidence_id"`
	Operation        string   `json:"operation"`
	Confidence       string   `json:"confidence"`
	EvidenceLinks    []string `json:"evidence_links"`
	NormalizedResult struct {
		Summary map[string]int `json:"summary"`
		Files   []struct {
			Path       string   `json:"path"`
			Status     string   `json:"status"`
			MatchedBy  string   `json:"matched_by"`
			MergedWith []string `json:"merged_with"`
		} `json:"files"`
	} `json:"normalized_result"`
}

func (c *sourceComparison) statuses() map[string]string {
	out := map[string]string{}
	for _, f := range c.NormalizedResult.Files {
		out[f.Path] = f.Status + " " + f.MatchedBy
	}
	return out
}

// The expectations of testdata/compare/source/README.md.
var sourceFixtureExpected = map[string]string{
	"src/main.js":         "unchanged exact-source-digest",
	"src/lib/config.js":   "modified path-suffix",
	"src/dup.js":          "duplicated exact-source-digest",
	"src/legacy.js":       "removed ",
	"src/views/a.js":      "merged bundled-module-path",
	"src/views/b.js":      "merged bundled-module-path",
	"src/shared.js":       "split bundled-module-path",
	"src/util/index.js":   "unknown basename",
	"src/util/strings.js": "unchanged source-map-original-path",
	"src/util/math.js":    "modified source-map-original-path",
}

func TestImportReferenceSourceAndCompareSourceToBundle(t *testing.T) {
	dir := t.TempDir()
	imp := reaWithModules(t, "import-reference-source", compareFixture(t, "source", "reference"), "--format", "json")
	if imp.code != 0 {
		t.Fatalf("import: %s", imp.stderr)
	}
	var ref struct {
		EvidenceID       string `json:"evidence_id"`
		Operation        string `json:"operation"`
		NormalizedResult struct {
			Format string `json:"format"`
			Files  []struct {
				Path   string `json:"path"`
				SHA256 string `json:"sha256"`
			} `json:"files"`
			Skipped int `json:"skipped_non_source_files"`
		} `json:"normalized_result"`
	}
	decode(t, imp.stdout, &ref)
	if ref.Operation != "import_reference_source" || ref.NormalizedResult.Format != "HistoricalSourceGraph/v1" ||
		len(ref.NormalizedResult.Files) != 10 || ref.NormalizedResult.Skipped != 1 || len(ref.NormalizedResult.Files[0].SHA256) != 64 {
		t.Fatalf("reference %+v", ref)
	}
	refFile := filepath.Join(dir, "reference.json")
	_ = os.WriteFile(refFile, []byte(imp.stdout), 0o644)
	app := reaWithModules(t, "analyze-javascript-application", compareFixture(t, "source", "app"), "--format", "json")
	if app.code != 0 {
		t.Fatalf("analyse: %s", app.stderr)
	}
	appFile := filepath.Join(dir, "app.json")
	_ = os.WriteFile(appFile, []byte(app.stdout), 0o644)

	r := reaWithModules(t, "compare-source-to-bundle", refFile, appFile, "--format", "json")
	if r.code != 0 {
		t.Fatalf("compare: %s", r.stderr)
	}
	var c sourceComparison
	decode(t, r.stdout, &c)
	if got := c.statuses(); !reflect.DeepEqual(got, sourceFixtureExpected) {
		t.Errorf("statuses\n got %v\nwant %v", got, sourceFixtureExpected)
	}
	if c.Operation != "compare_source_to_bundle" || c.Confidence != "derived" || len(c.EvidenceLinks) != 2 || c.EvidenceLinks[0] != ref.EvidenceID {
		t.Errorf("record %s %s %v", c.Operation, c.Confidence, c.EvidenceLinks)
	}
	// Running the producers on the paths gives the same Evidence.
	r2 := reaWithModules(t, "compare-source-to-bundle", compareFixture(t, "source", "reference"), compareFixture(t, "source", "app"), "--format", "json")
	var c2 sourceComparison
	decode(t, r2.stdout, &c2)
	if c2.EvidenceID != c.EvidenceID {
		t.Errorf("from paths %s, from files %s", c2.EvidenceID, c.EvidenceID)
	}
	// The text reads as a changelog.
	text := reaWithModules(t, "compare-source-to-bundle", refFile, appFile)
	for _, line := range []string{"merged     src/views/a.js → dist/bundle.js#src/views/a.js", "removed    src/legacy.js", "2 unchanged, 2 modified, 2 merged, 1 split, 1 duplicated, 1 removed, 1 unknown"} {
		if !strings.Contains(text.stdout, line) {
			t.Errorf("missing %q in:\n%s", line, text.stdout)
		}
	}
	// The reference must be a reference import.
	bad := reaWithModules(t, "compare-source-to-bundle", appFile, appFile, "--format", "json")
	if bad.code == 0 || !strings.Contains(bad.stdout+bad.stderr, "import_reference_source") {
		t.Errorf("application Evidence as reference: exit %d %s %s", bad.code, bad.stdout, bad.stderr)
	}
}

func TestSourceToolsOverMCP(t *testing.T) {
	c := startMCP(t)
	ref := structured(t, c.call(t, "import_reference_source", map[string]any{"input_path": compareFixture(t, "source", "reference")}))
	again := structured(t, c.call(t, "import_reference_source", map[string]any{"input_path": compareFixture(t, "source", "reference")}))
	if ref["evidence_id"] != again["evidence_id"] {
		t.Errorf("one tree, two ids: %v %v", ref["evidence_id"], again["evidence_id"])
	}
	app := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": compareFixture(t, "source", "app")}))
	retained := func(rec map[string]any) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": rec["evidence_id"]}
	}
	var first any
	for _, args := range []map[string]any{
		{"reference": retained(ref), "application": retained(app)},
		{"reference": ref, "application": retained(app)},
		{"reference": retained(ref), "application": app},
	} {
		rec := structured(t, c.call(t, "compare_source_to_bundle", args))
		if first == nil {
			first = rec["evidence_id"]
		}
		if rec["evidence_id"] != first {
			t.Errorf("input forms give different ids: %v %v", rec["evidence_id"], first)
		}
		files := rec["normalized_result"].(map[string]any)["files"].([]any)
		got := map[string]string{}
		for _, f := range files {
			m := f.(map[string]any)
			mb, _ := m["matched_by"].(string)
			got[m["path"].(string)] = m["status"].(string) + " " + mb
		}
		if !reflect.DeepEqual(got, sourceFixtureExpected) {
			t.Errorf("statuses %v", got)
		}
	}
	e := toolError(t, c.call(t, "compare_source_to_bundle", map[string]any{"reference": retained(app), "application": retained(app)}))
	if details, _ := e["details"].(map[string]any); e["code"] != "invalid_request" || details["field"] != "reference" {
		t.Errorf("application as reference: %v", e)
	}
}
