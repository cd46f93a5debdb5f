package operation

// AnalyzeJavaScriptApplication is the static analysis of an Electron or
// JavaScript application.
func AnalyzeJavaScriptApplication() Spec {
	l := func(name, description string, def int, max int64) Param {
		return Param{Name: name, Type: Integer, Description: description, Min: 1, Max: max, Default: def, Flag: &Flag{Name: dashed(name)}}
	}
	params := append([]Param{
		{Name: "input_path", Type: String, Required: true,
			Description: "Application directory, .asar file, or installed layout (X.app, a folder with resources/app.asar)."},
		{Name: "format", Type: String, Default: "auto", Enum: []string{"auto", "asar", "directory"},
			Description: "Input format; auto (default) detects it and finds installed layouts.", Flag: &Flag{Name: "input-format"}},
		// detail is the front ends' choice of what to return, not the
		// service's: it has no service default.
		{Name: "detail", Type: String, Enum: []string{"complete", "summary"},
			Description: "complete (default) returns the complete analysis Evidence; summary retains it in this session and returns an inspect_analysis_view summary linked by parent_evidence_id.",
			Flag:        &Flag{Name: "detail", Default: "complete", Help: "complete (the whole Evidence record) or summary (the summary view)"}},
		{Name: "integrity_policy", Type: String, Default: "fail", Enum: []string{"fail", "record-and-continue"},
			Description: "fail (default) or record-and-continue (analyse verified files, record contradictions, coverage partial).",
			Flag:        &Flag{Name: "integrity-policy"}},
		l("max_integrity_mismatches", "Contradictions recorded before failing (default 10).", 10, 100),
		l("max_text_files", "Text files read (default 5,000).", 5000, 100_000),
		l("max_total_text_bytes", "Total text bytes read (default 128 MiB).", 128<<20, 1<<30),
		l("max_text_file_bytes", "Bytes of one text file (default 8 MiB).", 8<<20, 256<<20),
		l("max_ast_nodes", "Syntax nodes visited (default 2,000,000).", 2_000_000, 50_000_000),
		l("max_findings", "Findings kept (default 8,000).", 8000, 100_000),
		l("max_modules", "Modules kept (default 20,000).", 20_000, 200_000),
		{Name: "fail_on_limit", Type: Boolean,
			Description: "Fail with resource_constraint instead of returning partial coverage when a limit is reached."},
	}, InventoryLimits()...) // the inventory of the input, as inspect_artifact bounds it
	return Spec{
		Name:   "analyze_javascript_application",
		Title:  "Analyse an Electron/JavaScript application",
		Family: "application",
		Description: "Statically analyse an Electron or JavaScript application (directory, .asar, or installed layout) without executing it: " +
			"package and Electron version, entrypoints, HTML and CSP, imports and the module graph, bundles, windows and their webPreferences " +
			"(resolved through helper functions and spreads), preload scripts tied to their windows, contextBridge APIs, IPC channels resolved across " +
			"modules with renderer↔main pairing, and security findings at original file:line:column. Returns the complete analysis Evidence, " +
			"which passes 256 KiB from a few dozen modules (a 1 MB bundle app is several MB): ask for detail: \"summary\" unless you need every " +
			"record inline — it returns counts, the top findings and the exact next calls, and inspect_analysis_view pages the rest.",
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/Applications/Example.app"}, {"input_path": "/tmp/app/resources/app.asar", "detail": "summary"}},
		// The CLI's CI gate and extra renderings.
		CLIFlags: []Param{
			{Name: "sarif", Type: String, Description: "also write the findings as SARIF 2.1.0 to this file", Flag: &Flag{Name: "sarif"}},
			{Name: "report", Type: String, Description: "also write the self-contained HTML report to this file", Flag: &Flag{Name: "report"}},
			{Name: "fail_on", Type: String, Description: "exit 3 when findings at or above this severity exist: low, medium or high", Flag: &Flag{Name: "fail-on"}},
			{Name: "fail_on_partial", Type: Boolean, Default: true, Description: "exit 2 when a limit left part of the application unanalysed",
				Flag: &Flag{Name: "fail-on-partial"}},
			{Name: "show_source", Type: Boolean, Description: "text report: print the code at each finding shown (read_javascript_source at its source_ref)",
				Flag: &Flag{Name: "show-source"}},
		},
		CLI: &Command{Name: "analyze-javascript-application", Args: []Arg{{Name: "PATH", Param: "input_path"}}, Synopsis: "PATH",
			Short: "Static analysis of an Electron/JavaScript application: structure, IPC, preload bridges, window security"},
	}
}

// RenderApplicationReport renders analysis Evidence as one HTML page.
func RenderApplicationReport() Spec {
	return Spec{
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
		Effects:        Effects{Idempotent: true},
		Params:         []Param{{Name: "application", Type: Evidence, Required: true, Examples: []any{exampleRef()}, Description: "analyze_javascript_application Evidence: a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."}},
		Examples:       []map[string]any{{"application": exampleRef()}},
		OneSidedReason: "the CLI renders the same page with analyze-javascript-application --format html (or --report FILE beside another format)",
	}
}
