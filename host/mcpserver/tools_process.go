package mcpserver

import (
	"context"
	"encoding/json"

	"rea/host/app"
	"rea/host/operation"
)

func (s *Server) processTools() []*Tool {
	return []*Tool{
		{
			Spec: spec(operation.CaptureProcessScenario()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.CaptureProcessRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				res, err := s.app.CaptureProcessScenario(ctx, req, c.Progress)
				if res != nil && res.Capture != nil {
					c.Session.observeLineage("rea.process-capture", res.Capture.ProcessLineage)
				}
				if err != nil {
					return nil, err
				}
				return res.Evidence, nil
			},
		},
		{
			Spec: spec(operation.CompareProcessCaptures()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left  json.RawMessage `json:"left"`
					Right json.RawMessage `json:"right"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				left, right, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				res, err := s.app.CompareProcessCaptures(ctx, left, right)
				if err != nil {
					return nil, err
				}
				return res.Evidence, nil
			},
		},
	}
}
