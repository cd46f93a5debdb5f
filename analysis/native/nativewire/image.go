package nativewire

// Image is an opened binary's layout as inspect_binary_layout reports it.
type Image struct {
	Format        string   `json:"format"`
	Architecture  string   `json:"architecture"`
	Architectures []string `json:"architectures,omitempty"`
	Bits          int      `json:"bits"`
	ByteOrder     string   `json:"byte_order"`
	// Type: executable, shared-library, relocatable, core, bundle, other.
	Type        string       `json:"type"`
	Entry       *Addr        `json:"entry"`
	ImageBase   Addr         `json:"image_base"`
	Sections    []Section    `json:"sections"`
	Segments    []Segment    `json:"segments"`
	Symbols     []Symbol     `json:"-"`
	Imports     []Import     `json:"imports"`
	Exports     []Export     `json:"exports"`
	Libraries   []string     `json:"needed_libraries"`
	Interpreter string       `json:"interpreter,omitempty"`
	RPath       []string     `json:"rpath,omitempty"`
	RunPath     []string     `json:"runpath,omitempty"`
	Relocations Relocations  `json:"relocations"`
	Mitigations []Mitigation `json:"mitigations"`
	Limitations []string     `json:"limitations"`
	// SliceOffset is where a universal file's chosen slice starts.
	SliceOffset int64 `json:"slice_offset,omitempty"`
	FileSize    int64 `json:"file_size"`
}
