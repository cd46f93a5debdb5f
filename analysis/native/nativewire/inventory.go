package nativewire

import "fmt"

// Procedure kinds and sources.
const (
	KindFunction = "function"
	KindThunk    = "thunk"
	KindExternal = "external"

	SourceSymbol     = "symbol"
	SourceEntry      = "entry"
	SourceExport     = "export"
	SourceStub       = "stub"
	SourceCallTarget = "call-target"
	// SourceAddressTaken is code whose address an instruction loads (a
	// function pointer, such as main handed to __libc_start_main).
	SourceAddressTaken = "address-taken"
	SourceImport       = "import"
)

// Procedure is one function the inventory knows of.
type Procedure struct {
	Address Addr   `json:"address"`
	Name    string `json:"name"`
	// Size is the symbol's size, or the distance to the next procedure or
	// the section end when the symbol has none (SizeBasis says which).
	Size      uint64   `json:"size"`
	SizeBasis string   `json:"size_basis"`
	Section   string   `json:"section"`
	Kind      string   `json:"kind"`
	Source    string   `json:"source"`
	External  bool     `json:"external"`
	Thunk     bool     `json:"thunk"`
	Target    string   `json:"thunk_target,omitempty"`
	Aliases   []string `json:"aliases,omitempty"`
	// Demangled is the C++ or Rust name Name encodes, when it is mangled.
	Demangled string `json:"demangled,omitempty"`
}

// End is the exclusive end address.
func (p Procedure) End() Addr { return p.Address + Addr(p.Size) }

// CallEdge is one direct call site. It holds no pointer, so the hundreds
// of thousands of a large binary sort and copy without GC work.
type CallEdge struct {
	Caller Addr     `json:"caller"`
	Site   Addr     `json:"site"`
	Callee Addr     `json:"callee"`
	Kind   EdgeKind `json:"kind"`
}

// EdgeKind is how a call edge transfers control.
type EdgeKind uint8

// Edge kinds: call, tail-jump (a direct jump to another procedure's
// entry), import (a call through an import slot).
const (
	EdgeCall EdgeKind = iota
	EdgeTailJump
	EdgeImport
)

var edgeKinds = [...]string{"call", "tail-jump", "import"}

func (k EdgeKind) String() string {
	if int(k) < len(edgeKinds) {
		return edgeKinds[k]
	}
	return "unknown"
}

// MarshalText writes the kind's name.
func (k EdgeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *EdgeKind) UnmarshalText(b []byte) error {
	for i, n := range edgeKinds {
		if n == string(b) {
			*k = EdgeKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown call edge kind %q", b)
}

// Reference is one operand that names an address.
type Reference struct {
	From Addr `json:"from"`
	// Procedure containing From, when one does.
	Procedure *Addr  `json:"procedure,omitempty"`
	To        Addr   `json:"to"`
	Kind      string `json:"kind"`
}

// Name is one entry of list_names.
type Name struct {
	Address Addr   `json:"address"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Source  string `json:"source"`
	// Primary marks the name a procedure is listed under.
	Primary bool `json:"primary"`
}

// Instruction is one disassembled instruction.
type Instruction struct {
	Address Addr   `json:"address"`
	Bytes   string `json:"bytes"`
	Text    string `json:"text"`
	Flow    string `json:"flow"`
	Target  *Addr  `json:"target,omitempty"`
}

// Block is one basic block of a procedure's local control-flow graph.
type Block struct {
	Start        Addr   `json:"start"`
	End          Addr   `json:"end"`
	Instructions int    `json:"instructions"`
	Terminator   string `json:"terminator"`
	Successors   []Addr `json:"successors"`
}

// String encodings.
const (
	EncodingASCII   = "ascii"
	EncodingUTF16LE = "utf-16le"
)

// String is one printable run found in a non-code section.
type String struct {
	Address    Addr   `json:"address"`
	FileOffset int64  `json:"file_offset"`
	Section    string `json:"section"`
	Encoding   string `json:"encoding"`
	// Length counts characters; ByteLength the bytes without terminator.
	Length     int    `json:"length"`
	ByteLength int    `json:"byte_length"`
	Terminated bool   `json:"terminated"`
	Value      string `json:"value"`
	Truncated  bool   `json:"truncated"`
}
