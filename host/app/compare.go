package app

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/analysis/compare/graph"
	"rea/host/evidence"
	"rea/host/sandbox"
)

// CompareModule is the module that traces and compares application graphs.
const CompareModule = "compare"

// applicationOperation is the producer whose Evidence the application
// workflows read.
const applicationOperation = "analyze_javascript_application"

// CompareVersionsRequest is compare_application_versions' options; the two
// sides are Evidence records resolved by the caller.
type CompareVersionsRequest struct {
	Limits graph.CompareLimits `json:"limits"`
	// IncludeUnchanged lists unchanged facts among the items (they are
	// always counted in the summary).
	IncludeUnchanged bool `json:"include_unchanged,omitempty"`
}

// DerivedProvenance says which module computed a derived result, under
// which limits, so it can be reproduced bit for bit.
type DerivedProvenance struct {
	Module        string       `json:"module"`
	ModuleSHA256  string       `json:"module_sha256"`
	ABIVersion    int          `json:"abi_version"`
	SandboxLimits LimitsReport `json:"sandbox_limits"`
	FuelUsed      uint64       `json:"fuel_used"`
}

// applicationSource checks that rec is application analysis Evidence and
// returns it as the module's view of one side.
func applicationSource(rec evidence.Record, field string) (json.RawMessage, error) {
	if rec.Operation != applicationOperation {
		return nil, abi.Errorf(abi.CodeInvalidRequest,
			"%s must be analyze_javascript_application Evidence; %s is %s Evidence — run analyze_javascript_application and pass its evidence_id",
			field, rec.EvidenceID, rec.Operation).WithDetail("field", field).WithDetail("evidence_id", rec.EvidenceID)
	}
	return json.Marshal(struct {
		EvidenceID string          `json:"evidence_id"`
		Analysis   json.RawMessage `json:"analysis"`
	}{rec.EvidenceID, rec.NormalizedResult})
}

// runDerived runs one compare-module operation and returns its result
// object with the provenance added.
func (a *App) runDerived(ctx context.Context, operation string, params any, progress func(abi.Progress)) (map[string]json.RawMessage, []string, *string, error) {
	out, err := a.Runner.Run(ctx, sandbox.Call{Module: CompareModule, Operation: operation, Params: params, Limits: a.Config.Limits, Progress: progress})
	if err != nil {
		return nil, nil, nil, err
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(out.Result, &result); err != nil {
		return nil, nil, nil, abi.Errorf(abi.CodeModuleFailed, "the compare module answered with an unreadable result: %v", err)
	}
	var limitations []string
	_ = json.Unmarshal(result["limitations"], &limitations)
	prov, _ := json.Marshal(DerivedProvenance{Module: out.Module.Name, ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion,
		SandboxLimits: ReportLimits(out.Limits), FuelUsed: out.Usage.FuelUsed})
	result["provenance"] = prov
	// The provider version of derived Evidence is the digest of the
	// module that computed it.
	version := out.Module.SHA256
	return result, limitations, &version, nil
}

// CompareApplicationVersions matches two application analyses with
// unique-only tiered keys and classifies every fact unchanged, changed,
// added, removed, unknown or contradiction. The result is new Evidence
// (confidence derived) linking both inputs; its subject is the right
// (newer) application.
func (a *App) CompareApplicationVersions(ctx context.Context, left, right evidence.Record, req CompareVersionsRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if err := req.Limits.Normalise(); err != nil {
		return evidence.Record{}, err
	}
	l, err := applicationSource(left, "left")
	if err != nil {
		return evidence.Record{}, err
	}
	r, err := applicationSource(right, "right")
	if err != nil {
		return evidence.Record{}, err
	}
	params := struct {
		Left             json.RawMessage     `json:"left"`
		Right            json.RawMessage     `json:"right"`
		Limits           graph.CompareLimits `json:"limits"`
		IncludeUnchanged bool                `json:"include_unchanged"`
	}{l, r, req.Limits, req.IncludeUnchanged}
	result, limitations, version, err := a.runDerived(ctx, "compare", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "compare_application_versions was cancelled; nothing was recorded")
	}
	links := []string{left.EvidenceID}
	if right.EvidenceID != left.EvidenceID {
		links = append(links, right.EvidenceID)
	}
	return evidence.New(evidence.Draft{
		Subject:   subjectOf(right),
		Provider:  evidence.Provider{ID: "rea.application-comparison", Name: "rea application version comparison", Version: version},
		Operation: "compare_application_versions",
		Parameters: map[string]any{
			"left":              evidence.ReferenceTo(left.EvidenceID),
			"right":             evidence.ReferenceTo(right.EvidenceID),
			"limits":            req.Limits,
			"include_unchanged": req.IncludeUnchanged,
		},
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      limitations,
		EvidenceLinks:    links,
	})
}

// subjectOf copies a record's subject (nil stays nil).
func subjectOf(rec evidence.Record) *evidence.Subject {
	if rec.Subject == nil {
		return nil
	}
	s := *rec.Subject
	return &s
}
