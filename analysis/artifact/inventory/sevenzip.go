package inventory

// Formats of 7-Zip archives and NSIS installers.
const (
	// FormatSevenZip is a 7-Zip archive: its members are addressed in the
	// decoded output of the folder (coder chain) that holds them.
	FormatSevenZip = "7z"
	// FormatNSIS is an NSIS installer (any makensis compressor, solid or
	// not): its data items are listed as files under the names the
	// install script gives them (else data/item-N), and a 7-Zip archive
	// stored among them (electron-builder's app-64.7z) is expanded as a
	// nested 7z container.
	FormatNSIS = "nsis"
)

// CompressionSevenZipFolder: Range.Folder describes a 7-Zip folder (packed
// streams and the coder chain that decodes them); Offset and Length address
// the folder's decoded output, as a gzip-stream range addresses the
// decompressed stream. StreamOffset and StreamLength span the folder's
// packed streams.
const CompressionSevenZipFolder = "7z-folder"

// Folder is one 7-Zip folder: coders whose inputs are either packed
// streams of the file or outputs of other coders (Bonds). Every coder has
// one output; the folder's output is the one output no bond consumes.
type Folder struct {
	// Packed are the packed streams, in the order of PackedInputs.
	Packed []PackedStream `json:"packed"`
	// PackedInputs names, for each packed stream, the coder input (counted
	// over all coders' inputs in order) it feeds.
	PackedInputs []int   `json:"packed_inputs"`
	Coders       []Coder `json:"coders"`
	// Bonds connect a coder input to another coder's output.
	Bonds []Bond `json:"bonds,omitempty"`
	// Sizes is the decoded size of each coder's output.
	Sizes []int64 `json:"sizes"`
	// CRC32 is the checksum the archive declares for the folder's output.
	CRC32 *uint32 `json:"crc32,omitempty"`
}

// PackedStream is Length bytes at Offset of the file.
type PackedStream struct {
	Offset int64 `json:"offset"`
	Length int64 `json:"length"`
}

// Coder is one decoding step: the 7-Zip method id and its properties (hex)
// and how many inputs it reads.
type Coder struct {
	Method string `json:"method"`
	Props  string `json:"props,omitempty"`
	Inputs int    `json:"inputs"`
}

// Bond feeds coder input In (counted over all coders) from coder Out's
// output.
type Bond struct {
	In  int `json:"in"`
	Out int `json:"out"`
}
