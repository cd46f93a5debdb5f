package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// exitReconstructionFail is the exit status of a verification whose verdict
// is fail (unknown exits with exitPartial, 2).
const exitReconstructionFail = 3

func (c *cli) reconstructCommands() []*cobra.Command {
	return []*cobra.Command{c.verifyReconstructionCommand(), c.evaluateReconstructionCoverageCommand(), c.obligationLedgerCommand(), c.unknownsCommand()}
}

func readJSONFile(path, what string) (json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot read the %s %s: %v", what, path, err)
	}
	if !json.Valid(b) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the %s %s is not valid JSON", what, path)
	}
	return b, nil
}

func (c *cli) verifyReconstructionCommand() *cobra.Command {
	var bundle string
	var req app.VerifyReconstructionRequest
	cmd := &cobra.Command{
		Long: `Evaluate a finite reconstruction specification
  {"schema_version":1,"name":"…","claims":[{"claim_id","kind","evidence_id","dimension"}]}
against the comparison Evidence and residual unknowns of a bundle written by
the MCP tool export_evidence_bundle (its unknown histories are validated).
Each claim is pass, fail or unknown: any limitation ⇒ unknown; changed, added,
removed or contradiction ⇒ fail; truncated, unresolved or an open related
unknown ⇒ unknown; else pass. Pass means the declared claim has complete
comparable Evidence, never global equivalence.

Exit status: 0 pass; 2 unknown; 3 fail; 1 error.`,
		Example: `  rea verify-reconstruction spec.json --bundle evidence.json
  rea verify-reconstruction spec.json --bundle evidence.json --format json > verification.json`,
		RunE: func(_ *cobra.Command, args []string) error {
			spec, err := readJSONFile(args[0], "specification")
			if err != nil {
				return err
			}
			req.Specification = spec
			ledger, err := app.LoadBundleLedger(c.ctx, bundle)
			if err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			rec, err := a.VerifyReconstruction(c.ctx, req, ledger, nil)
			if err != nil {
				return err
			}
			var res app.ReconstructionVerification
			if err := json.Unmarshal(rec.NormalizedResult, &res); err != nil {
				return abi.Errorf(abi.CodeInternal, "reading the verification: %v", err)
			}
			if c.format == "json" {
				if err := c.printJSON(rec); err != nil {
					return err
				}
			} else {
				c.printVerification(rec.EvidenceID, res)
			}
			switch res.Verdict {
			case "fail":
				c.exitCode = exitReconstructionFail
			case "unknown":
				c.exitCode = exitPartial
			}
			return nil
		},
	}
	return fromSpec(cmd, operation.VerifyReconstruction(), targets{"cli.bundle": &bundle, "offset": &req.Offset, "limit": &req.Limit})
}

func (c *cli) printVerification(id string, r app.ReconstructionVerification) {
	w := c.stdout
	fmt.Fprintf(w, "%s: %s  (%d claims: %d pass, %d fail, %d unknown)\n", r.SpecificationName, r.Verdict,
		r.Summary.Total, r.Summary.Passed, r.Summary.Failed, r.Summary.Unknown)
	for _, cl := range r.Claims {
		fmt.Fprintf(w, "  %-7s %s  %s %s/%s: observed %s", cl.Status, cl.ClaimID, cl.Kind, cl.ComparisonEvidenceID[:15]+"…", cl.Dimension, cl.ObservedStatus)
		if len(cl.UnknownIDs) > 0 {
			fmt.Fprintf(w, ", %d open unknown(s)", len(cl.UnknownIDs))
		}
		fmt.Fprintln(w)
		for _, l := range cl.Limitations {
			fmt.Fprintf(w, "          limitation: %s\n", l)
		}
	}
	if r.Page.NextOffset != nil {
		fmt.Fprintf(w, "  … more claims: --offset %d\n", *r.Page.NextOffset)
	}
	for _, p := range r.RecommendedProbes {
		fmt.Fprintf(w, "  probe for %s: %s — %s\n", p.ClaimID, p.Operation, p.Rationale)
	}
	fmt.Fprintf(w, "evidence: %s\nspecification sha256: %s\n", id, r.SpecificationSHA256)
}

func (c *cli) evaluateReconstructionCoverageCommand() *cobra.Command {
	var req app.EvaluateCoverageRequest
	cmd := &cobra.Command{
		Long: `Evaluate each boundary of a coverage workspace: contradictions, failed
results or undeclared owners ⇒ fail; stale, weak-authority, truncated,
skipped, unsupported, unresolved results or too few repeats ⇒ unknown;
missing ownership or an incomplete inventory ⇒ partial; else pass.

Exit status: 0 pass; 2 partial or unknown; 3 fail; 1 error.`,
		Example: `  rea evaluate-reconstruction-coverage workspace.json --boundary ipc`,
		RunE: func(_ *cobra.Command, args []string) error {
			ws, err := readJSONFile(args[0], "coverage workspace")
			if err != nil {
				return err
			}
			if req.Workspace, err = c.canonicalWorkspace(ws, args[0]); err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			rec, err := a.EvaluateReconstructionCoverage(c.ctx, req, nil)
			if err != nil {
				return err
			}
			var res app.ReconstructionCoverage
			_ = json.Unmarshal(rec.NormalizedResult, &res)
			if c.format == "json" {
				if err := c.printJSON(rec); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(c.stdout, "%s: %s\n", res.WorkspaceID, res.Status)
				for _, b := range res.Boundaries {
					fmt.Fprintf(c.stdout, "  %-8s %s  %v\n", b.Status, b.BoundaryID, b.Counts)
					for _, d := range b.Diagnostics {
						fmt.Fprintf(c.stdout, "           %s: %s\n", d.Code, d.Message)
					}
					for _, s := range b.Surfaces {
						for _, d := range s.Diagnostics {
							fmt.Fprintf(c.stdout, "           %s %s: %s\n", s.SurfaceID, d.Code, d.Message)
						}
					}
				}
			}
			switch res.Status {
			case "fail":
				c.exitCode = exitReconstructionFail
			case "unknown", "partial":
				c.exitCode = exitPartial
			}
			return nil
		},
	}
	return fromSpec(cmd, operation.EvaluateReconstructionCoverage(), targets{"boundary_id": &req.BoundaryID})
}

func (c *cli) obligationLedgerCommand() *cobra.Command {
	var bundle string
	cmd := &cobra.Command{
		Long: `REQUEST.json is {"manifest":{"schema_version":1,"bindings":[…],"contradictions":[…]},
"reviewed_obligations":[…], "source_evidence":[{"kind":"retained-evidence","evidence_id":…}],
"limits":{…}, "offset":…, "limit":…} as the
MCP tool build_reconstruction_obligation_ledger takes it. Candidates come from
the bundle's analyze_javascript_application Evidence.

Exit status: 0 closed; 2 open or unknown; 3 contradicted; 1 error.`,
		Example: `  rea build-reconstruction-obligation-ledger request.json --bundle evidence.json`,
		RunE: func(_ *cobra.Command, args []string) error {
			raw, err := readJSONFile(args[0], "obligation ledger request")
			if err != nil {
				return err
			}
			aliases := operation.BuildReconstructionObligationLedger().Aliases
			raw, err = c.canonicalRequest(raw, aliases, args[0])
			if err != nil {
				return err
			}
			if raw, err = operation.LowerJSON(aliases, raw); err != nil {
				return abi.Errorf(abi.CodeInvalidRequest, "the obligation ledger request %s: %v", args[0], err)
			}
			var req app.ObligationLedgerRequest
			if err := strictJSON(raw, &req); err != nil {
				return abi.Errorf(abi.CodeInvalidRequest, "the obligation ledger request %s: %v", args[0], err)
			}
			ledger, err := app.LoadBundleLedger(c.ctx, bundle)
			if err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			rec, err := a.BuildObligationLedger(c.ctx, req, ledger, nil)
			if err != nil {
				return err
			}
			var res app.ReconstructionObligationLedger
			_ = json.Unmarshal(rec.NormalizedResult, &res)
			if c.format == "json" {
				if err := c.printJSON(rec); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(c.stdout, "obligation ledger %s: %s  %d obligations %v\n", res.LedgerID[:16]+"…", res.Status, res.Summary.Total, res.Summary.ByStatus)
				for _, o := range res.Obligations {
					fmt.Fprintf(c.stdout, "  %-13s %-11s %s\n", o.Status, o.Layer, o.ObligationID)
					for _, d := range o.Diagnostics {
						fmt.Fprintf(c.stdout, "                %s: %s\n", d.Code, d.Message)
					}
				}
				if res.Page.NextOffset != nil {
					fmt.Fprintf(c.stdout, "  … more: \"offset\":%d\n", *res.Page.NextOffset)
				}
			}
			switch res.Status {
			case "contradicted":
				c.exitCode = exitReconstructionFail
			case "open", "unknown":
				c.exitCode = exitPartial
			}
			return nil
		},
	}
	return fromSpec(cmd, operation.BuildReconstructionObligationLedger(), targets{"cli.bundle": &bundle})
}

func strictJSON(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// canonicalWorkspace takes a coverage workspace in its canonical form
// (contradictions[].evidence as retained references) or the older one
// (bare evidence_ids, named on standard error as deprecated) and returns
// the form the module reads.
func (c *cli) canonicalWorkspace(ws []byte, file string) ([]byte, error) {
	aliases := operation.EvaluateReconstructionCoverage().Aliases
	wrapped, err := json.Marshal(map[string]json.RawMessage{"workspace": ws})
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the coverage workspace %s: %v", file, err)
	}
	if wrapped, err = c.canonicalRequest(wrapped, aliases, file); err != nil {
		return nil, err
	}
	if wrapped, err = operation.LowerJSON(aliases, wrapped); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the coverage workspace %s: %v", file, err)
	}
	var out struct {
		Workspace json.RawMessage `json:"workspace"`
	}
	if err := json.Unmarshal(wrapped, &out); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the coverage workspace %s: %v", file, err)
	}
	return out.Workspace, nil
}
