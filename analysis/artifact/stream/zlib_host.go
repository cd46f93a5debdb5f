//go:build !wasip1

package stream

import (
	"io"

	"github.com/klauspost/compress/zlib"
)

// newZlibReader opens a zlib block (a .dmg's UDZO chunk, a squashfs
// block) for the host, which decodes every file's blocks to hash and
// extract them: klauspost's inflate (a fork of compress/flate, the same
// format checks and the Adler-32 check) decodes text about a quarter
// faster, which is most of a .dmg inspection after SHA-256. The module
// decodes only metadata blocks and keeps the standard library
// (zlib_wasip1.go): klauspost's flate would add 170 KB to artifact.wasm.
func newZlibReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }
