package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/operation"
	"rea/host/unknowns"
)

func (s *Server) evidenceTools() []*Tool {
	return []*Tool{
		{
			Spec:   spec(operation.GetEvidenceBundle()),
			Output: withID(Schema{"type": "object", "description": "A canonical Evidence bundle v2, or with detail summary {detail, records}."}),
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
			Spec:   spec(operation.ExportEvidenceBundle()),
			Output: withID(Schema{"type": "object", "description": "Where the bundle was written, its size and digest, and how many records and unknowns it holds."}),
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
			Spec:   spec(operation.ImportEvidenceBundle()),
			Output: withID(Schema{"type": "object", "description": "How many records and unknowns were added or already present."}),
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
