//go:build !linux

/*
 * rea: the LZMA2 dictionary elsewhere (see dict_alloc_linux.go).
 */

package xz

/* hugeDictMin: as on Linux (the tests allocate around it). */
const hugeDictMin = 8 << 20

/* dictAlloc returns a zeroed dictionary buffer of n bytes. */
func dictAlloc(n int) []byte {
	return make([]byte, n)
}
