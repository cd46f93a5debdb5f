package nativewire

import "rea/abi"

// Layout is inspect_binary_layout's normalized result.
type Layout struct {
	*Image
	SymbolCounts map[string]int   `json:"symbol_counts"`
	Symbols      abi.Page[Symbol] `json:"symbols"`
}

// Overview is binary_overview: exhaustive counts and a segment sample.
type Overview struct {
	Target           Target            `json:"target"`
	Procedures       int               `json:"procedure_count"`
	Functions        int               `json:"function_count"`
	Thunks           int               `json:"thunk_count"`
	Externals        int               `json:"external_count"`
	Strings          int               `json:"string_count"`
	StringsTruncated bool              `json:"strings_truncated"`
	Names            int               `json:"name_count"`
	CallEdges        int               `json:"call_edge_count"`
	References       int               `json:"reference_count"`
	Instructions     int64             `json:"instruction_count"`
	CodeBytes        int64             `json:"code_bytes"`
	Segments         abi.Page[Segment] `json:"segments"`
	Mitigations      []Mitigation      `json:"mitigations"`
	Limitations      []string          `json:"limitations"`
}

// Procedures is list_procedures / search_procedures.
type Procedures struct {
	Target     Target              `json:"target"`
	Pattern    string              `json:"pattern,omitempty"`
	Mode       string              `json:"mode,omitempty"`
	Procedures abi.Page[Procedure] `json:"procedures"`
}

// Strings is list_strings / search_strings.
type Strings struct {
	Target    Target           `json:"target"`
	Pattern   string           `json:"pattern,omitempty"`
	Mode      string           `json:"mode,omitempty"`
	Truncated bool             `json:"truncated"`
	Strings   abi.Page[String] `json:"strings"`
}

// Names is list_names.
type Names struct {
	Target Target         `json:"target"`
	Names  abi.Page[Name] `json:"names"`
}

// Segments is list_segments (exclusive ends are address + size).
type Segments struct {
	Target   Target    `json:"target"`
	Segments []Segment `json:"segments"`
	Sections []Section `json:"sections"`
}

// Call is a call edge with both ends named.
type Call struct {
	CallEdge
	CallerName string `json:"caller_name"`
	CalleeName string `json:"callee_name"`
}

// Calls is procedure_callers / procedure_callees.
type Calls struct {
	Target    Target         `json:"target"`
	Procedure Procedure      `json:"procedure"`
	Direction string         `json:"direction"`
	Calls     abi.Page[Call] `json:"calls"`
}

// Xrefs is xrefs: references to one address.
type Xrefs struct {
	Target     Target              `json:"target"`
	Address    Addr                `json:"address"`
	Name       string              `json:"name,omitempty"`
	References abi.Page[Reference] `json:"references"`
}

// Resolution is resolve_containing_procedure.
type Resolution struct {
	Target  Target `json:"target"`
	Address Addr   `json:"address"`
	// Status: in-procedure, not-in-procedure (inside a section, no
	// procedure covers it), outside-segment.
	Status    string     `json:"status"`
	Section   string     `json:"section,omitempty"`
	Procedure *Procedure `json:"procedure"`
	// SourceLine is the DWARF line table's file:line of the address.
	SourceLine *SourceLine `json:"source_line,omitempty"`
}

// FileOffset is address_to_file_offset.
type FileOffset struct {
	Target     Target `json:"target"`
	Address    Addr   `json:"address"`
	FileOffset int64  `json:"file_offset"`
	Section    string `json:"section"`
}

// Bytes is read_bytes: exactly Length bytes as hex, or an error.
type Bytes struct {
	Target  Target `json:"target"`
	Address Addr   `json:"address"`
	Length  int    `json:"length"`
	Hex     string `json:"hex"`
}

// Instructions is read_function_instructions / procedure_assembly.
type Instructions struct {
	Target       Target                `json:"target"`
	Procedure    Procedure             `json:"procedure"`
	Undecodable  int                   `json:"undecodable_bytes"`
	Instructions abi.Page[Instruction] `json:"instructions"`
}

// Facet is a dossier part that may be unavailable, with the reason.
type Facet struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Dossier is analyze_function: everything native-lite knows of one
// procedure, each collection paged with exact totals.
type Dossier struct {
	Target     Target    `json:"target"`
	Procedure  Procedure `json:"procedure"`
	Pseudocode Facet     `json:"pseudocode"`
	// ValueFlow is the high-pcode value-flow facet a decompiling provider
	// gives; native-lite reports it unavailable with the reason.
	ValueFlow         Facet                 `json:"value_flow"`
	Assembly          abi.Page[Instruction] `json:"assembly"`
	Undecodable       int                   `json:"undecodable_bytes"`
	Blocks            abi.Page[Block]       `json:"basic_blocks"`
	Callers           abi.Page[Call]        `json:"callers"`
	Callees           abi.Page[Call]        `json:"callees"`
	References        abi.Page[Reference]   `json:"references"`
	ReferencedStrings abi.Page[String]      `json:"referenced_strings"`
	ReferencedNames   abi.Page[Name]        `json:"referenced_names"`
	// Source is the DWARF facet: entry file:line and the line rows.
	Source      *SourceFacet `json:"source,omitempty"`
	Limitations []string     `json:"limitations"`
}

// References is procedure_references: the raw reference edges into or out
// of one procedure, with kinds.
type References struct {
	Target    Target    `json:"target"`
	Procedure Procedure `json:"procedure"`
	Direction string    `json:"direction"`
	// InstructionsScanned and Truncated say how much of an outgoing scan
	// max_instructions allowed.
	InstructionsScanned int                 `json:"instructions_scanned"`
	Truncated           bool                `json:"truncated"`
	References          abi.Page[Reference] `json:"references"`
}

// Defaults and maxima of procedure_references.
const (
	DefaultMaxInstructions = 500
	MaxMaxInstructions     = 5000
)
