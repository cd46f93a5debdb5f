package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"rea/host/operation"
)

// reportTools render analysis Evidence for people: the HTML report.
func (s *Server) reportTools() []*Tool {
	return []*Tool{{
		Spec: spec(operation.RenderApplicationReport()),
		Output: result("The rendered page.", map[string]Schema{
			"media_type": typed("string"), "bytes": typed("integer"), "sha256": typed("string"),
			"source_evidence_id": typed("string"), "html": typed("string", "null"), "path": typed("string", "null"),
		}),
		Run: func(ctx context.Context, c *Call) (any, error) {
			var in struct {
				Application json.RawMessage `json:"application"`
			}
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			src, err := c.Resolve(in.Application, "application")
			if err != nil {
				return nil, err
			}
			var page bytes.Buffer
			if err := s.app.RenderApplicationReport(src, &page); err != nil {
				return nil, err
			}
			sum := sha256.Sum256(page.Bytes())
			out := map[string]any{"media_type": "text/html; charset=utf-8", "bytes": page.Len(), "sha256": hex.EncodeToString(sum[:]),
				"source_evidence_id": src.EvidenceID, "html": page.String(), "path": nil}
			return reportDelivery(out, page.Bytes()) // reportfile.go
		},
	}}
}
