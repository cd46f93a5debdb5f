//go:build unix

package nativetest

import (
	"os"
	"syscall"
)

// peakRSS is a finished child's peak resident set in bytes, from rusage.
func peakRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
