package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"rea/abi"
	exports "rea/analysis/compare/exports/exportswire"
	"rea/analysis/compare/graph"
	"rea/host/app"
	"rea/host/evidence"
)

// compareTools are the pure application workflows over retained or inline
// application Evidence: feature tracing and version comparison.
func (s *Server) compareTools() []*Tool {
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	ref2 := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"}
	evidenceInput := func(what string) Schema {
		return withExamples(anyJSON(what+": analyze_javascript_application Evidence as a retained reference {\"kind\":\"retained-evidence\",\"evidence_id\":\"ev_…\"} or the complete inline record."), ref)
	}
	seed := object("A typed literal to start from.", map[string]Schema{
		"kind": enum("What the value names: node-id (an exact graph node id), route (URL, path or loaded page), string (any label), "+
			"api (an exposed contextBridge API such as api.read, or an IPC/Node API), channel (an IPC channel), module (a file path or base name, or a bundled module key), "+
			"native-export (an export requested from a native addon).",
			"node-id", "route", "string", "api", "channel", "module", "native-export"),
		"value":          str("The literal to match."),
		"match":          enum("exact, or contains; default contains for string seeds and exact otherwise.", "exact", "contains"),
		"case_sensitive": boolean("Match case (default false)."),
	}, "kind", "value")
	traceLimits := object("Bounds of the trace; every omission is counted in coverage.", map[string]Schema{
		"max_seed_matches": integer("Nodes the seeds may match (default 25).", 1, 1000),
		"max_depth":        integer("Hops from a seed (default 12).", 1, 64),
		"max_nodes":        integer("Nodes in the subgraph (default 2,000).", 1, 50000),
		"max_edges":        integer("Edges in the subgraph (default 4,000).", 1, 100000),
		"max_paths":        integer("Paths reported (default 100).", 1, 1000),
	})
	compareLimits := object("Bounds of the comparison; every omission is counted.", map[string]Schema{
		"max_comparison_items": integer("Facts compared per side (default 20,000).", 1, 50000),
		"max_candidate_nodes":  integer("Candidates listed for an ambiguous fact (default 100).", 1, 1000),
		"max_graph_nodes":      integer("Nodes of the changed_from graph (default 20,000).", 1, 50000),
		"max_graph_edges":      integer("Edges of the changed_from graph (default 40,000).", 1, 100000),
	})
	return []*Tool{
		{
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
			Input: object("", map[string]Schema{
				"application": evidenceInput("The analysed application"),
				"seed":        seed,
				"seeds":       array("Several seeds (with or instead of seed).", seed, 32),
				"direction":   enum("forward (along relations: what it reaches), backward (what reaches it) or both (default).", "forward", "backward", "both"),
				"limits":      traceLimits,
			}, "application"),
			Examples: []map[string]any{
				{"application": ref, "seed": map[string]any{"kind": "channel", "value": "settings:save"}},
				{"application": ref, "seed": map[string]any{"kind": "module", "value": "search.js", "match": "exact"}, "direction": "forward"},
			},
			CLI: "trace-application-feature",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Application json.RawMessage   `json:"application"`
					Seed        *graph.Seed       `json:"seed"`
					Seeds       []graph.Seed      `json:"seeds"`
					Direction   string            `json:"direction"`
					Limits      graph.TraceLimits `json:"limits"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				seeds := in.Seeds
				if in.Seed != nil {
					seeds = append([]graph.Seed{*in.Seed}, seeds...)
				}
				if len(seeds) == 0 {
					return nil, abi.Errorf(abi.CodeInvalidRequest, "give a seed {kind, value} (or seeds) to start the trace from").WithDetail("field", "seed")
				}
				src, err := c.Resolve(in.Application, "application")
				if err != nil {
					return nil, err
				}
				return s.app.TraceApplicationFeature(ctx, src, app.TraceFeatureRequest{Seeds: seeds, Direction: in.Direction, Limits: in.Limits}, c.Progress)
			},
		},
		{
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
			Input: object("", map[string]Schema{
				"left":              evidenceInput("The older version"),
				"right":             evidenceInput("The newer version"),
				"limits":            compareLimits,
				"include_unchanged": boolean("Also list unchanged facts among the items (default false; they are always counted in summary.statuses)."),
			}, "left", "right"),
			Examples: []map[string]any{{"left": ref, "right": ref2}},
			CLI:      "compare-application-versions",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left             json.RawMessage     `json:"left"`
					Right            json.RawMessage     `json:"right"`
					Limits           graph.CompareLimits `json:"limits"`
					IncludeUnchanged bool                `json:"include_unchanged"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				left, right, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareApplicationVersions(ctx, left, right, app.CompareVersionsRequest{Limits: in.Limits, IncludeUnchanged: in.IncludeUnchanged}, c.Progress)
			},
		},
		{
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
			Input: object("", map[string]Schema{
				"left":              withExamples(anyJSON("The older inventory: inspect_artifact Evidence (retained reference or inline), or an array of up to 100 pages of one scan."), ref),
				"right":             withExamples(anyJSON("The newer inventory, in the same forms as left."), ref2),
				"offset":            integer("First change of the page (default 0).", 0, 1<<31-1),
				"limit":             integer("Changes per page (default 100).", 1, 500),
				"include_unchanged": boolean("Also list unchanged paths among the changes (default false; always counted in summary)."),
			}, "left", "right"),
			Examples: []map[string]any{{"left": ref, "right": ref2}, {"left": []any{ref, ref2}, "right": ref, "limit": 50}},
			CLI:      "compare-artifacts",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left             json.RawMessage `json:"left"`
					Right            json.RawMessage `json:"right"`
					Offset           int             `json:"offset"`
					Limit            int             `json:"limit"`
					IncludeUnchanged bool            `json:"include_unchanged"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				resolve := func(raw json.RawMessage, field string) ([]evidence.Record, error) {
					var list []json.RawMessage
					if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
						if err := json.Unmarshal(t, &list); err != nil {
							return nil, withField(abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err), field)
						}
					} else {
						list = []json.RawMessage{raw}
					}
					return c.ResolveAll(list, field)
				}
				left, err := resolve(in.Left, "left")
				if err != nil {
					return nil, err
				}
				right, err := resolve(in.Right, "right")
				if err != nil {
					return nil, err
				}
				return s.app.CompareArtifacts(ctx, left, right, app.CompareArtifactsRequest{Offset: in.Offset, Limit: in.Limit, IncludeUnchanged: in.IncludeUnchanged}, c.Progress)
			},
		},
		{
			Name:   "import_reference_source",
			Title:  "Import a reference source tree",
			Family: "application",
			Description: "Inventory a reference source tree (a checkout of the original sources, or an archive of it) for compare_source_to_bundle: " +
				"the tree is read through the same sandboxed scan as inspect_artifact, every file is hashed by rea, and the JavaScript/TypeScript " +
				"files (.js .mjs .cjs .jsx .ts .mts .cts .tsx; declarations left out) are recorded with their source digests as a " +
				"HistoricalSourceGraph/v1 Evidence record. Nothing in the tree is executed.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", func() map[string]Schema {
				p := artifactInputProps()
				p["input_path"] = str("Local source directory (or ASAR, zip, tar, tar.gz of it) to import.")
				return p
			}(), "input_path"),
			Examples: []map[string]any{{"input_path": "/src/app-1.4.2"}},
			CLI:      "import-reference-source",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ImportReferenceSourceRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				if req.Format == "auto" {
					req.Format = ""
				}
				return s.app.ImportReferenceSource(ctx, req, c.Progress)
			},
		},
		{
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
			Input: object("", map[string]Schema{
				"reference":      withExamples(anyJSON("The reference tree: import_reference_source Evidence, retained reference or inline."), ref),
				"application":    evidenceInput("The shipped application"),
				"max_candidates": integer("Targets listed per file (default 20).", 1, 1000),
			}, "reference", "application"),
			Examples: []map[string]any{{"reference": ref, "application": ref2}},
			CLI:      "compare-source-to-bundle",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Reference     json.RawMessage `json:"reference"`
					Application   json.RawMessage `json:"application"`
					MaxCandidates int             `json:"max_candidates"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				ref, err := c.Resolve(in.Reference, "reference")
				if err != nil {
					return nil, err
				}
				application, err := c.Resolve(in.Application, "application")
				if err != nil {
					return nil, err
				}
				return s.app.CompareSourceToBundle(ctx, ref, application, app.CompareSourceRequest{MaxCandidates: in.MaxCandidates}, c.Progress)
			},
		},
		{
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
			Input: object("", map[string]Schema{
				"left":              evidenceInput("The older version"),
				"right":             evidenceInput("The newer version"),
				"left_module_path":  str("Exact module path on the left (as in the analysis's modules)."),
				"left_export_name":  str("Export on the left: a member of module.exports / exports, or default for module.exports itself."),
				"right_module_path": str("Module path on the right (default: left_module_path)."),
				"right_export_name": str("Export on the right (default: left_export_name)."),
				"limits": object("Bounds of the abstraction.", map[string]Schema{
					"max_depth":      integer("Nesting followed (default 8).", 1, 32),
					"max_properties": integer("Members or items per object or array (default 200).", 1, 5000),
					"max_variants":   integer("Variants of a union before it becomes unknown (default 16).", 1, 256),
				}),
			}, "left", "right", "left_module_path", "left_export_name"),
			Examples: []map[string]any{{"left": ref, "right": ref2, "left_module_path": "lib/settings.js", "left_export_name": "defaults"}},
			CLI:      "compare-javascript-export-shapes",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left            json.RawMessage `json:"left"`
					Right           json.RawMessage `json:"right"`
					LeftModulePath  string          `json:"left_module_path"`
					LeftExportName  string          `json:"left_export_name"`
					RightModulePath string          `json:"right_module_path"`
					RightExportName string          `json:"right_export_name"`
					Limits          exports.Limits  `json:"limits"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				if in.RightModulePath == "" {
					in.RightModulePath = in.LeftModulePath
				}
				if in.RightExportName == "" {
					in.RightExportName = in.LeftExportName
				}
				left, right, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareJavaScriptExportShapes(ctx, left, right, app.CompareExportShapesRequest{
					Left:   app.ExportSelector{ModulePath: in.LeftModulePath, ExportName: in.LeftExportName},
					Right:  app.ExportSelector{ModulePath: in.RightModulePath, ExportName: in.RightExportName},
					Limits: in.Limits,
				}, c.Progress)
			},
		},
	}
}
