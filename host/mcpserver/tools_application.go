package mcpserver

import (
	"context"
	"encoding/json"
	"maps"

	"rea/abi"
	"rea/host/app"
)

func (s *Server) applicationTools() []*Tool {
	props := map[string]Schema{
		"input_path":               str("Application directory, .asar file, or installed layout (X.app, a folder with resources/app.asar)."),
		"format":                   enum("Input format; auto (default) detects it and finds installed layouts.", "auto", "asar", "directory"),
		"detail":                   enum("complete (default) returns the complete analysis Evidence; summary retains it in this session and returns an inspect_analysis_view summary linked by parent_evidence_id.", "complete", "summary"),
		"integrity_policy":         enum("fail (default) or record-and-continue (analyse verified files, record contradictions, coverage partial).", "fail", "record-and-continue"),
		"max_integrity_mismatches": integer("Contradictions recorded before failing (default 10).", 1, 100),
		"max_text_files":           integer("Text files read (default 5,000).", 1, 100_000),
		"max_total_text_bytes":     integer("Total text bytes read (default 128 MiB).", 1, 1<<30),
		"max_text_file_bytes":      integer("Bytes of one text file (default 8 MiB).", 1, 256<<20),
		"max_ast_nodes":            integer("Syntax nodes visited (default 2,000,000).", 1, 50_000_000),
		"max_findings":             integer("Findings kept (default 8,000).", 1, 100_000),
		"max_modules":              integer("Modules kept (default 20,000).", 1, 200_000),
		"fail_on_limit":            boolean("Fail with resource_constraint instead of returning partial coverage when a limit is reached."),
	}
	maps.Copy(props, inventoryLimitProps()) // the inventory of the input, as inspect_artifact bounds it
	viewProps := map[string]Schema{
		"source": withExamples(anyJSON("analyze_javascript_application Evidence: a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."),
			map[string]any{"kind": "retained-evidence", "evidence_id": "ev_0000000000000000000000000000000000000000000000000000000000000000"}),
		"view":       enum("summary (default), page of a collection, or one item by selector.", "summary", "page", "item"),
		"collection": enum("Collection for page or item.", "browser_windows", "bundles", "context_bridge_apis", "entrypoints", "findings", "html_documents", "integrity_contradictions", "ipc", "module_graph", "modules", "observations", "source_maps"),
		"offset":     integer("First item of the page (default 0).", 0, 1<<31),
		"limit":      integer("Items per page (default 64).", 1, 1000),
		"selector":   str("For view item: a module or file path, a finding rule_id, an IPC channel or a name."),
	}
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	return []*Tool{
		{
			Name:    "analyze_javascript_application",
			Title:   "Analyse an Electron/JavaScript application",
			Family:  "application",
			Modules: []string{"artifact", "jsapp"},
			Description: "Statically analyse an Electron or JavaScript application (directory, .asar, or installed layout) without executing it: " +
				"package and Electron version, entrypoints, HTML and CSP, imports and the module graph, bundles, windows and their webPreferences " +
				"(resolved through helper functions and spreads), preload scripts tied to their windows, contextBridge APIs, IPC channels resolved across " +
				"modules with renderer↔main pairing, and security findings at original file:line:column. Returns the complete analysis Evidence; " +
				"use detail: \"summary\" for big apps and read details with inspect_analysis_view.",
			Effects:  Effects{MutatesSession: true, Idempotent: true},
			Input:    object("", props, "input_path"),
			Examples: []map[string]any{{"input_path": "/Applications/Example.app"}, {"input_path": "/tmp/app/resources/app.asar", "detail": "summary"}},
			CLI:      "analyze-javascript-application",
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
			Name:   "inspect_analysis_view",
			Title:  "View part of retained analysis Evidence",
			Family: "application",
			Description: "Project a view of completed analyze_javascript_application Evidence without repeating the analysis: a summary (counts, " +
				"coverage, top findings), a stable page of one collection (offset/limit, default limit 64), or one item by selector. Source is a " +
				"retained reference from this session or the complete inline record. The view is derived Evidence linked to its source.",
			Effects:        Effects{MutatesSession: true, Idempotent: true},
			Input:          object("", viewProps, "source"),
			Examples:       []map[string]any{{"source": ref}, {"source": ref, "view": "page", "collection": "findings", "limit": 20}},
			OneSidedReason: "views read Evidence retained in an MCP session; the CLI prints complete Evidence with --format json",
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
