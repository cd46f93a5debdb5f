package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// reportTools render analysis Evidence for people: the HTML report.
func (s *Server) reportTools() []*Tool {
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	return []*Tool{{
		Name:   "render_application_report",
		Title:  "Render an application analysis as an HTML report",
		Family: "application",
		Description: "Render analyze_javascript_application Evidence as one self-contained HTML page for a person to read or attach to a ticket: " +
			"coverage in plain words first, counts and top findings, the security boundary as a graph (windows → preloads → bridge APIs → IPC " +
			"channels → main handlers, coloured by the worst finding, edges marked paired/ambiguous/unpaired/dynamic), per-window preferences, " +
			"findings by severity with original locations and code, and what was not analysed. The page loads nothing, carries its own strict " +
			"Content-Security-Policy and escapes every string from the app. Returns the page in `html` with its size and digest; a page over " +
			"120 KiB (big apps) is written to a new temporary file named in `path` instead, with `html` null, so the response stays small. The same " +
			"Evidence always gives the same bytes. For reading facts as an agent, inspect_analysis_view is smaller.",
		Effects: Effects{Idempotent: true},
		Input: object("", map[string]Schema{
			"application": withExamples(anyJSON("analyze_javascript_application Evidence: a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."), ref),
		}, "application"),
		Output: result("The rendered page.", map[string]Schema{
			"media_type": typed("string"), "bytes": typed("integer"), "sha256": typed("string"),
			"source_evidence_id": typed("string"), "html": typed("string", "null"), "path": typed("string", "null"),
		}),
		Examples:       []map[string]any{{"application": ref}},
		OneSidedReason: "the CLI renders the same page with analyze-javascript-application --format html (or --report FILE beside another format)",
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
