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

// madvDontNeed is MADV_DONTNEED.
const madvDontNeed = 4

// releaseExecutableData drops the resident pages of b, which must be
// read-only data mapped from rea's own executable (an embedded module's
// bytes, handed to wazero in place): such pages were never written, so the
// kernel reads them back from the file, unchanged, if they are touched
// again. A load from the compile cache reads a module's every byte (its
// digest, wazero's decoding) and never again, and on a small application
// those ~30 MB of file pages were a sixth of the peak RSS. Never call it on
// memory rea writes: private pages that were written would read back as
// zeros.
func releaseExecutableData(b []byte) {
	const page = 4096
	if len(b) < 2*page {
		return
	}
	first := uintptr(unsafe.Pointer(&b[0]))
	start := (first + page - 1) &^ (page - 1)
	end := (first + uintptr(len(b))) &^ (page - 1)
	if end > start {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvDontNeed)
	}
}
