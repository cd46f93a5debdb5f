package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"rea/abi"
	"rea/analysis/reconstruct/coverage"
	"rea/analysis/reconstruct/obligations"
	"rea/analysis/reconstruct/verify"
	"rea/host/evidence"
	"rea/host/operation"
	"rea/host/sandbox"
	"rea/host/unknowns"
)

// ReconstructModule is the module that verifies reconstructions.
const ReconstructModule = "reconstruct"

// VerifyReconstructionRequest is the canonical request of
// verify_reconstruction (MCP) and `rea verify-reconstruction` (CLI).
type VerifyReconstructionRequest struct {
	Specification json.RawMessage `json:"specification"`
	Offset        int             `json:"offset"`
	Limit         int             `json:"limit"`
}

// ReconstructionVerification is the normalized_result of
// verify_reconstruction Evidence.
type ReconstructionVerification struct {
	verify.Result
	Provenance ModuleProvenance `json:"provenance"`
}

// ModuleProvenance names the module and limits a derived result ran under.
// Fuel and wall time are left out so equal inputs give equal Evidence ids.
type ModuleProvenance struct {
	Module        string       `json:"module"`
	ModuleSHA256  string       `json:"module_sha256"`
	ABIVersion    int          `json:"abi_version"`
	SandboxLimits LimitsReport `json:"sandbox_limits"`
}

// VerifyReconstruction checks a finite reconstruction specification against
// the comparison Evidence and residual unknowns retained in ledger (the MCP
// session, or a ledger loaded from a bundle by the CLI) and returns derived
// Evidence. Every claim's comparison must be retained: a missing one is an
// unavailable error naming it, never a silent unknown.
func (a *App) VerifyReconstruction(ctx context.Context, req VerifyReconstructionRequest, ledger *evidence.Ledger, progress func(abi.Progress)) (evidence.Record, error) {
	var shape struct {
		Claims []struct {
			EvidenceID string `json:"evidence_id"`
		} `json:"claims"`
	}
	if len(req.Specification) == 0 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "specification is required: {schema_version: 1, name, claims: [{claim_id, kind, evidence_id, dimension}]}").
			WithDetail("field", "specification")
	}
	_ = json.Unmarshal(req.Specification, &shape) // the module validates strictly
	var comparisons, inputs []verify.Record
	seen := map[string]bool{}
	for i, c := range shape.Claims {
		if !evidence.IsEvidenceID(c.EvidenceID) || seen[c.EvidenceID] {
			continue
		}
		seen[c.EvidenceID] = true
		r, ok := ledger.Lookup(c.EvidenceID)
		if !ok {
			return evidence.Record{}, abi.Errorf(abi.CodeUnavailable,
				"Comparison Evidence %s (specification.claims[%d].evidence_id) is not retained. Run the comparison in this session or import the bundle that holds it, then verify again.",
				c.EvidenceID, i).
				WithDetail("evidence_id", c.EvidenceID).WithDetail("reason", "missing").
				WithDetail("field", fmt.Sprintf("specification.claims[%d].evidence_id", i))
		}
		comparisons = append(comparisons, project(r, true))
		for _, l := range r.EvidenceLinks {
			if in, ok := ledger.Lookup(l); ok && !seen["in:"+l] {
				seen["in:"+l] = true
				inputs = append(inputs, project(in, false))
			}
		}
	}
	heads, err := unknowns.New(ledger).Heads()
	if err != nil {
		return evidence.Record{}, err
	}
	ids := make([]string, 0, len(heads))
	for id := range heads {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	us := make([]verify.UnknownHead, 0, len(ids))
	for _, id := range ids {
		u := heads[id]
		probes := make([]verify.Probe, len(u.RecommendedProbes))
		for i, p := range u.RecommendedProbes {
			probes[i] = verify.Probe{Operation: p.Operation, Rationale: p.Rationale}
		}
		us = append(us, verify.UnknownHead{UnknownID: id, Revision: u.Revision, Status: string(u.Status), Question: u.Question,
			SupportingEvidenceIDs: u.SupportingEvidenceIDs, ContradictingEvidenceIDs: u.ContradictingEvidenceIDs, RecommendedProbes: probes})
	}
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    ReconstructModule,
		Operation: "verify_reconstruction",
		Params: verify.Request{Specification: req.Specification, Comparisons: orNone(comparisons), Inputs: orNone(inputs),
			Unknowns: us, Offset: req.Offset, Limit: req.Limit},
		Limits:   a.Config.Limits,
		Progress: progress,
	})
	if err != nil {
		return evidence.Record{}, err
	}
	var res verify.Result
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeModuleFailed, "the reconstruct module answered with an unreadable result: %v", err)
	}
	authority := evidence.AuthorityAnalystInference
	for i, c := range comparisons {
		if i == 0 {
			authority = evidence.Authority(c.Authority)
		} else if evidence.Authority(c.Authority) != authority {
			authority = evidence.AuthorityAnalystInference
			break
		}
	}
	links := map[string]bool{}
	for _, c := range res.Claims {
		for _, l := range c.EvidenceLinks {
			links[l] = true
		}
	}
	for _, id := range res.ComparisonEvidenceIDs {
		links[id] = true
	}
	linkList := make([]string, 0, len(links))
	for l := range links {
		linkList = append(linkList, l)
	}
	sort.Strings(linkList)
	version := out.Module.SHA256
	var limitations []string
	if res.Summary.Unknown > 0 {
		limitations = append(limitations, fmt.Sprintf("%d of %d claims are unknown; see recommended_probes.", res.Summary.Unknown, res.Summary.Total))
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "verify_reconstruction was cancelled before recording its Evidence")
	}
	return evidence.New(evidence.Draft{
		Provider:   evidence.Provider{ID: "rea.reconstruct", Name: "rea reconstruction verification", Version: &version},
		Operation:  "verify_reconstruction",
		Parameters: req,
		NormalizedResult: ReconstructionVerification{Result: res, Provenance: ModuleProvenance{Module: out.Module.Name,
			ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion, SandboxLimits: ReportLimits(out.Limits)}},
		Confidence:    evidence.ConfidenceDerived,
		Authority:     authority,
		Limitations:   limitations,
		EvidenceLinks: linkList,
	})
}

func orNone(rs []verify.Record) []verify.Record {
	if rs == nil {
		return []verify.Record{}
	}
	return rs
}

// project keeps what verification reads of a record.
func project(r evidence.Record, withResult bool) verify.Record {
	p := verify.Record{EvidenceID: r.EvidenceID, Operation: r.Operation, Authority: string(r.Authority),
		Confidence: string(r.Confidence), Limitations: r.Limitations, EvidenceLinks: r.EvidenceLinks}
	if r.Environment != nil {
		p.Environment = &verify.Environment{ID: r.Environment.ID, Platform: r.Environment.Platform,
			Architecture: r.Environment.Architecture, Isolation: r.Environment.Isolation}
	}
	if withResult {
		p.NormalizedResult = r.NormalizedResult
		p.Parameters = r.Parameters
	}
	return p
}

// EvaluateCoverageRequest is the canonical request of
// evaluate_reconstruction_coverage.
type EvaluateCoverageRequest struct {
	Workspace  json.RawMessage `json:"workspace"`
	BoundaryID string          `json:"boundary_id,omitempty"`
}

// ReconstructionCoverage is the normalized_result of
// evaluate_reconstruction_coverage Evidence.
type ReconstructionCoverage struct {
	coverage.Result
	Provenance ModuleProvenance `json:"provenance"`
}

// EvaluateReconstructionCoverage evaluates a coverage workspace in the
// sandbox and returns derived Evidence.
func (a *App) EvaluateReconstructionCoverage(ctx context.Context, req EvaluateCoverageRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if len(req.Workspace) == 0 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "workspace is required: {schema_version: 1, workspace_id: \"rcw_…\", boundaries: […]}").
			WithDetail("field", "workspace")
	}
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module: ReconstructModule, Operation: "evaluate_reconstruction_coverage",
		Params: coverage.Request{Workspace: req.Workspace, BoundaryID: req.BoundaryID},
		Limits: a.Config.Limits, Progress: progress,
	})
	if err != nil {
		return evidence.Record{}, err
	}
	var res coverage.Result
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeModuleFailed, "the reconstruct module answered with an unreadable result: %v", err)
	}
	version := out.Module.SHA256
	var limitations []string
	if res.Status != coverage.Pass {
		limitations = append(limitations, "Coverage is "+res.Status+"; see each boundary's diagnostics.")
	}
	return evidence.New(evidence.Draft{
		Provider:   evidence.Provider{ID: "rea.reconstruct", Name: "rea reconstruction verification", Version: &version},
		Operation:  "evaluate_reconstruction_coverage",
		Parameters: req,
		NormalizedResult: ReconstructionCoverage{Result: res, Provenance: ModuleProvenance{Module: out.Module.Name,
			ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion, SandboxLimits: ReportLimits(out.Limits)}},
		Confidence:  evidence.ConfidenceDerived,
		Authority:   evidence.AuthorityAnalystInference,
		Limitations: limitations,
	})
}

// LoadBundleLedger reads an exported bundle under the CLI import budget,
// validating its residual-unknown histories, into a fresh ledger: the CLI's
// stand-in for an MCP session.
func LoadBundleLedger(ctx context.Context, path string) (*evidence.Ledger, error) {
	if path == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the exported Evidence bundle with --bundle (write one with the MCP tool export_evidence_bundle)").
			WithDetail("field", "bundle")
	}
	b, err := evidence.ReadBundleFile(ctx, path, evidence.DefaultLimits(), unknowns.Validator{})
	if err != nil {
		return nil, err
	}
	l := evidence.NewLedger(evidence.DefaultLimits())
	if _, err := l.Import(b); err != nil {
		return nil, err
	}
	return l, nil
}

// ObligationLedgerRequest is the canonical request of
// build_reconstruction_obligation_ledger. SourceEvidenceIDs name retained
// analyze_javascript_application Evidence; empty means every such record
// retained.
type ObligationLedgerRequest struct {
	SourceEvidenceIDs   []string               `json:"source_evidence_ids,omitempty"`
	ReviewedObligations []obligations.Reviewed `json:"reviewed_obligations"`
	Manifest            obligations.Manifest   `json:"manifest"`
	Limits              struct {
		MaxObligations int `json:"max_obligations,omitempty"`
	} `json:"limits"`
	Page struct {
		Offset int `json:"offset,omitempty"`
		Limit  int `json:"limit,omitempty"`
	} `json:"page"`
}

// ReconstructionObligationLedger is the normalized_result of
// build_reconstruction_obligation_ledger Evidence.
type ReconstructionObligationLedger struct {
	obligations.Ledger
	Provenance ModuleProvenance `json:"provenance"`
}

// BuildObligationLedger derives the obligation ledger from application
// Evidence retained in ledger, the reviewed obligations and the manifest.
func (a *App) BuildObligationLedger(ctx context.Context, req ObligationLedgerRequest, ledger *evidence.Ledger, progress func(abi.Progress)) (evidence.Record, error) {
	var picked []evidence.Record
	if len(req.SourceEvidenceIDs) == 0 {
		for _, r := range ledger.Records() {
			if r.Operation == "analyze_javascript_application" {
				picked = append(picked, r)
			}
		}
	}
	for i, id := range req.SourceEvidenceIDs {
		r, ok := ledger.Lookup(id)
		if !ok {
			return evidence.Record{}, abi.Errorf(abi.CodeUnavailable,
				"Application Evidence %s (source_evidence[%d]) is not retained. Analyse the application in this session or import its bundle.", id, i).
				WithDetail("evidence_id", id).WithDetail("reason", "missing").WithDetail("field", fmt.Sprintf("source_evidence[%d]", i))
		}
		if r.Operation != "analyze_javascript_application" {
			return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest,
				"Evidence %s is %s; obligations derive from analyze_javascript_application Evidence.", id, r.Operation).
				WithDetail("field", fmt.Sprintf("source_evidence[%d]", i))
		}
		picked = append(picked, r)
	}
	sources := make([]obligations.Source, 0, len(picked))
	links := make([]string, 0, len(picked))
	for _, r := range picked {
		var s obligations.Source
		if err := json.Unmarshal(r.NormalizedResult, &s); err != nil {
			return evidence.Record{}, abi.Errorf(abi.CodeEvidenceIntegrity, "Evidence %s does not hold an application analysis: %v", r.EvidenceID, err)
		}
		s.EvidenceID = r.EvidenceID
		sources = append(sources, s)
		links = append(links, r.EvidenceID)
	}
	sort.Strings(links)
	mreq := obligations.Request{Sources: sources, ReviewedObligations: req.ReviewedObligations, Manifest: req.Manifest}
	mreq.Limits.MaxObligations = req.Limits.MaxObligations
	mreq.Page.Offset, mreq.Page.Limit = req.Page.Offset, req.Page.Limit
	out, err := a.Runner.Run(ctx, sandbox.Call{Module: ReconstructModule, Operation: "build_reconstruction_obligation_ledger",
		Params: mreq, Limits: a.Config.Limits, Progress: progress})
	if err != nil {
		return evidence.Record{}, err
	}
	var res obligations.Ledger
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeModuleFailed, "the reconstruct module answered with an unreadable result: %v", err)
	}
	version := out.Module.SHA256
	var limitations []string
	if res.Status != "closed" {
		limitations = append(limitations, "The obligation ledger is "+res.Status+"; see each obligation's diagnostics.")
	}
	params := req
	params.SourceEvidenceIDs = links
	// The record's parameters spell the tool's canonical names (offset,
	// limit, source_evidence references), as its callers give them.
	var canonParams any = params
	if b, mErr := json.Marshal(params); mErr == nil {
		c, _, _ := operation.CanonicalJSON(operation.BuildReconstructionObligationLedger().Aliases, b)
		canonParams = c
	}
	return evidence.New(evidence.Draft{
		Provider:   evidence.Provider{ID: "rea.reconstruct", Name: "rea reconstruction verification", Version: &version},
		Operation:  "build_reconstruction_obligation_ledger",
		Parameters: canonParams,
		NormalizedResult: ReconstructionObligationLedger{Ledger: res, Provenance: ModuleProvenance{Module: out.Module.Name,
			ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion, SandboxLimits: ReportLimits(out.Limits)}},
		Confidence:    evidence.ConfidenceDerived,
		Authority:     evidence.AuthorityAnalystInference,
		Limitations:   limitations,
		EvidenceLinks: links,
	})
}
