package graph

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"rea/abi"
	"rea/jsengine/report"
)

// app is a complete analysis holding one webpack bundle with the given
// factories, plus whatever edit adds.
func app(factories []report.BundledModule, edit func(*Analysis)) Source {
	a := Analysis{SchemaVersion: 1, Coverage: "complete", Application: report.Result{
		Bundles: []report.Bundle{{Path: "dist/bundle.js", Kind: "webpack", Modules: factories}},
	}}
	if edit != nil {
		edit(&a)
	}
	return Source{EvidenceID: "ev_test", Analysis: a}
}

func factory(key, sha, fp string) report.BundledModule {
	return report.BundledModule{Key: key, FactorySHA256: sha, Fingerprint: fp, Location: report.Location{File: "dist/bundle.js", Line: 1, Column: 1}}
}

func compare(t *testing.T, left, right Source) *CompareResult {
	t.Helper()
	req := &CompareRequest{Left: left, Right: right, IncludeUnchanged: true}
	if err := req.Limits.Normalise(); err != nil {
		t.Fatal(err)
	}
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// verdict finds the item of kind whose left or right ref is id.
func verdict(t *testing.T, res *CompareResult, kind, id string) Item {
	t.Helper()
	for _, it := range res.Items {
		if it.Kind != kind {
			continue
		}
		if (it.Left != nil && it.Left.ID == id) || (it.Right != nil && it.Right.ID == id) {
			return it
		}
	}
	t.Fatalf("no %s item for %s in %+v", kind, id, res.Items)
	return Item{}
}

func bundledRef(key string) string { return bundledID("dist/bundle.js", key) }

func TestTiersMatchByTheStrongestUniqueKey(t *testing.T) {
	cases := []struct {
		name        string
		left, right []report.BundledModule
		// want maps a right-side key to its expected status, match tier
		// and left-side key ("" when unmatched).
		want map[string][3]string
	}{
		{
			name:  "node identity wins over a content digest held by another key",
			left:  []report.BundledModule{factory("./a.js", "x", "sfp1:f")},
			right: []report.BundledModule{factory("./a.js", "y", "sfp1:f"), factory("./b.js", "x", "sfp1:g")},
			want:  map[string][3]string{"./a.js": {"changed", TierNodeIdentity, "./a.js"}, "./b.js": {"added", "", ""}},
		},
		{
			name:  "module source digest wins over a structural fingerprint",
			left:  []report.BundledModule{factory("1", "x", "sfp1:f")},
			right: []report.BundledModule{factory("5", "x", "sfp1:other"), factory("6", "z", "sfp1:f")},
			want:  map[string][3]string{"5": {"unchanged", TierSourceDigest, "1"}, "6": {"added", "", ""}},
		},
		{
			name:  "a unique structural fingerprint matches renamed identifiers",
			left:  []report.BundledModule{factory("23", "x", "sfp1:f")},
			right: []report.BundledModule{factory("8", "y", "sfp1:f")},
			want:  map[string][3]string{"8": {"changed", TierFingerprint, "23"}},
		},
		{
			name:  "an ambiguous fingerprint is unknown, not a guess",
			left:  []report.BundledModule{factory("1", "x", "sfp1:f")},
			right: []report.BundledModule{factory("5", "y", "sfp1:f"), factory("6", "z", "sfp1:f")},
			want:  map[string][3]string{"5": {"unknown", "", ""}, "6": {"unknown", "", ""}},
		},
		{
			name:  "duplicate identical factories are unknown",
			left:  []report.BundledModule{factory("31", "x", "sfp1:f")},
			right: []report.BundledModule{factory("60", "x", "sfp1:f"), factory("61", "x", "sfp1:f")},
			want:  map[string][3]string{"60": {"unknown", "", ""}, "61": {"unknown", "", ""}},
		},
		{
			name:  "an ambiguous stronger tier is not settled by a weaker one",
			left:  []report.BundledModule{factory("1", "x", "sfp1:f")},
			right: []report.BundledModule{factory("5", "x", "sfp1:f"), factory("6", "x", "sfp1:g")},
			want:  map[string][3]string{"5": {"unknown", "", ""}, "6": {"unknown", "", ""}},
		},
		{
			name:  "the same ordinal never matches different code",
			left:  []report.BundledModule{factory("3", "x", "sfp1:f")},
			right: []report.BundledModule{factory("3", "y", "sfp1:g")},
			want:  map[string][3]string{"3": {"added", "", ""}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := compare(t, app(c.left, nil), app(c.right, nil))
			for key, w := range c.want {
				var got *Item
				for i := range res.Items {
					it := &res.Items[i]
					if it.Right != nil && it.Right.ID == bundledRef(key) {
						got = it
					}
				}
				if got == nil {
					t.Fatalf("no item for right %s", key)
				}
				if got.Status != w[0] || got.MatchedBy != w[1] {
					t.Errorf("%s: status %s by %q, want %s by %q", key, got.Status, got.MatchedBy, w[0], w[1])
				}
				leftKey := ""
				if got.Left != nil {
					leftKey = strings.TrimPrefix(got.Left.ID, bundledRef(""))
				}
				if leftKey != w[2] {
					t.Errorf("%s: matched left %q, want %q", key, leftKey, w[2])
				}
			}
		})
	}
}

func TestAmbiguousItemsListTheirCandidates(t *testing.T) {
	res := compare(t,
		app([]report.BundledModule{factory("1", "x", "sfp1:f")}, nil),
		app([]report.BundledModule{factory("5", "y", "sfp1:f"), factory("6", "z", "sfp1:f")}, nil))
	v := verdict(t, res, "bundled-module", bundledRef("1"))
	if v.Status != "unknown" || v.Right != nil {
		t.Fatalf("left 1: %+v, want unknown without a match", v)
	}
	if want := []string{bundledRef("5"), bundledRef("6")}; !reflect.DeepEqual(v.Candidates, want) {
		t.Errorf("candidates %v, want %v", v.Candidates, want)
	}
}

func TestAbsenceIsClaimedOnlyAgainstCompleteCoverage(t *testing.T) {
	left := []report.BundledModule{factory("1", "gone", "sfp1:gone")}
	right := []report.BundledModule{factory("2", "new", "sfp1:new")}
	partial := func(a *Analysis) { a.Coverage = "partial" }
	cases := []struct {
		name                     string
		leftEdit, rightEdit      func(*Analysis)
		wantRemoved, wantAdded   string
		wantCoverage             string
		wantUnknownOneSideOmited int
	}{
		{"both complete", nil, nil, "removed", "added", "complete", 0},
		{"left partial", partial, nil, "removed", "unknown", "partial", 1},
		{"right partial", nil, partial, "unknown", "added", "partial", 1},
		{"both partial", partial, partial, "unknown", "unknown", "partial", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := compare(t, app(left, c.leftEdit), app(right, c.rightEdit))
			if got := verdict(t, res, "bundled-module", bundledRef("1")).Status; got != c.wantRemoved {
				t.Errorf("left-only item: %s, want %s", got, c.wantRemoved)
			}
			if got := verdict(t, res, "bundled-module", bundledRef("2")).Status; got != c.wantAdded {
				t.Errorf("right-only item: %s, want %s", got, c.wantAdded)
			}
			if res.Coverage != c.wantCoverage || res.Omissions.UnknownSide != c.wantUnknownOneSideOmited {
				t.Errorf("coverage %s, unknown one-side %d; want %s, %d", res.Coverage, res.Omissions.UnknownSide, c.wantCoverage, c.wantUnknownOneSideOmited)
			}
		})
	}
}

func TestIntegrityContradictionsClassifyTheirFacts(t *testing.T) {
	mods := func(sha string) func(*Analysis) {
		return func(a *Analysis) {
			a.Application.Modules = []report.Module{{Path: "main.js", SHA256: sha}, {Path: "other.js", SHA256: "same"}}
		}
	}
	contradicted := func(sha string) func(*Analysis) {
		return func(a *Analysis) {
			mods(sha)(a)
			a.Coverage = "partial"
			a.IntegrityContradictions = []Contradiction{{ContradictionID: "ic_1", LogicalPath: "main.js"}}
		}
	}
	for _, c := range []struct {
		name        string
		left, right func(*Analysis)
	}{
		{"on the right", mods("a"), contradicted("b")},
		{"on the left", contradicted("a"), mods("b")},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := compare(t, app(nil, c.left), app(nil, c.right))
			if got := verdict(t, res, "module", "module:main.js").Status; got != "contradiction" {
				t.Errorf("main.js: %s, want contradiction", got)
			}
			if got := verdict(t, res, "module", "module:other.js").Status; got != "unchanged" {
				t.Errorf("other.js: %s, want unchanged", got)
			}
			if res.Summary.Statuses["contradiction"] != 1 {
				t.Errorf("statuses %v", res.Summary.Statuses)
			}
		})
	}
}

func window(module, load string, prefs map[string]any, line int) report.Window {
	wp := map[string]report.Value{}
	for k, v := range prefs {
		wp[k] = report.Value{Value: v, State: "observed"}
	}
	return report.Window{ID: "window:" + module + ":" + strings.Repeat("1", line), Kind: "BrowserWindow", Module: module,
		Location: report.Location{File: module, Line: line, Column: 1}, Coverage: "complete", WebPreferences: wp,
		Loads: []report.Load{{Method: "loadFile", Target: load, Resolved: load, State: "known"}}}
}

func TestSummaryAnswersWindowsChannelsAPIsEndpointsAndFindings(t *testing.T) {
	v1 := app(nil, func(a *Analysis) {
		r := &a.Application
		r.Windows = []report.Window{window("main.js", "index.html", map[string]any{"sandbox": true}, 5)}
		r.IPC = []report.IPCOperation{{ID: "ipc:1", Module: "main.js", Side: "main", API: "ipcMain.handle", Role: "handler", Channel: "old:read", ChannelState: "literal"}}
		r.ContextBridge = []report.ExposedAPI{{Module: "preload.js", World: "main", Key: "api", KeyState: "literal", Members: []string{"read"}, Coverage: "complete"}}
	})
	v2 := app(nil, func(a *Analysis) {
		r := &a.Application
		r.Windows = []report.Window{
			window("main.js", "index.html", map[string]any{"sandbox": false}, 9),
			window("main.js", "settings.html", map[string]any{"nodeIntegration": true}, 20),
		}
		r.IPC = []report.IPCOperation{{ID: "ipc:2", Module: "main.js", Side: "main", API: "ipcMain.handle", Role: "handler", Channel: "new:write", ChannelState: "literal"}}
		r.ContextBridge = []report.ExposedAPI{{Module: "preload.js", World: "main", Key: "api", KeyState: "literal", Members: []string{"read", "write"}, Coverage: "complete"}}
		r.Observations = []report.Observation{{Kind: "endpoint", API: "fetch", Argument: "https://example.com/sync", Module: "main.js"}}
		r.Findings = []report.Finding{{RuleID: "node-integration-enabled", Severity: "high", Message: "nodeIntegration is true", Location: report.Location{File: "main.js", Line: 20}}}
	})
	s := compare(t, v1, v2).Summary
	if len(s.NewWindows) != 1 || s.NewWindows[0].WebPreferences["nodeIntegration"] != true {
		t.Errorf("new windows %+v", s.NewWindows)
	}
	if len(s.ChangedWebPreferences) != 1 || len(s.ChangedWebPreferences[0].Changes) != 1 ||
		s.ChangedWebPreferences[0].Changes[0] != (PropertyChange{Name: "webPreferences.sandbox", Left: true, Right: false}) {
		t.Errorf("changed webPreferences %+v", s.ChangedWebPreferences)
	}
	check := func(name string, got, want []string) {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	check("channels added", s.IPCChannelsAdded, []string{"new:write"})
	check("channels removed", s.IPCChannelsRemoved, []string{"old:read"})
	check("APIs added", s.ExposedAPIsAdded, []string{"api.write"})
	check("APIs removed", s.ExposedAPIsRemoved, []string{})
	check("endpoints added", s.EndpointsAdded, []string{"https://example.com/sync"})
	if len(s.FindingsAdded) != 1 || s.FindingsAdded[0].RuleID != "node-integration-enabled" {
		t.Errorf("findings added %+v", s.FindingsAdded)
	}
	if !strings.Contains(strings.Join(s.Headline, "; "), "1 new window(s)") {
		t.Errorf("headline %v", s.Headline)
	}
}

func TestSourceMapIdentityMatchesARenamedChunk(t *testing.T) {
	side := func(path, sha string) Source {
		return app(nil, func(a *Analysis) {
			a.Application.Modules = []report.Module{{Path: path, SHA256: sha}}
			a.Application.SourceMaps = []report.SourceMapRef{{Path: "dist/app.js.map", Present: true, DeclaredBy: []string{path}}}
		})
	}
	res := compare(t, side("dist/app.1a.js", "x"), side("dist/app.2b.js", "y"))
	v := verdict(t, res, "module", "module:dist/app.2b.js")
	if v.Status != "changed" || v.MatchedBy != TierSourceMap || v.MatchConfidence != "high" {
		t.Fatalf("%+v", v)
	}
	if !reflect.DeepEqual(v.ChangedDimensions, []string{"content", "location"}) {
		t.Errorf("dimensions %v", v.ChangedDimensions)
	}
	want := GraphEdge{From: "right:module:dist/app.2b.js", To: "left:module:dist/app.1a.js", Relation: "changed_from", MatchedBy: TierSourceMap, Confidence: "high"}
	found := false
	for _, e := range res.ChangedFrom.Edges {
		found = found || e == want
	}
	if !found {
		t.Errorf("changed_from lacks %+v: %+v", want, res.ChangedFrom.Edges)
	}
}

func TestLimitsOmitAndCount(t *testing.T) {
	var many []report.BundledModule
	for _, k := range []string{"a", "b", "c", "d"} {
		many = append(many, factory("./"+k+".js", k, "sfp1:"+k))
	}
	req := &CompareRequest{Left: app(many, nil), Right: app(many[:1], nil), Limits: CompareLimits{MaxComparisonItems: 2}}
	if err := req.Limits.Normalise(); err != nil {
		t.Fatal(err)
	}
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Omissions.LeftItems != 2 || res.Left.Items != 4 || res.Coverage != "partial" {
		t.Errorf("omissions %+v, left items %d, coverage %s", res.Omissions, res.Left.Items, res.Coverage)
	}
	for _, it := range res.Items {
		if it.Status == "added" {
			t.Errorf("nothing may be claimed added against a truncated left side: %+v", it)
		}
	}
}

func TestChangedFromGraphIsBounded(t *testing.T) {
	left := []report.BundledModule{factory("./a.js", "a1", "sfp1:a"), factory("./b.js", "b1", "sfp1:b"), factory("./c.js", "c1", "sfp1:c")}
	right := []report.BundledModule{factory("./a.js", "a2", "sfp1:a"), factory("./b.js", "b2", "sfp1:b"), factory("./c.js", "c2", "sfp1:c")}
	for _, c := range []struct {
		limits             CompareLimits
		edges, nodes       int
		omittedE, omittedN int
	}{
		{CompareLimits{}, 3, 6, 0, 0},
		{CompareLimits{MaxGraphEdges: 2}, 2, 4, 1, 2},
		{CompareLimits{MaxGraphNodes: 3}, 1, 2, 2, 4},
	} {
		req := &CompareRequest{Left: app(left, nil), Right: app(right, nil), Limits: c.limits}
		if err := req.Limits.Normalise(); err != nil {
			t.Fatal(err)
		}
		res, err := Compare(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		g := res.ChangedFrom
		if len(g.Edges) != c.edges || len(g.Nodes) != c.nodes || res.Omissions.GraphEdges != c.omittedE || res.Omissions.GraphNodes != c.omittedN {
			t.Errorf("%+v: %d edges %d nodes, omissions %+v", c.limits, len(g.Edges), len(g.Nodes), res.Omissions)
		}
		if (c.omittedE+c.omittedN > 0) != (res.Coverage == "partial") {
			t.Errorf("%+v: coverage %s", c.limits, res.Coverage)
		}
	}
}

func TestDecodeCompareRequestRejectsWhatItCannotRead(t *testing.T) {
	good := `{"evidence_id":"ev_x","analysis":{"schema_version":1,"coverage":"complete","application":{}}}`
	cases := []struct{ name, params, field string }{
		{"unknown field", `{"left":` + good + `,"right":` + good + `,"extra":1}`, "extra"},
		{"missing side", `{"left":` + good + `}`, "right"},
		{"old schema", `{"left":` + good + `,"right":{"analysis":{"schema_version":7,"coverage":"complete"}}}`, "right.analysis.schema_version"},
		{"bad coverage", `{"left":` + good + `,"right":{"analysis":{"schema_version":1,"coverage":"most"}}}`, "right.analysis.coverage"},
		{"limit out of range", `{"left":` + good + `,"right":` + good + `,"limits":{"max_candidate_nodes":100000}}`, "limits.max_candidate_nodes"},
		{"unknown limit", `{"left":` + good + `,"right":` + good + `,"limits":{"max_everything":1}}`, "limits"},
		{"not an object", `[1]`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeCompareRequest([]byte(c.params))
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
				t.Fatalf("err %v, want invalid_request", err)
			}
			if c.field != "" && ae.Details["field"] != c.field {
				t.Errorf("field %v, want %s", ae.Details["field"], c.field)
			}
		})
	}
	req, err := DecodeCompareRequest([]byte(`{"left":` + good + `,"right":` + good + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.Limits != (CompareLimits{MaxComparisonItems: 20000, MaxCandidateNodes: 100, MaxGraphNodes: 20000, MaxGraphEdges: 40000}) {
		t.Errorf("defaults %+v", req.Limits)
	}
}

func TestUnchangedFactsAreCountedAndListedOnlyOnRequest(t *testing.T) {
	same := []report.BundledModule{factory("./a.js", "x", "sfp1:a"), factory("./b.js", "y", "sfp1:b")}
	for _, include := range []bool{false, true} {
		req := &CompareRequest{Left: app(same, nil), Right: app(same[:1], nil), IncludeUnchanged: include}
		if err := req.Limits.Normalise(); err != nil {
			t.Fatal(err)
		}
		res, err := Compare(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for _, it := range res.Items {
			if it.Status == "unchanged" {
				listed++
			}
		}
		want := 0
		if include {
			want = 1
		}
		if listed != want || res.UnchangedListed != include || res.Summary.Statuses["unchanged"] != 1 || res.Summary.Statuses["removed"] != 1 {
			t.Errorf("include_unchanged %v: listed %d, flag %v, statuses %v", include, listed, res.UnchangedListed, res.Summary.Statuses)
		}
	}
}

func TestIdenticalInputsGiveIdenticalResults(t *testing.T) {
	mk := func() Source {
		return app([]report.BundledModule{factory("1", "x", "sfp1:f"), factory("2", "y", "sfp1:f"), factory("./n.js", "z", "sfp1:z")}, nil)
	}
	a, _ := json.Marshal(compare(t, mk(), mk()))
	b, _ := json.Marshal(compare(t, mk(), mk()))
	if string(a) != string(b) {
		t.Fatal("two comparisons of the same inputs differ")
	}
}

func FuzzDecodeCompareRequest(f *testing.F) {
	good := `{"evidence_id":"ev_x","analysis":{"schema_version":1,"coverage":"complete","application":{"bundles":[{"path":"b.js","modules":[{"key":"1","factory_sha256":"x","fingerprint":"sfp1:f"}]}]}}}`
	f.Add([]byte(`{"left":` + good + `,"right":` + good + `}`))
	f.Add([]byte(`{"left":` + good + `,"right":` + good + `,"limits":{"max_comparison_items":1}}`))
	f.Add([]byte(`{"left":null}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeCompareRequest(data)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		if _, err := Compare(context.Background(), req); err != nil {
			t.Fatalf("a decoded request failed to compare: %v", err)
		}
	})
}
