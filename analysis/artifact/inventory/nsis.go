package inventory

// Stream compressions of NSIS installers (makensis SetCompressor). A
// solid installer's data block is one such stream holding the script
// header and every file as [4-byte length][bytes] records; a non-solid
// installer compresses each item on its own, and each item is then a
// stream of its own (Offset 0, Length its decoded size). NSIS's "zlib"
// is raw DEFLATE: CompressionDeflateStream (solid) or CompressionDeflate
// (a non-solid item, inflated to exactly Size bytes).
const (
	// CompressionNSISLzmaStream: 5 bytes of LZMA properties (lc/lp/pb
	// byte, 32-bit dictionary size), then raw LZMA1 data that ends with
	// the end marker; no decoded size is stored.
	CompressionNSISLzmaStream = "nsis-lzma-stream"
	// CompressionNSISLzmaX86Stream is CompressionNSISLzmaStream whose
	// decoded bytes pass through the x86 BCJ filter (NSIS's filter flag
	// byte 1 before the properties, written by 7-Zip's own installer
	// builds); the stream range starts after the flag byte.
	CompressionNSISLzmaX86Stream = "nsis-lzma-x86-stream"
	// CompressionNSISBzip2Stream: NSIS's headerless bzip2 variant
	// (stream/nsisbzip2).
	CompressionNSISBzip2Stream = "nsis-bzip2-stream"
)
