package graph

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"rea/jsengine/report"
)

// electronApp is a small boundary: main.js creates a window with a preload,
// handles one channel; preload.js exposes api.read invoking it; main.js
// loads a native addon asking for two exports.
func electronApp(coverage string) Source {
	at := func(f string, line int) report.Location { return report.Location{File: f, Line: line, Column: 1} }
	return Source{EvidenceID: "ev_app", Analysis: Analysis{SchemaVersion: 1, Coverage: coverage, Application: report.Result{
		Modules: []report.Module{{Path: "main.js", SHA256: "m"}, {Path: "preload.js", SHA256: "p"}, {Path: "lib/search.js", SHA256: "s"}},
		ModuleGraph: []report.GraphEdge{
			{From: "main.js", To: "lib/search.js", Kind: "require"},
			{From: "main.js", To: "external:electron", Kind: "require"},
		},
		Windows: []report.Window{{ID: "window:main.js:4:1", Kind: "BrowserWindow", Module: "main.js", Location: at("main.js", 4), Coverage: "complete",
			Preload: &report.Preload{Module: "preload.js", Path: "preload.js", State: "inferred", Location: at("main.js", 5)},
			Loads:   []report.Load{{Method: "loadURL", Target: "https://app.example.com/items/:id", Remote: true, State: "known", Location: at("main.js", 7)}}}},
		ContextBridge: []report.ExposedAPI{{Module: "preload.js", World: "main", Key: "api", KeyState: "literal", Members: []string{"read"}, Coverage: "complete", Location: at("preload.js", 2)}},
		IPC: []report.IPCOperation{
			{ID: "ipc:preload.js:2:1", Module: "preload.js", Side: "renderer", API: "ipcRenderer.invoke", Role: "transmission", Channel: "Items:Read", ChannelState: "literal", Location: at("preload.js", 2)},
			{ID: "ipc:main.js:9:1", Module: "main.js", Side: "main", API: "ipcMain.handle", Role: "handler", Channel: "Items:Read", ChannelState: "constant", Location: at("main.js", 9)},
		},
		Observations: []report.Observation{{Kind: "native-addon", API: "require", Argument: "native/search.node", State: "known", Members: []string{"query", "index"}, Module: "lib/search.js", Location: at("lib/search.js", 1)}},
	}}}
}

func trace(t *testing.T, src Source, direction string, limits TraceLimits, seeds ...Seed) *TraceResult {
	t.Helper()
	req := &TraceRequest{Source: src, Seeds: seeds, Direction: direction, Limits: limits}
	if err := req.Normalise(); err != nil {
		t.Fatal(err)
	}
	res, err := Trace(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func matchedIDs(res *TraceResult) []string {
	var ids []string
	for _, m := range res.SeedMatches {
		ids = append(ids, m.NodeID)
	}
	sort.Strings(ids)
	return ids
}

func TestSeedsMatchByKindMatchAndCase(t *testing.T) {
	cases := []struct {
		name string
		seed Seed
		want []string
	}{
		{"channel exact ignores case by default", Seed{Kind: "channel", Value: "items:read"}, []string{"channel:Items:Read"}},
		{"channel exact honours case_sensitive", Seed{Kind: "channel", Value: "items:read", CaseSensitive: true}, nil},
		{"channel contains", Seed{Kind: "channel", Value: "read", Match: "contains"}, []string{"channel:Items:Read"}},
		{"module by base name", Seed{Kind: "module", Value: "search.js"}, []string{"module:lib/search.js"}},
		{"api member", Seed{Kind: "api", Value: "window.api.read"}, []string{"exposed-api:main:api.read"}},
		{"route", Seed{Kind: "route", Value: "/items/:id", Match: "contains"}, []string{"endpoint:https://app.example.com/items/:id"}},
		{"native export", Seed{Kind: "native-export", Value: "query"}, []string{"native-export:native/search.node#query"}},
		{"node id", Seed{Kind: "node-id", Value: "window:main.js:4:1"}, []string{"window:main.js:4:1"}},
		{"string defaults to contains", Seed{Kind: "string", Value: "SEARCH.NODE"}, []string{"native-addon:native/search.node"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := trace(t, electronApp("complete"), "both", TraceLimits{}, c.seed)
			if got := matchedIDs(res); !reflect.DeepEqual(got, c.want) {
				t.Errorf("matches %v, want %v", got, c.want)
			}
			if len(c.want) == 0 && res.Coverage.Status != "no-match" {
				t.Errorf("coverage %s, want no-match", res.Coverage.Status)
			}
		})
	}
}

func TestTraceFromAnAPIReachesTheMainHandlerAndTheNativeHandoff(t *testing.T) {
	res := trace(t, electronApp("complete"), "forward", TraceLimits{}, Seed{Kind: "channel", Value: "Items:Read"})
	has := map[string]bool{}
	for _, n := range res.Nodes {
		has[n.ID] = true
	}
	if !has["ipc:main.js:9:1"] {
		t.Errorf("forward from the channel must reach its handler: %v", has)
	}
	if has["ipc:preload.js:2:1"] {
		t.Errorf("forward from the channel must not walk back to the sender")
	}
	// The handler's channel is a resolved constant: the path holds inference.
	if len(res.Paths) != 1 || !res.Paths[0].ContainsInference || !reflect.DeepEqual(res.Paths[0].Authorities, []string{AuthorityInference}) {
		t.Errorf("paths %+v", res.Paths)
	}

	res = trace(t, electronApp("complete"), "forward", TraceLimits{}, Seed{Kind: "module", Value: "main.js"})
	if len(res.NativeHandoffs) != 1 {
		t.Fatalf("native handoffs %+v", res.NativeHandoffs)
	}
	h := res.NativeHandoffs[0]
	if h.Path != "native/search.node" || !reflect.DeepEqual(h.RequestedExports, []string{"index", "query"}) || h.Status != "requires-provider-analysis" || h.RecommendedTools[0] != "inspect_binary_layout" {
		t.Errorf("handoff %+v", h)
	}
	if res.Coverage.Status != "complete-within-source" {
		t.Errorf("coverage %+v", res.Coverage)
	}
}

func TestTraceBackwardFindsWhoLoadsAPreload(t *testing.T) {
	res := trace(t, electronApp("complete"), "backward", TraceLimits{}, Seed{Kind: "module", Value: "preload.js"})
	var ends []string
	for _, p := range res.Paths {
		ends = append(ends, p.Nodes[len(p.Nodes)-1])
	}
	if !reflect.DeepEqual(ends, []string{"module:main.js"}) {
		t.Errorf("backward path ends %v, want main.js (which creates the window loading the preload)", ends)
	}
}

func TestTraceLimitsTruncateAndCountOmissions(t *testing.T) {
	cases := []struct {
		name   string
		limits TraceLimits
		limit  string
		key    string
	}{
		{"nodes", TraceLimits{MaxNodes: 2}, "max_nodes", "nodes"},
		{"edges", TraceLimits{MaxEdges: 1}, "max_edges", "edges"},
		{"paths", TraceLimits{MaxPaths: 1}, "max_paths", "paths"},
		{"depth", TraceLimits{MaxDepth: 1}, "max_depth", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := trace(t, electronApp("complete"), "forward", c.limits, Seed{Kind: "module", Value: "main.js"})
			if res.Coverage.Status != "truncated" || !reflect.DeepEqual(res.Coverage.LimitsReached, []string{c.limit}) {
				t.Errorf("coverage %+v", res.Coverage)
			}
			if c.key != "" && res.Coverage.Omitted[c.key] == 0 {
				t.Errorf("omitted %v: %s not counted", res.Coverage.Omitted, c.key)
			}
			if len(res.Coverage.Frontier) == 0 && c.key != "paths" {
				t.Errorf("a truncated walk names its frontier")
			}
		})
	}
	full := trace(t, electronApp("complete"), "forward", TraceLimits{}, Seed{Kind: "module", Value: "main.js"})
	if len(full.Nodes) <= 2 {
		t.Fatalf("the unbounded trace must be larger than the bounded one: %d nodes", len(full.Nodes))
	}
}

func TestTraceOverAPartialAnalysisIsPartial(t *testing.T) {
	res := trace(t, electronApp("partial"), "both", TraceLimits{}, Seed{Kind: "channel", Value: "Items:Read"})
	if res.Coverage.Status != "partial" {
		t.Errorf("coverage %s, want partial", res.Coverage.Status)
	}
}

func TestTraceIsDeterministic(t *testing.T) {
	a := trace(t, electronApp("complete"), "both", TraceLimits{}, Seed{Kind: "string", Value: "a"})
	b := trace(t, electronApp("complete"), "both", TraceLimits{}, Seed{Kind: "string", Value: "a"})
	if !reflect.DeepEqual(a, b) || a.TraceID == "" {
		t.Fatal("two traces of the same request differ")
	}
}

func TestDecodeTraceRequestFillsDefaults(t *testing.T) {
	req, err := DecodeTraceRequest([]byte(`{"source":{"evidence_id":"ev_x","analysis":{"schema_version":1,"coverage":"complete"}},"seeds":[{"kind":"string","value":"x"},{"kind":"api","value":"y"}],"direction":"incoming"}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.Seeds[0].Match != "contains" || req.Seeds[1].Match != "exact" || req.Direction != "backward" {
		t.Errorf("defaults: %+v %s", req.Seeds, req.Direction)
	}
	if req.Limits != (TraceLimits{MaxSeedMatches: 25, MaxDepth: 12, MaxNodes: 2000, MaxEdges: 4000, MaxPaths: 100}) {
		t.Errorf("limits %+v", req.Limits)
	}
	for _, bad := range []string{
		`{"source":{"analysis":{"schema_version":1,"coverage":"complete"}},"seeds":[]}`,
		`{"source":{"analysis":{"schema_version":1,"coverage":"complete"}},"seeds":[{"kind":"regex","value":"x"}]}`,
		`{"source":{"analysis":{"schema_version":1,"coverage":"complete"}},"seeds":[{"kind":"api","value":"x"}],"direction":"sideways"}`,
		`{"source":{"analysis":{"schema_version":1,"coverage":"complete"}},"seeds":[{"kind":"api","value":"x"}],"limits":{"max_depth":65}}`,
	} {
		if _, err := DecodeTraceRequest([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func FuzzDecodeTraceRequest(f *testing.F) {
	src := `{"evidence_id":"ev_x","analysis":{"schema_version":1,"coverage":"complete","application":{"modules":[{"path":"a.js"}],"module_graph":[{"from":"a.js","to":"b.js","kind":"require"}]}}}`
	f.Add([]byte(`{"source":` + src + `,"seeds":[{"kind":"module","value":"a.js"}]}`))
	f.Add([]byte(`{"source":` + src + `,"seeds":[{"kind":"string","value":"a","match":"contains"}],"direction":"backward","limits":{"max_depth":1}}`))
	f.Add([]byte(`{"seeds":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeTraceRequest(data)
		if err != nil {
			return
		}
		res, err := Trace(context.Background(), req)
		if err != nil {
			t.Fatalf("a decoded request failed to trace: %v", err)
		}
		if len(res.Nodes) > req.Limits.MaxNodes || len(res.Edges) > req.Limits.MaxEdges || len(res.Paths) > req.Limits.MaxPaths {
			t.Fatalf("limits exceeded: %d nodes, %d edges, %d paths under %+v", len(res.Nodes), len(res.Edges), len(res.Paths), req.Limits)
		}
	})
}
