package mcpserver

import (
	"encoding/json"
	"testing"

	"rea/host/app"
)

func newTestServer(t *testing.T, opts Options) *Server {
	t.Helper()
	a, err := app.New(app.Config{CacheDir: "off", ResultCacheDir: "off"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Seed: "Every advertised example is a distinct valid canonical input."
func TestEveryAdvertisedExampleIsADistinctValidInput(t *testing.T) {
	s := newTestServer(t, Options{Version: "test"})
	for _, tool := range s.Tools() {
		seen := map[string]bool{}
		for i, ex := range tool.Examples {
			b, err := json.Marshal(ex)
			if err != nil {
				t.Fatal(err)
			}
			if seen[string(b)] {
				t.Errorf("%s: example %d repeats an earlier one", tool.Name, i)
			}
			seen[string(b)] = true
			if err := validateArguments(tool.Name, tool.Input, b); err != nil {
				t.Errorf("%s: example %d is not a valid input: %v", tool.Name, i, err)
			}
		}
	}
}

// Seed: "advertised examples never copy complete producer Evidence. An
// embedded Evidence record is shown as its exact retained-evidence
// reference where the tool accepts one."
func TestAdvertisedExamplesNeverEmbedProducerEvidence(t *testing.T) {
	s := newTestServer(t, Options{Version: "test"})
	for _, tool := range s.Tools() {
		for i, ex := range tool.Examples {
			b, _ := json.Marshal(ex)
			var walk func(v any)
			walk = func(v any) {
				switch x := v.(type) {
				case map[string]any:
					if _, ok := x["normalized_result"]; ok {
						t.Errorf("%s: example %d embeds an Evidence record", tool.Name, i)
					}
					for _, y := range x {
						walk(y)
					}
				case []any:
					for _, y := range x {
						walk(y)
					}
				}
			}
			var v any
			_ = json.Unmarshal(b, &v)
			walk(v)
		}
	}
}

// Annotations derive from one effects record per tool.
func TestAnnotationsFollowEffects(t *testing.T) {
	for _, tc := range []struct {
		name                                    string
		e                                       Effects
		readOnly, destructive, openWorld, idemp bool
	}{
		{"no effect", Effects{Idempotent: true}, true, false, false, true},
		{"records evidence", Effects{MutatesSession: true}, false, false, false, false},
		{"discards data", Effects{MutatesSession: true, MayDiscardData: true}, false, true, false, false},
		{"runs foreign code", Effects{LaunchesProcess: true, ExecutesForeignCode: true}, false, true, true, false},
	} {
		a := annotations(tc.e, "t")
		if a.ReadOnlyHint != tc.readOnly || *a.DestructiveHint != tc.destructive || *a.OpenWorldHint != tc.openWorld || a.IdempotentHint != tc.idemp {
			t.Errorf("%s: annotations %+v", tc.name, a)
		}
	}
}
