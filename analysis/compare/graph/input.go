// Package graph turns application analyses (the normalized_result of
// analyze_javascript_application Evidence) into an application graph, traces
// features through it and compares two versions of it. It is pure
// computation over already produced facts: it reads no files, runs no code
// and builds natively as well as inside the compare wasm module.
package graph

import (
	"bytes"
	"encoding/json"
	"strings"

	"rea/abi"
	"rea/jsengine/report"
)

// SchemaVersion is the version of the trace and comparison result shapes.
const SchemaVersion = 1

// Analysis is the part of an application analysis this package reads.
// Unknown fields are ignored: the analysis grows independently.
type Analysis struct {
	SchemaVersion           int             `json:"schema_version"`
	Format                  string          `json:"format"`
	RootArtifactSHA256      string          `json:"root_artifact_sha256"`
	IntegrityContradictions []Contradiction `json:"integrity_contradictions"`
	Application             report.Result   `json:"application"`
	// Coverage is complete or partial (a limit was reached or integrity
	// contradictions were recorded).
	Coverage string `json:"coverage"`
}

// Contradiction is an integrity contradiction recorded by the analysis: the
// declared and observed digests of a file disagree.
type Contradiction struct {
	ContradictionID string `json:"contradiction_id"`
	LogicalPath     string `json:"logical_path"`
}

// Source is one analysis and the Evidence it came from.
type Source struct {
	EvidenceID string   `json:"evidence_id"`
	Analysis   Analysis `json:"analysis"`
}

// complete says whether the analysis saw the whole application: only then
// may the absence of an item be claimed.
func (a *Analysis) complete() bool {
	return a.Coverage == "complete" && len(a.IntegrityContradictions) == 0
}

// decodeSource decodes and checks one side of a request.
func decodeSource(raw json.RawMessage, field string) (Source, error) {
	var s Source
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return s, abi.Errorf(abi.CodeInvalidRequest, "%s: pass an application analysis", field).WithDetail("field", field)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, abi.Errorf(abi.CodeInvalidRequest, "%s: not an application analysis: %v", field, err).WithDetail("field", field)
	}
	if s.Analysis.SchemaVersion != 1 {
		return s, abi.Errorf(abi.CodeInvalidRequest, "%s: application analysis schema_version %d is not supported (want 1); re-run analyze_javascript_application",
			field, s.Analysis.SchemaVersion).WithDetail("field", field+".analysis.schema_version")
	}
	switch s.Analysis.Coverage {
	case "complete", "partial":
	default:
		return s, abi.Errorf(abi.CodeInvalidRequest, "%s: coverage %q is not complete or partial", field, s.Analysis.Coverage).
			WithDetail("field", field+".analysis.coverage")
	}
	return s, nil
}

// strictParams decodes the top-level members of params into v (a struct
// of json.RawMessage fields), rejecting unknown names so a misspelt option
// never passes silently. Members are decoded again, one by one, by their
// own checks; this pass only copies their bytes.
func strictParams(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			e = e.WithDetail("field", strings.Trim(name, `"`))
		}
		return e
	}
	if dec.More() {
		return abi.Errorf(abi.CodeInvalidRequest, "params: trailing data after the object")
	}
	return nil
}

// decodeStrict decodes one member into v, rejecting unknown fields.
func decodeStrict(raw json.RawMessage, field string, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
	}
	return nil
}

// bounded checks a limit against its range after defaults were applied.
func bounded(v *int, def, max int, field string) error {
	if *v == 0 {
		*v = def
	}
	if *v < 1 || *v > max {
		return abi.Errorf(abi.CodeInvalidRequest, "%s must be between 1 and %d", field, max).WithDetail("field", field)
	}
	return nil
}
