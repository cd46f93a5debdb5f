package main_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

type exportShapeComparison struct {
	EvidenceID       string   `json:"evidence_id"`
	Operation        string   `json:"operation"`
	Confidence       string   `json:"confidence"`
	EvidenceLinks    []string `json:"evidence_links"`
	NormalizedResult struct {
		Status  string `json:"status"`
		Changes []struct {
			Pointer string `json:"pointer"`
			Kind    string `json:"kind"`
		} `json:"changes"`
		Right struct {
			Status     string   `json:"status"`
			Candidates []string `json:"candidates"`
		} `json:"right"`
		Recommendations []string `json:"recommendations"`
	} `json:"normalized_result"`
}

func (c *exportShapeComparison) changes() []string {
	var out []string
	for _, ch := range c.NormalizedResult.Changes {
		out = append(out, ch.Kind+" "+ch.Pointer)
	}
	sort.Strings(out)
	return out
}

// The expectations of testdata/compare/README.md (exports).
func TestCompareJavaScriptExportShapesClassifiesEveryFixtureExport(t *testing.T) {
	v1, v2 := compareFixture(t, "exports", "v1"), compareFixture(t, "exports", "v2")
	cases := []struct {
		export  string
		status  string
		changes []string
	}{
		{"defaults", "changed", []string{"added /telemetry", "changed /theme", "removed /channels/1", "removed /retries"}},
		{"parse", "changed", []string{"added /$returns/$variant/type=error/code", "changed /$params", "unknown /$returns/$variant/type=ok/value"}},
		{"version", "changed", []string{"changed "}},
		{"load", "unknown", []string{"unknown /$returns"}},
		{"missing", "unknown", nil},
	}
	for _, c := range cases {
		t.Run(c.export, func(t *testing.T) {
			r := reaWithModules(t, "compare-javascript-export-shapes", v1, v2, "--module", "lib/settings.js", "--export", c.export, "--format", "json")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var got exportShapeComparison
			decode(t, r.stdout, &got)
			if got.NormalizedResult.Status != c.status || !reflect.DeepEqual(got.changes(), c.changes) {
				t.Errorf("status %s changes %v, want %s %v", got.NormalizedResult.Status, got.changes(), c.status, c.changes)
			}
			if got.Operation != "compare_javascript_export_shapes" || got.Confidence != "derived" || len(got.EvidenceLinks) != 2 {
				t.Errorf("record %s %s %v", got.Operation, got.Confidence, got.EvidenceLinks)
			}
			if c.status == "unknown" && len(got.NormalizedResult.Recommendations) == 0 {
				t.Error("an unknown comparison recommends controlled replay")
			}
			if c.export == "missing" && (got.NormalizedResult.Right.Status != "missing-export" ||
				!reflect.DeepEqual(got.NormalizedResult.Right.Candidates, []string{"defaults", "parse", "version", "load"})) {
				t.Errorf("missing export: %+v", got.NormalizedResult.Right)
			}
		})
	}
	text := reaWithModules(t, "compare-javascript-export-shapes", v1, v2, "--module", "lib/settings.js", "--export", "defaults")
	for _, line := range []string{`~ /theme  "dark" → "light"`, "- /retries  3", "+ /telemetry  false"} {
		if !strings.Contains(text.stdout, line) {
			t.Errorf("missing %q in:\n%s", line, text.stdout)
		}
	}
}

func TestExportShapesOfAnEditedModuleAreUnknownNotStale(t *testing.T) {
	// Analyse a copy, then edit the module: its bytes no longer match the
	// analysis, so the shape is not read from them.
	dir := filepath.Join(t.TempDir(), "app")
	copyTree(t, compareFixture(t, "exports", "v2"), dir)
	r := reaWithModules(t, "analyze-javascript-application", dir, "--format", "json")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	ev := filepath.Join(t.TempDir(), "v2.json")
	_ = os.WriteFile(ev, []byte(r.stdout), 0o644)
	if err := os.WriteFile(filepath.Join(dir, "lib", "settings.js"), []byte("exports.defaults = {};\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := reaWithModules(t, "compare-javascript-export-shapes", compareFixture(t, "exports", "v1"), ev, "--module", "lib/settings.js", "--export", "defaults", "--format", "json")
	var got exportShapeComparison
	decode(t, out.stdout, &got)
	if got.NormalizedResult.Status != "unknown" || got.NormalizedResult.Right.Status != "source-unavailable" {
		t.Errorf("edited module: %s %+v", got.NormalizedResult.Status, got.NormalizedResult.Right)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestExportShapesOverMCP(t *testing.T) {
	c := startMCP(t)
	v1 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": compareFixture(t, "exports", "v1")}))
	v2 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": compareFixture(t, "exports", "v2")}))
	ref := func(rec map[string]any) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": rec["evidence_id"]}
	}
	var first any
	for _, args := range []map[string]any{
		{"left": ref(v1), "right": ref(v2), "left_module_path": "lib/settings.js", "left_export_name": "parse"},
		{"left": v1, "right": ref(v2), "left_module_path": "lib/settings.js", "left_export_name": "parse", "right_export_name": "parse"},
	} {
		rec := structured(t, c.call(t, "compare_javascript_export_shapes", args))
		if first == nil {
			first = rec["evidence_id"]
		}
		if rec["evidence_id"] != first {
			t.Errorf("input forms give different ids: %v %v", rec["evidence_id"], first)
		}
		if st := rec["normalized_result"].(map[string]any)["status"]; st != "changed" {
			t.Errorf("status %v", st)
		}
	}
	e := toolError(t, c.call(t, "compare_javascript_export_shapes", map[string]any{"left": ref(v1), "right": ref(v2), "left_module_path": "lib/settings.js"}))
	if e["code"] != "invalid_request" {
		t.Errorf("no export name: %v", e)
	}
}
