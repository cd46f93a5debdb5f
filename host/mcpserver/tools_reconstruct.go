package mcpserver

import (
	"context"

	"rea/host/app"
	"rea/modules/reconstruct/verify"
)

// reconstructTools check a reconstruction against what was observed, claim
// by claim, and never turn missing Evidence into equivalence.
func (s *Server) reconstructTools() []*Tool {
	claim := object("", map[string]Schema{
		"claim_id":    str("Unique id of the claim (≤ 100 characters)."),
		"kind":        enum("behavioral (compare_process_captures), structural-function (compare_functions), structural-artifact (compare_artifacts) or structural-application (compare_application_versions).", verify.Kinds()...),
		"evidence_id": str("The retained comparison Evidence the claim rests on (ev_…)."),
		"dimension": str("overall (default); behavioral: terminal, interaction, exit, filesystem, protocol, process, shim; structural-function: identity, " +
			"pseudocode, assembly, comments, calls, references, strings_names, cfg; structural-application: windows, ipc_channels, exposed_apis, modules, endpoints, findings."),
		"statement":   str("The sentence the claim stands for (≤ 1,000 characters)."),
		"unknown_ids": array("Residual unknowns the claim depends on; an open one makes the claim unknown.", str("unk_…"), verify.MaxClaimUnknowns),
	}, "claim_id", "kind", "evidence_id")
	spec := object("A finite reconstruction specification.", map[string]Schema{
		"schema_version": integer("Always 1.", 1, 1),
		"name":           str("What is being reconstructed (≤ 200 characters)."),
		"claims":         Schema{"type": "array", "description": "1–100 claims; claim ids and kind:evidence_id:dimension are unique.", "items": claim, "minItems": 1, "maxItems": verify.MaxClaims},
	}, "schema_version", "name", "claims")
	exampleEv := "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	return []*Tool{
		{
			Name:   "verify_reconstruction",
			Title:  "Verify a reconstruction claim by claim",
			Family: "application",
			Description: "Evaluate a finite reconstruction specification against comparison Evidence retained in this session (run the comparisons " +
				"or import their bundle first). Each claim is pass, fail or unknown by one rule: any limitation ⇒ unknown; changed, added, removed or " +
				"contradiction ⇒ fail; truncated, unresolved or an open related residual unknown ⇒ unknown; else pass. The verdict is the worst claim; " +
				"every unknown claim gets recommended probes. Pass means the declared claim has complete comparable Evidence — never global " +
				"equivalence. Returns derived Evidence; claims are paged by offset/limit (≤ 100), the verdict and summary cover all claims.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"specification": spec,
				"offset":        integer("First claim of the page (default 0).", 0, verify.MaxClaims),
				"limit":         integer("Claims per page (default 100).", 1, verify.MaxLimit),
			}, "specification"),
			Examples: []map[string]any{{"specification": map[string]any{"schema_version": 1, "name": "save dialog", "claims": []any{
				map[string]any{"claim_id": "save-calls", "kind": "structural-function", "evidence_id": exampleEv, "dimension": "calls"}}}}},
			CLI: "verify-reconstruction",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.VerifyReconstructionRequest
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return s.app.VerifyReconstruction(ctx, in, c.Session.Ledger, c.Progress)
			},
		},
		{
			Name:   "evaluate_reconstruction_coverage",
			Title:  "Evaluate reconstruction coverage",
			Family: "application",
			Description: "Evaluate a coverage workspace {schema_version 1, workspace_id rcw_…, boundaries[{boundary_id, inventory_complete, owners, " +
				"surfaces[{surface_id, owner_id}], verifiers[{verifier_id, surface_ids, authority, required_authority, max_age_ms, minimum_repeats, " +
				"normalization_digest, results[{status, age_ms, normalization_digest}]}], contradictions[{surface_id, evidence_ids, note}]}]}. " +
				"Fails closed: contradictions, failed results or undeclared owners ⇒ fail; stale, weak-authority, truncated, skipped, unsupported, " +
				"unresolved or too few repeats ⇒ unknown; missing ownership or inventory ⇒ partial. Authority: unit < integration < protocol < " +
				"renderer < packaged-process = native-abi = live-observation = external. Returns derived Evidence with per-surface diagnostics.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"workspace":   anyJSON("The coverage workspace object."),
				"boundary_id": str("Evaluate only this boundary."),
			}, "workspace"),
			Examples: []map[string]any{{"workspace": map[string]any{"schema_version": 1, "workspace_id": "rcw_example", "boundaries": []any{
				map[string]any{"boundary_id": "ipc", "inventory_complete": true, "owners": []string{"main"},
					"surfaces": []any{map[string]any{"surface_id": "save-file", "owner_id": "main"}}, "verifiers": []any{}, "contradictions": []any{}}}}}},
			CLI: "evaluate-reconstruction-coverage",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.EvaluateCoverageRequest
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return s.app.EvaluateReconstructionCoverage(ctx, in, c.Progress)
			},
		},
	}
}
