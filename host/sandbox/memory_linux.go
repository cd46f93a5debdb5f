package sandbox

import (
	"syscall"
	"unsafe"
)

// mapNoReserve keeps a large reservation from counting against overcommit.
const mapNoReserve = syscall.MAP_NORESERVE

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// populateWrite prefaults b writable; an older kernel's EINVAL is ignored.
func populateWrite(b []byte) {
	if len(b) > 0 {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), madvPopulateWrite)
	}
}

// madvHugePage is MADV_HUGEPAGE.
const madvHugePage = 14

// adviseHugePages asks for transparent huge pages over b (where THP is
// "madvise", the common default, nothing else enables them; where it is
// "never" this does nothing). A guest's heap is written once from the
// bottom up, and on virtual machines whose 4 KiB page faults cost tens of
// microseconds each, faulting it in by 2 MiB pages is an order of magnitude
// cheaper; RSS grows by at most the last partly used 2 MiB page.
func adviseHugePages(b []byte) {
	if len(b) > 0 {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), madvHugePage)
	}
}
