package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/compare/artifacts"
	"rea/analysis/compare/exports"
	"rea/analysis/compare/graph"
	"rea/analysis/compare/source"
	"rea/analysis/jssource"
	"rea/analysis/jssource/sourcewire"
	"rea/analysis/reconstruct/obligations"
	"rea/analysis/reconstruct/verify"
	"rea/guidance/index"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/mcpserver"
	"rea/host/operation"
	"rea/host/unknowns"
)

// wrapperFlags are flags a command gains from a wrapper outside its spec,
// each with what it does instead of the operation.
var wrapperFlags = map[string]string{
	"list-rules": "withListRules: print the security rule table instead of analysing",
}

// unconvertedTools are the MCP tools whose schema and CLI flags are still
// written by hand (none since every tool is declared) in host/mcpserver and cmd/rea, not derived from an
// operation spec. The test fails when one of them gains a spec (take it off
// the list) or when a tool is neither declared nor listed here.
var unconvertedTools = []string{}

// serviceDefaults normalise an operation's parameters (a JSON object in the
// MCP input's shape, only the parameters under test) the way the service
// does before running, and return the result in the same shape. They call
// the libraries the modules run, so a default or bound changed there and
// not in the spec fails the test.
// schemaOnlyBounds are maxima the MCP schema enforces and the service does
// not check again (it has no upper bound of its own).
var schemaOnlyBounds = func() map[string]bool {
	m := map[string]bool{"compare_artifacts offset": true, "compare_functions offset": true, "list_unknowns offset": true,
		"search_guidance offset": true, "verify_reconstruction offset": true,
		"build_reconstruction_obligation_ledger offset": true}
	// The runtime services refuse only negative offsets and bound only the
	// limits their constants name; the other maxima are the schema's.
	for _, op := range []string{"list_browser_targets", "list_electron_targets", "list_javascript_runtime_targets"} {
		m[op+" offset"] = true
	}
	for _, op := range []string{"inspect_web_page", "analyze_web_bundle", "inspect_electron_page", "observe_web_session", "observe_javascript_runtime"} {
		m[op+" max_scripts"] = true
	}
	m["discover_webmcp_tools max_tools"], m["discover_webmcp_tools max_schema_bytes"] = true, true
	for _, op := range []string{"inspect_artifact", "extract_artifact", "import_reference_source", "analyze_javascript_application",
		"read_javascript_source", "search_application_text", "unpack_javascript_bundle", "extract_source_map_sources"} {
		// The inventory refuses only negative limits.
		for _, p := range operation.InventoryLimits() {
			m[op+" "+p.Name] = true
		}
	}
	// The native pages refuse only negative offsets (instruction pages
	// bound theirs).
	for _, op := range []string{"inspect_binary_layout", "list_procedures", "search_procedures", "list_strings", "search_strings", "list_names",
		"procedure_callers", "procedure_callees", "xrefs", "procedure_references", "analyze_function"} {
		m[op+" offset"] = true
	}
	for _, c := range []string{"node", "occurrence", "edge"} {
		m["inspect_artifact "+c+"s.offset"] = true
	}
	for tool := range app.DepthOperation { // pages past the end are empty, not refused
		m[tool+" offset"] = true
	}
	m["diff_binaries offset"] = true
	m["inspect_analysis_view offset"] = true // past the end is an empty page
	return m
}()

func serviceDefaults(t *testing.T, a *app.App) map[string]func(params map[string]any) (map[string]any, error) {
	// The artifact operations fill their defaults in the host and record
	// the filled request as the Evidence's parameters: run them on a small
	// directory and read those back. An absent format is recorded as no
	// format, which the service reads as auto.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte("module.exports = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := 0
	recorded := func(p map[string]any, call func(map[string]any) (evidence.Record, error)) (map[string]any, error) {
		in := map[string]any{"input_path": dir}
		maps.Copy(in, p)
		read := func(in map[string]any) (map[string]any, error) {
			rec, err := call(in)
			if err != nil {
				return nil, err
			}
			var params map[string]any
			return params, json.Unmarshal(rec.Parameters, &params)
		}
		params, err := read(in)
		if err != nil || len(p) > 0 {
			return params, err
		}
		// No format given: the service detects it, and records what an
		// explicit auto records (no format, or the detected one).
		explicit, err := read(map[string]any{"input_path": dir, "format": "auto"})
		if err != nil {
			return nil, err
		}
		if fmt.Sprint(explicit["format"]) == fmt.Sprint(params["format"]) {
			params["format"] = "auto"
		}
		return params, nil
	}
	ctx := context.Background()
	m := map[string]func(params map[string]any) (map[string]any, error){
		"inspect_artifact": func(p map[string]any) (map[string]any, error) {
			return recorded(p, func(in map[string]any) (evidence.Record, error) {
				var req app.InspectArtifactRequest
				if err := remarshal(in, &req); err != nil {
					return evidence.Record{}, err
				}
				res, err := a.InspectArtifact(ctx, req, nil)
				if err != nil {
					return evidence.Record{}, err
				}
				return res.Evidence, nil
			})
		},
		"extract_artifact": func(p map[string]any) (map[string]any, error) {
			// The summary page's limit is the answer's, not the
			// extraction's: checked by the service, not recorded.
			limit, err := writtenLimit(p)
			if err != nil {
				return nil, err
			}
			delete(p, "limit")
			defer func() { p["limit"] = limit }()
			params, err := recorded(p, func(in map[string]any) (evidence.Record, error) {
				var req app.ExtractArtifactRequest
				if err := remarshal(in, &req); err != nil {
					return evidence.Record{}, err
				}
				runs++
				req.OutputDir = filepath.Join(t.TempDir(), fmt.Sprint("out", runs))
				res, err := a.ExtractArtifact(ctx, req, nil)
				if err != nil {
					return evidence.Record{}, err
				}
				return res.Evidence, nil
			})
			if params != nil {
				params["limit"] = limit
			}
			return params, err
		},
		"analyze_javascript_application": func(p map[string]any) (map[string]any, error) {
			return recorded(p, func(in map[string]any) (evidence.Record, error) {
				var req app.AnalyzeApplicationRequest
				if err := remarshal(in, &req); err != nil {
					return evidence.Record{}, err
				}
				res, err := a.AnalyzeJavaScriptApplication(ctx, req, nil)
				if err != nil {
					return evidence.Record{}, err
				}
				return res.Evidence, nil
			})
		},
		"import_reference_source": func(p map[string]any) (map[string]any, error) {
			return recorded(p, func(in map[string]any) (evidence.Record, error) {
				var req app.ImportReferenceSourceRequest
				if err := remarshal(in, &req); err != nil {
					return evidence.Record{}, err
				}
				return a.ImportReferenceSource(ctx, req, nil)
			})
		},
		"trace_application_feature": func(p map[string]any) (map[string]any, error) {
			var req graph.TraceRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			req.Seeds = []graph.Seed{{Kind: "string", Value: "x"}}
			if err := req.Normalise(); err != nil {
				return nil, err
			}
			return asMap(map[string]any{"direction": req.Direction, "limits": req.Limits})
		},
		"compare_application_versions": func(p map[string]any) (map[string]any, error) {
			var req struct {
				Limits graph.CompareLimits `json:"limits"`
			}
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			if err := req.Limits.Normalise(); err != nil {
				return nil, err
			}
			return asMap(req)
		},
		"compare_artifacts": func(p map[string]any) (map[string]any, error) {
			var req artifacts.Request
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			page := artifacts.Side{Pages: []artifacts.PageRecord{{EvidenceID: "ev_x"}}}
			page.Pages[0].Inventory.ManifestID = "m"
			req.Left, req.Right = page, page
			if err := req.Validate(); err != nil {
				return nil, err
			}
			return asMap(map[string]any{"offset": req.Offset, "limit": req.Limit})
		},
		"compare_source_to_bundle": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"reference": map[string]any{"graph": map[string]any{"format": source.Format}},
				"application": map[string]any{"analysis": map[string]any{"schema_version": 1}}}
			for k, v := range p {
				in[k] = v
			}
			raw, _ := json.Marshal(in)
			req, err := source.DecodeRequest(raw)
			if err != nil {
				return nil, err
			}
			return asMap(map[string]any{"max_candidates": req.MaxCandidates})
		},
		"list_unknowns": func(p map[string]any) (map[string]any, error) {
			var f unknowns.Filter
			if err := remarshal(p, &f); err != nil {
				return nil, err
			}
			page, err := unknowns.New(evidence.NewLedger(evidence.Limits{})).List(f)
			if err != nil {
				return nil, err
			}
			return asMap(map[string]any{"offset": page.Offset, "limit": page.Limit})
		},
		// record_unknown fills the defaults of the fields a proposal omits:
		// record one in a fresh ledger and read the revision back.
		"record_unknown": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"question": "Which handler answers?", "domain": "ipc"}
			maps.Copy(in, p)
			var prop unknowns.Proposal
			if err := remarshal(in, &prop); err != nil {
				return nil, err
			}
			m, err := unknowns.New(evidence.NewLedger(evidence.Limits{})).Record(ctx, prop)
			if err != nil {
				return nil, err
			}
			return asMap(map[string]any{"status": m.Unknown.Status, "severity": m.Unknown.Severity, "required_confidence": m.Unknown.RequiredConfidence})
		},
		// search_guidance pages in the guidance index the app searches.
		"search_guidance": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"query": "exact JavaScript module"}
			maps.Copy(in, p)
			var req index.SearchParams
			if err := remarshal(in, &req); err != nil {
				return nil, err
			}
			res, err := a.SearchGuidance(ctx, req, nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{"offset": res.Offset, "limit": res.Limit}, nil
		},
		"guided_workflows": func(p map[string]any) (map[string]any, error) {
			var req app.GuidedWorkflowsRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			res, err := app.GuidedWorkflows(req, nil, app.RenderContext{})
			if err != nil {
				return nil, err
			}
			return map[string]any{"action": res.Action}, nil
		},
		// verify_reconstruction pages in the reconstruct module's library.
		"verify_reconstruction": func(p map[string]any) (map[string]any, error) {
			spec := `{"schema_version":1,"name":"x","claims":[{"claim_id":"c","kind":"structural-function","evidence_id":"ev_` + strings.Repeat("0", 64) + `"}]}`
			req := verify.Request{Specification: json.RawMessage(spec)}
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			res, err := verify.Evaluate(req)
			if err != nil {
				return nil, err
			}
			return map[string]any{"offset": res.Page.Offset, "limit": res.Page.Limit}, nil
		},
		// build_reconstruction_obligation_ledger pages and bounds in the
		// reconstruct module's library; max_obligations is not in its
		// result, so its absence reads as the library's default.
		"build_reconstruction_obligation_ledger": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"manifest": map[string]any{"schema_version": 1}}
			maps.Copy(in, p)
			operation.Lower(operation.BuildReconstructionObligationLedger().Aliases, in) // the module's page{offset, limit}
			var req obligations.Request
			if err := remarshal(in, &req); err != nil {
				return nil, err
			}
			l, err := obligations.Build(req)
			if err != nil {
				return nil, err
			}
			max := req.Limits.MaxObligations
			if max == 0 {
				max = obligations.DefaultMaxObligations
			}
			return map[string]any{"limits": map[string]any{"max_obligations": max}, "offset": l.Page.Offset, "limit": l.Page.Limit}, nil
		},
		// verify_unknown_resolution has no parameter with a default.
		"verify_unknown_resolution": func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		// compare_process_captures has no parameter with a default.
		"compare_process_captures": func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		// The native context operations (host/operation/native_context.go)
		// have no parameter with a default.
		"list_documents":          func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"current_document":        func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"current_address":         func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"current_procedure":       func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"get_navigation_context":  func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"inspect_address_context": func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		// The analyst-note operations (host/operation/notes.go): only
		// list_bookmarks has defaults, which app.NotesPage applies.
		"set_address_name":    func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"set_addresses_names": func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"set_comment":         func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"set_inline_comment":  func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"set_bookmark":        func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"unset_bookmark":      func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"comment":             func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"inline_comment":      func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"address_name":        func(map[string]any) (map[string]any, error) { return map[string]any{}, nil },
		"list_bookmarks": func(p map[string]any) (map[string]any, error) {
			off, _ := p["offset"].(int64)
			lim, _ := p["limit"].(int64)
			o, l, err := app.NotesPage(int(off), int(lim))
			return map[string]any{"offset": o, "limit": l}, err
		},
		// compare_functions pages inside the app service, which checks offset and
		// limit before it reads either side: an error naming one of them is the
		// service refusing it; what it fills is its exported default.
		"compare_functions": func(p map[string]any) (map[string]any, error) {
			var req app.CompareFunctionsRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			_, err := (&app.App{}).CompareFunctions(req)
			var ae *abi.Error
			if errors.As(err, &ae) && (ae.Details["field"] == "offset" || ae.Details["field"] == "limit") {
				return nil, err
			}
			return map[string]any{"offset": 0, "limit": app.DefaultCompareLimit}, nil
		},
		"read_javascript_source": func(p map[string]any) (map[string]any, error) {
			var req sourcewire.ReadRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			if err := jssource.NormalizeRead(&req); err != nil {
				return nil, err
			}
			return withInventoryDefaults(p, map[string]any{"format": "auto", "column_unit": req.ColumnUnit, "view": req.View, "context_lines": req.ContextLines, "limit": req.Limit,
				"max_bytes": req.MaxBytes, "max_file_bytes": req.MaxFileBytes})
		},
		"search_application_text": func(p map[string]any) (map[string]any, error) {
			var req sourcewire.SearchRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			req.Query = "x"
			if err := jssource.NormalizeSearch(&req); err != nil {
				return nil, err
			}
			return withInventoryDefaults(p, map[string]any{"format": "auto", "limit": req.Limit, "snippet_bytes": req.SnippetBytes, "max_file_bytes": req.MaxFileBytes, "max_hits": req.MaxHits})
		},
		"unpack_javascript_bundle":   outputDefaults,
		"extract_source_map_sources": outputDefaults,
		"compare_javascript_export_shapes": func(p map[string]any) (map[string]any, error) {
			var req struct {
				Limits exports.Limits `json:"limits"`
			}
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			if err := req.Limits.Normalise(); err != nil {
				return nil, err
			}
			return asMap(req)
		},
	}
	maps.Copy(m, nativeServiceDefaults(t, a))
	maps.Copy(m, nativeDepthDefaults())
	maps.Copy(m, runtimeServiceDefaults())
	maps.Copy(m, viewServiceDefaults(t, a, dir))
	maps.Copy(m, captureServiceDefaults(t))
	for _, name := range withoutDefaults {
		m[name] = func(map[string]any) (map[string]any, error) { return map[string]any{}, nil }
	}
	return m
}

// withoutDefaults are the operations with no integer or string parameter
// that has a default (absence means "none", "any" or "complete").
var withoutDefaults = []string{
	"binary_session", "open_binary", "close_binary", "get_evidence_bundle", "export_evidence_bundle", "import_evidence_bundle",
	"update_unknown", "read_guidance_section", "list_segments", "resolve_containing_procedure", "address_to_file_offset", "inspect_electron_binary",
	"compare_web_captures", "reconcile_javascript_runtime", "render_application_report",
	"evaluate_reconstruction_coverage",
}

// withInventoryDefaults adds the inventory limits a source operation
// applies (the artifact scan's: negative refused, zero the default) to
// its other defaults.
func withInventoryDefaults(p, out map[string]any) (map[string]any, error) {
	var l inventory.Limits
	if err := remarshal(p, &l); err != nil {
		return nil, err
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	lm, err := asMap(l.WithDefaults())
	if err != nil {
		return nil, err
	}
	o, err := asMap(out)
	if err != nil {
		return nil, err
	}
	maps.Copy(o, lm)
	return o, nil
}

// outputDefaults are the output bounds unpack and extraction apply; the
// format default is the artifact scan's (auto).
func outputDefaults(p map[string]any) (map[string]any, error) {
	var req sourcewire.UnpackRequest
	if err := remarshal(p, &req); err != nil {
		return nil, err
	}
	if err := jssource.NormalizeOutput(&req.MaxFileBytes, &req.MaxOutputBytes, &req.MaxOutputFiles); err != nil {
		return nil, err
	}
	limit, err := writtenLimit(p)
	if err != nil {
		return nil, err
	}
	return withInventoryDefaults(p, map[string]any{"format": "auto", "max_file_bytes": req.MaxFileBytes, "max_output_bytes": req.MaxOutputBytes, "max_output_files": req.MaxOutputFiles,
		"limit": limit})
}

// writtenLimit is the summary page limit a writing operation applies
// (app.CheckWrittenPage, which the tools and commands call first).
func writtenLimit(p map[string]any) (int, error) {
	var w struct {
		Limit int `json:"limit"`
	}
	if err := remarshal(p, &w); err != nil {
		return 0, err
	}
	_, limit, err := app.CheckWrittenPage("", w.Limit)
	return limit, err
}

// TestOperationSpecsAgreeWithCLIMCPAndService holds, for every operation
// declared by a spec, the cobra command, the advertised MCP input schema
// (every profile) and the defaults and bounds the service applies to the
// spec — so none of them can drift from the others.
func TestOperationSpecsAgreeWithCLIMCPAndService(t *testing.T) {
	specs := operation.All()
	root := (&cli{ctx: context.Background(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}).rootCommand()
	a, err := app.New(app.Config{ResultCacheDir: "off"}) // the compile cache make warms
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	servers := map[string]*mcpserver.Server{}
	for _, profile := range []string{"full", "compact"} {
		srv, err := mcpserver.New(a, mcpserver.Options{Version: version, SchemaProfile: profile})
		if err != nil {
			t.Fatal(err)
		}
		servers[profile] = srv
	}

	defaults := serviceDefaults(t, a)

	t.Run("every tool is declared or listed as unconverted", func(t *testing.T) {
		declared := map[string]bool{}
		for _, sp := range specs {
			declared[sp.Name] = true
		}
		listed := map[string]bool{}
		for _, n := range unconvertedTools {
			if declared[n] {
				t.Errorf("%s has a spec; take it off unconvertedTools", n)
			}
			listed[n] = true
		}
		all := map[string]bool{}
		for _, tool := range servers["full"].Tools() {
			all[tool.Name] = true
			if !declared[tool.Name] && !listed[tool.Name] {
				t.Errorf("tool %s has no spec and is not listed as unconverted", tool.Name)
			}
			if declared[tool.Name] != (tool.Spec != nil) {
				t.Errorf("tool %s: declared in operation.All %v, built from a spec %v", tool.Name, declared[tool.Name], tool.Spec != nil)
			}
		}
		for n := range declared {
			if !all[n] {
				t.Errorf("spec %s has no MCP tool", n)
			}
		}
		for n := range listed {
			if !all[n] {
				t.Errorf("unconvertedTools names %s, which is no tool", n)
			}
		}
	})

	for _, sp := range specs {
		t.Run(sp.Name, func(t *testing.T) {
			checkWords(t, sp)
			checkCLI(t, root, sp)
			for profile, srv := range servers {
				checkMCP(t, srv, profile, sp)
			}
			checkService(t, sp, defaults[sp.Name])
		})
	}
}

// checkWords: a parameter's description states the default the spec
// declares, and so does its flag's help.
func checkWords(t *testing.T, sp operation.Spec) {
	t.Helper()
	sp.Walk(func(path string, p operation.Param) {
		if p.Default == nil {
			return
		}
		words := []string{fmt.Sprintf("default %v", p.Default), fmt.Sprintf("default and maximum %v", p.Default)}
		if n, ok := p.Default.(int); ok {
			words = append(words, "default "+withCommas(n))
			for _, u := range []struct {
				unit string
				size int
			}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
				if n >= u.size && n%u.size == 0 {
					words = append(words, fmt.Sprintf("default %d %s", n/u.size, u.unit))
					break
				}
			}
		}
		if s, ok := p.Default.(string); ok {
			words = append(words, s+" (default)")
		}
		says := func(text string) bool {
			for _, w := range words {
				if strings.Contains(text, w) {
					return true
				}
			}
			return false
		}
		if !says(p.Description) {
			t.Errorf("%s: description %q does not say %q", path, p.Description, words)
		}
		if p.Flag != nil && p.Flag.Default == nil && p.Type == operation.Integer && !says(p.Help()) {
			t.Errorf("%s: --%s help %q does not say %q", path, p.Flag.Name, p.Help(), words)
		}
	})
}

func withCommas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// checkCLI: the command's usage, short help, positional arguments and
// flags (name, type, help, default, required) are the spec's, and it has
// no flag the spec does not declare.
func checkCLI(t *testing.T, root *cobra.Command, sp operation.Spec) {
	t.Helper()
	if sp.CLI == nil {
		return
	}
	cmd, rest, err := root.Find(strings.Fields(sp.CLI.Name))
	if err != nil || len(rest) > 0 || cmd.CommandPath() != "rea "+sp.CLI.Name {
		t.Fatalf("no command %q: %v %v", sp.CLI.Name, err, rest)
	}
	if cmd.Use != sp.CLI.Use() || cmd.Short != sp.CLI.Short {
		t.Errorf("command %q %q, spec %q %q", cmd.Use, cmd.Short, sp.CLI.Use(), sp.CLI.Short)
	}
	n := len(sp.CLI.Args)
	if cmd.Args(cmd, make([]string, n)) != nil || cmd.Args(cmd, make([]string, n+1)) == nil || (n > 0 && cmd.Args(cmd, make([]string, n-1)) == nil) {
		t.Errorf("the command does not take exactly %d positional arguments", n)
	}
	for _, a := range sp.CLI.Args {
		if _, ok := sp.Lookup(a.Param); a.Param != "" && !ok {
			t.Errorf("argument %s stands for %q, no parameter", a.Name, a.Param)
		}
	}
	want := map[string]operation.Param{}
	for _, fp := range sp.Flags() {
		want[fp.Param.Flag.Name] = fp.Param
	}
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		// A wrapper's flag, a flag borrowed from a command the command
		// hands some inputs to, or a deprecated older form: no flag of
		// the operation.
		if wrapperFlags[f.Name] != "" || len(f.Annotations[wrapperAnnotation]) > 0 || len(f.Annotations[deprecatedAnnotation]) > 0 {
			return
		}
		p, ok := want[f.Name]
		if !ok {
			t.Errorf("--%s is no flag of the spec", f.Name)
			return
		}
		delete(want, f.Name)
		types := map[operation.Type][]string{operation.String: {"string"}, operation.Integer: {"int", "int64"}, operation.Boolean: {"bool"},
			operation.Array: {"stringArray"}}
		if !contains(types[p.Type], f.Value.Type()) {
			t.Errorf("--%s is %s, spec %s", f.Name, f.Value.Type(), p.Type)
		}
		if f.Usage != p.Help() {
			t.Errorf("--%s help %q, spec %q", f.Name, f.Usage, p.Help())
		}
		if def := fmt.Sprint(p.FlagDefault()); f.DefValue != def && !(p.Type == operation.Array && f.DefValue == "[]") {
			t.Errorf("--%s default %q, spec %v", f.Name, f.DefValue, p.FlagDefault())
		}
		if d, ok := p.FlagDefault().(int); ok && d != 0 && (int64(d) < p.Min || int64(d) > p.Max) {
			t.Errorf("--%s default %d outside the parameter's %d..%d", f.Name, d, p.Min, p.Max)
		}
		if p.Type == operation.String && len(p.Enum) > 0 {
			if d := p.FlagDefault().(string); d != "" && !contains(p.Enum, d) {
				t.Errorf("--%s default %q is not one of %v", f.Name, d, p.Enum)
			}
		}
		required := len(f.Annotations[cobra.BashCompOneRequiredFlag]) > 0
		if required != p.Flag.Required {
			t.Errorf("--%s required %v, spec %v", f.Name, required, p.Flag.Required)
		}
	})
	for name := range want {
		t.Errorf("the spec's --%s is not a flag of the command", name)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkMCP: the advertised tool is the spec's — title, description,
// annotations' title — and its input schema has exactly the spec's
// parameters with their types, bounds, enums, required lists and (in the
// full profile) descriptions and examples.
func checkMCP(t *testing.T, srv *mcpserver.Server, profile string, sp operation.Spec) {
	t.Helper()
	tool := srv.Advertised(sp.Name)
	if tool == nil {
		t.Fatalf("%s: not advertised", profile)
	}
	if tool.Title != sp.Title || tool.Description != sp.Description || tool.Annotations.Title != sp.Title ||
		tool.Annotations.ReadOnlyHint != sp.Effects.ReadOnly() || tool.Annotations.IdempotentHint != sp.Effects.Idempotent {
		t.Errorf("%s: advertised %q %q %+v, spec %q %q %+v", profile, tool.Title, tool.Description, tool.Annotations, sp.Title, sp.Description, sp.Effects)
	}
	var schema map[string]any
	b, _ := json.Marshal(tool.InputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	if profile == "full" {
		var examples []any
		_ = remarshal(sp.Examples, &examples)
		if got := schema["examples"]; len(sp.Examples) > 0 && !reflect.DeepEqual(got, examples) {
			t.Errorf("%s: examples %v, spec %v", profile, got, examples)
		}
	}
	// A shared definition ($defs, full profile) is checked where it is
	// referenced, as if it were written there.
	if defs, ok := schema["$defs"].(map[string]any); ok {
		delete(schema, "$defs")
		schema = resolveRefs(t, profile, defs, schema, 0).(map[string]any)
	}
	checkObject(t, profile, "", schema, sp.Params, false)
}

// resolveRefs inlines schema-local references: the definition, with the
// occurrence's own description and examples beside it.
func resolveRefs(t *testing.T, profile string, defs map[string]any, v any, depth int) any {
	t.Helper()
	if depth > 32 {
		t.Fatalf("%s: references nest more than 32 deep (recursive?)", profile)
	}
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			name, found := strings.CutPrefix(ref, "#/$defs/")
			def, known := defs[name].(map[string]any)
			if !found || !known {
				t.Fatalf("%s: reference %q is not schema-local", profile, ref)
			}
			out := map[string]any{}
			for k, dv := range def {
				out[k] = dv
			}
			for k, ov := range x {
				if k != "$ref" {
					out[k] = ov
				}
			}
			return resolveRefs(t, profile, defs, out, depth+1)
		}
		out := map[string]any{}
		for k, child := range x {
			if k == "examples" || k == "enum" {
				out[k] = child
				continue
			}
			out[k] = resolveRefs(t, profile, defs, child, depth)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, child := range x {
			out[i] = resolveRefs(t, profile, defs, child, depth)
		}
		return out
	}
	return v
}

func checkObject(t *testing.T, profile, at string, schema map[string]any, params []operation.Param, nullable bool) {
	t.Helper()
	props, _ := schema["properties"].(map[string]any)
	typ := any("object")
	if nullable {
		typ = []any{"object", "null"}
	}
	if !reflect.DeepEqual(schema["type"], typ) || schema["additionalProperties"] != false {
		t.Errorf("%s %s: not a closed object: %v", profile, at, schema)
	}
	var required []string
	seen := map[string]bool{}
	for _, p := range params {
		seen[p.Name] = true
		if p.Required {
			required = append(required, p.Name)
		}
		prop, ok := props[p.Name].(map[string]any)
		if !ok {
			t.Errorf("%s: no property %s%s", profile, at, p.Name)
			continue
		}
		checkParam(t, profile, at+p.Name, prop, p)
	}
	for name := range props {
		if !seen[name] {
			t.Errorf("%s: property %s%s is no parameter of the spec", profile, at, name)
		}
	}
	sort.Strings(required)
	var got []string
	_ = remarshal(schema["required"], &got)
	if !reflect.DeepEqual(got, required) {
		t.Errorf("%s %s: required %v, spec %v", profile, at, got, required)
	}
}

func checkParam(t *testing.T, profile, path string, prop map[string]any, p operation.Param) {
	t.Helper()
	types := map[operation.Type]any{operation.String: "string", operation.Integer: "integer", operation.Boolean: "boolean",
		operation.Object: "object", operation.Array: "array", operation.Map: "object",
		operation.Evidence: []any{"object", "array", "string", "number", "integer", "boolean", "null"}}
	want := types[p.Type]
	if p.Nullable {
		want = []any{want, "null"}
	}
	if !reflect.DeepEqual(prop["type"], want) {
		t.Errorf("%s: %s is %v, spec %s", profile, path, prop["type"], p.Type)
	}
	wantDescription := p.Description
	if profile == "compact" {
		wantDescription = "" // compact keeps the root description only
	}
	if got, _ := prop["description"].(string); got != wantDescription {
		t.Errorf("%s: %s description %q, spec %q", profile, path, got, wantDescription)
	}
	if p.Type == operation.Integer {
		if prop["minimum"] != float64(p.Min) || prop["maximum"] != float64(p.Max) {
			t.Errorf("%s: %s bounds %v..%v, spec %d..%d", profile, path, prop["minimum"], prop["maximum"], p.Min, p.Max)
		}
		if d, ok := p.Default.(int); ok && (int64(d) < p.Min || int64(d) > p.Max) {
			t.Errorf("%s: default %d outside %d..%d", path, d, p.Min, p.Max)
		}
	}
	var enum []string
	_ = remarshal(prop["enum"], &enum)
	if len(enum) != len(p.Enum) || (len(p.Enum) > 0 && !reflect.DeepEqual(enum, p.Enum)) {
		t.Errorf("%s: %s enum %v, spec %v", profile, path, enum, p.Enum)
	}
	if d, ok := p.Default.(string); ok && len(p.Enum) > 0 && !contains(p.Enum, d) {
		t.Errorf("%s: default %q is not one of %v", path, d, p.Enum)
	}
	if profile == "full" && len(p.Examples) > 0 {
		var examples []any
		_ = remarshal(p.Examples, &examples)
		if !reflect.DeepEqual(prop["examples"], examples) {
			t.Errorf("%s: %s examples %v, spec %v", profile, path, prop["examples"], examples)
		}
	}
	if n, _ := prop["maxLength"].(float64); int(n) != p.MaxLength {
		t.Errorf("%s: %s maxLength %v, spec %d", profile, path, prop["maxLength"], p.MaxLength)
	}
	switch p.Type {
	case operation.Object:
		checkObject(t, profile, path+".", prop, p.Fields, p.Nullable)
	case operation.Map:
		if !reflect.DeepEqual(prop["additionalProperties"], map[string]any{"type": "string"}) {
			t.Errorf("%s: %s is no map of strings: %v", profile, path, prop)
		}
	case operation.Array:
		n, _ := prop["minItems"].(float64)
		if prop["maxItems"] != float64(p.MaxItems) || int(n) != p.MinItems {
			t.Errorf("%s: %s items %v..%v, spec %d..%d", profile, path, prop["minItems"], prop["maxItems"], p.MinItems, p.MaxItems)
		}
		items, _ := prop["items"].(map[string]any)
		checkParam(t, profile, path+"[]", items, *p.Items)
	}
}

// checkService: what the service fills for an absent parameter is the
// spec's default, it accepts the spec's bounds and refuses one past them.
func checkService(t *testing.T, sp operation.Spec, normalise func(map[string]any) (map[string]any, error)) {
	t.Helper()
	if normalise == nil {
		t.Fatalf("no serviceDefaults entry: every declared operation's defaults are checked against its service")
	}
	got, err := normalise(map[string]any{})
	if err != nil {
		t.Fatalf("service refuses the defaults: %v", err)
	}
	sp.Walk(func(path string, p operation.Param) {
		if p.Type != operation.Integer && p.Type != operation.String {
			return
		}
		if p.Default != nil {
			v, found := at(got, path)
			want, _ := json.Marshal(p.Default)
			have, _ := json.Marshal(v)
			zero := p.Default == 0 || p.Default == "" // recorded requests omit zero fields
			if (!found && !zero) || (found && string(have) != string(want)) {
				t.Errorf("%s: the service fills %s (found %v), spec default %s", path, have, found, want)
			}
		}
		if p.Type != operation.Integer || p.Default == nil || schemaOnlyBounds[sp.Name+" "+path] {
			return
		}
		// The bounds: the service takes the maximum and refuses one past
		// either bound as an invalid request (it may still fail
		// otherwise, e.g. when the input exceeds a small limit).
		for _, c := range []struct {
			v  int64
			ok bool
		}{{p.Max, true}, {p.Max + 1, false}, {p.Min - 1, false}} {
			if c.v == 0 {
				continue // zero means absent: the default (the schema refuses it when below the minimum)
			}
			_, err := normalise(nested(path, c.v))
			var ae *abi.Error
			refused := err != nil && (!errors.As(err, &ae) || ae.Code == abi.CodeInvalidRequest)
			if refused == c.ok {
				t.Errorf("%s=%d: service error %v, spec bounds %d..%d", path, c.v, err, p.Min, p.Max)
			}
		}
	})
}

// at reads a dotted path of a decoded JSON object.
func at(m map[string]any, path string) (any, bool) {
	head, rest, nestedPath := strings.Cut(path, ".")
	v, ok := m[head]
	if !ok || !nestedPath {
		return v, ok
	}
	sub, _ := v.(map[string]any)
	return at(sub, rest)
}

// nested is {a: {b: v}} for path a.b.
func nested(path string, v any) map[string]any {
	head, rest, more := strings.Cut(path, ".")
	if !more {
		return map[string]any{head: v}
	}
	return map[string]any{head: nested(rest, v)}
}

func remarshal(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

func asMap(v any) (map[string]any, error) {
	var m map[string]any
	return m, remarshal(v, &m)
}
