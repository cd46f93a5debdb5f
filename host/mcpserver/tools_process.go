package mcpserver

import (
	"context"
	"encoding/json"

	"rea/host/app"
	"rea/host/operation"
)

func (s *Server) processTools() []*Tool {
	scenario := inferred[app.CaptureProcessRequest]()
	scenario["description"] = "One executable run under a scripted scenario (see rea capture-process --help for every field)."
	return []*Tool{
		{
			Name:   "capture_process_scenario",
			Title:  "Run a program under a scenario and capture it",
			Family: "process",
			Description: "Run one executable with explicit arguments, working directory and environment, on a pseudo-terminal or pipes, drive it with " +
				"scripted events (input with sensitive redaction, resize, signal, checkpoints) at times or on output matches, snapshot declared " +
				"filesystem roots, and stop at the first limit (timeout 30 s by default, idle, output, processes, files). Every process it starts " +
				"carries a run token; cleanup signals only token-owned process groups and reports cleanup_incomplete if anything owned remains. " +
				"Returns the capture as Evidence (authority controlled-replay). This executes the program: it is not a sandbox.",
			Effects:  Effects{MutatesSession: true, LaunchesProcess: true, ExecutesForeignCode: true, WritesFilesystem: true},
			Input:    scenario,
			Examples: []map[string]any{{"executable": "/bin/sh", "args": []any{"-c", "echo hello"}, "env": map[string]any{"PATH": "/usr/bin:/bin"}}},
			CLI:      "capture-process",
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
