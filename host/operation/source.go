package operation

// The source family: reading an application's code the way an analyst
// does — pages of source at the locations the analysis reports, text
// search, bundles split into modules, source-map sources written out —
// all parsed in the source module.

// Source lists the source operations.
func Source() []Spec {
	return []Spec{ReadJavaScriptSource(), SearchApplicationText(), UnpackJavaScriptBundle(), ExtractSourceMapSources()}
}

// sourceInput is the application a source operation reads, with the
// inventory's limits as analyze_javascript_application takes them: an
// application with more files than the defaults allow is read by raising
// them (the refusal names the one to raise).
func sourceInput() []Param {
	return append([]Param{
		{Name: "input_path", Type: String, Required: true,
			Description: "The application analyze_javascript_application read: directory, .asar file, or installed layout (X.app, a folder with resources/app.asar)."},
		{Name: "format", Type: String, Default: "auto", Enum: []string{"auto", "asar", "directory"},
			Description: "Input format; auto (default) detects it and finds installed layouts.", Flag: &Flag{Name: "input-format"}},
	}, InventoryLimits()...)
}

func intParam(name, description string, min, max int64, def any) Param {
	return Param{Name: name, Type: Integer, Description: description, Min: min, Max: max, Default: def, Flag: &Flag{Name: dashed(name)}}
}

// sourceRefParam is the source_ref every fact of an analysis carries.
func sourceRefParam() Param {
	return Param{Name: "source_ref", Type: Object,
		Description: "A source_ref exactly as analyze_javascript_application or search_application_text returns it on a fact (window, IPC operation, bridge API, finding, hit): reads the code at that location.",
		Fields: []Param{
			{Name: "path", Type: String, Required: true, Description: "File relative to the application root."},
			{Name: "line", Type: Integer, Required: true, Min: 1, Max: 1 << 31, Description: "1-based line."},
			{Name: "column", Type: Integer, Min: 1, Max: 1 << 31, Description: "1-based column."},
			{Name: "column_unit", Type: String, Enum: []string{"byte", "utf16"}, Description: "What column counts: byte (files parsed as shipped) or utf16 (files mapped back through a source map)."},
			{Name: "sha256", Type: String, Description: "Digest of the file the fact was found in; a read of other bytes is refused."},
		}}
}

// ReadJavaScriptSource reads a page of source.
func ReadJavaScriptSource() Spec {
	params := append(sourceInput(),
		sourceRefParam(),
		Param{Name: "path", Type: String, Description: "File relative to the application root (an ASAR member's path inside the archive).",
			Examples: []any{"dist/main.js"}, Flag: &Flag{Name: "path"}},
		Param{Name: "module", Type: String,
			Description: "A bundled module: its node id (bundled:<bundle>#<key>, as trace_application_feature and search hits name it) or its key with path naming the bundle.",
			Flag:        &Flag{Name: "module"}},
		Param{Name: "line", Type: Integer, Min: 1, Max: 1 << 31, Description: "Line to read around (1-based).", Flag: &Flag{Name: "line"}},
		Param{Name: "column", Type: Integer, Min: 1, Max: 1 << 31, Description: "Column on that line (1-based).", Flag: &Flag{Name: "column"}},
		Param{Name: "column_unit", Type: String, Default: "byte", Enum: []string{"byte", "utf16"},
			Description: "What column counts: byte (default) or utf16.", Flag: &Flag{Name: "column-unit"}},
		Param{Name: "start_line", Type: Integer, Min: 1, Max: 1 << 31, Description: "First line of a shipped line range (instead of line).", Flag: &Flag{Name: "start-line"}},
		Param{Name: "end_line", Type: Integer, Min: 1, Max: 1 << 31, Description: "Last line of the range (default: the file's end).", Flag: &Flag{Name: "end-line"}},
		Param{Name: "view", Type: String, Default: "auto", Enum: []string{"auto", "pretty", "shipped"},
			Description: "auto (default): pretty-printed by esbuild when the shipped code is minified; or pretty, or shipped.", Flag: &Flag{Name: "view"}},
		intParam("context_lines", "Lines shown before the focus line (default 20).", 1, 1000, 20),
		Param{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Description: "First line of the page, 0-based in the view (default: context_lines before the focus; next_offset of the last page).",
			Flag: &Flag{Name: "offset"}},
		intParam("limit", "Lines per page (default 120).", 1, 5000, 120),
		intParam("max_bytes", "Bytes per page, text and positions (default 65,536).", 1024, 1<<20, 65536),
		intParam("max_file_bytes", "Largest file read (default 32 MiB).", 1, 256<<20, 32<<20),
		Param{Name: "include_original", Type: Boolean, Default: false,
			Description: "Also quote the original source at the focus, from a shipped source map's sourcesContent or the original file in the input (default false).",
			Flag:        &Flag{Name: "include-original"}},
	)
	return Spec{
		Name:   "read_javascript_source",
		Title:  "Read application source at a location",
		Family: "application",
		Description: "Read the code behind a fact: a page of an application's source around a location (pass a fact's source_ref as it is, or path + line " +
			"+ column), a shipped line range, or a whole bundled module (node id bundled:<bundle>#<key>, or key + path). Minified code is pretty-printed " +
			"by esbuild — the block around the location, or the module — and every printed line carries its shipped position (line, byte and UTF-16 " +
			"column, offset) and, through a shipped source map, its original file:line:column; include_original quotes the original source from " +
			"sourcesContent or the original file. Paged by lines (offset, limit, next_offset) and bounded by bytes (max_bytes, 64 KiB by default); " +
			"long lines are cut on character boundaries and invalid UTF-8 shows as U+FFFD. Reads exactly the inventoried bytes in the sandbox; runs nothing. " +
			"The result is observed Evidence.",
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app", "source_ref": map[string]any{"path": "lib/main.js", "line": 6176, "column": 31}}, {"input_path": "/tmp/app", "module": "bundled:dist/main.js#./src/ipc.js"}},
		CLIFlags: []Param{{Name: "source_ref", Type: String, Description: "a fact's source_ref as JSON, e.g. '{\"path\":\"lib/main.js\",\"line\":12,\"column\":3}'", Flag: &Flag{Name: "source-ref"}}},
		CLI: &Command{Name: "read-javascript-source", Args: []Arg{{Name: "APP", Param: "input_path"}}, Synopsis: "APP (--source-ref JSON | --path FILE [--line N [--column N]] | --module ID)",
			Short: "Read a page of an application's source around a location, pretty-printed when minified, mapped back to shipped and original positions"},
	}
}

// SearchApplicationText searches text files and bundled modules.
func SearchApplicationText() Spec {
	item := Param{Name: "path", Type: String, Description: "A file or directory prefix."}
	params := append(sourceInput(),
		Param{Name: "query", Type: String, Required: true, Description: "The literal text, or with regex an RE2 regular expression (no backreferences or lookaround: matching is linear, nothing backtracks).",
			Examples: []any{"desktop-capturer-get-sources"}, Flag: &Flag{Name: "query", Required: true}},
		Param{Name: "regex", Type: Boolean, Default: false, Description: "Read query as an RE2 regular expression, ^ and $ matching at lines (default false).", Flag: &Flag{Name: "regex"}},
		Param{Name: "case_sensitive", Type: Boolean, Default: false, Description: "Match case (default false).", Flag: &Flag{Name: "case-sensitive"}},
		Param{Name: "paths", Type: Array, Items: &item, MaxItems: 64, Description: "Search only these files or directories (default: every text file).", Flag: &Flag{Name: "paths"}},
		Param{Name: "offset", Type: Integer, Min: 0, Max: 1_000_000, Description: "Hits to skip (next_offset of the previous page).", Flag: &Flag{Name: "offset"}},
		intParam("limit", "Hits per page (default 50).", 1, 500, 50),
		intParam("snippet_bytes", "Bytes of context per hit (default 160).", 1, 2000, 160),
		intParam("max_file_bytes", "Largest file searched (default 32 MiB); larger ones are listed as skipped.", 1, 256<<20, 32<<20),
		intParam("max_hits", "Hits counted before counting stops (default 10,000).", 1, 1_000_000, 10000),
	)
	return Spec{
		Name:   "search_application_text",
		Title:  "Search an application's text and bundled modules",
		Family: "application",
		Description: "Find a literal or an RE2 regular expression in an application's text files (case-insensitive by default). Each hit gives the file, " +
			"the bundled module it lies in (webpack/rspack/esbuild/browserify bundles are split, so a hit inside a module names it: key and node id), " +
			"the shipped position (line, byte and UTF-16 column), the original position through a shipped source map, a bounded snippet and a " +
			"source_ref for read_javascript_source. Counts first (files, bytes, total hits), hits paged (offset, limit ≤ 500, next_offset); files " +
			"over max_file_bytes are listed as skipped and make coverage partial. Results are cached by the inventory's digests: a repeated search " +
			"costs no module run. The result is observed Evidence.",
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app", "query": "desktop-capturer-get-sources"}, {"input_path": "/tmp/app", "query": `ipcMain\.(handle|on)\(`, "regex": true}},
		CLI: &Command{Name: "search-application-text", Args: []Arg{{Name: "APP", Param: "input_path"}}, Synopsis: "APP --query TEXT",
			Short: "Search an application's text files and bundled modules (literal or RE2), each hit with file, module and shipped/original position"},
	}
}

func outputLimits() []Param {
	return []Param{
		intParam("max_file_bytes", "Largest input file read (default 32 MiB).", 1, 256<<20, 32<<20),
		intParam("max_output_bytes", "Bytes written in all (default 64 MiB).", 1, 1<<30, 64<<20),
		intParam("max_output_files", "Files written (default 20,000).", 1, 200_000, 20000),
	}
}

// writtenParams are what an operation that writes files answers: by
// default (over MCP) a summary with the first page of items, the lists
// whole on request. detail has no service default: it is the front ends'
// choice (the CLI prints the complete record unless told otherwise).
func writtenParams(items string) []Param {
	return []Param{
		{Name: "detail", Type: String, Enum: []string{"complete", "summary"},
			Description: "summary (the default over MCP) retains the complete Evidence in this session and returns counts, the output directory, " +
				"the first page of " + items + " and the exact next calls (inspect_analysis_view pages the rest from next_offset); complete returns " +
				"the complete Evidence record with every one of the " + items + " inline, which passes 256 KiB from a few hundred of them.",
			Flag: &Flag{Name: "detail", Default: "complete", Help: "complete (the whole Evidence record) or summary (counts, the first page and where the rest is)"}},
		{Name: "limit", Type: Integer, Min: 1, Max: 1000, Default: 64,
			Description: "With detail summary: " + items + " in the first page (default 64); the page also stops at 64 KiB of serialised items " +
				"(byte_limited) and reports next_offset where the rest starts.",
			Flag: &Flag{Name: "limit"}},
	}
}

var outputDirFlag = Param{Name: "output_dir", Type: String,
	Description: "directory to create and write into (must not exist; default: a fresh temporary directory)", Flag: &Flag{Name: "output"}}

// UnpackJavaScriptBundle writes a bundle's modules as files.
func UnpackJavaScriptBundle() Spec {
	params := append(sourceInput(),
		Param{Name: "path", Type: String, Required: true, Description: "The bundle, relative to the application root.", Examples: []any{"dist/main.js"},
			Flag: &Flag{Name: "path", Required: true}})
	params = append(params, outputLimits()...)
	params = append(params, writtenParams("modules")...)
	return Spec{
		Name:   "unpack_javascript_bundle",
		Title:  "Unpack a JavaScript bundle into its modules",
		Family: "application",
		Description: "Split a webpack 4/5 (minified production builds included), webpack/rspack chunk, esbuild or browserify bundle (the forms " +
			"analyze_javascript_application recovers) into one file per module under a fresh directory: each module's code with its factory " +
			"parameters bound to module, exports and require (a minified factory's renamed to them), and every " +
			"require of another module of the bundle rewritten to that module's relative path (a module that only re-exports an external package, " +
			"such as webpack's electron external, is replaced by the package). manifest.json lists the modules, their shipped spans and edges. " +
			"analyze_javascript_application on the directory then reads the modules as files. Parsed in the sandbox; nothing is run. The complete " +
			"result is observed Evidence (every module, and every file by path, digest and size). By default the answer is its summary: counts " +
			"(modules, externals, files, bytes, unresolved requires), output_dir, manifest_path (manifest.json on disk lists every module), the first " +
			"page of modules (limit, default 64, and at most 64 KiB) and next_calls: page on with inspect_analysis_view (the retained Evidence, " +
			"view page, collection modules, offset = next_offset until it is null) and read a module with read_javascript_source (module " +
			"bundled:<bundle>#<key>). detail: \"complete\" returns every module inline instead.",
		Effects:  Effects{MutatesSession: true, WritesFilesystem: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app", "path": "dist/main.js"}},
		CLIFlags: []Param{outputDirFlag},
		CLI: &Command{Name: "unpack-javascript-bundle", Args: []Arg{{Name: "APP", Param: "input_path"}}, Synopsis: "APP --path BUNDLE [--output DIR]",
			Short: "Write a bundle's modules as files (webpack, rspack, esbuild, browserify), requires rewritten to relative paths, with a manifest"},
	}
}

// ExtractSourceMapSources writes the sourcesContent of source maps.
func ExtractSourceMapSources() Spec {
	params := append(sourceInput(),
		Param{Name: "path", Type: String, Description: "A source map, or a file declaring one (default: every .map file of the application).",
			Flag: &Flag{Name: "path"}})
	params = append(params, outputLimits()...)
	params = append(params, writtenParams("sources")...)
	return Spec{
		Name:   "extract_source_map_sources",
		Title:  "Write the original sources a source map carries",
		Family: "application",
		Description: "Write the sourcesContent of an application's source maps (one map, the map a file declares, or every .map file) as files under a " +
			"fresh directory, each at its original path as the analysis names it (webpack:// and similar schemes dropped). A source whose path is " +
			"absolute, a URL, leaves the directory (../), or is claimed twice with other content is rejected with the reason and never written; a " +
			"map over max_file_bytes is refused. The complete result is observed Evidence (every source, written or rejected). By default the answer " +
			"is its summary: counts (maps, sources written and rejected by reason, files, bytes), output_dir, the first page of sources (limit, " +
			"default 64, and at most 64 KiB) and next_calls: page on with inspect_analysis_view (the retained Evidence, view page, collection " +
			"sources, offset = next_offset until it is null). detail: \"complete\" returns every source inline instead.",
		Effects:  Effects{MutatesSession: true, WritesFilesystem: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app"}, {"input_path": "/tmp/app", "path": "dist/main.js.map"}},
		CLIFlags: []Param{outputDirFlag},
		CLI: &Command{Name: "extract-source-map-sources", Args: []Arg{{Name: "APP", Param: "input_path"}}, Synopsis: "APP [--path MAP] [--output DIR]",
			Short: "Write the sourcesContent of an application's source maps as files, paths contained under the output directory"},
	}
}
