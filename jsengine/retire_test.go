package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRetiringGivesTheKeptResultOnEveryFixture: retiring analysed modules
// no later analysis can reach (the default) changes nothing: every
// application under testdata is analysed to the same result, byte for
// byte, as when every analysed module is kept to the end — also in
// shards.
func TestRetiringGivesTheKeptResultOnEveryFixture(t *testing.T) {
	inputs := lexPassInputs(t)
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		fsys := inputs[name]
		kept, err := Analyze(context.Background(), fsys, Options{KeepAnalysed: true}, nil)
		if err != nil {
			t.Fatalf("%s: keeping every module: %v", name, err)
		}
		retired, err := Analyze(context.Background(), fsys, Options{}, nil)
		if err != nil {
			t.Fatalf("%s: retiring: %v", name, err)
		}
		want, _ := json.Marshal(kept)
		got, _ := json.Marshal(retired)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: retiring changed the result:\nkept    %s\nretired %s", name, want, got)
			continue
		}
		if name == "cross-module" || name == "islands" || name == "generated" {
			for _, n := range []int{2, 3} {
				res, rerun := analyseInShards(t, fsys, Options{}, n)
				if rerun != "" {
					t.Fatalf("%s: %d shards: merge asks for one instance: %s", name, n, rerun)
				}
				if b, _ := json.Marshal(res); !bytes.Equal(b, got) {
					t.Fatalf("%s: %d shards differ from one instance:\none    %s\nshards %s", name, n, got, b)
				}
			}
		}
	}
}

// TestRetirementPlanFollowsTheImportGraph: a module lives until the last
// queued module that reaches it, directly, through others or through a
// cycle, has been analysed; an edge seen only when evaluated (a computed
// specifier) extends it; reaching a retired module is a miss.
func TestRetirementPlanFollowsTheImportGraph(t *testing.T) {
	queue := []textFile{{path: "main.js"}, {path: "a.js"}, {path: "b.js"}, {path: "c.js"}, {path: "d.js"}, {path: "e.js"}}
	e := &engine{}
	e.planRetire(queue, &importGraph{edges: map[string][]string{
		"main.js": {"a.js"},
		"a.js":    {"b.js"},
		"b.js":    {"a.js"}, // a cycle: a and b live as long as either
		"d.js":    {"b.js"}, // d (position 4) reaches b, and through it a
		"e.js":    nil,
	}})
	want := map[string]int{"main.js": 0, "a.js": 4, "b.js": 4, "c.js": 3, "d.js": 4, "e.js": 5}
	for p, l := range want {
		if got := e.retire.last[p]; got != l {
			t.Errorf("last(%s) = %d, want %d", p, got, l)
		}
	}
	// At position 3 an evaluation of a.js's code (live until 4) reaches
	// c.js through a computed specifier: c must live until 4 too.
	if e.cur = 3; !e.reached("a.js", "c.js") || e.retire.last["c.js"] != 4 {
		t.Fatalf("a reached c at position 3: want true and c live until 4, got last %d", e.retire.last["c.js"])
	}
	if e.cur = 5; e.reached("e.js", "main.js") || e.retire.miss != "main.js" {
		t.Fatalf("e reached main.js, retired after position 0: want a miss, got %q", e.retire.miss)
	}
	e2 := &engine{}
	e2.planRetire(queue, &importGraph{edges: map[string][]string{}, capped: map[string]bool{"a.js": true}})
	if e2.retire != nil {
		t.Fatal("a file whose specifiers were not all read may name anything: nothing may be retired")
	}
}

// TestRetiringRedoesTheAnalysisWhenAnEvaluationReachesARetiredModule: a
// require whose specifier is computed reaches a module retired after its
// analysis (no literal names it from the later file); the analysis is
// redone keeping every module, and the channel the retired module holds is
// still resolved.
func TestRetiringRedoesTheAnalysisWhenAnEvaluationReachesARetiredModule(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"computed","main":"main.js"}`)},
		"main.js":      {Data: []byte("require('./names');\nrequire('./late');\n")},
		"names.js":     {Data: []byte("exports.CH = 'late:channel';\n")},
		"late.js": {Data: []byte(`const { ipcMain } = require('electron');
const base = './na';
const { CH } = require(base + 'mes');
ipcMain.on(CH, () => {});
`)},
	}
	kept, err := Analyze(context.Background(), fsys, Options{KeepAnalysed: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	retired, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(kept)
	got, _ := json.Marshal(retired)
	if !bytes.Equal(got, want) {
		t.Fatalf("differs from keeping every module:\nkept    %s\nretired %s", want, got)
	}
	if len(retired.IPC) != 1 || retired.IPC[0].Channel != "late:channel" {
		t.Fatalf("the channel through the computed require was not resolved: %+v", retired.IPC)
	}
}

// TestParseOrderFollowsWhatEachModuleNames: the transforms are announced
// in the order the analysis is expected to parse: each queued module,
// then what it names, depth first, before the next one in the queue.
func TestParseOrderFollowsWhatEachModuleNames(t *testing.T) {
	queue := []textFile{{path: "src/a.ts"}, {path: "src/b.ts"}, {path: "src/c.ts"}, {path: "src/d.ts"}, {path: "src/e.ts"}}
	paths := func(q []textFile) []string {
		out := make([]string, len(q))
		for i, t := range q {
			out[i] = t.path
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		edges map[string][]string
		want  []string
	}{
		{"no graph: the queue", nil, []string{"src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts"}},
		{"dependencies after their first importer", map[string][]string{
			"src/a.ts": {"src/d.ts", "src/c.ts"},
			"src/d.ts": {"src/e.ts"},
		}, []string{"src/a.ts", "src/d.ts", "src/e.ts", "src/c.ts", "src/b.ts"}},
		{"a cycle and a name outside the queue", map[string][]string{
			"src/b.ts": {"lib/x.js", "src/c.ts"},
			"src/c.ts": {"src/b.ts", "src/a.ts"},
		}, []string{"src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts"}},
	} {
		var g *importGraph
		if tc.edges != nil {
			g = &importGraph{edges: tc.edges}
		}
		got := paths(parseOrder(queue, g))
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: parseOrder = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTypeScriptIsParsedInTheOrderItIsAnnounced: on an application whose
// TypeScript names modules later in path order (src/browser/view.ts names
// src/node/api.ts, after src/common/other.ts), the analysis parses them in
// parseOrder's order — the order the normaliser transforms them in, so the
// analysis does not wait for a transform queued behind others.
func TestTypeScriptIsParsedInTheOrderItIsAnnounced(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"ts-order","main":"lib/main.js"}`)},
		"lib/main.js":  {Data: []byte("const { app } = require('electron');\napp.whenReady();\n")},
		"src/browser/view.ts": {Data: []byte(`import { send } from '../node/api';
export function show(x: string): void { send(x); }
`)},
		"src/node/api.ts": {Data: []byte(`import { ipcRenderer } from 'electron';
import { CHANNEL } from './names';
export function send(x: string): void { ipcRenderer.send(CHANNEL, x); }
`)},
		"src/node/names.ts":   {Data: []byte("export const CHANNEL: string = 'view:show';\n")},
		"src/common/other.ts": {Data: []byte("export const other: number = 1;\n")},
	}
	f, err := AnalyzeShard(context.Background(), fsys, Options{}, Shard{Index: 0, Count: 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var parsed []string
	for _, m := range f.Modules {
		if strings.HasSuffix(m.Module.Path, ".ts") {
			parsed = append(parsed, m.Module.Path)
		}
	}
	want := []string{"src/browser/view.ts", "src/node/api.ts", "src/node/names.ts", "src/common/other.ts"}
	if strings.Join(parsed, " ") != strings.Join(want, " ") {
		t.Fatalf("TypeScript parsed in the order %v, want %v", parsed, want)
	}
	// The announcement: parseOrder over the import graph the engine scans.
	o, err := Options{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{opts: o, fsys: fsys, files: map[string]bool{}, modules: map[string]*moduleInfo{}}
	if err := e.list(context.Background()); err != nil {
		t.Fatal(err)
	}
	var queue []textFile
	for _, p := range []string{"lib/main.js", "src/browser/view.ts", "src/common/other.ts", "src/node/api.ts", "src/node/names.ts"} {
		queue = append(queue, textFile{path: p, src: string(fsys[p].Data), kind: "javascript"})
	}
	var announced []string
	for _, q := range parseOrder(queue, e.importEdges(queue)) {
		if strings.HasSuffix(q.path, ".ts") {
			announced = append(announced, q.path)
		}
	}
	if strings.Join(announced, " ") != strings.Join(parsed, " ") {
		t.Fatalf("announced %v, parsed %v", announced, parsed)
	}
}
