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
