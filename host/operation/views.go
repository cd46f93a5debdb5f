package operation

// The analysis view: a summary, page, item or facet of Evidence an
// earlier analysis retained, projected without repeating the analysis.

// ViewCollections are the collections inspect_analysis_view pages: an
// application's, a layout's and a function dossier's.
func ViewCollections() []string {
	return []string{"browser_windows", "bundles", "context_bridge_apis", "entrypoints", "findings", "html_documents", "integrity_contradictions",
		"ipc", "module_graph", "modules", "observations", "source_maps",
		"sections", "segments", "symbols", "imports", "exports", "needed_libraries", "mitigations",
		"assembly", "basic_blocks", "callers", "callees", "references", "referenced_strings", "referenced_names",
		"files", "sources", "maps", "directories", "skipped"}
}

// ViewFacets are the layout and function facets.
func ViewFacets() []string {
	return []string{"mitigations", "linkage", "procedure", "pseudocode", "assembly", "basic_blocks", "comments", "callers", "callees",
		"references", "unresolved_calls", "referenced_strings", "referenced_names", "native_api", "value_flow"}
}

// InspectAnalysisView views retained analysis Evidence.
func InspectAnalysisView() Spec {
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	return Spec{
		Name:   "inspect_analysis_view",
		Title:  "View part of retained analysis Evidence",
		Family: "application",
		Description: "Project a view of completed analyze_javascript_application, inspect_binary_layout or analyze_function Evidence, or of the " +
			"files unpack_javascript_bundle, extract_source_map_sources and extract_artifact wrote (collections modules, sources, maps, files, " +
			"directories, skipped), without " +
			"repeating the analysis or starting a provider: a summary (counts, coverage, top findings or mitigations), a layout facet (mitigations, " +
			"linkage), a function facet (view native: procedure, pseudocode, assembly, basic blocks, comments, callers/callees, references, " +
			"unresolved calls, referenced strings and names, native API, value flow), a stable page of one collection (offset/limit, default 0 " +
			"and 64), or one item by selector or exact node_id. Source is a retained reference from this session or the complete inline record. " +
			"The view is derived Evidence linked to its source, with selection_digest, the digest of the selected facts.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			{Name: "source", Type: Evidence, Required: true,
				Description: "analyze_javascript_application, inspect_binary_layout, analyze_function, unpack_javascript_bundle, " +
					"extract_source_map_sources or extract_artifact Evidence: a retained reference " +
					"{\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record.",
				Examples: []any{map[string]any{"kind": "retained-evidence", "evidence_id": "ev_0000000000000000000000000000000000000000000000000000000000000000"}}},
			{Name: "view", Type: String, Default: "summary", Enum: []string{"summary", "page", "item", "facet", "native"},
				Description: "summary (default); page of a collection; one item by selector or node_id; facet (layout: mitigations or linkage); " +
					"native (analyze_function: one facet, paged)."},
			{Name: "collection", Type: String, Enum: ViewCollections(),
				Description: "Collection for page or item: an application's lists, a layout's (sections, segments, symbols, imports, exports, " +
					"needed_libraries, mitigations), a function's (assembly, basic_blocks, callers, callees, references, referenced_strings, referenced_names) " +
					"or written files' (unpack: modules, files; source maps: sources, maps, files; extract_artifact: files, directories, skipped, " +
					"integrity_contradictions; the first of each when omitted)."},
			{Name: "facet", Type: String, Enum: ViewFacets(),
				Description: "Facet for view facet (layout: mitigations, linkage) or view native (analyze_function: procedure, pseudocode, assembly, " +
					"basic_blocks, comments, callers, callees, references, unresolved_calls, referenced_strings, referenced_names, native_api, value_flow)."},
			{Name: "node_id", Type: String,
				Description: "For view item: the exact node id of one item (a graph node id, or collection#index for native rows as pages report them in node_ids)."},
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First item of the page (default 0)."},
			{Name: "limit", Type: Integer, Min: 1, Max: 1000, Default: 64, Description: "Items (pseudocode: UTF-16 code units) per page (default 64)."},
			{Name: "selector", Type: String, Description: "For view item: a module or file path, a finding rule_id, an IPC channel or a name."},
		},
		Examples:       []map[string]any{{"source": ref}, {"source": ref, "view": "page", "collection": "findings", "limit": 20}},
		OneSidedReason: "views read Evidence retained in an MCP session; the CLI prints complete Evidence with --format json",
	}
}
