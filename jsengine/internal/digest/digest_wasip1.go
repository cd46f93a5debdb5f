//go:build wasip1

package digest

import "unsafe"

// hostSHA256 is the host's "rea" "sha256" import (host/sandbox): it writes
// the sha256 of n bytes of linear memory at data to the 32 bytes at out and
// returns 0, or returns 1 when either range is outside memory. It charges
// fuel for the blocks it hashes.
//
//go:wasmimport rea sha256
//go:noescape
func hostSHA256(data unsafe.Pointer, n uint32, out unsafe.Pointer) uint32

// Sum256 is the sha256 of b, computed by the host.
func Sum256(b []byte) (sum [32]byte) {
	if hostSHA256(unsafe.Pointer(unsafe.SliceData(b)), uint32(len(b)), unsafe.Pointer(&sum)) != 0 {
		panic("digest: the host refused a sha256 of guest memory")
	}
	return sum
}

func sum256String(s string) (sum [32]byte) {
	if hostSHA256(unsafe.Pointer(unsafe.StringData(s)), uint32(len(s)), unsafe.Pointer(&sum)) != 0 {
		panic("digest: the host refused a sha256 of guest memory")
	}
	return sum
}
