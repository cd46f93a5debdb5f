//go:build !unix

package app

import "os"

// childPeakRSS is unknown where there is no rusage.
func childPeakRSS(*os.ProcessState) int64 { return 0 }
