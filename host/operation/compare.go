package operation

import "strings"

// The application and artifact comparisons: pure workflows over analysis
// Evidence, run by the compare module.

// exampleRef and exampleRef2 are the retained references examples advertise.
func exampleRef() map[string]any {
	return map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
}

func exampleRef2() map[string]any {
	return map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"}
}

// applicationEvidence is a parameter taking analyze_javascript_application
// Evidence.
func applicationEvidence(name, what string) Param {
	return Param{Name: name, Type: Evidence, Required: true, Examples: []any{exampleRef()},
		Description: what + ": analyze_javascript_application Evidence as a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."}
}

// limit is an integer limit with a default the service applies; the CLI
// flag has the same name with dashes.
func limit(name, flag, description string, def, max int64) Param {
	return Param{Name: name, Type: Integer, Description: description, Min: 1, Max: max, Default: int(def), Flag: &Flag{Name: flag}}
}

// Compare lists the comparison operations.
func Compare() []Spec {
	return []Spec{TraceApplicationFeature(), CompareApplicationVersions(), CompareArtifacts(), CompareSourceToBundle(), CompareJavaScriptExportShapes(),
		CompareFunctions(), CompareProcessCaptures()}
}

// seedParam is a typed literal a trace starts from; the CLI takes one seed
// as flags.
func seedParam(name string, flags bool) Param {
	fl := func(f *Flag) *Flag {
		if !flags {
			return nil
		}
		return f
	}
	return Param{Name: name, Type: Object, Description: "A typed literal to start from.", Fields: []Param{
		{Name: "kind", Type: String, Required: true,
			Description: "What the value names: node-id (an exact graph node id), route (URL, path or loaded page), string (any label), " +
				"api (an exposed contextBridge API such as api.read, or an IPC/Node API), channel (an IPC channel), module (a file path or base name, or a bundled module key), " +
				"native-export (an export requested from a native addon).",
			Enum: []string{"node-id", "route", "string", "api", "channel", "module", "native-export"},
			Flag: fl(&Flag{Name: "seed-kind", Default: "string", Help: "node-id, route, string, api, channel, module or native-export"})},
		{Name: "value", Type: String, Required: true, Description: "The literal to match.",
			Flag: fl(&Flag{Name: "seed", Help: "the literal to start from", Required: true})},
		{Name: "match", Type: String, Enum: []string{"exact", "contains"},
			Description: "exact, or contains; default contains for string seeds and exact otherwise.",
			Flag:        fl(&Flag{Name: "match"})},
		{Name: "case_sensitive", Type: Boolean, Default: false, Description: "Match case (default false).",
			Flag: fl(&Flag{Name: "case-sensitive"})},
	}}
}

// TraceApplicationFeature walks the application graph from typed seeds.
func TraceApplicationFeature() Spec {
	seeds := seedParam("", false)
	return Spec{
		Name:   "trace_application_feature",
		Title:  "Trace a feature through an application graph",
		Family: "application",
		Description: "Find where a feature lives in an analysed Electron/JavaScript application: start from typed seeds (an IPC channel, an exposed API, " +
			"a module, a route, a native export, a string or a node id) and walk the application graph (modules, imports, windows, preloads, " +
			"context bridges, IPC channels and handlers, endpoints, native addons, findings) forward, backward or both, within limits. Returns the " +
			"bounded subgraph, paths with the authorities along them and whether they contain inference, native handoffs (addon path, requested " +
			"exports, next tools) and coverage (complete-within-source, partial, truncated or no-match) with omitted counts. Reads Evidence only; " +
			"starts no provider and runs no analysed code. The result is derived Evidence linked to its source.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			applicationEvidence("application", "The analysed application"),
			seedParam("seed", true),
			{Name: "seeds", Type: Array, Description: "Several seeds (with or instead of seed).", Items: &seeds, MaxItems: 32},
			{Name: "direction", Type: String, Default: "both", Enum: []string{"forward", "backward", "both"},
				Description: "forward (along relations: what it reaches), backward (what reaches it) or both (default).",
				Flag:        &Flag{Name: "direction", Help: "forward, backward or both"}},
			{Name: "limits", Type: Object, Description: "Bounds of the trace; every omission is counted in coverage.", Fields: []Param{
				limit("max_seed_matches", "max-seed-matches", "Nodes the seeds may match (default 25).", 25, 1000),
				limit("max_depth", "max-depth", "Hops from a seed (default 12).", 12, 64),
				limit("max_nodes", "max-nodes", "Nodes in the subgraph (default 2,000).", 2000, 50000),
				limit("max_edges", "max-edges", "Edges in the subgraph (default 4,000).", 4000, 100000),
				limit("max_paths", "max-paths", "Paths reported (default 100).", 100, 1000),
			}},
		},
		Examples: []map[string]any{
			{"application": exampleRef(), "seed": map[string]any{"kind": "channel", "value": "settings:save"}},
			{"application": exampleRef(), "seed": map[string]any{"kind": "module", "value": "search.js", "match": "exact"}, "direction": "forward"},
		},
		CLI: &Command{Name: "trace-application-feature", Args: []Arg{{Name: "EVIDENCE.json|APP", Param: "application"}},
			Synopsis: "EVIDENCE.json|APP --seed-kind KIND --seed VALUE",
			Short:    "Trace a feature (IPC channel, exposed API, module, route, native export…) through an analysed application"},
	}
}

// CompareApplicationVersions is the changelog of two analysed versions.
func CompareApplicationVersions() Spec {
	return Spec{
		Name:   "compare_application_versions",
		Title:  "Compare two versions of an application",
		Family: "application",
		Description: "What changed between two analysed versions of an Electron/JavaScript application? Answers first: new windows and changed " +
			"webPreferences, new or removed IPC channels and exposed APIs, new endpoints, new and removed findings. Then every fact (modules, " +
			"bundled modules, windows, channels, exposed APIs, endpoints, native addons, findings, HTML, source maps) is unchanged, changed (with the " +
			"changed dimensions), added, removed, unknown or contradiction. Matching is unique-only and tiered — exact node identity, content digest, " +
			"module source digest, then source-map identity, then structural fingerprint — never by module ordinal, minified name or fuzzy text; an " +
			"ambiguous match is unknown with its candidates, and added/removed is claimed only when the other side's coverage is complete. Each side " +
			"is a retained reference or inline Evidence. The result is derived Evidence linked to both inputs.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			applicationEvidence("left", "The older version"),
			applicationEvidence("right", "The newer version"),
			{Name: "limits", Type: Object, Description: "Bounds of the comparison; every omission is counted.", Fields: []Param{
				limit("max_comparison_items", "max-comparison-items", "Facts compared per side (default 20,000).", 20000, 50000),
				limit("max_candidate_nodes", "max-candidate-nodes", "Candidates listed for an ambiguous fact (default 100).", 100, 1000),
				limit("max_graph_nodes", "max-graph-nodes", "Nodes of the changed_from graph (default 20,000).", 20000, 50000),
				limit("max_graph_edges", "max-graph-edges", "Edges of the changed_from graph (default 40,000).", 40000, 100000),
			}},
			{Name: "include_unchanged", Type: Boolean, Default: false,
				Description: "Also list unchanged facts among the items (default false; they are always counted in summary.statuses).",
				Flag:        &Flag{Name: "include-unchanged"}},
		},
		Examples: []map[string]any{{"left": exampleRef(), "right": exampleRef2()}},
		CLI: &Command{Name: "compare-application-versions", Args: []Arg{{Name: "LEFT", Param: "left"}, {Name: "RIGHT", Param: "right"}},
			Synopsis: "LEFT RIGHT", Short: "What changed between two versions of an Electron/JavaScript application"},
	}
}

// CompareArtifacts compares two artifact inventories per logical path.
func CompareArtifacts() Spec {
	return Spec{
		Name:   "compare_artifacts",
		Title:  "Compare two artifact inventories",
		Family: "artifact",
		Description: "What changed between two containers (ASAR, zip, tar, directory)? Compares two inspect_artifact inventories per logical " +
			"path (entries of nested containers as outer!/inner): added, removed, changed — with the dimensions content, kind, format, size, " +
			"executable, relations, availability and integrity — unknown or contradiction (bytes contradicting declared integrity). Each side is " +
			"one inspect_artifact record or a list of up to 100 pages of one scan (they must share its manifest_id), each a retained reference or " +
			"inline Evidence. Only what both sides' pages hold is compared: unread pages, partial coverage and unobserved bytes give truncated or " +
			"unknown, never equivalence; added/removed is claimed only against a side read whole. Overall status unchanged, added, removed, " +
			"changed, truncated, unknown or contradiction; changes are paged (offset, limit ≤ 500). The result is derived Evidence linked to every input.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			{Name: "left", Type: Evidence, Required: true, Examples: []any{exampleRef()},
				Description: "The older inventory: inspect_artifact Evidence (retained reference or inline), or an array of up to 100 pages of one scan."},
			{Name: "right", Type: Evidence, Required: true, Examples: []any{exampleRef2()},
				Description: "The newer inventory: inspect_artifact Evidence in the same forms as left (retained reference or inline, or an array of up to 100 pages of one scan)."},
			{Name: "offset", Type: Integer, Min: 0, Max: 1<<31 - 1, Default: 0, Description: "First change of the page (default 0).",
				Flag: &Flag{Name: "offset"}},
			// The CLI prints a whole changelog: it pages at the maximum.
			{Name: "limit", Type: Integer, Min: 1, Max: 500, Default: 100, Description: "Changes per page (default 100).",
				Flag: &Flag{Name: "limit", Default: 500, Help: "changes per page (≤ 500)"}},
			{Name: "include_unchanged", Type: Boolean, Default: false,
				Description: "Also list unchanged paths among the changes (default false; always counted in summary).",
				Flag:        &Flag{Name: "include-unchanged", Help: "also list unchanged paths (always counted)"}},
		},
		CLIFlags: []Param{{Name: "integrity_policy", Type: String, Default: "fail", Enum: []string{"fail", "record-and-continue"},
			Description: "when inspecting a path: fail on a declared-versus-observed hash mismatch, or record-and-continue (the path is then a contradiction)",
			Flag:        &Flag{Name: "integrity-policy"}}},
		Examples: []map[string]any{{"left": exampleRef(), "right": exampleRef2()}, {"left": []any{exampleRef(), exampleRef2()}, "right": exampleRef(), "limit": 50}},
		CLI: &Command{Name: "compare-artifacts", Args: []Arg{{Name: "LEFT", Param: "left"}, {Name: "RIGHT", Param: "right"}},
			Synopsis: "LEFT RIGHT", Short: "What changed between two containers (ASAR, zip, tar, directory), per logical path"},
	}
}

// CompareSourceToBundle matches a reference source tree against a shipped
// application.
func CompareSourceToBundle() Spec {
	return Spec{
		Name:   "compare_source_to_bundle",
		Title:  "Compare a reference source tree with a shipped application",
		Family: "application",
		Description: "Which original source files ship unchanged, modified, split, merged into a bundle, duplicated or removed? Matches every " +
			"file of an import_reference_source tree against an analyze_javascript_application analysis by weighted signals, strongest first: " +
			"exact source digest, source-map original path (the application's source maps are read from the analysed directory with their digest; " +
			"sourcesContent, when present, decides unchanged or modified), the module paths a bundler recorded (webpack keys), exact path, path " +
			"suffix, basename — a weaker tier is used only when stronger ones find nothing. Per file: unchanged, modified, removed (only against " +
			"complete coverage), split, merged, duplicated or unknown (ambiguous candidates listed). Each side is a retained reference or inline " +
			"Evidence. The result is derived Evidence linked to both inputs.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			{Name: "reference", Type: Evidence, Required: true, Examples: []any{exampleRef()},
				Description: "The reference tree: import_reference_source Evidence, retained reference or inline."},
			applicationEvidence("application", "The shipped application"),
			limit("max_candidates", "max-candidates", "Targets listed per file (default 20).", 20, 1000),
		},
		Examples: []map[string]any{{"reference": exampleRef(), "application": exampleRef2()}},
		CLI: &Command{Name: "compare-source-to-bundle", Args: []Arg{{Name: "REFERENCE", Param: "reference"}, {Name: "APP", Param: "application"}},
			Synopsis: "REFERENCE APP", Short: "Which original source files ship unchanged, modified, split, merged, duplicated or removed in an application"},
	}
}

// CompareJavaScriptExportShapes compares one export's abstract shape.
func CompareJavaScriptExportShapes() Spec {
	return Spec{
		Name:   "compare_javascript_export_shapes",
		Title:  "Compare the shape of one JavaScript export across versions",
		Family: "application",
		Description: "Did an export's shape change between two analysed versions? Select one module (its exact path in the analysis) and export " +
			"(a CommonJS member name, or default for module.exports) per side. Each export is abstracted without running anything into a bounded " +
			"value lattice — folded literal constants, object members, array items, a function's parameters and the join of its direct returns, " +
			"unions of object variants paired by a reciprocal unique literal discriminant — and differences are reported at JSON Pointer paths " +
			"(/member, /0, /$params, /$returns, /$variant/type=value) as added, removed, changed or unknown. A missing or duplicate selector, an " +
			"ES module, an archive input or an unmodelled value (a call, a spread) gives unknown with candidates and a controlled-replay " +
			"recommendation, never equality. The module is read from the analysed directory only while its bytes match the analysis digest. " +
			"The result is derived Evidence linked to both analyses.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			applicationEvidence("left", "The older version"),
			applicationEvidence("right", "The newer version"),
			{Name: "left_module_path", Type: String, Required: true, Description: "Exact module path on the left (as in the analysis's modules).",
				Flag: &Flag{Name: "module", Required: true, Help: "exact module path (as in the analysis) on the left, and on the right unless --right-module"}},
			{Name: "left_export_name", Type: String, Required: true, Description: "Export on the left: a member of module.exports / exports, or default for module.exports itself.",
				Flag: &Flag{Name: "export", Required: true, Help: "export name on the left (default for module.exports), and on the right unless --right-export"}},
			{Name: "right_module_path", Type: String, Description: "Module path on the right (default: left_module_path).",
				Flag: &Flag{Name: "right-module"}},
			{Name: "right_export_name", Type: String, Description: "Export on the right (default: left_export_name).",
				Flag: &Flag{Name: "right-export"}},
			{Name: "limits", Type: Object, Description: "Bounds of the abstraction.", Fields: []Param{
				limit("max_depth", "max-depth", "Nesting followed (default 8).", 8, 32),
				limit("max_properties", "max-properties", "Members or items per object or array (default 200).", 200, 5000),
				limit("max_variants", "max-variants", "Variants of a union before it becomes unknown (default 16).", 16, 256),
			}},
		},
		Examples: []map[string]any{{"left": exampleRef(), "right": exampleRef2(), "left_module_path": "lib/settings.js", "left_export_name": "defaults"}},
		CLI: &Command{Name: "compare-javascript-export-shapes", Args: []Arg{{Name: "LEFT", Param: "left"}, {Name: "RIGHT", Param: "right"}},
			Synopsis: "LEFT RIGHT --module PATH --export NAME", Short: "Did one JavaScript export's shape change between two versions (without running either)"},
	}
}

// CompareFunctions pairs analyze_function Evidence of two versions.
func CompareFunctions() Spec {
	side := func(name string) Param {
		return Param{Name: name, Type: Array, Required: true, MaxItems: 100,
			Description: "analyze_function Evidence: inline records or {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} references (at most 100).",
			Items:       &Param{Type: Evidence, Description: "One record or reference."}}
	}
	ref := func(hex string) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + hex}
	}
	return Spec{
		Name: "compare_functions", Title: "Compare functions across versions", Family: "native", Description: "Pair analyze_function Evidence " +
			"from two versions by function and compare eight dimensions (identity, pseudocode, assembly, comments, calls, references, strings and names, " +
			"control-flow graph with addresses normalised). Paged-out facets are truncated, never equal; pseudocode and comments are unknown when unavailable.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			side("left"), side("right"),
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First function pair of the page (default 0).",
				Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: 100, Default: 100, Description: "Function pairs per page (default and maximum 100).",
				Flag: &Flag{Name: "limit", Help: "functions per page (default 100, at most 100)"}},
		},
		Examples: []map[string]any{{"left": []any{ref("11" + strings.Repeat("0", 62))}, "right": []any{ref("22" + strings.Repeat("0", 62))}}},
		CLI: &Command{Name: "compare-functions", Args: []Arg{{Name: "LEFT.json", Param: "left"}, {Name: "RIGHT.json", Param: "right"}},
			Synopsis: "LEFT.json RIGHT.json", Short: "Compare analyze_function Evidence of two versions over eight dimensions"},
	}
}

// CompareProcessCaptures locates the first divergence of two captures.
func CompareProcessCaptures() Spec {
	side := func(name string) Param {
		return Param{Name: name, Type: Evidence, Required: true,
			Description: "Capture Evidence: inline record or {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"}."}
	}
	return Spec{
		Name:   "compare_process_captures",
		Title:  "Compare two process captures",
		Family: "process",
		Description: "Compare two capture_process_scenario results made under the same comparison contract along the terminal, interaction, exit, " +
			"filesystem and process dimensions, locating the first divergence in journal order. Each side is inline Evidence or a retained reference.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params:  []Param{side("left"), side("right")},
		Examples: []map[string]any{func() map[string]any {
			ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"}
			return map[string]any{"left": ref, "right": ref}
		}()},
		CLI: &Command{Name: "compare-process-captures", Args: []Arg{{Name: "LEFT.json", Param: "left"}, {Name: "RIGHT.json", Param: "right"}},
			Synopsis: "LEFT.json RIGHT.json", Short: "Compare two process captures (Evidence from capture-process) and locate the first divergence"},
	}
}
