package main

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/operation"
)

// inspectEvidenceBundleCommand reads an exported bundle with the query of
// get_evidence_bundle given as flags. The older form, the whole request as
// one inline JSON argument (or a file holding it) with the bundle in
// "path", still works.
func (c *cli) inspectEvidenceBundleCommand() *cobra.Command {
	var detail string
	var f evidenceFilterFlags
	cmd := &cobra.Command{
		Long: `Read a bundle written by the MCP tool export_evidence_bundle, validate every
record ID and the manifest, and print the same projection get_evidence_bundle
returns: the complete canonical bundle, or with --detail summary each
matching record's ID, operation, subject and provider identity and analysis
profile digest. Filters (exact match, summary only): --evidence-id,
--operation, --target-sha256, --analysis-profile-digest, --procedure-address.

The older form still works: the whole request as one inline JSON argument,
'{"path":"BUNDLE.json","detail":"summary","filters":{…}}', or the path of a
file holding such a request.`,
		Example: `  rea inspect-evidence-bundle /tmp/evidence.json --detail summary --operation inspect_artifact --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var raw []byte
			if strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
				if detail != "" || f != (evidenceFilterFlags{}) {
					return abi.Errorf(abi.CodeInvalidRequest, "give the query either as inline JSON or as flags, not both").WithDetail("field", "flags")
				}
				raw = []byte(args[0])
			} else {
				req := map[string]any{"path": args[0]}
				if detail != "" {
					req["detail"] = detail
				}
				if b, _ := json.Marshal(f); string(b) != "{}" {
					req["filters"] = json.RawMessage(b)
				}
				raw, _ = json.Marshal(req)
				if looksLikeRequestFile(args[0]) {
					if detail != "" || f != (evidenceFilterFlags{}) {
						return abi.Errorf(abi.CodeInvalidRequest, "give the query either in the request file or as flags, not both").WithDetail("field", "flags")
					}
					// The older form: a file holding the request.
					b, err := os.ReadFile(args[0])
					if err != nil {
						return abi.Errorf(abi.CodeInvalidRequest, "the request file cannot be read: %v", err)
					}
					raw = b
				}
			}
			if !json.Valid(raw) {
				return abi.Errorf(abi.CodeInvalidRequest, "the request is not valid JSON")
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			out, err := a.InspectEvidenceBundle(c.ctx, raw)
			if err != nil {
				return err
			}
			return c.printJSON(out)
		},
	}
	return fromSpec(cmd, operation.GetEvidenceBundle(), targets{"detail": &detail,
		"filters.evidence_id": &f.EvidenceID, "filters.operation": &f.Operation, "filters.target_sha256": &f.TargetSHA256,
		"filters.analysis_profile_digest": &f.AnalysisProfileDigest, "filters.procedure_address": &f.ProcedureAddress})
}

// evidenceFilterFlags are get_evidence_bundle's filters as the CLI's flags
// fill them.
type evidenceFilterFlags struct {
	EvidenceID            string `json:"evidence_id,omitempty"`
	Operation             string `json:"operation,omitempty"`
	TargetSHA256          string `json:"target_sha256,omitempty"`
	AnalysisProfileDigest string `json:"analysis_profile_digest,omitempty"`
	ProcedureAddress      string `json:"procedure_address,omitempty"`
}

// looksLikeRequestFile: a small JSON object naming the bundle in "path" is
// a request file of the older form, not a bundle (a bundle has no "path").
func looksLikeRequestFile(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > 1<<20 {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m["path"]
	return ok
}
