//go:build unix

package capture

import (
	"errors"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"

	"rea/abi"
)

// The operating-system calls capture makes, here for Unix; sys_other.go
// says what other systems lack.

// platformSupported reports nil when process capture can run here: on
// Linux, where /proc lets rea find every process a run started (its token
// is in their environment) and verify cleanup. Other Unix systems have the
// signals but not that view, so they refuse rather than claim a cleanup
// they cannot check.
func platformSupported() *abi.Error {
	if runtime.GOOS == "linux" {
		return nil
	}
	return abi.Errorf(abi.CodeCapabilityUnavailable,
		"process capture is not available on %s: rea verifies that every captured process is gone through Linux's /proc; run it on Linux", runtime.GOOS).
		WithDetail("platform", runtime.GOOS)
}

// platformSignals are the signals a scenario may name beyond the portable
// set in portableSignals.
var platformSignals = map[string]syscall.Signal{
	"SIGUSR1": syscall.SIGUSR1, "SIGUSR2": syscall.SIGUSR2, "SIGCONT": syscall.SIGCONT,
	"SIGSTOP": syscall.SIGSTOP, "SIGTSTP": syscall.SIGTSTP, "SIGWINCH": syscall.SIGWINCH,
}

// kill sends sig to a process, or to a process group when id is negative.
func kill(id int, sig syscall.Signal) error { return syscall.Kill(id, sig) }

// alreadyExited tells a signal that found no process.
func alreadyExited(err error) bool { return errors.Is(err, syscall.ESRCH) }

// ownProcessGroup is rea's own process group, never a cleanup target.
func ownProcessGroup() int { return syscall.Getpgrp() }

// ownSessionID is rea's own session, never claimed as a whole.
func ownSessionID() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return -1
	}
	return sid
}

// terminalSession starts the command as a session leader whose controlling
// terminal is its stdin (the pseudo-terminal).
func terminalSession() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// ownGroup starts the command in a process group of its own.
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// signalledBy names the signal that ended a process, if one did.
func signalledBy(sys any) (syscall.Signal, bool) {
	if ws, ok := sys.(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal(), true
	}
	return 0, false
}

// sigStop freezes a process (the process limit stops a tree before
// killing it).
const sigStop = syscall.SIGSTOP

// openNonBlocking opens a file for reading without blocking on it (a FIFO
// or a device swapped in after the stat).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
