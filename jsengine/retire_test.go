package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
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
