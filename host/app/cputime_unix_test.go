//go:build unix

package app

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user + system, every
// thread, wazero's compiled guest code included): on a loaded machine a
// benchmark's wall time says more about the other processes than about
// rea, its CPU time does not.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
