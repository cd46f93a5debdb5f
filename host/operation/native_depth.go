package operation

// Native depth: debug information (types, struct layouts) and navigation
// (code for a string, references to a name, call graph and call paths,
// byte, constant and instruction-sequence search), run by the native
// module over one binary.

// NativeDepth lists the native depth operations.
func NativeDepth() []Spec {
	return []Spec{ListTypes(), ReadType(), FindCodeForString(), FindXrefsToName(), GetCallGraph(), TraceCallPath(),
		SearchBytes(), SearchConstant(), SearchInstructions(), DiffBinaries()}
}

const exampleBinary = "/usr/bin/example"

// binaryParams are the parameters every native depth tool takes: the
// binary (the CLI's positional argument), the provider and the slice.
func binaryParams() []Param {
	return []Param{
		{Name: "input_path", Type: String, Required: true, Description: "Native binary (ELF, PE, Mach-O, universal Mach-O) on the local file system.",
			Examples: []any{exampleBinary}},
		{Name: "provider_id", Type: String, Description: "Deep provider: a concrete id (native-lite) or auto (default: REA_ANALYSIS_PROVIDER, then auto).",
			Flag: &Flag{Name: "provider", Help: "analysis provider: auto or an id from `rea providers` (default: REA_ANALYSIS_PROVIDER, then auto)"}},
		{Name: "architecture", Type: String, Enum: []string{"x86", "x86_64", "arm", "arm64"}, Description: "Slice of a universal Mach-O (default the first).",
			Flag: &Flag{Name: "architecture"}},
	}
}

// pageParams are offset and a limit with the tool's default and maximum.
func pageParams(what string, def, max int64) []Param {
	return []Param{
		{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First " + what + " of the page (default 0).", Flag: &Flag{Name: "offset"}},
		{Name: "limit", Type: Integer, Min: 1, Max: max, Default: int(def), Description: what + "s per page (" + defaultWords(def, max) + ").", Flag: &Flag{Name: "limit"}},
	}
}

func defaultWords(def, max int64) string {
	if def == max {
		return "default and maximum " + itoa(def)
	}
	return "default " + itoa(def) + ", at most " + itoa(max)
}

func itoa(n int64) string {
	s := ""
	for i, d := 0, n; ; i++ {
		if i > 0 && i%3 == 0 {
			s = "," + s
		}
		s = string(rune('0'+d%10)) + s
		d /= 10
		if d == 0 {
			break
		}
	}
	return s
}

func nativeSpec(name, title, cli, synopsis, short, desc string, args []Arg, params []Param, example map[string]any) Spec {
	ex := map[string]any{"input_path": exampleBinary}
	for k, v := range example {
		ex[k] = v
	}
	return Spec{Name: name, Title: title, Family: "native", Description: desc, Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: append(binaryParams(), params...), Examples: []map[string]any{ex},
		CLI: &Command{Name: cli, Args: append([]Arg{{Name: "BINARY", Param: "input_path"}}, args...), Synopsis: synopsis, Short: short}}
}

func textMatch() []Param {
	return []Param{
		{Name: "mode", Type: String, Enum: []string{"literal", "regex"}, Default: "literal", Description: "literal (default) or a bounded RE2 regex.",
			Flag: &Flag{Name: "mode", Help: "literal or regex"}},
		{Name: "case_sensitive", Type: Boolean, Default: false, Description: "Match case exactly (default false).", Flag: &Flag{Name: "case-sensitive"}},
	}
}

// ListTypes pages the debug information's named types.
func ListTypes() Spec {
	return nativeSpec("list_types", "List debug-information types", "types", "BINARY", "List the named types (structs, unions, enums, typedefs) of a binary's DWARF",
		"Page the named type definitions of the binary's DWARF debug information (struct, union, class, enum, typedef, base) with kind, byte size, "+
			"member count and an id read_type accepts; a type repeated in every compilation unit is listed once (duplicates counted). Optional pattern "+
			"filters by name. A binary without DWARF fails with capability_unavailable (no_debug_info).",
		nil, append(append([]Param{{Name: "pattern", Type: String, Description: "Only types whose name matches (literal, or regex with mode regex).",
			Flag: &Flag{Name: "pattern"}}}, textMatch()...), pageParams("type", 100, 500)...), map[string]any{"pattern": "record"})
}

// ReadType reads one type: declaration and struct layout.
func ReadType() Spec {
	return nativeSpec("read_type", "Read a debug-information type", "type", "BINARY TYPE", "Read one DWARF type: declaration, struct layout with offsets, enum values",
		"Read one type of the binary's DWARF by exact name or id (from list_types): its C-like declaration, and its members — struct, union and class "+
			"fields with byte offset, size, bit offset and bit size, or enumerators with values — paged; a typedef names its underlying type. Other types of "+
			"the same name are listed as candidates.",
		[]Arg{{Name: "TYPE", Param: "type"}},
		append([]Param{{Name: "type", Type: String, Required: true, Description: "Exact type name or id (0x… from list_types)."}}, pageParams("member", 100, 500)...),
		map[string]any{"type": "rea_record"})
}

// FindCodeForString finds the code that uses a string.
func FindCodeForString() Spec {
	return nativeSpec("find_code_for_string", "Find code that uses a string", "code-for-string", "BINARY QUERY",
		"Find the instructions and procedures that reference strings matching a query",
		"Strings matching query (literal by default, or regex) → the instructions that reference each string's address → their containing procedures, "+
			"paged over the matched strings (at most 50 uses listed per string, with the count of distinct procedures). Strings no decoded instruction "+
			"references are counted as unreferenced: they may still be reached through tables the linear sweep cannot resolve.",
		[]Arg{{Name: "QUERY", Param: "query"}},
		append(append([]Param{{Name: "query", Type: String, Required: true, Description: "The text to look for in strings."}}, textMatch()...), pageParams("string", 20, 100)...),
		map[string]any{"query": "password"})
}

// FindXrefsToName resolves a name and lists the references to it.
func FindXrefsToName() Spec {
	return nativeSpec("find_xrefs_to_name", "Cross-references to a name", "xrefs-to-name", "BINARY NAME", "References to a procedure, symbol or import named exactly",
		"Resolve an exact name — a procedure (its name, alias or demangled C++/Rust name), a symbol, an import (name or name@plt) — to its addresses and "+
			"page the references (calls, jumps, reads, writes, address loads) to them, each with its containing procedure. An unknown name fails with "+
			"reason name_not_found.",
		[]Arg{{Name: "NAME", Param: "name"}},
		append([]Param{{Name: "name", Type: String, Required: true, Description: "Exact procedure, symbol or import name."}}, pageParams("reference", 100, 500)...),
		map[string]any{"name": "strcpy"})
}

// GetCallGraph walks direct call edges from a procedure.
func GetCallGraph() Spec {
	return nativeSpec("get_call_graph", "Call graph around a procedure", "call-graph", "BINARY PROCEDURE", "Bounded callee or caller graph of a procedure",
		"Breadth-first walk of direct call edges from a procedure: forward (callees) or backward (callers), at most depth hops and max_nodes "+
			"procedures; every node has its hop count and whether it was expanded, edges (caller, callee, call sites, kind) are paged. Indirect calls "+
			"are not followed; truncated says max_nodes stopped the walk.",
		[]Arg{{Name: "PROCEDURE", Param: "address"}},
		append([]Param{
			{Name: "address", Type: String, Required: true, Description: "Procedure to start from: entry address (0x…) or a name that identifies one procedure."},
			{Name: "direction", Type: String, Enum: []string{"forward", "backward"}, Default: "forward",
				Description: "forward (default): callees; backward: callers.", Flag: &Flag{Name: "direction", Help: "forward (callees) or backward (callers)"}},
			{Name: "depth", Type: Integer, Min: 1, Max: 5, Default: 2, Description: "Hops from the procedure (default 2, at most 5).", Flag: &Flag{Name: "depth"}},
			{Name: "max_nodes", Type: Integer, Min: 1, Max: 2000, Default: 200, Description: "Procedures in the graph (default 200, at most 2,000).",
				Flag: &Flag{Name: "max-nodes"}},
		}, pageParams("edge", 100, 500)...),
		map[string]any{"address": "main", "depth": 2})
}

// TraceCallPath finds the shortest direct-call chains between procedures.
func TraceCallPath() Spec {
	return nativeSpec("trace_call_path", "Call path between two procedures", "call-path", "BINARY START GOAL", "Shortest chains of direct calls from one procedure to another",
		"The shortest chains of direct calls from start to goal (forward: start calls … goal; backward: start is called by … goal), at most 10 "+
			"paths, by breadth-first search within max_depth hops. found false with exhausted true means no such chain of direct calls exists; "+
			"exhausted false means the search stopped at its bounds. Indirect calls are not followed.",
		[]Arg{{Name: "START", Param: "start"}, {Name: "GOAL", Param: "goal"}},
		[]Param{
			{Name: "start", Type: String, Required: true, Description: "Procedure the path starts at: entry address or unique name."},
			{Name: "goal", Type: String, Required: true, Description: "Procedure the path ends at: entry address or unique name."},
			{Name: "direction", Type: String, Enum: []string{"forward", "backward"}, Default: "forward",
				Description: "forward (default): along callees; backward: along callers.", Flag: &Flag{Name: "direction", Help: "forward (callees) or backward (callers)"}},
			{Name: "max_depth", Type: Integer, Min: 1, Max: 10, Default: 5, Description: "Calls in a path (default 5, at most 10).", Flag: &Flag{Name: "max-depth"}},
		},
		map[string]any{"start": "main", "goal": "strcpy"})
}

// SearchBytes finds a byte pattern with wildcards.
func SearchBytes() Spec {
	return nativeSpec("search_bytes", "Search bytes with wildcards", "search-bytes", "BINARY PATTERN", "Find a hex byte pattern (?? any byte) in the binary's loaded sections",
		"Find a byte pattern — hex bytes with ?? for any byte, e.g. \"48 8b ?? 05\", at most 256 bytes — in every loaded, file-backed section; "+
			"hits (address, section, containing procedure, matched bytes) are paged and the search stops at 10,000 hits (truncated).",
		[]Arg{{Name: "PATTERN", Param: "pattern"}},
		append([]Param{{Name: "pattern", Type: String, Required: true, Description: "Hex bytes, ?? for any byte."}}, pageParams("hit", 100, 500)...),
		map[string]any{"pattern": "e8 ?? ?? ?? ?? 85 c0"})
}

// SearchConstant finds instructions with a constant operand.
func SearchConstant() Spec {
	return nativeSpec("search_constant", "Search instructions for a constant", "search-constant", "BINARY VALUE", "Find instructions with a constant operand (immediate or displacement)",
		"Decode every procedure and find the instructions with value as an operand (immediate or displacement, hex or decimal, negative values also "+
			"as two's complement); hits are paged with their procedure, and the search stops at 10,000 hits or 20,000,000 instructions (truncated).",
		[]Arg{{Name: "VALUE", Param: "value"}},
		append([]Param{{Name: "value", Type: String, Required: true, Description: "Integer constant: hex (0x5eed1) or decimal (42, -1)."}}, pageParams("hit", 100, 500)...),
		map[string]any{"value": "0x5eed1"})
}

// SearchInstructions finds an instruction sequence.
func SearchInstructions() Spec {
	seqItem := Param{Type: String, Description: "A mnemonic (push), a text prefix (mov rbp, rsp) or * for any instruction."}
	return nativeSpec("search_instructions", "Search an instruction sequence", "search-instructions", "BINARY --sequence INSN...",
		"Find consecutive instructions matching mnemonics or text prefixes",
		"Decode every procedure and find runs of consecutive instructions matching sequence: each item a mnemonic (imul), a text prefix of the "+
			"instruction (mov rbp, rsp) or * for any; at most 16 items. Hits are paged with their procedure and text; the search stops at 10,000 "+
			"hits or 20,000,000 instructions (truncated).",
		nil,
		append([]Param{{Name: "sequence", Type: Array, Required: true, Items: &seqItem, MaxItems: 16, Description: "Instructions in order (at most 16).",
			Flag: &Flag{Name: "sequence", Help: "one instruction of the sequence, in order (repeat the flag)", Required: true}}}, pageParams("hit", 100, 500)...),
		map[string]any{"sequence": []any{"push", "mov rbp, rsp"}})
}

// DiffBinaries matches every function of two builds.
func DiffBinaries() Spec {
	sp := nativeSpec("diff_binaries", "Diff two builds of a binary", "diff-binaries", "OLD NEW", "Match every function of two builds: changed, added, removed with similarity",
		"Match every function of two builds of a native binary unique-only — by name (not synthetic sub_ names), then by a hash of the "+
			"instructions with addresses normalised, then by a fingerprint of CFG shape, referenced strings and named callees — and report each "+
			"function unchanged (counted), changed (with similarity 0..1 over instructions, CFG shape, strings and callees), added, removed, or "+
			"ambiguous when several functions share a fingerprint (never guessed). Changes are paged, most different first. With compare_changed N "+
			"the first N changed pairs' analyze_function dossiers are compared by compare_functions and its Evidence id returned.",
		[]Arg{{Name: "NEW", Param: "other_path"}},
		append([]Param{
			{Name: "other_path", Type: String, Required: true, Description: "The newer build (the older is input_path)."},
			{Name: "compare_changed", Type: Integer, Min: 0, Max: 20, Default: 0,
				Description: "Changed pairs to compare with compare_functions (default 0, at most 20).", Flag: &Flag{Name: "compare-changed"}},
		}, pageParams("change", 100, 500)...),
		map[string]any{"other_path": "/usr/bin/example.new"})
	sp.CLI.Args[0].Name = "OLD"
	return sp
}
