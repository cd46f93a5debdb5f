//go:build darwin || freebsd

package sandbox

const mapNoReserve = 0

// populateWrite does nothing: there is no MADV_POPULATE_WRITE here.
func populateWrite([]byte) {}

// adviseHugePages does nothing: transparent huge pages are Linux's.
func adviseHugePages([]byte) {}

// releaseExecutableData does nothing here: rea releases executable data
// pages on Linux only (memory_linux.go).
func releaseExecutableData([]byte) {}
