package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

func (s *Server) applicationTools() []*Tool {
	viewProps := map[string]Schema{
		"source": withExamples(anyJSON("analyze_javascript_application, inspect_binary_layout or analyze_function Evidence: a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."),
			map[string]any{"kind": "retained-evidence", "evidence_id": "ev_0000000000000000000000000000000000000000000000000000000000000000"}),
		"view": enum("summary (default); page of a collection; one item by selector or node_id; facet (layout: mitigations or linkage); "+
			"native (analyze_function: one facet, paged).", "summary", "page", "item", "facet", "native"),
		"collection": enum("Collection for page or item: an application's lists, a layout's (sections, segments, symbols, imports, exports, "+
			"needed_libraries, mitigations) or a function's (assembly, basic_blocks, callers, callees, references, referenced_strings, referenced_names).",
			viewCollectionNames()...),
		"facet": enum("Facet for view facet (layout: mitigations, linkage) or view native (analyze_function: procedure, pseudocode, assembly, "+
			"basic_blocks, comments, callers, callees, references, unresolved_calls, referenced_strings, referenced_names, native_api, value_flow).",
			viewFacetNames()...),
		"node_id":  str("For view item: the exact node id of one item (a graph node id, or collection#index for native rows as pages report them in node_ids)."),
		"offset":   integer("First item of the page (default 0).", 0, 1<<31),
		"limit":    integer("Items (pseudocode: UTF-16 code units) per page (default 64).", 1, 1000),
		"selector": str("For view item: a module or file path, a finding rule_id, an IPC channel or a name."),
	}
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
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
			Name:   "inspect_analysis_view",
			Title:  "View part of retained analysis Evidence",
			Family: "application",
			Description: "Project a view of completed analyze_javascript_application, inspect_binary_layout or analyze_function Evidence without " +
				"repeating the analysis or starting a provider: a summary (counts, coverage, top findings or mitigations), a layout facet (mitigations, " +
				"linkage), a function facet (view native: procedure, pseudocode, assembly, basic blocks, comments, callers/callees, references, " +
				"unresolved calls, referenced strings and names, native API, value flow), a stable page of one collection (offset/limit, default 0 " +
				"and 64), or one item by selector or exact node_id. Source is a retained reference from this session or the complete inline record. " +
				"The view is derived Evidence linked to its source, with selection_digest, the digest of the selected facts.",
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

// viewCollectionNames are the collections inspect_analysis_view pages:
// an application's, a layout's and a function dossier's.
func viewCollectionNames() []string {
	return []string{"browser_windows", "bundles", "context_bridge_apis", "entrypoints", "findings", "html_documents", "integrity_contradictions",
		"ipc", "module_graph", "modules", "observations", "source_maps",
		"sections", "segments", "symbols", "imports", "exports", "needed_libraries", "mitigations",
		"assembly", "basic_blocks", "callers", "callees", "references", "referenced_strings", "referenced_names"}
}

// viewFacetNames are the layout and function facets.
func viewFacetNames() []string {
	return []string{"mitigations", "linkage", "procedure", "pseudocode", "assembly", "basic_blocks", "comments", "callers", "callees",
		"references", "unresolved_calls", "referenced_strings", "referenced_names", "native_api", "value_flow"}
}
