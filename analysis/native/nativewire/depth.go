package nativewire

import (
	"strings"

	"rea/abi"
)

// Native depth: debug information (types, source lines) and navigation
// (code for a string, references to a name, call graph and paths, byte,
// constant and instruction-sequence search).
const (
	OpTypes           = "types"
	OpType            = "type"
	OpCodeForString   = "code_for_string"
	OpXrefsToName     = "xrefs_to_name"
	OpCallGraph       = "call_graph"
	OpCallPath        = "call_path"
	OpSearchBytes     = "search_bytes"
	OpSearchConstant  = "search_constant"
	OpSearchSequence  = "search_sequence"
	DefaultGraphDepth = 2
	MaxGraphDepth     = 5
	DefaultGraphNodes = 200
	MaxGraphNodes     = 2000
	DefaultPathDepth  = 5
	MaxPathDepth      = 10
	// DefaultStringLimit is find_code_for_string's page (at most MaxSearchLimit).
	DefaultStringLimit = 20
	MaxPaths           = 10
	// MaxSearchHits bounds the hits a byte, constant or sequence search
	// collects before it stops (reported as truncated).
	MaxSearchHits = 10_000
	// MaxSequence bounds an instruction sequence's length.
	MaxSequence = 16
	// MaxBytePattern bounds a byte pattern's length in bytes.
	MaxBytePattern = 256
	// MaxTypeMembers bounds the members read_type lists of one type.
	MaxTypeMembers = 2000
)

// DepthOperations lists the depth operations.
func DepthOperations() []string {
	return []string{OpTypes, OpType, OpCodeForString, OpXrefsToName, OpCallGraph, OpCallPath, OpSearchBytes, OpSearchConstant, OpSearchSequence}
}

// NormaliseDepth fills a depth operation's defaults and checks its bounds;
// the module and the host's agreement test call it alike.
func (p *Params) NormaliseDepth(op string) error {
	bound := func(v *int, def, max int, field string) error {
		if *v == 0 {
			*v = def
		}
		if *v < 1 || *v > max {
			return abi.Errorf(abi.CodeInvalidRequest, "%s must be between 1 and %d, got %d", field, max, *v).WithDetail("field", field)
		}
		return nil
	}
	switch op {
	case OpCallGraph:
		if err := bound(&p.Depth, DefaultGraphDepth, MaxGraphDepth, "depth"); err != nil {
			return err
		}
		if err := bound(&p.MaxNodes, DefaultGraphNodes, MaxGraphNodes, "max_nodes"); err != nil {
			return err
		}
		switch p.Direction {
		case "":
			p.Direction = "forward"
		case "forward", "backward":
		default:
			return abi.Errorf(abi.CodeInvalidRequest, "direction must be forward (callees) or backward (callers), got %q", p.Direction).WithDetail("field", "direction")
		}
	case OpCallPath:
		if err := bound(&p.Depth, DefaultPathDepth, MaxPathDepth, "max_depth"); err != nil {
			return err
		}
		switch p.Direction {
		case "":
			p.Direction = "forward"
		case "forward", "backward":
		default:
			return abi.Errorf(abi.CodeInvalidRequest, "direction must be forward or backward, got %q", p.Direction).WithDetail("field", "direction")
		}
	case OpCodeForString:
		if p.Mode == "" {
			p.Mode = "literal"
		}
		return p.Page(DefaultStringLimit, MaxSearchLimit)
	case OpTypes:
		if p.Mode == "" {
			p.Mode = "literal"
		}
	}
	return p.Page(DefaultLimit, MaxLimit)
}

// TypeSummary is one named type of the debug information.
type TypeSummary struct {
	// ID is the type's DWARF offset, which read_type accepts.
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	ByteSize int64  `json:"byte_size"`
	// Members counts fields (struct, union, class) or enumerators.
	Members int `json:"members"`
}

// Types is list_types' page.
type Types struct {
	Target  Target                `json:"target"`
	Pattern string                `json:"pattern,omitempty"`
	Types   abi.Page[TypeSummary] `json:"types"`
	// Duplicates counts same-name, same-kind, same-size types folded into
	// the first (one per compilation unit in C and C++).
	Duplicates  int      `json:"duplicates"`
	Limitations []string `json:"limitations"`
}

// TypeMember is one field of a struct, union or class, or one enumerator.
type TypeMember struct {
	Name       string `json:"name"`
	Type       string `json:"type,omitempty"`
	ByteOffset int64  `json:"byte_offset"`
	ByteSize   int64  `json:"byte_size"`
	BitOffset  int64  `json:"bit_offset,omitempty"`
	BitSize    int64  `json:"bit_size,omitempty"`
	Value      *int64 `json:"value,omitempty"`
}

// TypeDetail is read_type's result: the type, its C-like declaration and
// its members (struct layout) with offsets and sizes.
type TypeDetail struct {
	Target      Target               `json:"target"`
	Type        TypeSummary          `json:"type"`
	Declaration string               `json:"declaration"`
	Underlying  string               `json:"underlying,omitempty"`
	Members     abi.Page[TypeMember] `json:"members"`
	// Candidates are the other types of the same name (other sizes or kinds).
	Candidates  []TypeSummary `json:"candidates,omitempty"`
	Limitations []string      `json:"limitations"`
}

// SourceLine is an address's place in the source, from the DWARF line table.
type SourceLine struct {
	Address Addr   `json:"address"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column,omitempty"`
}

// SourceFacet is analyze_function's debug-information facet.
type SourceFacet struct {
	// Status: available, unavailable (with Reason).
	Status string      `json:"status"`
	Reason string      `json:"reason,omitempty"`
	Entry  *SourceLine `json:"entry,omitempty"`
	// Lines are the line table rows inside the procedure (at most MaxLimit).
	Lines     []SourceLine `json:"lines,omitempty"`
	Truncated bool         `json:"truncated,omitempty"`
}

// ProcedureRef names a procedure in navigation results.
type ProcedureRef struct {
	Address   Addr   `json:"address"`
	Name      string `json:"name"`
	Demangled string `json:"demangled,omitempty"`
}

// CodeUse is one instruction that references a string or a name.
type CodeUse struct {
	From      Addr          `json:"from"`
	Kind      string        `json:"kind"`
	Procedure *ProcedureRef `json:"procedure,omitempty"`
}

// StringUses is one matched string and the code that references it.
type StringUses struct {
	String     String    `json:"string"`
	Uses       []CodeUse `json:"uses"`
	Procedures int       `json:"procedures"`
}

// CodeForString is find_code_for_string's page over matched strings.
type CodeForString struct {
	Target  Target               `json:"target"`
	Pattern string               `json:"pattern"`
	Mode    string               `json:"mode,omitempty"`
	Strings abi.Page[StringUses] `json:"strings"`
	// Unreferenced counts matched strings no decoded instruction names
	// (they may still be reached through tables the sweep cannot see).
	Unreferenced int      `json:"unreferenced"`
	Limitations  []string `json:"limitations"`
}

// NameTarget is one address a name resolves to.
type NameTarget struct {
	Address Addr   `json:"address"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Source  string `json:"source"`
}

// XrefsToName is find_xrefs_to_name's result.
type XrefsToName struct {
	Target      Target            `json:"target"`
	Name        string            `json:"name"`
	Resolved    []NameTarget      `json:"resolved"`
	References  abi.Page[CodeUse] `json:"references"`
	Limitations []string          `json:"limitations"`
}

// GraphEdge is one call edge of a call graph.
type GraphEdge struct {
	Caller Addr   `json:"caller"`
	Callee Addr   `json:"callee"`
	Sites  int    `json:"sites"`
	Kind   string `json:"kind"`
}

// GraphNode is one procedure of a call graph with its hop count.
type GraphNode struct {
	ProcedureRef
	Depth    int  `json:"depth"`
	External bool `json:"external,omitempty"`
	// Expanded is false for nodes at the depth limit or past max_nodes.
	Expanded bool `json:"expanded"`
}

// CallGraph is get_call_graph's bounded result; edges are paged.
type CallGraph struct {
	Target    Target              `json:"target"`
	Root      ProcedureRef        `json:"root"`
	Direction string              `json:"direction"`
	Depth     int                 `json:"depth"`
	Nodes     []GraphNode         `json:"nodes"`
	Edges     abi.Page[GraphEdge] `json:"edges"`
	// Truncated says max_nodes stopped the walk before the depth did.
	Truncated   bool     `json:"truncated"`
	Limitations []string `json:"limitations"`
}

// CallPath is trace_call_path's result: the shortest call chains from one
// procedure to another along direct call edges.
type CallPath struct {
	Target Target           `json:"target"`
	From   ProcedureRef     `json:"from"`
	To     ProcedureRef     `json:"to"`
	Found  bool             `json:"found"`
	Paths  [][]ProcedureRef `json:"paths"`
	// Explored counts procedures visited; Exhausted says the search
	// covered everything reachable within depth (no path means none).
	Explored    int      `json:"explored"`
	Exhausted   bool     `json:"exhausted"`
	Limitations []string `json:"limitations"`
}

// SearchHit is one match of a byte, constant or sequence search.
type SearchHit struct {
	Address   Addr          `json:"address"`
	Section   string        `json:"section"`
	Procedure *ProcedureRef `json:"procedure,omitempty"`
	// Text is the matched instructions (constant and sequence search) or
	// the matched bytes as hex (byte search).
	Text string `json:"text"`
}

// Search is a byte, constant or instruction-sequence search's page.
type Search struct {
	Target Target              `json:"target"`
	Query  string              `json:"query"`
	Hits   abi.Page[SearchHit] `json:"hits"`
	// Truncated says the search stopped at MaxSearchHits hits.
	Truncated bool `json:"truncated"`
	// Scanned counts bytes (byte search) or instructions scanned.
	Scanned     int64    `json:"scanned"`
	Limitations []string `json:"limitations"`
}

// ParseBytePattern reads "48 8b ?? 05" (spaces optional, ?? or ? a
// wildcard byte) into bytes and a mask of the bytes that must match.
func ParseBytePattern(s string) (pat []byte, mask []bool, err error) {
	t := strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), "\t", "")
	bad := func(why string) error {
		return abi.Errorf(abi.CodeInvalidRequest, "pattern %q is not a byte pattern (%s); write hex bytes with ?? for any byte, e.g. \"48 8b ?? 05\"", s, why).WithDetail("field", "pattern")
	}
	for len(t) > 0 {
		if t[0] == '?' {
			n := 1
			if len(t) > 1 && t[1] == '?' {
				n = 2
			}
			pat, mask, t = append(pat, 0), append(mask, false), t[n:]
			continue
		}
		if len(t) < 2 {
			return nil, nil, bad("odd number of hex digits")
		}
		hi, ok1 := hexVal(t[0])
		lo, ok2 := hexVal(t[1])
		if !ok1 || !ok2 {
			return nil, nil, bad("not hex: " + t[:2])
		}
		pat, mask, t = append(pat, hi<<4|lo), append(mask, true), t[2:]
	}
	if len(pat) == 0 {
		return nil, nil, bad("empty")
	}
	if len(pat) > MaxBytePattern {
		return nil, nil, bad("longer than 256 bytes")
	}
	fixed := false
	for _, m := range mask {
		fixed = fixed || m
	}
	if !fixed {
		return nil, nil, bad("only wildcards")
	}
	return pat, mask, nil
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
