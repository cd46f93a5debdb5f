package main_test

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

func compareFixture(t *testing.T, parts ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{wasmtest.RepoRoot(t), "testdata", "compare"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type artifactComparison struct {
	EvidenceID       string   `json:"evidence_id"`
	Operation        string   `json:"operation"`
	Confidence       string   `json:"confidence"`
	EvidenceLinks    []string `json:"evidence_links"`
	NormalizedResult struct {
		Status  string         `json:"status"`
		Summary map[string]int `json:"summary"`
		Changes []struct {
			LogicalPath       string   `json:"logical_path"`
			Kind              string   `json:"kind"`
			ChangedDimensions []string `json:"changed_dimensions"`
			UnknownDimensions []string `json:"unknown_dimensions"`
		} `json:"changes"`
		Limitations []string `json:"limitations"`
		Provenance  struct {
			Module       string `json:"module"`
			ModuleSHA256 string `json:"module_sha256"`
			FuelUsed     uint64 `json:"fuel_used"`
		} `json:"provenance"`
	} `json:"normalized_result"`
}

func (c *artifactComparison) kinds() map[string]string {
	out := map[string]string{}
	for _, ch := range c.NormalizedResult.Changes {
		out[ch.LogicalPath] = ch.Kind + " " + strings.Join(ch.ChangedDimensions, ",")
	}
	return out
}

// tarOf packs a fixture directory as tar.gz, giving the files in exec the
// executable bit (a directory scan records no modes; a tar does).
func tarOf(t *testing.T, dir string, exec map[string]bool) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir)+".tar.gz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	err = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if exec[filepath.ToSlash(rel)] {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: mode, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = gz.Close()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCompareArtifactsClassifiesEveryFixturePath(t *testing.T) {
	v1, v2 := compareFixture(t, "artifacts", "v1"), compareFixture(t, "artifacts", "v2")
	r := reaWithModules(t, "compare-artifacts", v1, v2, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var c artifactComparison
	decode(t, r.stdout, &c)
	want := map[string]string{"app/main.js": "changed content,size", "app/new.js": "added ", "app/old.js": "removed "}
	if got := c.kinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	// README.txt, assets/logo.txt, bin/tool.sh and the directories app,
	// assets and bin are unchanged.
	if c.NormalizedResult.Status != "changed" || c.NormalizedResult.Summary["unchanged"] != 6 {
		t.Errorf("status %s summary %v", c.NormalizedResult.Status, c.NormalizedResult.Summary)
	}
	if c.Operation != "compare_artifacts" || c.Confidence != "derived" || len(c.EvidenceLinks) != 2 ||
		c.NormalizedResult.Provenance.Module != "compare" || len(c.NormalizedResult.Provenance.ModuleSHA256) != 64 || c.NormalizedResult.Provenance.FuelUsed == 0 {
		t.Errorf("record %s %s links %v provenance %+v", c.Operation, c.Confidence, c.EvidenceLinks, c.NormalizedResult.Provenance)
	}
	// The same comparison from Evidence files gives the same Evidence id.
	dir := t.TempDir()
	var files []string
	for _, v := range []string{v1, v2} {
		ir := reaWithModules(t, "inspect-artifact", v, "--occurrence-limit", "500", "--node-limit", "500", "--edge-limit", "500", "--format", "json")
		if ir.code != 0 {
			t.Fatalf("inspect: %s", ir.stderr)
		}
		p := filepath.Join(dir, filepath.Base(v)+".json")
		if err := os.WriteFile(p, []byte(ir.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	r2 := reaWithModules(t, "compare-artifacts", files[0], files[1], "--format", "json")
	var c2 artifactComparison
	decode(t, r2.stdout, &c2)
	if c2.EvidenceID != c.EvidenceID {
		t.Errorf("from Evidence files %s, from directories %s: identical inputs must give one id", c2.EvidenceID, c.EvidenceID)
	}
}

func TestCompareArtifactsSeesTheExecutableBitOfArchives(t *testing.T) {
	v1 := tarOf(t, compareFixture(t, "artifacts", "v1"), nil)
	v2 := tarOf(t, compareFixture(t, "artifacts", "v2"), map[string]bool{"bin/tool.sh": true})
	r := reaWithModules(t, "compare-artifacts", v1, v2, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var c artifactComparison
	decode(t, r.stdout, &c)
	// The artifact module classifies an executable script's node as an
	// executable, so its kind changes with the bit.
	if got := c.kinds()["bin/tool.sh"]; got != "changed kind,executable" {
		t.Errorf("bin/tool.sh %q, want changed kind,executable (all: %v)", got, c.kinds())
	}
}

func TestCompareArtifactsOnOnePageIsTruncatedNeverEqual(t *testing.T) {
	v1 := compareFixture(t, "artifacts", "v1")
	dir := t.TempDir()
	full := reaWithModules(t, "inspect-artifact", v1, "--format", "json")
	page := reaWithModules(t, "inspect-artifact", v1, "--occurrence-limit", "3", "--format", "json")
	for name, r := range map[string]result{"full.json": full, "page.json": page} {
		if r.code != 0 {
			t.Fatal(r.stderr)
		}
		_ = os.WriteFile(filepath.Join(dir, name), []byte(r.stdout), 0o644)
	}
	r := reaWithModules(t, "compare-artifacts", filepath.Join(dir, "full.json"), filepath.Join(dir, "page.json"), "--format", "json")
	var c artifactComparison
	decode(t, r.stdout, &c)
	if c.NormalizedResult.Status != "truncated" || c.NormalizedResult.Summary["removed"] != 0 || c.NormalizedResult.Summary["unknown"] == 0 {
		t.Errorf("one page against the whole: status %s summary %v", c.NormalizedResult.Status, c.NormalizedResult.Summary)
	}
	// Both pages of the right side: the comparison is whole again.
	second := reaWithModules(t, "inspect-artifact", v1, "--occurrence-limit", "3", "--occurrence-offset", "3", "--format", "json")
	third := reaWithModules(t, "inspect-artifact", v1, "--occurrence-limit", "3", "--occurrence-offset", "6", "--format", "json")
	pages := "[" + page.stdout + "," + second.stdout + "," + third.stdout + "]"
	_ = os.WriteFile(filepath.Join(dir, "pages.json"), []byte(pages), 0o644)
	r = reaWithModules(t, "compare-artifacts", filepath.Join(dir, "full.json"), filepath.Join(dir, "pages.json"), "--format", "json")
	decode(t, r.stdout, &c)
	if c.NormalizedResult.Status != "unchanged" || len(c.EvidenceLinks) != 4 {
		t.Errorf("all pages: status %s links %v limitations %v", c.NormalizedResult.Status, c.EvidenceLinks, c.NormalizedResult.Limitations)
	}
}

func TestCompareArtifactsTextReadsAsAChangelog(t *testing.T) {
	r := reaWithModules(t, "compare-artifacts", compareFixture(t, "artifacts", "v1"), compareFixture(t, "artifacts", "v2"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, line := range []string{"+ app/new.js", "- app/old.js", "~ app/main.js  (content ", "6 unchanged, 1 changed, 1 added, 1 removed"} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("missing %q in:\n%s", line, r.stdout)
		}
	}
}

func TestCompareArtifactsOverMCP(t *testing.T) {
	c := startMCP(t)
	inspect := func(v string, extra map[string]any) map[string]any {
		args := map[string]any{"input_path": compareFixture(t, "artifacts", v)}
		for k, x := range extra {
			args[k] = x
		}
		return structured(t, c.call(t, "inspect_artifact", args))
	}
	v1, v2 := inspect("v1", nil), inspect("v2", nil)
	ref := func(rec map[string]any) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": rec["evidence_id"]}
	}
	var first string
	for name, args := range map[string]map[string]any{
		"retained":        {"left": ref(v1), "right": ref(v2)},
		"inline left":     {"left": v1, "right": ref(v2)},
		"one-page arrays": {"left": []any{ref(v1)}, "right": []any{v2}},
	} {
		rec := structured(t, c.call(t, "compare_artifacts", args))
		if first == "" {
			first = rec["evidence_id"].(string)
		}
		if rec["evidence_id"] != first {
			t.Errorf("%s: %v differs from %s", name, rec["evidence_id"], first)
		}
		nr := rec["normalized_result"].(map[string]any)
		if nr["status"] != "changed" || len(nr["changes"].([]any)) != 3 {
			t.Errorf("%s: %v %v", name, nr["status"], nr["changes"])
		}
	}
	// Pages of two different scans on one side are refused.
	e := toolError(t, c.call(t, "compare_artifacts", map[string]any{"left": []any{ref(v1), ref(v2)}, "right": ref(v2)}))
	if e["code"] != "invalid_request" || !strings.Contains(e["message"].(string), "graph commitment") {
		t.Errorf("mixed scans: %v", e)
	}
	// A non-inventory side is named.
	app := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v1")}))
	e = toolError(t, c.call(t, "compare_artifacts", map[string]any{"left": ref(v1), "right": ref(app)}))
	if details, _ := e["details"].(map[string]any); e["code"] != "invalid_request" || details["field"] != "right[0]" {
		t.Errorf("application Evidence as a side: %v", e)
	}
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), "inspect_artifact") {
		t.Errorf("the error should say what to run: %s", b)
	}
}

func TestCompareArtifactsClassifiesATamperedEntryAsContradiction(t *testing.T) {
	src := filepath.Join(wasmtest.RepoRoot(t), "testdata", "artifact")
	raw, err := os.ReadFile(filepath.Join(src, "app.asar"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(raw), "hello from main")
	if i < 0 {
		t.Fatal("fixture changed: no main.js text")
	}
	raw[i] ^= 0x20
	dir := t.TempDir()
	copyTree(t, filepath.Join(src, "app.asar.unpacked"), filepath.Join(dir, "app.asar.unpacked"))
	tampered := filepath.Join(dir, "app.asar")
	if err := os.WriteFile(tampered, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	r := reaWithModules(t, "compare-artifacts", filepath.Join(src, "app.asar"), tampered, "--integrity-policy", "record-and-continue", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var c artifactComparison
	decode(t, r.stdout, &c)
	if got := c.kinds()["main.js"]; !strings.HasPrefix(got, "contradiction") {
		t.Errorf("main.js %q (all %v)", got, c.kinds())
	}
	if c.NormalizedResult.Status != "contradiction" || c.NormalizedResult.Summary["added"] != 0 || c.NormalizedResult.Summary["removed"] != 0 {
		t.Errorf("status %s summary %v", c.NormalizedResult.Status, c.NormalizedResult.Summary)
	}
	// Without record-and-continue the tampered side fails closed.
	r = reaWithModules(t, "compare-artifacts", filepath.Join(src, "app.asar"), tampered)
	if r.code == 0 || !strings.Contains(r.stderr+r.stdout, "artifact_integrity_mismatch") {
		t.Errorf("fail policy: exit %d %s", r.code, r.stderr)
	}
}
