//go:build !unix

package capture

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"

	"rea/abi"
)

// platformSupported refuses capture here: it owns processes through
// process groups, signals and /proc (see sys_unix.go), and a Windows port
// needs Job Objects to know every process a run started.
func platformSupported() *abi.Error {
	return abi.Errorf(abi.CodeCapabilityUnavailable,
		"process capture is not available on %s: rea owns and cleans up captured processes through Unix process groups and /proc; run it on Linux", runtime.GOOS).
		WithDetail("platform", runtime.GOOS)
}

var platformSignals = map[string]syscall.Signal{}

var errUnsupported = errors.New("not supported on " + runtime.GOOS)

func kill(int, syscall.Signal) error         { return errUnsupported }
func alreadyExited(error) bool               { return false }
func ownProcessGroup() int                   { return 0 }
func ownSessionID() int                      { return 0 }
func terminalSession() *syscall.SysProcAttr  { return nil }
func ownGroup() *syscall.SysProcAttr         { return nil }
func signalledBy(any) (syscall.Signal, bool) { return 0, false }

const sigStop = syscall.Signal(0x13)

func openNonBlocking(path string) (io.ReadCloser, error) { return os.Open(path) }
