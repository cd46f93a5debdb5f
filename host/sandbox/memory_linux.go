package sandbox

import "syscall"

// mapNoReserve keeps a large reservation from counting against overcommit.
const mapNoReserve = syscall.MAP_NORESERVE
