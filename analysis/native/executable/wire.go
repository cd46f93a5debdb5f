package executable

import "rea/analysis/native/nativewire"

// The vocabulary this package shares with the host lives in nativewire
// (the host reads results without linking the parsers); these names keep
// this package's code short.
type (
	Addr        = nativewire.Addr
	Section     = nativewire.Section
	Segment     = nativewire.Segment
	Symbol      = nativewire.Symbol
	Import      = nativewire.Import
	Export      = nativewire.Export
	Relocations = nativewire.Relocations
	Mitigation  = nativewire.Mitigation
	Limits      = nativewire.Limits
	Image       = nativewire.Image
	Procedure   = nativewire.Procedure
	CallEdge    = nativewire.CallEdge
	EdgeKind    = nativewire.EdgeKind
	Reference   = nativewire.Reference
	Name        = nativewire.Name
	Instruction = nativewire.Instruction
	Block       = nativewire.Block
	String      = nativewire.String
	SourceLine  = nativewire.SourceLine
)

const (
	FormatELF               = nativewire.FormatELF
	FormatPE                = nativewire.FormatPE
	FormatMachO             = nativewire.FormatMachO
	FormatMachOUniversal    = nativewire.FormatMachOUniversal
	StatusObserved          = nativewire.StatusObserved
	StatusInferred          = nativewire.StatusInferred
	StatusAbsent            = nativewire.StatusAbsent
	StatusUnknown           = nativewire.StatusUnknown
	DefaultMaxFileBytes     = nativewire.DefaultMaxFileBytes
	DefaultMaxSections      = nativewire.DefaultMaxSections
	DefaultMaxSegments      = nativewire.DefaultMaxSegments
	DefaultMaxSymbols       = nativewire.DefaultMaxSymbols
	DefaultMaxImports       = nativewire.DefaultMaxImports
	DefaultMaxRelocations   = nativewire.DefaultMaxRelocations
	DefaultMaxCodeBytes     = nativewire.DefaultMaxCodeBytes
	DefaultMaxStrings       = nativewire.DefaultMaxStrings
	DefaultMaxArchitectures = nativewire.DefaultMaxArchitectures
	KindFunction            = nativewire.KindFunction
	KindThunk               = nativewire.KindThunk
	KindExternal            = nativewire.KindExternal
	SourceSymbol            = nativewire.SourceSymbol
	SourceEntry             = nativewire.SourceEntry
	SourceExport            = nativewire.SourceExport
	SourceStub              = nativewire.SourceStub
	SourceCallTarget        = nativewire.SourceCallTarget
	SourceAddressTaken      = nativewire.SourceAddressTaken
	SourceImport            = nativewire.SourceImport
	EdgeCall                = nativewire.EdgeCall
	EdgeTailJump            = nativewire.EdgeTailJump
	EdgeImport              = nativewire.EdgeImport
	EncodingASCII           = nativewire.EncodingASCII
	EncodingUTF16LE         = nativewire.EncodingUTF16LE
)

// ParseAddr is nativewire.ParseAddr.
func ParseAddr(s string) (Addr, error) { return nativewire.ParseAddr(s) }
