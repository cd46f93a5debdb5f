package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/unknowns"
)

func (s *Server) evidenceTools() []*Tool {
	filters := object("Exact-match filters; valid only with detail: \"summary\".", map[string]Schema{
		"evidence_id":             str("Exact Evidence ID (ev_…)."),
		"operation":               str("Exact operation, e.g. inspect_artifact."),
		"target_sha256":           str("Exact subject sha256 (lowercase hex)."),
		"analysis_profile_digest": str("Exact analysis-profile digest."),
		"procedure_address":       str("Procedure address, e.g. 0x401000."),
	})
	return []*Tool{
		{
			Name:   "get_evidence_bundle",
			Title:  "Get retained Evidence",
			Family: "session",
			Description: "Return this connection's retained Evidence. Omit detail for the complete canonical bundle (may exceed the response budget: " +
				"prefer export_evidence_bundle for big sessions). detail: \"summary\" returns every matching record's ID, operation, artifact/provider " +
				"identity and analysis-profile digest without payloads; filters narrow it by exact values.",
			Effects: Effects{Idempotent: true},
			Input: object("", map[string]Schema{
				"detail":  enum("complete (default) or summary.", "complete", "summary"),
				"filters": filters,
			}),
			Output:   withID(Schema{"type": "object", "description": "A canonical Evidence bundle v2, or with detail summary {detail, records}."}),
			Examples: []map[string]any{{"detail": "summary", "filters": map[string]any{"operation": "inspect_artifact"}}},
			CLI:      "inspect-evidence-bundle",
			Run: func(ctx context.Context, c *Call) (any, error) {
				q, err := evidence.ParseQuery(c.Arguments)
				if err != nil {
					return nil, err
				}
				out, err := c.Session.Ledger.Snapshot().Project(q)
				if err != nil {
					return nil, err
				}
				return out, nil
			},
		},
		{
			Name:   "export_evidence_bundle",
			Title:  "Export retained Evidence to a file",
			Family: "session",
			Description: "Stream this connection's complete Evidence bundle as canonical JSON to a staging file beside output_path and publish it atomically. " +
				"An existing file is replaced only with overwrite: true. Cancelling removes the staging file and leaves the destination unchanged.",
			Effects: Effects{WritesFilesystem: true, MayDiscardData: true},
			Input: object("", map[string]Schema{
				"output_path": str("Destination file path."),
				"overwrite":   boolean("Replace an existing destination (default false)."),
			}, "output_path"),
			Output:         withID(Schema{"type": "object", "description": "Where the bundle was written, its size and digest, and how many records and unknowns it holds."}),
			Examples:       []map[string]any{{"output_path": "/tmp/rea-evidence.json"}},
			OneSidedReason: "the CLI holds no session ledger to export; CLI commands print their Evidence directly",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					OutputPath string `json:"output_path"`
					Overwrite  bool   `json:"overwrite"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return evidence.Export(ctx, c.Session.Ledger, in.OutputPath, in.Overwrite)
			},
		},
		{
			Name:   "import_evidence_bundle",
			Title:  "Import an Evidence bundle",
			Family: "session",
			Description: "Read an exported Evidence bundle, validate every record ID and the manifest, and merge it into this connection's ledger atomically " +
				"(all or nothing). Imported records can then be passed as retained references.",
			Effects:        Effects{MutatesSession: true, Idempotent: true},
			Input:          object("", map[string]Schema{"input_path": str("Path of a bundle written by export_evidence_bundle.")}, "input_path"),
			Output:         withID(Schema{"type": "object", "description": "How many records and unknowns were added or already present."}),
			Examples:       []map[string]any{{"input_path": "/tmp/rea-evidence.json"}},
			OneSidedReason: "the CLI reads bundles with inspect-evidence-bundle; there is no CLI session to merge into",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					InputPath string `json:"input_path"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				b, err := evidence.ReadBundleFile(ctx, in.InputPath, c.Session.Ledger.Limits(), unknowns.Validator{})
				if err != nil {
					return nil, err
				}
				if ctx.Err() != nil {
					return nil, abi.Errorf(abi.CodeCancelled, "import cancelled before merging; the ledger is unchanged")
				}
				return c.Session.Ledger.Import(b)
			},
		},
	}
}
