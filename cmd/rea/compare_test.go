package main_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

func versionFixture(t *testing.T, v string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(wasmtest.RepoRoot(t), "testdata", "versions", v))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func reaWithModules(t *testing.T, args ...string) result {
	t.Helper()
	return rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}, args...)
}

var versionEvidence struct {
	once  sync.Once
	dir   string
	paths map[string]string
	err   string
}

// analysedVersions analyses testdata/versions/{v1,v2} once with the built
// binary and returns the Evidence files it printed.
func analysedVersions(t *testing.T) (string, string) {
	t.Helper()
	versionEvidence.once.Do(func() {
		dir, err := os.MkdirTemp("", "rea-versions-")
		if err != nil {
			versionEvidence.err = err.Error()
			return
		}
		versionEvidence.dir = dir // removed by TestMain
		versionEvidence.paths = map[string]string{}
		for _, v := range []string{"v1", "v2"} {
			r := reaWithModules(t, "analyze-javascript-application", versionFixture(t, v), "--format", "json")
			if r.code != 0 {
				versionEvidence.err = v + ": " + r.stderr
				return
			}
			p := filepath.Join(dir, v+".json")
			if err := os.WriteFile(p, []byte(r.stdout), 0o644); err != nil {
				versionEvidence.err = err.Error()
				return
			}
			versionEvidence.paths[v] = p
		}
	})
	if versionEvidence.err != "" {
		t.Fatal(versionEvidence.err)
	}
	return versionEvidence.paths["v1"], versionEvidence.paths["v2"]
}

type comparisonRecord struct {
	EvidenceID       string   `json:"evidence_id"`
	Operation        string   `json:"operation"`
	Confidence       string   `json:"confidence"`
	EvidenceLinks    []string `json:"evidence_links"`
	NormalizedResult struct {
		Summary struct {
			NewWindows []struct {
				WebPreferences map[string]any `json:"web_preferences"`
			} `json:"new_windows"`
			ChangedWebPreferences []struct {
				Changes []struct {
					Name        string
					Left, Right any
				} `json:"changes"`
			} `json:"changed_web_preferences"`
			IPCChannelsAdded   []string `json:"ipc_channels_added"`
			IPCChannelsRemoved []string `json:"ipc_channels_removed"`
			ExposedAPIsAdded   []string `json:"exposed_apis_added"`
			ExposedAPIsRemoved []string `json:"exposed_apis_removed"`
			EndpointsAdded     []string `json:"endpoints_added"`
			FindingsAdded      []struct {
				RuleID string `json:"rule_id"`
			} `json:"findings_added"`
		} `json:"summary"`
		Items []struct {
			Kind              string   `json:"kind"`
			Status            string   `json:"status"`
			MatchedBy         string   `json:"matched_by"`
			ChangedDimensions []string `json:"changed_dimensions"`
			Candidates        []string `json:"candidates"`
			Left, Right       *struct {
				ID string `json:"id"`
			}
		} `json:"items"`
		Coverage string `json:"coverage"`
	} `json:"normalized_result"`
}

// verdictOf finds the item whose right (or, when removed, left) id is id.
func (c *comparisonRecord) verdictOf(t *testing.T, id string) (status, matchedBy string, dims []string) {
	t.Helper()
	for _, it := range c.NormalizedResult.Items {
		if (it.Right != nil && it.Right.ID == id) || (it.Right == nil && it.Left != nil && it.Left.ID == id) {
			return it.Status, it.MatchedBy, it.ChangedDimensions
		}
	}
	t.Fatalf("no item %s", id)
	return "", "", nil
}

func evidenceIDOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		EvidenceID string `json:"evidence_id"`
	}
	decode(t, string(b), &rec)
	return rec.EvidenceID
}

func TestCompareApplicationVersionsClassifiesEveryFixtureCase(t *testing.T) {
	v1, v2 := analysedVersions(t)
	r := reaWithModules(t, "compare-application-versions", v1, v2, "--format", "json", "--include-unchanged")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rec comparisonRecord
	decode(t, r.stdout, &rec)
	if rec.Operation != "compare_application_versions" || rec.Confidence != "derived" {
		t.Errorf("operation %s confidence %s", rec.Operation, rec.Confidence)
	}
	if want := []string{evidenceIDOf(t, v1), evidenceIDOf(t, v2)}; !reflect.DeepEqual(rec.EvidenceLinks, want) {
		t.Errorf("links %v, want both inputs %v", rec.EvidenceLinks, want)
	}
	bundled := func(key string) string { return "bundled:dist/renderer.bundle.js#" + key }
	cases := []struct {
		name, id, status, tier string
		dims                   []string
	}{
		{"a module whose code changed", "module:lib/util.js", "changed", "exact-node-identity", []string{"content"}},
		{"a changed export under a stable key", bundled("./src/feature.js"), "changed", "exact-node-identity", []string{"content"}},
		{"a stable module under a new ordinal", bundled("52"), "unchanged", "exact-module-source-digest", nil},
		{"renamed minified identifiers", bundled("8"), "changed", "structural-fingerprint", []string{"content"}},
		{"duplicate identical factories (first)", bundled("60"), "unknown", "", nil},
		{"duplicate identical factories (second)", bundled("61"), "unknown", "", nil},
		{"the single left copy of the duplicated factory", bundled("31"), "unknown", "", nil},
		{"a removed bundled module", bundled("40"), "removed", "", nil},
		{"an added bundled module", bundled("70"), "added", "", nil},
		{"a renamed chunk with the same source map", "module:dist/app.4d5e6f.js", "changed", "source-map-identity", []string{"content", "location"}},
		{"a new IPC handler's channel", "channel:settings:save", "added", "", nil},
		{"a removed IPC channel", "channel:settings:legacy", "removed", "", nil},
		{"an unchanged IPC channel", "channel:feature:open", "unchanged", "exact-node-identity", nil},
	}
	for _, c := range cases {
		status, tier, dims := rec.verdictOf(t, c.id)
		if status != c.status || tier != c.tier || !reflect.DeepEqual(dims, c.dims) {
			t.Errorf("%s (%s): %s by %q %v, want %s by %q %v", c.name, c.id, status, tier, dims, c.status, c.tier, c.dims)
		}
	}
	s := rec.NormalizedResult.Summary
	if len(s.NewWindows) != 1 || s.NewWindows[0].WebPreferences["nodeIntegration"] != true || s.NewWindows[0].WebPreferences["contextIsolation"] != false {
		t.Errorf("new windows %+v", s.NewWindows)
	}
	if len(s.ChangedWebPreferences) != 1 || len(s.ChangedWebPreferences[0].Changes) != 1 ||
		s.ChangedWebPreferences[0].Changes[0].Name != "webPreferences.sandbox" || s.ChangedWebPreferences[0].Changes[0].Left != true || s.ChangedWebPreferences[0].Changes[0].Right != false {
		t.Errorf("changed webPreferences %+v", s.ChangedWebPreferences)
	}
	for name, got := range map[string][2][]string{
		"channels added":   {s.IPCChannelsAdded, {"feature:export", "settings:open", "settings:save"}},
		"channels removed": {s.IPCChannelsRemoved, {"settings:legacy"}},
		"APIs added":       {s.ExposedAPIsAdded, {"api.exportCsv", "api.openSettings", "api.save"}},
		"APIs removed":     {s.ExposedAPIsRemoved, {"api.legacy"}},
		"endpoints added":  {s.EndpointsAdded, {"https://sync.example.com/v2/settings"}},
	} {
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Errorf("%s: %v, want %v", name, got[0], got[1])
		}
	}
	var rules []string
	for _, f := range s.FindingsAdded {
		rules = append(rules, f.RuleID)
	}
	sort.Strings(rules)
	for _, want := range []string{"context-isolation-disabled", "node-integration-enabled", "sandbox-disabled"} {
		if i := sort.SearchStrings(rules, want); i == len(rules) || rules[i] != want {
			t.Errorf("new findings %v lack %s", rules, want)
		}
	}
	// Identical inputs give the identical Evidence id.
	again := reaWithModules(t, "compare-application-versions", v1, v2, "--format", "json", "--include-unchanged")
	var rec2 comparisonRecord
	decode(t, again.stdout, &rec2)
	if rec2.EvidenceID != rec.EvidenceID {
		t.Errorf("the same comparison gave %s then %s", rec.EvidenceID, rec2.EvidenceID)
	}
}

func TestCompareApplicationVersionsTextReadsAsAChangelog(t *testing.T) {
	v1, v2 := analysedVersions(t)
	r := reaWithModules(t, "compare-application-versions", v1, v2)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"1 new window(s)",
		"sandbox true → false",
		"+ settings:save",
		"- settings:legacy",
		"+ api.save",
		"+ https://sync.example.com/v2/settings",
		"matched by structural-fingerprint",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("changelog lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Index(r.stdout, "New windows") > strings.Index(r.stdout, "Facts:") {
		t.Error("the summary must come before the list of facts")
	}
}

func TestCompareAgainstAPartialSideClaimsNoAbsence(t *testing.T) {
	v1, _ := analysedVersions(t)
	// v2 analysed with room for two modules only: coverage partial.
	r := reaWithModules(t, "analyze-javascript-application", versionFixture(t, "v2"), "--format", "json", "--max-modules", "2")
	if r.code != 2 {
		t.Fatalf("a limited analysis exits 2, got %d: %s", r.code, r.stderr)
	}
	partial := filepath.Join(t.TempDir(), "v2-partial.json")
	if err := os.WriteFile(partial, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	cmp := reaWithModules(t, "compare-application-versions", v1, partial, "--format", "json")
	if cmp.code != 0 {
		t.Fatalf("exit %d: %s", cmp.code, cmp.stderr)
	}
	var rec comparisonRecord
	decode(t, cmp.stdout, &rec)
	unknown := 0
	for _, it := range rec.NormalizedResult.Items {
		if it.Status == "removed" {
			t.Errorf("%s %s claimed removed against a partial right side", it.Kind, it.Left.ID)
		}
		if it.Status == "unknown" && it.Right == nil {
			unknown++
		}
	}
	if unknown == 0 || rec.NormalizedResult.Coverage != "partial" {
		t.Errorf("left-only facts must be unknown (got %d) and coverage partial (got %s)", unknown, rec.NormalizedResult.Coverage)
	}
}

func TestTraceApplicationFeatureCLI(t *testing.T) {
	_, v2 := analysedVersions(t)
	r := reaWithModules(t, "trace-application-feature", v2, "--seed-kind", "channel", "--seed", "settings:save", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rec struct {
		Operation        string   `json:"operation"`
		Confidence       string   `json:"confidence"`
		EvidenceLinks    []string `json:"evidence_links"`
		NormalizedResult struct {
			SeedMatches []struct {
				NodeID string `json:"node_id"`
			} `json:"seed_matches"`
			Nodes []struct {
				ID string `json:"id"`
			} `json:"nodes"`
			Paths []struct {
				Nodes []string `json:"nodes"`
			} `json:"paths"`
			Coverage struct {
				Status string `json:"status"`
			} `json:"coverage"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &rec)
	if rec.Operation != "trace_application_feature" || rec.Confidence != "derived" || !reflect.DeepEqual(rec.EvidenceLinks, []string{evidenceIDOf(t, v2)}) {
		t.Errorf("record %s %s %v", rec.Operation, rec.Confidence, rec.EvidenceLinks)
	}
	nr := rec.NormalizedResult
	if len(nr.SeedMatches) != 1 || nr.SeedMatches[0].NodeID != "channel:settings:save" || nr.Coverage.Status != "complete-within-source" {
		t.Fatalf("seed matches %+v coverage %s", nr.SeedMatches, nr.Coverage.Status)
	}
	// Backward the channel leads from the preload's invoke to the window
	// that loads that preload and the main module creating it.
	var ends []string
	for _, p := range nr.Paths {
		ends = append(ends, p.Nodes[len(p.Nodes)-1])
	}
	if !contains(ends, "module:main.js") {
		t.Errorf("path ends %v lack module:main.js", ends)
	}
	text := reaWithModules(t, "trace-application-feature", v2, "--seed-kind", "channel", "--seed", "settings:save")
	if !strings.Contains(text.stdout, "channel:settings:save → ") || !strings.Contains(text.stdout, "coverage complete-within-source") {
		t.Errorf("text trace:\n%s", text.stdout)
	}
	none := reaWithModules(t, "trace-application-feature", v2, "--seed-kind", "channel", "--seed", "no-such-channel", "--format", "json")
	if none.code != 0 || !strings.Contains(none.stdout, `"no-match"`) {
		t.Errorf("no match: exit %d %s", none.code, none.stdout)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestCompareAndTraceOverMCPWithRetainedAndInlineSides(t *testing.T) {
	c := startMCP(t)
	v1 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v1")}))
	v2 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v2")}))
	ref := func(rec map[string]any) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": rec["evidence_id"]}
	}
	forms := []struct {
		name        string
		left, right any
	}{
		{"both retained", ref(v1), ref(v2)},
		{"left inline, right retained", v1, ref(v2)},
		{"left retained, right inline", ref(v1), v2},
	}
	var first string
	for _, f := range forms {
		rec := structured(t, c.call(t, "compare_application_versions", map[string]any{"left": f.left, "right": f.right}))
		id, _ := rec["evidence_id"].(string)
		if first == "" {
			first = id
		}
		if id != first {
			t.Errorf("%s: evidence %s differs from %s; both input forms must give the same Evidence", f.name, id, first)
		}
		links, _ := rec["evidence_links"].([]any)
		if len(links) != 2 || links[0] != v1["evidence_id"] || links[1] != v2["evidence_id"] {
			t.Errorf("%s: links %v", f.name, links)
		}
		added := rec["normalized_result"].(map[string]any)["summary"].(map[string]any)["ipc_channels_added"].([]any)
		if len(added) != 3 {
			t.Errorf("%s: channels added %v", f.name, added)
		}
	}
	// A missing reference on either side names its id and reason.
	missing := "ev_" + strings.Repeat("cd", 32)
	for _, side := range []string{"left", "right"} {
		args := map[string]any{"left": ref(v1), "right": ref(v2)}
		args[side] = map[string]any{"kind": "retained-evidence", "evidence_id": missing}
		e := toolError(t, c.call(t, "compare_application_versions", args))
		details, _ := e["details"].(map[string]any)
		if details["reason"] != "missing" || details["evidence_id"] != missing || details["field"] != side {
			t.Errorf("%s missing: %v", side, e)
		}
	}
	// The comparison result is retained and is no application analysis.
	cmp := structured(t, c.call(t, "compare_application_versions", map[string]any{"left": ref(v1), "right": ref(v2)}))
	e := toolError(t, c.call(t, "compare_application_versions", map[string]any{"left": ref(cmp), "right": ref(v2)}))
	if e["code"] != "invalid_request" || !strings.Contains(e["message"].(string), "analyze_javascript_application") {
		t.Errorf("non-application left side: %v", e)
	}
	// Trace over a retained reference.
	tr := structured(t, c.call(t, "trace_application_feature", map[string]any{
		"application": ref(v2),
		"seed":        map[string]any{"kind": "api", "value": "api.save"},
		"direction":   "forward",
	}))
	nr := tr["normalized_result"].(map[string]any)
	matches := nr["seed_matches"].([]any)
	if len(matches) != 1 || matches[0].(map[string]any)["node_id"] != "exposed-api:main:api.save" {
		t.Errorf("trace seed matches %v", matches)
	}
	if tr["confidence"] != "derived" || !strings.HasPrefix(nr["trace_id"].(string), "jatr_") {
		t.Errorf("trace record %v %v", tr["confidence"], nr["trace_id"])
	}
	e = toolError(t, c.call(t, "trace_application_feature", map[string]any{"application": ref(v2)}))
	if e["code"] != "invalid_request" {
		t.Errorf("a trace without seed: %v", e)
	}
}

func TestCompareApplicationVersionsAnalysesDirectoriesFirst(t *testing.T) {
	v1, v2 := analysedVersions(t)
	var fromFiles, fromDirs comparisonRecord
	r := reaWithModules(t, "compare-application-versions", v1, v2, "--format", "json")
	decode(t, r.stdout, &fromFiles)
	r = reaWithModules(t, "compare-application-versions", versionFixture(t, "v1"), versionFixture(t, "v2"), "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	decode(t, r.stdout, &fromDirs)
	if fromDirs.EvidenceID != fromFiles.EvidenceID {
		t.Errorf("analysing the directories gave %s, the Evidence files %s", fromDirs.EvidenceID, fromFiles.EvidenceID)
	}
	missing := reaWithModules(t, "compare-application-versions", v1, filepath.Join(t.TempDir(), "absent.json"), "--format", "json")
	var e typedError
	decode(t, missing.stdout, &e)
	if missing.code != 1 || e.Error.Code != "invalid_request" || e.Error.Details["field"] != "right" {
		t.Errorf("a missing right file: exit %d %+v", missing.code, e.Error)
	}
}

// tamperedV2 packs testdata/versions/v2 as an ASAR with integrity, then
// changes lib/util.js's packed bytes so they no longer match their declared
// digest.
func tamperedV2(t *testing.T) string {
	t.Helper()
	root := versionFixture(t, "v2")
	var files []asarpack.File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, asarpack.Bytes(filepath.ToSlash(rel), b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, files); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	i := bytes.Index(b, []byte("toLowerCase"))
	if i < 0 || bytes.Count(b, []byte("toLowerCase")) != 1 {
		t.Fatal("lib/util.js's code is not in the archive exactly once")
	}
	copy(b[i:], "toUpperCase")
	p := filepath.Join(t.TempDir(), "app.asar")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIntegrityContradictionsClassifyAffectedFactsAsContradiction(t *testing.T) {
	v1, _ := analysedVersions(t)
	asar := tamperedV2(t)
	if r := reaWithModules(t, "analyze-javascript-application", asar, "--format", "json"); r.code != 1 || !strings.Contains(r.stdout, "artifact_integrity_mismatch") {
		t.Fatalf("the default policy fails closed: exit %d %s", r.code, r.stdout)
	}
	r := reaWithModules(t, "analyze-javascript-application", asar, "--format", "json", "--integrity-policy", "record-and-continue")
	if r.code != 2 {
		t.Fatalf("record-and-continue completes with partial coverage (exit 2), got %d: %s", r.code, r.stderr)
	}
	right := filepath.Join(t.TempDir(), "v2-tampered.json")
	if err := os.WriteFile(right, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	cmp := reaWithModules(t, "compare-application-versions", v1, right, "--format", "json")
	if cmp.code != 0 {
		t.Fatalf("exit %d: %s", cmp.code, cmp.stderr)
	}
	var rec comparisonRecord
	decode(t, cmp.stdout, &rec)
	if status, _, _ := rec.verdictOf(t, "module:lib/util.js"); status != "contradiction" {
		t.Errorf("lib/util.js: %s, want contradiction", status)
	}
	// The right side is incomplete: nothing may be claimed removed. The
	// left is complete, so right-only facts may still be added.
	added := 0
	for _, it := range rec.NormalizedResult.Items {
		if it.Status == "removed" {
			t.Errorf("%s %s: removal claimed against a side with integrity contradictions", it.Kind, it.Left.ID)
		}
		if it.Status == "added" {
			added++
		}
	}
	if added == 0 || rec.NormalizedResult.Coverage != "partial" {
		t.Errorf("added %d, coverage %s", added, rec.NormalizedResult.Coverage)
	}
}
