package operation

import "rea/analysis/reconstruct/verify"

// Reconstruction checks: a reconstruction against what was observed, claim
// by claim, never turning missing Evidence into equivalence. The CLI reads
// the structured input from a JSON file and the retained Evidence from an
// exported bundle (--bundle).

// Reconstruct lists the declared reconstruction operations.
func Reconstruct() []Spec {
	return []Spec{VerifyReconstruction(), EvaluateReconstructionCoverage()}
}

// VerifyReconstruction evaluates a finite reconstruction specification.
func VerifyReconstruction() Spec {
	claim := Param{Type: Object, Fields: []Param{
		{Name: "claim_id", Type: String, Required: true, Description: "Unique id of the claim (≤ 100 characters)."},
		{Name: "kind", Type: String, Required: true, Enum: verify.Kinds(),
			Description: "behavioral (compare_process_captures), structural-function (compare_functions), structural-artifact (compare_artifacts) or structural-application (compare_application_versions)."},
		{Name: "evidence_id", Type: String, Required: true, Description: "The retained comparison Evidence the claim rests on (ev_…)."},
		{Name: "dimension", Type: String,
			Description: "overall (default); behavioral: terminal, interaction, exit, filesystem, protocol, process, shim; structural-function: identity, " +
				"pseudocode, assembly, comments, calls, references, strings_names, cfg; structural-application: windows, ipc_channels, exposed_apis, modules, endpoints, findings."},
		{Name: "statement", Type: String, Description: "The sentence the claim stands for (≤ 1,000 characters)."},
		{Name: "unknown_ids", Type: Array, Description: "Residual unknowns the claim depends on; an open one makes the claim unknown.",
			MaxItems: verify.MaxClaimUnknowns, Items: &Param{Type: String, Description: "unk_…"}},
	}}
	return Spec{
		Name:   "verify_reconstruction",
		Title:  "Verify a reconstruction claim by claim",
		Family: "application",
		Description: "Evaluate a finite reconstruction specification against comparison Evidence retained in this session (run the comparisons " +
			"or import their bundle first). Each claim is pass, fail or unknown by one rule: any limitation ⇒ unknown; changed, added, removed or " +
			"contradiction ⇒ fail; truncated, unresolved or an open related residual unknown ⇒ unknown; else pass. The verdict is the worst claim; " +
			"every unknown claim gets recommended probes. Pass means the declared claim has complete comparable Evidence — never global " +
			"equivalence. Returns derived Evidence; claims are paged by offset/limit (≤ 100), the verdict and summary cover all claims.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			// The CLI reads the specification from its SPEC.json argument.
			{Name: "specification", Type: Object, Required: true, Description: "A finite reconstruction specification.", Fields: []Param{
				{Name: "schema_version", Type: Integer, Required: true, Min: 1, Max: 1, Description: "Always 1."},
				{Name: "name", Type: String, Required: true, Description: "What is being reconstructed (≤ 200 characters)."},
				{Name: "claims", Type: Array, Required: true, Description: "1–100 claims; claim ids and kind:evidence_id:dimension are unique.",
					MinItems: 1, MaxItems: verify.MaxClaims, Items: &claim},
			}},
			{Name: "offset", Type: Integer, Min: 0, Max: verify.MaxClaims, Default: 0, Description: "First claim of the page (default 0).", Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: verify.MaxLimit, Default: verify.MaxLimit, Description: "Claims per page (default 100).", Flag: &Flag{Name: "limit"}},
		},
		Examples: []map[string]any{{"specification": map[string]any{"schema_version": 1, "name": "save dialog", "claims": []any{
			map[string]any{"claim_id": "save-calls", "kind": "structural-function", "evidence_id": exampleRef()["evidence_id"], "dimension": "calls"}}}}},
		CLIFlags: []Param{bundleFlag("comparison")},
		CLI: &Command{Name: "verify-reconstruction", Args: []Arg{{Name: "SPEC.json", Param: "specification"}}, Synopsis: "SPEC.json --bundle BUNDLE.json",
			Short: "Check a reconstruction specification claim by claim against comparison Evidence in an exported bundle"},
	}
}

// bundleFlag is the exported bundle a reconstruction command reads the
// retained Evidence from (MCP reads the session's).
func bundleFlag(what string) Param {
	return Param{Name: "bundle", Type: String, Description: "exported Evidence bundle holding the " + what + " Evidence (required)", Flag: &Flag{Name: "bundle"}}
}

// EvaluateReconstructionCoverage evaluates a coverage workspace.
func EvaluateReconstructionCoverage() Spec {
	return Spec{
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
		Params: []Param{
			// The CLI reads the workspace from its WORKSPACE.json argument.
			{Name: "workspace", Type: Evidence, Required: true, Description: "The coverage workspace object."},
			{Name: "boundary_id", Type: String, Description: "Evaluate only this boundary.", Flag: &Flag{Name: "boundary", Help: "evaluate only this boundary"}},
		},
		Examples: []map[string]any{{"workspace": map[string]any{"schema_version": 1, "workspace_id": "rcw_example", "boundaries": []any{
			map[string]any{"boundary_id": "ipc", "inventory_complete": true, "owners": []string{"main"},
				"surfaces": []any{map[string]any{"surface_id": "save-file", "owner_id": "main"}}, "verifiers": []any{}, "contradictions": []any{}}}}}},
		CLI: &Command{Name: "evaluate-reconstruction-coverage", Args: []Arg{{Name: "WORKSPACE.json", Param: "workspace"}}, Synopsis: "WORKSPACE.json",
			Short: "Evaluate a reconstruction coverage workspace; fails closed"},
	}
}
