//go:build wasip1

package stream

import (
	"compress/zlib"
	"io"
)

// newZlibReader opens a zlib block in the module with the standard
// library (see zlib_host.go for the host's).
func newZlibReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }
