package operation

import (
	"rea/analysis/reconstruct/obligations"
	"rea/analysis/reconstruct/verify"
)

// Reconstruction checks: a reconstruction against what was observed, claim
// by claim, never turning missing Evidence into equivalence. The CLI reads
// the structured input from a JSON file and the retained Evidence from an
// exported bundle (--bundle).

// Reconstruct lists the declared reconstruction operations.
func Reconstruct() []Spec {
	return []Spec{BuildReconstructionObligationLedger(), VerifyReconstruction(), EvaluateReconstructionCoverage()}
}

// BuildReconstructionObligationLedger derives and binds the obligations a
// reconstruction must meet.
func BuildReconstructionObligationLedger() Spec {
	reviewed := Param{Type: Object, Fields: []Param{
		{Name: "obligation_id", Type: String, Required: true,
			Description: "Obligation id; candidates are ipc:<channel>, api:<key>.<member>, window:<module>#<id>, ipc-dynamic:<module>."},
		{Name: "layer", Type: String, Required: true, Enum: obligations.Layers(), Description: "Where the obligation lives."},
		{Name: "statement", Type: String, Description: "What must hold."},
		refList("source_evidence", "Application Evidence the obligation comes from.", 100),
		{Name: "required_cases", Type: Array, Description: "Case kinds that need fixtures.", MaxItems: 5,
			Items: &Param{Type: String, Enum: obligations.CaseKinds()}},
		{Name: "requires_parser_type", Type: Boolean, Description: "The obligation parses input, so its binding must name a parser type."},
		{Name: "disposition", Type: String, Enum: []string{obligations.Blocked, obligations.OutOfScope}, Description: "blocked or out-of-scope (needs a rationale)."},
		{Name: "rationale", Type: String, Description: "Why the disposition holds."},
	}}
	verifier := Param{Type: Object, Fields: []Param{
		{Name: "verifier_id", Type: String, Required: true, Description: "Verifier id."},
		{Name: "authority", Type: String, Required: true, Enum: obligations.Authorities(), Description: "Proof authority of the verifier."},
		{Name: "result", Type: String, Required: true, Enum: []string{"pass", "fail", "unknown"}, Description: "pass, fail or unknown."},
		{Name: "enumerates", Type: Array, Required: true, Description: "Obligation ids the verifier checks.", MaxItems: 10000, Items: &Param{Type: String}},
	}}
	binding := Param{Type: Object, Fields: []Param{
		{Name: "obligation_id", Type: String, Required: true, Description: "The obligation bound."},
		{Name: "owner", Type: String, Required: true, Description: "Who reimplements it."},
		{Name: "parser_type", Type: String, Description: "Parser type of its input, when it parses input."},
		{Name: "cases", Type: Map, Description: "Case kind → fixture id (positive, negative, malformed, cancellation, teardown)."},
		{Name: "verifiers", Type: Array, Description: "Verifiers that ran.", MaxItems: 100, Items: &verifier},
	}}
	contradiction := Param{Type: Object, Fields: []Param{
		{Name: "obligation_id", Type: String, Required: true, Description: "The obligation contradicted."},
		refList("evidence", "Contradicting Evidence.", 100),
		{Name: "note", Type: String, Description: "What differs."},
	}}
	return Spec{
		Name:   "build_reconstruction_obligation_ledger",
		Title:  "Build the reconstruction obligation ledger",
		Family: "application",
		Description: "Derive every obligation a reconstruction must meet from retained analyze_javascript_application Evidence (IPC channels, " +
			"exposed APIs, windows; static facts only create unowned candidates), refine them with reviewed_obligations and bind them with the " +
			"manifest. An obligation is verified only with a unique owner, its parser type when required, a fixture for every required case kind " +
			"and a passing verifier that enumerates it with the layer's proof authority (unit < integration < protocol < renderer < " +
			"packaged-process/native-abi/live-observation/external); otherwise unowned, characterized, implemented, contradicted, blocked, " +
			"out-of-scope or unknown, with diagnostics. No application Evidence ⇒ an unknown ledger with 0 obligations. Pages (offset/limit ≤ 500) " +
			"repeat ledger_id, closure_digest and the complete summaries. Returns derived Evidence.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		// The CLI reads the whole request from its REQUEST.json argument.
		Params: []Param{
			refList("source_evidence", "Retained analyze_javascript_application Evidence; default every such record retained.", 100),
			{Name: "reviewed_obligations", Type: Array, Description: "Analyst decisions refining or adding obligations.", MaxItems: obligations.MaxObligations, Items: &reviewed},
			{Name: "manifest", Type: Object, Required: true, Description: "Bindings of obligations to the reconstruction.", Fields: []Param{
				{Name: "schema_version", Type: Integer, Required: true, Min: 1, Max: 1, Description: "Always 1."},
				{Name: "bindings", Type: Array, Description: "Owner, parser type, case fixtures and verifiers per obligation.", MaxItems: obligations.MaxObligations, Items: &binding},
				{Name: "contradictions", Type: Array, Description: "Evidence that the reconstruction differs.", MaxItems: obligations.MaxObligations, Items: &contradiction},
			}},
			{Name: "limits", Type: Object, Description: "Bounds of the ledger; an obligation over them is counted, not silently dropped.", Fields: []Param{
				{Name: "max_obligations", Type: Integer, Min: 1, Max: obligations.MaxObligations, Default: obligations.DefaultMaxObligations,
					Description: "Obligations kept (default 1,000)."},
			}},
			{Name: "offset", Type: Integer, Min: 0, Max: obligations.MaxObligations, Default: 0, Description: "First obligation (default 0)."},
			{Name: "limit", Type: Integer, Min: 1, Max: obligations.MaxPageLimit, Default: obligations.DefaultPageLimit, Description: "Obligations per page (default 100)."},
		},
		Aliases: []Alias{{Old: "page.offset", New: "offset"}, {Old: "page.limit", New: "limit"},
			{Old: "source_evidence_ids", New: "source_evidence", Refs: true},
			{Old: "reviewed_obligations[].source_evidence_ids", New: "reviewed_obligations[].source_evidence", Refs: true},
			{Old: "manifest.contradictions[].evidence_ids", New: "manifest.contradictions[].evidence", Refs: true}},
		Examples: []map[string]any{{"manifest": map[string]any{"schema_version": 1, "bindings": []any{map[string]any{
			"obligation_id": "ipc:settings:save", "owner": "main-process", "parser_type": "SettingsValues",
			"cases": map[string]any{"positive": "fixtures/save-ok.json"}}}}}},
		CLIFlags: []Param{bundleFlag("application")},
		CLI: &Command{Name: "build-reconstruction-obligation-ledger", Args: []Arg{{Name: "REQUEST.json"}}, Synopsis: "REQUEST.json --bundle BUNDLE.json",
			Short: "Build the obligation ledger of a reconstruction from application Evidence in an exported bundle"},
	}
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
			"normalization_digest, results[{status, age_ms, normalization_digest}]}], contradictions[{surface_id, evidence[{kind retained-evidence, evidence_id}], note}]}]}. " +
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
		// The workspace document spelled a contradiction's Evidence as bare
		// ids; the module still reads that form (operation.Lower).
		Aliases: []Alias{{Old: "workspace.boundaries[].contradictions[].evidence_ids", New: "workspace.boundaries[].contradictions[].evidence", Refs: true}},
		CLI: &Command{Name: "evaluate-reconstruction-coverage", Args: []Arg{{Name: "WORKSPACE.json", Param: "workspace"}}, Synopsis: "WORKSPACE.json",
			Short: "Evaluate a reconstruction coverage workspace; fails closed"},
	}
}
