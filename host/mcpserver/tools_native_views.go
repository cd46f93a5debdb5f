package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/app"
	"rea/host/evidence"
)

// withSummaryDetail gives an Evidence tool detail "complete" (default) or
// "summary": summary records the complete Evidence in the session and
// returns its inspect_analysis_view summary instead, whose
// parent_evidence_id names the retained record.
func withSummaryDetail(t *Tool, name string) *Tool {
	run := t.Run
	t.Run = func(ctx context.Context, c *Call) (any, error) {
		var in struct {
			Detail string `json:"detail"`
		}
		if err := c.Decode(&in); err != nil {
			return nil, err
		}
		out, err := run(ctx, c)
		if err != nil || in.Detail != "summary" {
			return out, err
		}
		rec, ok := out.(evidence.Record)
		if !ok {
			return nil, abi.Errorf(abi.CodeInternal, "%s returned no Evidence to summarise", name)
		}
		if ctx.Err() != nil {
			return nil, abi.Errorf(abi.CodeCancelled, "cancelled; nothing was recorded")
		}
		if c.Session == nil || c.Session.Ledger == nil {
			return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "detail summary needs session retention, which this server lacks").WithDetail("field", "detail")
		}
		if _, err := c.Session.Ledger.Add(rec); err != nil {
			return nil, err
		}
		return (&app.App{}).InspectAnalysisView(rec, app.AnalysisViewRequest{View: "summary"})
	}
	return t
}
