package nativewire

import "rea/abi"

// Operations of the native module.
const (
	OpLayout       = "layout"
	OpOverview     = "overview"
	OpProcedures   = "procedures"
	OpStrings      = "strings"
	OpNames        = "names"
	OpSegments     = "segments"
	OpFunction     = "function"
	OpInstructions = "instructions"
	OpCallers      = "callers"
	OpCallees      = "callees"
	OpXrefs        = "xrefs"
	OpResolve      = "resolve"
	OpFileOffset   = "file_offset"
	OpReadBytes    = "read_bytes"
	OpReferences   = "references"
	// OpElectronBinary reads an Electron executable's fuse wire and versions.
	OpElectronBinary = "electron_binary"
)

// Operations lists every operation, for the module's handler table.
func Operations() []string {
	return []string{OpLayout, OpOverview, OpProcedures, OpStrings, OpNames, OpSegments, OpFunction, OpInstructions, OpCallers, OpCallees, OpXrefs, OpResolve, OpFileOffset, OpReadBytes, OpReferences, OpElectronBinary, OpTypes, OpType, OpCodeForString, OpXrefsToName, OpCallGraph, OpCallPath, OpSearchBytes, OpSearchConstant, OpSearchSequence, OpDiff}
}

// Paging defaults and maxima of REA's native tools.
const (
	DefaultLimit            = 100
	MaxLimit                = 500
	MaxSearchLimit          = 100
	DefaultInstructionLimit = 64
	MaxInstructionOffset    = 100_000
	MaxReadBytes            = 4096
	MaxPatternBytes         = 1024
	DefaultOverviewLimit    = 10
	MaxOverviewLimit        = 50
)

// Params is every operation's request; each reads the fields it needs.
type Params struct {
	// Input is the file's path inside the mount (default: the mount's only file).
	Input         string `json:"input,omitempty"`
	Mount         string `json:"mount,omitempty"`
	Architecture  string `json:"architecture,omitempty"`
	Procedure     string `json:"procedure,omitempty"`
	Address       *Addr  `json:"address,omitempty"`
	Length        int    `json:"length,omitempty"`
	Pattern       string `json:"pattern,omitempty"`
	Mode          string `json:"mode,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
	Offset        int    `json:"offset,omitempty"`
	Limit         int    `json:"limit,omitempty"`
	// AssemblyOffset/AssemblyLimit page a dossier's instructions.
	AssemblyOffset int `json:"assembly_offset,omitempty"`
	AssemblyLimit  int `json:"assembly_limit,omitempty"`
	MinString      int `json:"min_string,omitempty"`
	// Direction (in or out, default out) and MaxInstructions (default
	// 500, at most 5,000) shape procedure_references.
	Direction       string `json:"direction,omitempty"`
	MaxInstructions int    `json:"max_instructions,omitempty"`
	// Depth operations: a type by name or id (read_type), the procedure a
	// call path leads to, hops and nodes of a call graph, the constant to
	// search for and the mnemonic sequence to search.
	TypeName string `json:"type,omitempty"`
	Name     string `json:"name,omitempty"`
	// Other is the diff's second binary, inside OtherMount.
	Other    string   `json:"other,omitempty"`
	To       string   `json:"to,omitempty"`
	Depth    int      `json:"depth,omitempty"`
	MaxNodes int      `json:"max_nodes,omitempty"`
	Value    string   `json:"value,omitempty"`
	Sequence []string `json:"sequence,omitempty"`
	// MemoryLimitBytes is the sandbox's memory limit; the module keeps its
	// garbage collector's soft limit below it.
	MemoryLimitBytes uint64 `json:"memory_limit_bytes,omitempty"`
	Limits           Limits `json:"limits,omitempty"`
}

// Page fills the default limit and checks offset and limit against max.
func (p *Params) Page(def, max int) error {
	if p.Offset < 0 {
		return abi.Errorf(abi.CodeInvalidRequest, "offset must not be negative").WithDetail("field", "offset")
	}
	if p.Limit == 0 {
		p.Limit = def
	}
	if p.Limit < 1 || p.Limit > max {
		return abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d, got %d", max, p.Limit).WithDetail("field", "limit").
			WithDetail("maximum", max)
	}
	return nil
}

// Target names what was analysed so every answer is self-describing.
type Target struct {
	Format        string   `json:"format"`
	Architecture  string   `json:"architecture"`
	Architectures []string `json:"architectures,omitempty"`
	Type          string   `json:"type"`
	Entry         *Addr    `json:"entry"`
	FileSize      int64    `json:"file_size"`
}
