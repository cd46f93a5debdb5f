//go:build !unix

package nativetest

import "os"

// peakRSS is unknown where there is no rusage.
func peakRSS(*os.ProcessState) int64 { return 0 }
