package mcpserver

import (
	"context"
	"encoding/json"

	"rea/host/app"
)

func (s *Server) processTools() []*Tool {
	scenario := inferred[app.CaptureProcessRequest]()
	scenario["description"] = "One executable run under a scripted scenario (see rea capture-process --help for every field)."
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"}
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
			Name:   "compare_process_captures",
			Title:  "Compare two process captures",
			Family: "process",
			Description: "Compare two capture_process_scenario results made under the same comparison contract along the terminal, interaction, exit, " +
				"filesystem and process dimensions, locating the first divergence in journal order. Each side is inline Evidence or a retained reference.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"left":  anyJSON("Capture Evidence: inline record or {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"}."),
				"right": anyJSON("Capture Evidence: inline record or {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"}."),
			}, "left", "right"),
			Examples: []map[string]any{{"left": ref, "right": ref}},
			CLI:      "compare-process-captures",
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
