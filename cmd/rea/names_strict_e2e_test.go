package main_test

import "testing"

// Under the strict schema profile the old names are rewritten before the
// strict form is mapped back: a strict client's nulls for the new object
// do not hide the old name's value.
func TestOldParameterNamesUnderTheStrictProfile(t *testing.T) {
	c := startMCP(t, "REA_MCP_INPUT_SCHEMA_PROFILE=strict")
	res := c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t), "occurrences": nil, "occurrence_limit": 1})
	occ := structured(t, res)["normalized_result"].(map[string]any)["occurrences"].(map[string]any)
	if occ["limit"] != float64(1) {
		t.Errorf("occurrence page under strict: %v", occ["limit"])
	}
	wantDeprecations(t, "strict inspect_artifact", deprecationsOf(t, res.Meta, res.Content), map[string]string{"occurrence_limit": "occurrences.limit"})
}
