package stream

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/ulikunitz/xz/lzma"

	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream/nsisbzip2"
)

// MaxNSISDictionary bounds the LZMA dictionary an NSIS stream may ask
// for: the decoder allocates it whole, and makensis's largest practical
// SetCompressorDictSize is well below (its default is 8 MiB).
const MaxNSISDictionary = 256 << 20

// isNSISStream reports whether compression is one of NSIS's streams.
func isNSISStream(compression string) bool {
	switch compression {
	case inventory.CompressionNSISLzmaStream, inventory.CompressionNSISLzmaX86Stream, inventory.CompressionNSISBzip2Stream:
		return true
	}
	return false
}

// nsisDecoder wraps src in the decoder of an NSIS stream compression;
// ok is false for any other compression.
func nsisDecoder(src io.Reader, compression string) (rc io.ReadCloser, ok bool, err error) {
	switch compression {
	case inventory.CompressionNSISBzip2Stream:
		return io.NopCloser(nsisbzip2.NewReader(src)), true, nil
	case inventory.CompressionNSISLzmaStream, inventory.CompressionNSISLzmaX86Stream:
		lr, err := NSISLzmaReader(src)
		if err != nil {
			return nil, true, err
		}
		if compression == inventory.CompressionNSISLzmaX86Stream {
			return io.NopCloser(&bcjReader{r: lr}), true, nil
		}
		return io.NopCloser(lr), true, nil
	}
	return nil, false, nil
}

// NSISLzmaReader decodes NSIS's LZMA: 5 bytes of properties and raw LZMA1
// data with an end marker. ulikunitz/xz/lzma reads the .lzma ("alone")
// format, which is the same properties followed by an 8-byte decoded
// size, so the reader is given that header with the size unknown (all
// ones: the data must end with the end marker, as makensis writes it).
func NSISLzmaReader(src io.Reader) (io.Reader, error) {
	var props [5]byte
	if _, err := io.ReadFull(src, props[:]); err != nil {
		return nil, fmt.Errorf("cannot read the NSIS LZMA properties: %w", err)
	}
	if props[0] >= 9*5*5 {
		return nil, fmt.Errorf("the NSIS LZMA properties byte %#x is invalid", props[0])
	}
	if dict := binary.LittleEndian.Uint32(props[1:]); dict > MaxNSISDictionary {
		return nil, fmt.Errorf("the NSIS LZMA stream asks for a %d-byte dictionary, more than rea allows (%d)", dict, MaxNSISDictionary)
	}
	head := append(props[:], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	lr, err := lzma.NewReader(io.MultiReader(bytes.NewReader(head), src))
	if err != nil {
		return nil, fmt.Errorf("cannot read the NSIS LZMA stream: %w", err)
	}
	return lr, nil
}
