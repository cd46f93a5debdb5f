//go:build !unix

package nativetest

import "os"

// PeakRSS is unknown where there is no rusage.
func PeakRSS(*os.ProcessState) int64 { return 0 }
