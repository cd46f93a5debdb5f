package mcpserver

import (
	"bytes"
	"encoding/json"

	"rea/abi"
	"rea/host/evidence"
)

// viewOperation is the operation of derived view Evidence (a summary, a
// page, one module): a projection of its parent, never itself the input a
// tool analyses.
const viewOperation = "inspect_analysis_view"

// parentOf follows a view's parent_evidence_id to the record it projects
// (analyze_javascript_application, inspect_binary_layout or
// analyze_function Evidence) when this connection retains it, so the
// evidence_id a detail:"summary" call returned works wherever the
// application is expected (seed 001). Other records are returned as they
// are.
func (c *Call) parentOf(rec evidence.Record) evidence.Record {
	for range 4 { // a view of a view: at most a few links
		if rec.Operation != viewOperation {
			return rec
		}
		var v struct {
			Parent string `json:"parent_evidence_id"`
		}
		if json.Unmarshal(rec.NormalizedResult, &v) != nil || v.Parent == "" {
			return rec
		}
		parent, ok := c.Session.Ledger.Lookup(v.Parent)
		if !ok {
			return rec // the tool's own check names what it needs
		}
		rec = parent
	}
	return rec
}

// referenceFormError is the error for an object that has an evidence_id
// but is neither a reference (no kind) nor a record (no schema_version):
// it shows the reference form instead of a record's first missing field.
func referenceFormError(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) != nil {
		return nil
	}
	_, hasKind := probe["kind"]
	_, hasID := probe["evidence_id"]
	_, isRecord := probe["schema_version"]
	if hasKind || !hasID || isRecord {
		return nil
	}
	var id string
	_ = json.Unmarshal(probe["evidence_id"], &id)
	if id == "" {
		id = "ev_…"
	}
	form := `{"kind":"retained-evidence","evidence_id":"` + id + `"}`
	return abi.Errorf(abi.CodeInvalidRequest,
		"kind is missing: a retained Evidence reference is %s (or pass the complete inline Evidence record)", form).
		WithDetail("issues", []Issue{{Path: []any{"kind"}, Reason: "missing_argument", Expected: "retained-evidence",
			Message: "kind: is required in a retained reference " + form}}).
		WithDetail("reference_form", json.RawMessage(form))
}
