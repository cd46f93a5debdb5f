package nativewire

// Limits bound what one Open and one Analyze may read and build, so a
// hostile header cannot make the parser allocate or loop without end.
type Limits struct {
	MaxFileBytes     int64 `json:"max_file_bytes,omitempty"`
	MaxSections      int   `json:"max_sections,omitempty"`
	MaxSegments      int   `json:"max_segments,omitempty"`
	MaxSymbols       int   `json:"max_symbols,omitempty"`
	MaxImports       int   `json:"max_imports,omitempty"`
	MaxRelocations   int   `json:"max_relocations,omitempty"`
	MaxCodeBytes     int64 `json:"max_code_bytes,omitempty"`
	MaxStrings       int   `json:"max_strings,omitempty"`
	MaxArchitectures int   `json:"max_architectures,omitempty"`
}

// Default limits: generous for real software (a 1 GiB binary, a Go
// binary's 100k symbols), small enough that a lie in a header is caught.
const (
	DefaultMaxFileBytes     = 1 << 30
	DefaultMaxSections      = 4096
	DefaultMaxSegments      = 1024
	DefaultMaxSymbols       = 2_000_000
	DefaultMaxImports       = 200_000
	DefaultMaxRelocations   = 20_000_000
	DefaultMaxCodeBytes     = 512 << 20
	DefaultMaxStrings       = 2_000_000
	DefaultMaxArchitectures = 16
)

// WithDefaults fills zero fields.
func (l Limits) WithDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxCodeBytes <= 0 {
		l.MaxCodeBytes = DefaultMaxCodeBytes
	}
	def(&l.MaxSections, DefaultMaxSections)
	def(&l.MaxSegments, DefaultMaxSegments)
	def(&l.MaxSymbols, DefaultMaxSymbols)
	def(&l.MaxImports, DefaultMaxImports)
	def(&l.MaxRelocations, DefaultMaxRelocations)
	def(&l.MaxStrings, DefaultMaxStrings)
	def(&l.MaxArchitectures, DefaultMaxArchitectures)
	return l
}
