package operation

import "fmt"

// The native-binary operations: layout and hardening, and the inventory
// tools over the bound deep provider (native-lite unless one is chosen).
// Every one is a command of its own on the CLI with the binary as its first
// argument; the paging defaults and maxima are each tool's own.

// Native lists the declared native operations.
func Native() []Spec {
	return []Spec{InspectBinaryLayout(), BinaryOverview(), ListProcedures(), SearchProcedures(), ListStrings(), SearchStrings(), ListNames(),
		ListSegments(), ReadFunctionInstructions(), ProcedureAssembly(), ProcedureCallers(), ProcedureCallees(), Xrefs(),
		ResolveContainingProcedure(), AddressToFileOffset(), ReadBytes(), ProcedureReferences(), AnalyzeFunction(), InspectElectronBinary()}
}

// Paging of the native tools (the native module's nativewire constants; a
// test holds them to the module).
const (
	nativeDefaultLimit      = 100
	nativeMaxLimit          = 500
	nativeMaxSearchLimit    = 100
	nativeInstructionLimit  = 64
	nativeMaxInstructionOff = 100_000
	nativeMaxReadBytes      = 4096
)

func nativeInput() Param {
	return Param{Name: "input_path", Type: String, Required: true, Description: "Native binary (ELF, PE, Mach-O, universal Mach-O) on the local file system."}
}

func nativeProvider() Param {
	return Param{Name: "provider_id", Type: String,
		Description: "Deep provider: a concrete id (native-lite, ghidra, hopper) or auto (default: REA_ANALYSIS_PROVIDER, then auto).",
		Flag:        &Flag{Name: "provider", Help: "analysis provider: auto or an id from `rea providers` (default: REA_ANALYSIS_PROVIDER, then auto)"}}
}

func nativeArchitecture() Param {
	return Param{Name: "architecture", Type: String, Enum: []string{"x86", "x86_64", "arm", "arm64"}, Description: "Slice of a universal Mach-O.",
		Flag: &Flag{Name: "architecture", Help: "slice of a universal Mach-O to read (x86_64, arm64, …; default the first)"}}
}

// nativeOffset and nativeLimit page one tool's items.
func nativeOffset(max int64) Param {
	return Param{Name: "offset", Type: Integer, Min: 0, Max: max, Default: 0, Description: "First item of the page (default 0).", Flag: &Flag{Name: "offset"}}
}

func nativeLimit(items string, def int, max int64) Param {
	return Param{Name: "limit", Type: Integer, Min: 1, Max: max, Default: def,
		Description: fmt.Sprintf("%s per page (default %d, at most %d).", items, def, max), Flag: &Flag{Name: "limit"}}
}

func nativeAddress(flag *Flag) Param {
	return Param{Name: "address", Type: String, Description: "Virtual address, e.g. 0x401000.", Flag: flag}
}

func nativeProcedure() Param {
	return Param{Name: "procedure", Type: String, Required: true, Description: "Procedure address (0x…) or a name that identifies one procedure."}
}

// nativeSearch are the parameters of a name or value search; the pattern is
// the command's second argument.
func nativeSearch() []Param {
	return []Param{
		{Name: "pattern", Type: String, Required: true, Description: "Search pattern: literal text, or a bounded RE2 regex with mode regex."},
		{Name: "mode", Type: String, Enum: []string{"literal", "regex"}, Description: "literal (default) or regex.",
			Flag: &Flag{Name: "mode", Help: "pattern mode: literal (default) or regex"}},
		{Name: "case_sensitive", Type: Boolean, Default: false, Description: "Match case exactly (default false).",
			Flag: &Flag{Name: "case-sensitive", Help: "match case exactly"}},
	}
}

// nativeSpec is one native tool: Family native, recording its Evidence in
// the session.
func nativeToolSpec(name, title, description string, params []Param, example map[string]any, cli *Command) Spec {
	ex := map[string]any{"input_path": exampleBinary}
	for k, v := range example {
		ex[k] = v
	}
	sp := Spec{Name: name, Title: title, Family: "native", Description: description, Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: append([]Param{nativeInput()}, params...), Examples: []map[string]any{ex}, CLI: cli}
	return sp
}

func binaryArgs(more ...Arg) []Arg {
	return append([]Arg{{Name: "BINARY", Param: "input_path"}}, more...)
}

// InspectBinaryLayout is the format, sections and hardening of a binary; it
// needs no deep provider.
func InspectBinaryLayout() Spec {
	return nativeToolSpec("inspect_binary_layout", "Binary layout and hardening",
		"Format, architecture, entry, sections and segments with permissions, a page of symbols, imports/exports, needed libraries, interpreter, "+
			"relocations and static mitigations (ELF NX/PIE/RELRO/canary/FORTIFY/CET/RPATH; PE ASLR/DEP/CFG/SafeSEH/signature; Mach-O PIE/signature/encryption), "+
			"each observed or inferred with its basis. Needs no deep provider. detail \"summary\" returns the summary view of the retained layout instead.",
		[]Param{nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Symbols", nativeDefaultLimit, nativeMaxLimit),
			// detail is MCP's choice of what to return (the CLI prints the
			// layout); it has no service default.
			{Name: "detail", Type: String, Enum: []string{"complete", "summary"},
				Description: "complete (default): the complete layout Evidence; summary: record it in the session and return its inspect_analysis_view " +
					"summary Evidence instead (parent_evidence_id names the retained layout)."}}, nil,
		&Command{Name: "layout", Args: binaryArgs(), Synopsis: "BINARY",
			Short: "Format, sections, segments, imports, libraries and static hardening of an ELF, PE or Mach-O binary"})
}

// BinaryOverview counts what the bound provider found.
func BinaryOverview() Spec {
	return nativeToolSpec("binary_overview", "Binary overview",
		"Exhaustive counts of procedures, strings, names, call edges and references, a sample of segments and the mitigations, from the bound provider.",
		[]Param{nativeProvider(), nativeArchitecture(), {Name: "limit", Type: Integer, Min: 1, Max: 50, Default: 10,
			Description: "Segments sampled (default 10, at most 50).", Flag: &Flag{Name: "limit"}}}, nil,
		&Command{Name: "analyze", Args: []Arg{{Name: "PATH", Param: "input_path"}}, Synopsis: "PATH",
			Short: "Overview of a native binary (directories and .asar go to the JavaScript application analysis)"})
}

// ListProcedures pages the procedures.
func ListProcedures() Spec {
	return nativeToolSpec("list_procedures", "List procedures",
		"Page the procedures found from symbol tables and direct call targets (thunks and externals marked); limit default 100, at most 500.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Procedures", nativeDefaultLimit, nativeMaxLimit)},
		map[string]any{"limit": 100},
		&Command{Name: "functions", Args: binaryArgs(), Synopsis: "BINARY", Short: "List procedures: symbols, stubs, the entry point and direct call targets"})
}

// SearchProcedures pages the procedures whose name matches.
func SearchProcedures() Spec {
	return nativeToolSpec("search_procedures", "Search procedures by name",
		"Page the procedures whose name matches pattern (literal, or bounded regex with mode regex); limit default 100, at most 100.",
		append([]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Procedures", nativeDefaultLimit, nativeMaxSearchLimit)}, nativeSearch()...),
		map[string]any{"pattern": "main"},
		&Command{Name: "search-procedures", Args: binaryArgs(Arg{Name: "PATTERN", Param: "pattern"}), Synopsis: "BINARY PATTERN",
			Short: "Search procedure names (literal, or --mode regex), paged"})
}

// ListStrings pages the strings.
func ListStrings() Spec {
	return nativeToolSpec("list_strings", "List strings",
		"Page ASCII and UTF-16 strings with section, address and length; with address, the string holding it.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Strings", nativeDefaultLimit, nativeMaxLimit),
			nativeAddress(&Flag{Name: "address", Help: "only the string holding this address"})}, nil,
		&Command{Name: "strings", Args: binaryArgs(), Synopsis: "BINARY",
			Short: "List ASCII and UTF-16LE strings of the data sections, with section, address and length"})
}

// SearchStrings pages the strings whose value matches.
func SearchStrings() Spec {
	return nativeToolSpec("search_strings", "Search strings",
		"Page the strings whose value matches pattern (literal, or bounded regex with mode regex); limit default 100, at most 100.",
		append([]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Strings", nativeDefaultLimit, nativeMaxSearchLimit)}, nativeSearch()...),
		map[string]any{"pattern": "password"},
		&Command{Name: "search-strings", Args: binaryArgs(Arg{Name: "PATTERN", Param: "pattern"}), Synopsis: "BINARY PATTERN",
			Short: "Search string values (literal, or --mode regex), paged"})
}

// ListNames pages the symbol and procedure names.
func ListNames() Spec {
	return nativeToolSpec("list_names", "List names",
		"Page symbol and procedure names; with address, the names at it.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("Names", nativeDefaultLimit, nativeMaxLimit),
			nativeAddress(&Flag{Name: "address", Help: "only the names at this address"})}, nil,
		&Command{Name: "names", Args: binaryArgs(), Synopsis: "BINARY", Short: "List symbol and procedure names by address"})
}

// ListSegments lists every segment and section; they are few, and not paged.
func ListSegments() Spec {
	return nativeToolSpec("list_segments", "List segments",
		"Segments and sections with addresses, sizes and permissions.",
		[]Param{nativeProvider(), nativeArchitecture()}, nil,
		&Command{Name: "segments", Args: binaryArgs(), Synopsis: "BINARY", Short: "List segments and sections with permissions (ends are exclusive)"})
}

func procedureArgs() []Arg { return binaryArgs(Arg{Name: "PROCEDURE", Param: "procedure"}) }

// instructionPage pages one procedure's instructions.
func instructionPage() []Param {
	return []Param{nativeProvider(), nativeArchitecture(), nativeOffset(nativeMaxInstructionOff),
		nativeLimit("Instructions", nativeInstructionLimit, nativeMaxLimit), nativeProcedure()}
}

// ReadFunctionInstructions pages a procedure's decoded instructions.
func ReadFunctionInstructions() Spec {
	return nativeToolSpec("read_function_instructions", "Read a procedure's instructions",
		"Page one procedure's decoded instructions (limit default 64, at most 500).",
		instructionPage(), map[string]any{"procedure": "main"},
		&Command{Name: "disassemble", Args: procedureArgs(), Synopsis: "BINARY PROCEDURE",
			Short: "Disassemble one procedure, paged (--offset ≤ 100000, --limit default 64, ≤ 500)"})
}

// ProcedureAssembly is one page of a procedure's assembly text; its page
// is as long as it may be unless limit says otherwise.
func ProcedureAssembly() Spec {
	params := instructionPage()
	params[3] = nativeLimit("Instructions", nativeMaxLimit, nativeMaxLimit)
	params[3].Description = "Instructions per page (default and maximum 500)."
	return nativeToolSpec("procedure_assembly", "Procedure assembly",
		"One page of a procedure's assembly text (limit default and maximum 500).",
		params, map[string]any{"procedure": "0x401000"},
		&Command{Name: "assembly", Args: procedureArgs(), Synopsis: "BINARY PROCEDURE",
			Short: "One page of a procedure's assembly text (--offset ≤ 100000, --limit default and maximum 500)"})
}

func callPage(direction string) []Param {
	return []Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit(direction, nativeDefaultLimit, nativeMaxLimit), nativeProcedure()}
}

// ProcedureCallers pages the call sites into a procedure.
func ProcedureCallers() Spec {
	return nativeToolSpec("procedure_callers", "Callers of a procedure", "Page the direct call sites into a procedure.",
		callPage("Call sites"), map[string]any{"procedure": "main"},
		&Command{Name: "callers", Args: procedureArgs(), Synopsis: "BINARY PROCEDURE", Short: "List the direct call sites into a procedure"})
}

// ProcedureCallees pages the calls out of a procedure.
func ProcedureCallees() Spec {
	return nativeToolSpec("procedure_callees", "Callees of a procedure", "Page the direct calls out of a procedure.",
		callPage("Calls"), map[string]any{"procedure": "main"},
		&Command{Name: "callees", Args: procedureArgs(), Synopsis: "BINARY PROCEDURE", Short: "List the direct call sites out of a procedure"})
}

func addressArgs() []Arg { return binaryArgs(Arg{Name: "ADDRESS", Param: "address"}) }

func requiredAddress() Param {
	p := nativeAddress(nil)
	p.Required = true
	return p
}

// Xrefs pages the references to an address.
func Xrefs() Spec {
	return nativeToolSpec("xrefs", "Cross-references to an address", "Page the references (calls, jumps, data) to an explicit address.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("References", nativeDefaultLimit, nativeMaxLimit), requiredAddress()},
		map[string]any{"address": "0x401000"},
		&Command{Name: "xrefs", Args: addressArgs(), Synopsis: "BINARY ADDRESS", Short: "List references (calls, jumps, reads, writes, address loads) to an address"})
}

// ResolveContainingProcedure maps an address to its procedure.
func ResolveContainingProcedure() Spec {
	return nativeToolSpec("resolve_containing_procedure", "Procedure containing an address",
		"Map an address to its procedure, or say whether it lies outside every section or in a section but no procedure.",
		[]Param{nativeProvider(), nativeArchitecture(), requiredAddress()}, map[string]any{"address": "0x401010"},
		&Command{Name: "resolve", Args: addressArgs(), Synopsis: "BINARY ADDRESS", Short: "Find the procedure containing an address (or say it is outside every section)"})
}

// AddressToFileOffset maps a virtual address to its file offset.
func AddressToFileOffset() Spec {
	return nativeToolSpec("address_to_file_offset", "Address to file offset",
		"Map a virtual address to its offset in the original file; an unmapped address fails explicitly.",
		[]Param{nativeProvider(), nativeArchitecture(), requiredAddress()}, map[string]any{"address": "0x401000"},
		&Command{Name: "file-offset", Args: addressArgs(), Synopsis: "BINARY ADDRESS", Short: "Map a virtual address to its offset in the file"})
}

// ReadBytes reads bytes at an address; both front ends default to 16.
func ReadBytes() Spec {
	return nativeToolSpec("read_bytes", "Read bytes at an address",
		"Exactly length (default 16, at most 4,096) bytes at an address, as hex.",
		[]Param{nativeProvider(), nativeArchitecture(), requiredAddress(),
			{Name: "length", Type: Integer, Min: 1, Max: nativeMaxReadBytes, Default: 16, Description: "Bytes to read (default 16, at most 4,096).",
				Flag: &Flag{Name: "length"}}},
		map[string]any{"address": "0x401000", "length": 64},
		&Command{Name: "read-bytes", Args: addressArgs(), Synopsis: "BINARY ADDRESS", Short: "Read up to 4096 bytes at a virtual address, as hex"})
}

// ProcedureReferences pages the references into or out of a procedure.
func ProcedureReferences() Spec {
	sp := nativeToolSpec("procedure_references", "References of a procedure",
		"Page the references into (direction in) or out of (direction out) a procedure: calls, jumps, reads, writes and address loads.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeOffset(1 << 31), nativeLimit("References", nativeDefaultLimit, nativeMaxLimit), nativeProcedure(),
			{Name: "direction", Type: String, Enum: []string{"in", "out"}, Default: "out",
				Description: "out (default): references from the procedure; in: references to it."},
			{Name: "max_instructions", Type: Integer, Min: 1, Max: 5000, Default: 500,
				Description: "Instructions scanned for references out (default 500, at most 5,000)."}},
		map[string]any{"procedure": "main", "direction": "out"}, nil)
	sp.OneSidedReason = "the CLI shows a procedure's references in `rea function` (the dossier) and references to an address in `rea xrefs`"
	return sp
}

// AnalyzeFunction is one function's dossier.
func AnalyzeFunction() Spec {
	sp := nativeToolSpec("analyze_function", "Function dossier",
		"One function's dossier: an assembly page, basic blocks and local CFG, callers and callees, references, referenced strings and names, exact "+
			"truncation counts; the pseudocode facet is reported unavailable with its reason.",
		[]Param{nativeProvider(), nativeArchitecture(), nativeProcedure(),
			{Name: "assembly", Type: Object, Description: "The assembly page, paged on its own: {offset, limit}.", Fields: []Param{
				{Name: "offset", Type: Integer, Min: 0, Max: nativeMaxInstructionOff, Default: 0,
					Description: "First instruction of the assembly page (default 0).", Flag: &Flag{Name: "assembly-offset"}},
				{Name: "limit", Type: Integer, Min: 1, Max: nativeMaxLimit, Default: nativeInstructionLimit,
					Description: "Instructions in the assembly page (default 64, at most 500).", Flag: &Flag{Name: "assembly-limit"}}}},
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0,
				Description: "First item of every other page: blocks, callers, callees, references, strings, names (default 0).", Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: nativeMaxLimit, Default: nativeDefaultLimit,
				Description: "Items of every other page (default 100, at most 500).", Flag: &Flag{Name: "limit"}}},
		map[string]any{"procedure": "main"},
		&Command{Name: "function", Args: procedureArgs(), Synopsis: "BINARY PROCEDURE",
			Short: "Dossier of one procedure: assembly, basic blocks, callers, callees, references, strings and names"})
	sp.Aliases = []Alias{{Old: "assembly_offset", New: "assembly.offset"}, {Old: "assembly_limit", New: "assembly.limit"}}
	return sp
}

// InspectElectronBinary reads an Electron executable's fuse wire and
// versions; it needs no deep provider.
func InspectElectronBinary() Spec {
	sp := nativeToolSpec("inspect_electron_binary", "Electron fuses and versions",
		"Electron executable facts: the fuse wire after its sentinel (RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable, "+
			"EnableNodeCliInspectArguments, EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar, LoadBrowserProcessSpecificV8Snapshot, "+
			"GrantFileProtocolExtraPrivileges: enabled/disabled/removed), Electron and Chromium versions from its strings, and a finding per insecure "+
			"fuse with its consequence. A Windows executable's embedded ASAR integrity (resource INTEGRITY/ELECTRONASAR) is checked against the "+
			"header hash of each archive it names beside the executable (match/mismatch/missing, plus entries Electron's lookup cannot find). On macOS pass Contents/Frameworks/Electron Framework.framework/Electron Framework. Needs no deep provider.",
		nil, nil,
		&Command{Name: "inspect-electron-binary", Args: []Arg{{Name: "PATH", Param: "input_path"}}, Synopsis: "PATH",
			Short: "Fuse wire, Electron/Chromium versions and insecure fuses of an Electron executable"})
	sp.Examples = []map[string]any{{"input_path": "/opt/Example/example"}}
	return sp
}
