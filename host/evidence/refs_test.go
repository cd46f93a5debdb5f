package evidence

import (
	"encoding/json"
	"reflect"
	"testing"
)

const refsTestID = "ev_1111111111111111111111111111111111111111111111111111111111111111"

// A new record names Evidence by reference beside each bare-id array, at
// any depth; an embedded record and a name already taken are left alone;
// Seal keeps an older record's bytes and id.
func TestNewRecordsCarryReferencesBesideBareIDArrays(t *testing.T) {
	embedded := map[string]any{"schema_version": 2, "evidence_id": refsTestID, "normalized_result": map[string]any{"evidence_ids": []string{refsTestID}}}
	result := map[string]any{
		"native_handoffs":     []any{map[string]any{"path": "a.node", "evidence_ids": []string{refsTestID}}, map[string]any{"path": "b.node", "evidence_ids": []string{}}},
		"source_evidence_ids": []string{refsTestID},
		"left_evidence_ids":   nil,
		"other_evidence_ids":  []string{refsTestID},
		"other_evidence":      "taken",
		"count_evidence_ids":  3, // no id array: left as it is
		"record":              embedded,
	}
	rec, err := New(Draft{Provider: testProvider(), Operation: "op", NormalizedResult: result})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(rec.NormalizedResult, &got); err != nil {
		t.Fatal(err)
	}
	ref := []any{map[string]any{"kind": ReferenceKind, "evidence_id": refsTestID}}
	h := got["native_handoffs"].([]any)
	if !reflect.DeepEqual(h[0].(map[string]any)["evidence"], ref) || !reflect.DeepEqual(h[1].(map[string]any)["evidence"], []any{}) {
		t.Errorf("handoffs: %v", h)
	}
	if !reflect.DeepEqual(got["source_evidence"], ref) || !reflect.DeepEqual(got["source_evidence_ids"], []any{refsTestID}) {
		t.Errorf("top level: %v / %v", got["source_evidence"], got["source_evidence_ids"])
	}
	if v, has := got["left_evidence"]; !has || v != nil {
		t.Errorf("a null array's references are null: %v %v", v, has)
	}
	if got["other_evidence"] != "taken" || got["count_evidence"] != nil {
		t.Errorf("taken name or non-array changed: %v %v", got["other_evidence"], got["count_evidence"])
	}
	if _, added := got["record"].(map[string]any)["normalized_result"].(map[string]any)["evidence"]; added {
		t.Error("an embedded record was rewritten")
	}
	deps := LegacyIDFields(rec.Canonical())
	want := []LegacyIDField{
		{"normalized_result.native_handoffs[].evidence_ids", "normalized_result.native_handoffs[].evidence"},
		{"normalized_result.source_evidence_ids", "normalized_result.source_evidence"},
	}
	if !reflect.DeepEqual(deps, want) {
		t.Errorf("legacy fields %v, want %v", deps, want)
	}

	// An older record (no references) keeps its id through Seal.
	old := rec
	old.NormalizedResult = json.RawMessage(`{"evidence_ids":["` + refsTestID + `"]}`)
	sealed, err := Seal(old)
	if err != nil {
		t.Fatal(err)
	}
	if string(sealed.NormalizedResult) != string(old.NormalizedResult) {
		t.Errorf("Seal rewrote an older record: %s", sealed.NormalizedResult)
	}
	if len(LegacyIDFields(sealed.Canonical())) != 0 {
		t.Error("an older record without references has no replacement to name")
	}
}
