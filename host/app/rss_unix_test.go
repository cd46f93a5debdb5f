//go:build unix

package app

import (
	"os"
	"syscall"
)

// childPeakRSS is a finished child's peak resident set in bytes (Linux
// reports KiB). A child inherits the parent's high-water mark at exec, so
// benchmarks start children while their own RSS is still small.
func childPeakRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
