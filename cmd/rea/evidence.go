package main

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
)

func (c *cli) inspectEvidenceBundleCommand() *cobra.Command {
	return &cobra.Command{
		Use:   `inspect-evidence-bundle '{"path":"BUNDLE.json","detail":"summary","filters":{…}}'`,
		Short: "Validate an exported Evidence bundle and print it, or a filtered summary of its records",
		Long: `Read a bundle written by the MCP tool export_evidence_bundle, validate every
record ID and the manifest, and print the same projection get_evidence_bundle
returns: the complete canonical bundle, or with "detail":"summary" each
matching record's ID, operation, subject and provider identity and analysis
profile digest. Filters (exact match, summary only): evidence_id, operation,
target_sha256, analysis_profile_digest, procedure_address.

The argument is the request as inline JSON, or the path of a file holding it.`,
		Example: `  rea inspect-evidence-bundle '{"path":"/tmp/evidence.json","detail":"summary","filters":{"operation":"inspect_artifact"}}' --format json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			raw := []byte(args[0])
			if !strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
				b, err := os.ReadFile(args[0])
				if err != nil {
					return abi.Errorf(abi.CodeInvalidRequest, "the argument is neither inline JSON nor a readable file: %v", err)
				}
				raw = b
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
}
