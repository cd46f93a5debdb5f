package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

func (s *Server) applicationTools() []*Tool {
	return []*Tool{
		{
			Spec:    spec(operation.AnalyzeJavaScriptApplication()),
			Modules: []string{"artifact", "jsapp"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					app.AnalyzeApplicationRequest
					Detail string `json:"detail"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				res, err := s.app.AnalyzeJavaScriptApplication(ctx, in.AnalyzeApplicationRequest, c.Progress)
				if err != nil {
					return nil, err
				}
				if in.Detail != "summary" {
					return res.Evidence, nil
				}
				if ctx.Err() != nil {
					return nil, abi.Errorf(abi.CodeCancelled, "cancelled; nothing was recorded")
				}
				if _, err := c.Session.Ledger.Add(res.Evidence); err != nil {
					return nil, err
				}
				return s.app.InspectAnalysisView(res.Evidence, app.AnalysisViewRequest{View: "summary"})
			},
		},
		{
			Spec: spec(operation.InspectAnalysisView()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Source json.RawMessage `json:"source"`
					app.AnalysisViewRequest
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				src, err := c.Resolve(in.Source, "source")
				if err != nil {
					return nil, err
				}
				return s.app.InspectAnalysisView(src, in.AnalysisViewRequest)
			},
		},
	}
}
