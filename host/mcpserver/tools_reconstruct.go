package mcpserver

import (
	"context"

	"rea/analysis/reconstruct/obligations"
	"rea/host/app"
	"rea/host/operation"
)

// reconstructTools check a reconstruction against what was observed, claim
// by claim, and never turn missing Evidence into equivalence.
func (s *Server) reconstructTools() []*Tool {
	reviewed := object("", map[string]Schema{
		"obligation_id":        str("Obligation id; candidates are ipc:<channel>, api:<key>.<member>, window:<module>#<id>, ipc-dynamic:<module>."),
		"layer":                enum("Where the obligation lives.", obligations.Layers()...),
		"statement":            str("What must hold."),
		"source_evidence_ids":  array("Application Evidence the obligation comes from.", str("ev_…"), 100),
		"required_cases":       array("Case kinds that need fixtures.", enum("", obligations.CaseKinds()...), 5),
		"requires_parser_type": boolean("The obligation parses input, so its binding must name a parser type."),
		"disposition":          enum("blocked or out-of-scope (needs a rationale).", obligations.Blocked, obligations.OutOfScope),
		"rationale":            str("Why the disposition holds."),
	}, "obligation_id", "layer")
	verifier := object("", map[string]Schema{
		"verifier_id": str("Verifier id."),
		"authority":   enum("Proof authority of the verifier.", obligations.Authorities()...),
		"result":      enum("pass, fail or unknown.", "pass", "fail", "unknown"),
		"enumerates":  array("Obligation ids the verifier checks.", str(""), 10000),
	}, "verifier_id", "authority", "result", "enumerates")
	binding := object("", map[string]Schema{
		"obligation_id": str("The obligation bound."),
		"owner":         str("Who reimplements it."),
		"parser_type":   str("Parser type of its input, when it parses input."),
		"cases":         Schema{"type": "object", "description": "Case kind → fixture id (positive, negative, malformed, cancellation, teardown).", "additionalProperties": Schema{"type": "string"}},
		"verifiers":     array("Verifiers that ran.", verifier, 100),
	}, "obligation_id", "owner")
	contradiction := object("", map[string]Schema{
		"obligation_id": str("The obligation contradicted."), "evidence_ids": array("Contradicting Evidence.", str("ev_…"), 100), "note": str("What differs."),
	}, "obligation_id")
	return []*Tool{
		{
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
			Input: object("", map[string]Schema{
				"source_evidence_ids":  array("Retained analyze_javascript_application Evidence; default every such record retained.", str("ev_…"), 100),
				"reviewed_obligations": array("Analyst decisions refining or adding obligations.", reviewed, obligations.MaxObligations),
				"manifest": object("Bindings of obligations to the reconstruction.", map[string]Schema{
					"schema_version": integer("Always 1.", 1, 1),
					"bindings":       array("Owner, parser type, case fixtures and verifiers per obligation.", binding, obligations.MaxObligations),
					"contradictions": array("Evidence that the reconstruction differs.", contradiction, obligations.MaxObligations),
				}, "schema_version"),
				"limits": object("", map[string]Schema{"max_obligations": integer("Obligations kept (default 1,000).", 1, obligations.MaxObligations)}),
				"page": object("", map[string]Schema{
					"offset": integer("First obligation (default 0).", 0, obligations.MaxObligations),
					"limit":  integer("Obligations per page (default 100).", 1, obligations.MaxPageLimit),
				}),
			}, "manifest"),
			Examples: []map[string]any{{"manifest": map[string]any{"schema_version": 1, "bindings": []any{map[string]any{
				"obligation_id": "ipc:settings:save", "owner": "main-process", "parser_type": "SettingsValues",
				"cases": map[string]any{"positive": "fixtures/save-ok.json"}}}}}},
			CLI: "build-reconstruction-obligation-ledger",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.ObligationLedgerRequest
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return s.app.BuildObligationLedger(ctx, in, c.Session.Ledger, c.Progress)
			},
		},
		{
			Spec: spec(operation.VerifyReconstruction()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.VerifyReconstructionRequest
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return s.app.VerifyReconstruction(ctx, in, c.Session.Ledger, c.Progress)
			},
		},
		{
			Spec: spec(operation.EvaluateReconstructionCoverage()),
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
