//go:build unix

package nativetest

import (
	"os"
	"syscall"
)

// PeakRSS is a finished child's peak resident set in bytes, from rusage
// (Linux reports KiB). A child inherits the parent's high-water mark at
// exec, so start children while the benchmark's own RSS is still small, or
// measure through /usr/bin/time (MeasureCommand).
func PeakRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
