package operation

import (
	"encoding/json"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCanonicalMovesOldNamesAndLowerMovesThemBack(t *testing.T) {
	aliases := BuildReconstructionObligationLedger().Aliases
	old := `{"page":{"offset":2,"limit":5},"source_evidence_ids":["ev_a"],` +
		`"reviewed_obligations":[{"obligation_id":"x","source_evidence_ids":["ev_b"]},{"obligation_id":"y"}],` +
		`"manifest":{"schema_version":1,"contradictions":[{"obligation_id":"x","evidence_ids":["ev_c"]}]}}`
	args := decode(t, old)
	deps, conflicts := Canonical(aliases, args)
	if len(conflicts) != 0 {
		t.Fatalf("conflicts %v", conflicts)
	}
	want := `{"limit":5,"manifest":{"contradictions":[{"evidence":[{"evidence_id":"ev_c","kind":"retained-evidence"}],"obligation_id":"x"}],"schema_version":1},` +
		`"offset":2,"reviewed_obligations":[{"obligation_id":"x","source_evidence":[{"evidence_id":"ev_b","kind":"retained-evidence"}]},{"obligation_id":"y"}],` +
		`"source_evidence":[{"evidence_id":"ev_a","kind":"retained-evidence"}]}`
	if got := encode(t, args); got != want {
		t.Fatalf("canonical\n got %s\nwant %s", got, want)
	}
	var names []string
	for _, d := range deps {
		names = append(names, d.Parameter+"→"+d.Replacement)
	}
	if got := encode(t, names); got != `["page.offset→offset","page.limit→limit","source_evidence_ids→source_evidence",`+
		`"reviewed_obligations[0].source_evidence_ids→reviewed_obligations[0].source_evidence","manifest.contradictions[0].evidence_ids→manifest.contradictions[0].evidence"]` {
		t.Fatalf("deprecations %s", got)
	}
	Lower(aliases, args)
	if got, want := encode(t, args), encode(t, decode(t, old)); got != want {
		t.Fatalf("lowered\n got %s\nwant %s", got, want)
	}
}

func TestCanonicalRefusesOldAndNewWithDifferentValues(t *testing.T) {
	aliases := AnalyzeFunction().Aliases
	args := decode(t, `{"assembly_offset":3,"assembly":{"offset":4}}`)
	deps, conflicts := Canonical(aliases, args)
	if len(conflicts) != 1 || encode(t, conflicts[0].Path) != `["assembly_offset"]` || len(deps) != 1 {
		t.Fatalf("conflicts %+v deps %+v", conflicts, deps)
	}
	// The same value under both names is no conflict.
	args = decode(t, `{"assembly_offset":4,"assembly":{"offset":4,"limit":9}}`)
	if _, conflicts := Canonical(aliases, args); len(conflicts) != 0 || encode(t, args) != `{"assembly":{"limit":9,"offset":4}}` {
		t.Fatalf("conflicts %+v args %s", conflicts, encode(t, args))
	}
	// Nothing old, nothing changed.
	raw := json.RawMessage(`{"procedure":"main", "assembly":{"offset":1}}`)
	if out, deps, _ := CanonicalJSON(aliases, raw); string(out) != string(raw) || deps != nil {
		t.Fatalf("rewrote %s", out)
	}
}
