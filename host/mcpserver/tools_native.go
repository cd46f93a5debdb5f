package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// nativeProps are the NativeRequest fields, one name per concept across
// every native tool; each tool advertises the ones it reads.
func nativeProps() map[string]Schema {
	return map[string]Schema{
		"input_path":       str("Native binary (ELF, PE, Mach-O, universal Mach-O) on the local file system."),
		"provider_id":      str("Deep provider: a concrete id (native-lite, ghidra, hopper) or auto (default: REA_ANALYSIS_PROVIDER, then auto)."),
		"architecture":     enum("Slice of a universal Mach-O.", "x86", "x86_64", "arm", "arm64"),
		"procedure":        str("Procedure address (0x…) or a name that identifies one procedure."),
		"address":          str("Virtual address, e.g. 0x401000."),
		"length":           integer("Bytes to read (at most 4,096).", 1, 4096),
		"pattern":          str("Search pattern: literal text, or a bounded RE2 regex with mode regex."),
		"mode":             enum("literal (default) or regex.", "literal", "regex"),
		"case_sensitive":   boolean("Match case exactly (default false)."),
		"offset":           integer("First item of the page (default 0).", 0, 1<<31),
		"limit":            integer("Page size (defaults and maxima per tool, at most 500).", 1, 500),
		"assembly_offset":  integer("analyze_function: first instruction of the assembly page.", 0, 100_000),
		"assembly_limit":   integer("analyze_function: instructions in the assembly page (default 64).", 1, 500),
		"direction":        enum("procedure_references: in (references to the procedure) or out (references from it).", "in", "out"),
		"max_instructions": integer("procedure_references: instructions scanned (at most 5,000).", 1, 5000),
		"detail": enum("complete (default): the complete layout Evidence; summary: record it in the session and return its inspect_analysis_view "+
			"summary Evidence instead (parent_evidence_id names the retained layout).", "complete", "summary"),
	}
}

// nativeTool declares one native tool over its app service.
func nativeTool[T any](s *Server, name, title, cli, desc string, fields, required []string, example map[string]any,
	run func(*app.App, context.Context, app.NativeRequest, func(abi.Progress)) (*app.NativeResult[T], error)) *Tool {
	all := nativeProps()
	props := map[string]Schema{}
	for _, f := range append([]string{"input_path"}, fields...) {
		props[f] = all[f]
	}
	return &Tool{
		Name: name, Title: title, Family: "native", Modules: []string{"native"}, Description: desc,
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Input:    object("", props, append([]string{"input_path"}, required...)...),
		Examples: []map[string]any{example},
		CLI:      cli,
		Run: func(ctx context.Context, c *Call) (any, error) {
			var req app.NativeRequest
			if err := c.Decode(&req); err != nil {
				return nil, err
			}
			res, err := run(s.app, ctx, req, c.Progress)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		},
	}
}

func (s *Server) nativeTools() []*Tool {
	bin := "/usr/bin/example"
	ex := func(kv ...any) map[string]any {
		m := map[string]any{"input_path": bin}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	deep := []string{"provider_id", "architecture"}
	page := append(append([]string{}, deep...), "offset", "limit")
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	return append([]*Tool{
		withSummaryDetail(nativeTool(s, "inspect_binary_layout", "Binary layout and hardening", "layout",
			"Format, architecture, entry, sections and segments with permissions, a page of symbols, imports/exports, needed libraries, interpreter, "+
				"relocations and static mitigations (ELF NX/PIE/RELRO/canary/FORTIFY/CET/RPATH; PE ASLR/DEP/CFG/SafeSEH/signature; Mach-O PIE/signature/encryption), "+
				"each observed or inferred with its basis. Needs no deep provider. detail \"summary\" returns the summary view of the retained layout instead.",
			[]string{"architecture", "offset", "limit", "detail"}, nil, ex(), (*app.App).InspectBinaryLayout), "inspect_binary_layout"),
		nativeTool(s, "binary_overview", "Binary overview", "analyze",
			"Exhaustive counts of procedures, strings, names, call edges and references, a sample of segments and the mitigations, from the bound provider.",
			with(deep, "limit"), nil, ex(), (*app.App).BinaryOverview),
		nativeTool(s, "list_procedures", "List procedures", "functions",
			"Page the procedures found from symbol tables and direct call targets (thunks and externals marked); limit default 100, at most 500.",
			page, nil, ex("limit", 100), (*app.App).ListProcedures),
		nativeTool(s, "search_procedures", "Search procedures by name", "search",
			"Page the procedures whose name matches pattern (literal, or bounded regex with mode regex).",
			with(page, "pattern", "mode", "case_sensitive"), []string{"pattern"}, ex("pattern", "main"), (*app.App).SearchProcedures),
		nativeTool(s, "list_strings", "List strings", "strings",
			"Page ASCII and UTF-16 strings with section, address and length; with address, the string holding it.",
			with(page, "address"), nil, ex(), (*app.App).ListStrings),
		nativeTool(s, "search_strings", "Search strings", "search",
			"Page the strings whose value matches pattern (literal, or bounded regex with mode regex).",
			with(page, "pattern", "mode", "case_sensitive"), []string{"pattern"}, ex("pattern", "password"), (*app.App).SearchStrings),
		nativeTool(s, "list_names", "List names", "names",
			"Page symbol and procedure names; with address, the names at it.",
			with(page, "address"), nil, ex(), (*app.App).ListNames),
		nativeTool(s, "list_segments", "List segments", "segments",
			"Segments and sections with addresses, sizes and permissions.",
			page, nil, ex(), (*app.App).ListSegments),
		nativeTool(s, "read_function_instructions", "Read a procedure's instructions", "disassemble",
			"Page one procedure's decoded instructions (limit default 64, at most 500).",
			with(page, "procedure"), []string{"procedure"}, ex("procedure", "main"), (*app.App).ReadFunctionInstructions),
		nativeTool(s, "procedure_assembly", "Procedure assembly", "disassemble",
			"One page of a procedure's assembly text.",
			with(page, "procedure"), []string{"procedure"}, ex("procedure", "0x401000"), (*app.App).ProcedureAssembly),
		nativeTool(s, "procedure_callers", "Callers of a procedure", "callers",
			"Page the direct call sites into a procedure.",
			with(page, "procedure"), []string{"procedure"}, ex("procedure", "main"), (*app.App).ProcedureCallers),
		nativeTool(s, "procedure_callees", "Callees of a procedure", "callees",
			"Page the direct calls out of a procedure.",
			with(page, "procedure"), []string{"procedure"}, ex("procedure", "main"), (*app.App).ProcedureCallees),
		nativeTool(s, "xrefs", "Cross-references to an address", "xrefs",
			"Page the references (calls, jumps, data) to an explicit address.",
			with(page, "address"), []string{"address"}, ex("address", "0x401000"), (*app.App).Xrefs),
		nativeTool(s, "resolve_containing_procedure", "Procedure containing an address", "resolve",
			"Map an address to its procedure, or say whether it lies outside every section or in a section but no procedure.",
			with(deep, "address"), []string{"address"}, ex("address", "0x401010"), (*app.App).ResolveContainingProcedure),
		nativeTool(s, "address_to_file_offset", "Address to file offset", "file-offset",
			"Map a virtual address to its offset in the original file; an unmapped address fails explicitly.",
			with(deep, "address"), []string{"address"}, ex("address", "0x401000"), (*app.App).AddressToFileOffset),
		nativeTool(s, "read_bytes", "Read bytes at an address", "read-bytes",
			"Exactly length (at most 4,096) bytes at an address, as hex.",
			with(deep, "address", "length"), []string{"address", "length"}, ex("address", "0x401000", "length", 64), (*app.App).ReadBytes),
		oneSided(nativeTool(s, "procedure_references", "References of a procedure", "",
			"Page the references into (direction in) or out of (direction out) a procedure: calls, jumps, reads, writes and address loads.",
			with(page, "procedure", "direction", "max_instructions"), []string{"procedure"}, ex("procedure", "main", "direction", "out"), (*app.App).ProcedureReferences),
			"the CLI shows a procedure's references in `rea function` (the dossier) and references to an address in `rea xrefs`"),
		nativeTool(s, "analyze_function", "Function dossier", "function",
			"One function's dossier: an assembly page, basic blocks and local CFG, callers and callees, references, referenced strings and names, exact "+
				"truncation counts; the pseudocode facet is reported unavailable with its reason.",
			with(deep, "procedure", "assembly_offset", "assembly_limit"), []string{"procedure"}, ex("procedure", "main"), (*app.App).AnalyzeFunction),
		s.compareFunctionsTool(),
	}, s.nativeDepthTools()...)
}

// oneSided marks a tool that has no CLI command of its own, with the reason.
func oneSided(t *Tool, reason string) *Tool {
	t.CLI, t.OneSidedReason = "", reason
	return t
}

// compareFunctionsTool compares two sets of analyze_function Evidence.
func (s *Server) compareFunctionsTool() *Tool {
	return &Tool{
		Spec: spec(operation.CompareFunctions()),
		Run: func(ctx context.Context, c *Call) (any, error) {
			var in struct {
				Left   []json.RawMessage `json:"left"`
				Right  []json.RawMessage `json:"right"`
				Offset int               `json:"offset"`
				Limit  int               `json:"limit"`
			}
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			left, err := c.ResolveAll(in.Left, "left")
			if err != nil {
				return nil, err
			}
			right, err := c.ResolveAll(in.Right, "right")
			if err != nil {
				return nil, err
			}
			req := app.CompareFunctionsRequest{Left: left, Right: right, Offset: in.Offset, Limit: in.Limit}
			if ctx.Err() != nil {
				return nil, abi.Errorf(abi.CodeCancelled, "cancelled before the comparison; nothing was recorded")
			}
			res, err := s.app.CompareFunctions(req)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		},
	}
}
