/*
 * rea: the LZMA2 dictionary on Linux, on transparent huge pages.
 */

package xz

import (
	"syscall"
	"unsafe"
)

/*
 * hugeDictMin is the smallest dictionary worth huge pages: below it
 * the dictionary's 4 KiB pages fit the CPU's TLB reach, above it
 * nearly every long-distance match misses the TLB as well as the
 * cache.
 */
const hugeDictMin = 8 << 20

/*
 * dictAlloc returns a zeroed dictionary buffer of n bytes. A large one
 * is advised MADV_HUGEPAGE (on kernels whose transparent huge pages are
 * "madvise", the usual default) over the 2 MiB-aligned part of it: a
 * match copy at a long distance then costs a cache miss without a page
 * walk. The advice changes no byte; a kernel that refuses it leaves
 * 4 KiB pages.
 */
func dictAlloc(n int) []byte {
	b := make([]byte, n)
	if n < hugeDictMin {
		return b
	}
	const huge = 2 << 20
	start := uintptr(unsafe.Pointer(&b[0]))
	skip := int((huge - start%huge) % huge)
	if end := (n - skip) &^ (huge - 1); end > 0 {
		_ = syscall.Madvise(b[skip:skip+end], syscall.MADV_HUGEPAGE)
	}
	return b
}
