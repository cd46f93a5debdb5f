package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"rea/jsengine/report"
)

func request(coverage string, ref []File, modules []report.Module, bundles []report.Bundle) *Request {
	req := &Request{MaxCandidates: 20}
	req.Reference.EvidenceID = "ev_ref"
	req.Reference.Graph = *NewReference("man", "root", "complete", ref, nil)
	req.Application.EvidenceID = "ev_app"
	req.Application.Analysis = Application{SchemaVersion: 1, Coverage: coverage, Application: report.Result{Modules: modules, Bundles: bundles}}
	return req
}

func statuses(t *testing.T, req *Request) (map[string]string, *Result) {
	t.Helper()
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range res.Files {
		out[f.Path] = f.Status + "/" + f.MatchedBy
	}
	return out, res
}

func TestEveryReferenceFileIsClassified(t *testing.T) {
	ref := []File{
		{Path: "src/main.js", SHA256: "m1"},          // same bytes at another path → unchanged
		{Path: "src/lib/config.js", SHA256: "c1"},    // lib/config.js differs → modified by suffix
		{Path: "src/app.ts", SHA256: "p1"},           // app.ts at the same path → modified by exact path
		{Path: "src/dup.js", SHA256: "d1"},           // shipped twice → duplicated
		{Path: "src/legacy.js", SHA256: "l1"},        // nowhere → removed
		{Path: "src/views/a.js", SHA256: "va"},       // both views in one bundle → merged
		{Path: "src/views/b.js", SHA256: "vb"},       //
		{Path: "src/shared.js", SHA256: "sh"},        // keyed in two chunks → split
		{Path: "src/util/index.js", SHA256: "ix"},    // only basename candidates → unknown
		{Path: "src/solo.js", SHA256: "so"},          // alone in a bundle → unknown (not comparable)
		{Path: "README.md", SHA256: "rd"},            // not source: skipped
		{Path: "types/index.d.ts", SHA256: "decl"},   // declarations: skipped
		{Path: "src/a/b/handler.js", SHA256: "hand"}, // two modules share the longest suffix → split
	}
	modules := []report.Module{
		{Path: "main.js", SHA256: "m1"},
		{Path: "lib/config.js", SHA256: "c2"},
		{Path: "src/app.ts", SHA256: "p2"},
		{Path: "vendor/dup.js", SHA256: "d1"},
		{Path: "copy/dup.js", SHA256: "d1"},
		{Path: "x/index.js", SHA256: "i1"},
		{Path: "y/index.js", SHA256: "i2"},
		{Path: "one/b/handler.js", SHA256: "h1"},
		{Path: "two/b/handler.js", SHA256: "h2"},
		{Path: "extra.js", SHA256: "e1"},
	}
	bundles := []report.Bundle{
		{Path: "dist/bundle.js", Modules: []report.BundledModule{{Key: "./src/views/a.js", FactorySHA256: "fa"}, {Key: "./src/views/b.js", FactorySHA256: "fb"}, {Key: "17", FactorySHA256: "f17"}}},
		{Path: "dist/chunk-1.js", Modules: []report.BundledModule{{Key: "./src/shared.js", FactorySHA256: "s1"}}},
		{Path: "dist/chunk-2.js", Modules: []report.BundledModule{{Key: "./src/shared.js", FactorySHA256: "s2"}, {Key: "./src/solo.js", FactorySHA256: "so2"}}},
	}
	got, res := statuses(t, request("complete", ref, modules, bundles))
	want := map[string]string{
		"src/main.js":        "unchanged/exact-source-digest",
		"src/lib/config.js":  "modified/path-suffix",
		"src/app.ts":         "modified/exact-path",
		"src/dup.js":         "duplicated/exact-source-digest",
		"src/legacy.js":      "removed/",
		"src/views/a.js":     "merged/bundled-module-path",
		"src/views/b.js":     "merged/bundled-module-path",
		"src/shared.js":      "split/bundled-module-path",
		"src/util/index.js":  "unknown/basename",
		"src/solo.js":        "unknown/bundled-module-path",
		"src/a/b/handler.js": "split/path-suffix",
	}
	if !reflect.DeepEqual(got, want) {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s, want %s", k, got[k], v)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("unexpected %s: %s", k, got[k])
			}
		}
	}
	for _, f := range res.Files {
		if f.Path == "src/views/a.js" && !reflect.DeepEqual(f.MergedWith, []string{"src/views/b.js"}) {
			t.Errorf("merged_with %v", f.MergedWith)
		}
	}
	if res.Summary[StatusMerged] != 2 || res.Summary[StatusUnknown] != 2 || res.Summary[StatusSplit] != 2 {
		t.Errorf("summary %v", res.Summary)
	}
	if !reflect.DeepEqual(res.UnmatchedModules, []string{"extra.js", "x/index.js", "y/index.js"}) {
		t.Errorf("unmatched %v", res.UnmatchedModules)
	}
	if req := request("complete", ref, nil, nil); req.Reference.Graph.SkippedFiles != 2 || len(req.Reference.Graph.Files) != 11 {
		t.Errorf("reference keeps %d files, skipped %d", len(req.Reference.Graph.Files), req.Reference.Graph.SkippedFiles)
	}
}

func TestPartialApplicationClaimsNoRemoval(t *testing.T) {
	got, res := statuses(t, request("partial", []File{{Path: "src/legacy.js", SHA256: "l1"}}, []report.Module{{Path: "main.js", SHA256: "m"}}, nil))
	if got["src/legacy.js"] != "unknown/" {
		t.Errorf("status %v", got)
	}
	if !strings.Contains(strings.Join(res.Limitations, "\n"), "partial") {
		t.Errorf("limitations %v", res.Limitations)
	}
}

func TestOneReferenceFileClaimingAModuleTwiceIsUnknown(t *testing.T) {
	// Two reference files reach one module only by suffix: neither wins.
	got, _ := statuses(t, request("complete",
		[]File{{Path: "a/lib/x.js", SHA256: "1"}, {Path: "b/lib/x.js", SHA256: "2"}},
		[]report.Module{{Path: "lib/x.js", SHA256: "3"}}, nil))
	if got["a/lib/x.js"] != "unknown/path-suffix" || got["b/lib/x.js"] != "unknown/path-suffix" {
		t.Errorf("statuses %v", got)
	}
}

func TestReferenceIDCommitsToTheFiles(t *testing.T) {
	a := NewReference("m", "r", "complete", []File{{Path: "a.js", SHA256: "1"}, {Path: "b.js", SHA256: "2"}}, nil)
	b := NewReference("m", "r", "complete", []File{{Path: "b.js", SHA256: "2"}, {Path: "a.js", SHA256: "1"}}, nil)
	c := NewReference("m", "r", "complete", []File{{Path: "a.js", SHA256: "1"}, {Path: "b.js", SHA256: "3"}}, nil)
	if a.SourceGraphID != b.SourceGraphID || a.SourceGraphID == c.SourceGraphID || !strings.HasPrefix(a.SourceGraphID, "hsg_") {
		t.Errorf("ids %s %s %s", a.SourceGraphID, b.SourceGraphID, c.SourceGraphID)
	}
}

func TestRequestsAreChecked(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"reference":{"graph":{"format":"other"}},"application":{"analysis":{"schema_version":1}}}`, "import_reference_source"},
		{`{"reference":{"graph":{"format":"HistoricalSourceGraph/v1"}},"application":{"analysis":{"schema_version":2}}}`, "schema_version"},
		{`{"reference":{"graph":{"format":"HistoricalSourceGraph/v1"}},"application":{"analysis":{"schema_version":1}},"max_candidates":5000}`, "max_candidates"},
		{`{"bogus":1}`, "bogus"},
	} {
		if _, err := DecodeRequest([]byte(c.raw)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.raw, err, c.want)
		}
	}
}

func TestSourceMapOriginalPathsCompareThroughSourcesContent(t *testing.T) {
	content := func(s string) *string { return &s }
	same := "exports.upper = (s) => s.toUpperCase();\n"
	ref := []File{
		{Path: "src/util/strings.js", SHA256: digestOf(same)},
		{Path: "src/util/math.js", SHA256: digestOf("exports.add = (a, b) => a + b;\n")},
		{Path: "src/nocontent.js", SHA256: "n1"},
		{Path: "src/pair/one.js", SHA256: "p1"},
		{Path: "src/pair/two.js", SHA256: "p2"},
		{Path: "src/twice.js", SHA256: "t1"},
	}
	modules := []report.Module{{Path: "dist/strings.min.js", SHA256: "g1"}, {Path: "dist/math.min.js", SHA256: "g2"},
		{Path: "dist/nc.js", SHA256: "g3"}, {Path: "dist/pair.js", SHA256: "g4"}, {Path: "dist/a.js", SHA256: "g5"}, {Path: "dist/b.js", SHA256: "g6"}}
	req := request("complete", ref, modules, nil)
	req.SourceMaps = []MapInput{
		{Path: "dist/strings.min.js.map", DeclaredBy: []string{"dist/strings.min.js"}, SHA256: "m1",
			Content: content(`{"version":3,"sources":["webpack:///./src/util/strings.js"],"sourcesContent":[` + quote(same) + `]}`)},
		{Path: "dist/math.min.js.map", DeclaredBy: []string{"dist/math.min.js"}, SHA256: "m2",
			Content: content(`{"version":3,"sources":["../src/util/math.js"],"sourcesContent":["exports.add = (a, b) => a + b + 0;\n"]}`)},
		{Path: "dist/nc.js.map", DeclaredBy: []string{"dist/nc.js"}, Content: content(`{"sources":["src/nocontent.js"],"sourceRoot":"../"}`)},
		{Path: "dist/pair.js.map", DeclaredBy: []string{"dist/pair.js"}, Content: content(`{"sources":["webpack://app/./src/pair/one.js","webpack://app/./src/pair/two.js"]}`)},
		{Path: "dist/twice.map", DeclaredBy: []string{"dist/a.js", "dist/b.js"}, Content: content(`{"sources":["../src/twice.js"]}`)},
		{Path: "dist/gone.js.map", DeclaredBy: []string{"dist/gone.js"}, Unavailable: "not in the analysed directory"},
		{Path: "dist/bad.js.map", DeclaredBy: []string{"dist/bad.js"}, Content: content(`{not json`)},
	}
	got, res := statuses(t, req)
	want := map[string]string{
		"src/util/strings.js": "unchanged/source-map-original-path",
		"src/util/math.js":    "modified/source-map-original-path",
		"src/nocontent.js":    "unknown/source-map-original-path",
		"src/pair/one.js":     "merged/source-map-original-path",
		"src/pair/two.js":     "merged/source-map-original-path",
		"src/twice.js":        "split/source-map-original-path",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statuses\n got %v\nwant %v", got, want)
	}
	var maps []string
	for _, m := range res.SourceMaps {
		maps = append(maps, m.Path+" "+m.Status)
	}
	if !reflect.DeepEqual(maps, []string{"dist/strings.min.js.map read", "dist/math.min.js.map read", "dist/nc.js.map read",
		"dist/pair.js.map read", "dist/twice.map read", "dist/gone.js.map unavailable", "dist/bad.js.map unreadable"}) {
		t.Errorf("maps %v", maps)
	}
	if l := strings.Join(res.Limitations, "\n"); !strings.Contains(l, "dist/gone.js.map") || !strings.Contains(l, "dist/bad.js.map") {
		t.Errorf("limitations %v", res.Limitations)
	}
}

func TestOriginalPaths(t *testing.T) {
	for _, c := range []struct{ mapPath, root, src, want string }{
		{"dist/a.js.map", "", "webpack:///./src/a.js", "src/a.js"},
		{"dist/a.js.map", "", "webpack://ns/./src/a.js", "src/a.js"},
		{"dist/a.js.map", "", "../src/a.js", "src/a.js"},
		{"dist/a.js.map", "../", "src/a.js", "src/a.js"},
		{"a.js.map", "", "../../outside/a.js", "outside/a.js"},
		{"dist/a.js.map", "", "webpack://", ""},
	} {
		if got := originalPath(c.mapPath, c.root, c.src); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.mapPath, c.root, c.src, got, c.want)
		}
	}
}

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
