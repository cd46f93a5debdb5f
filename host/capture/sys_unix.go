//go:build unix

package capture

import (
	"errors"
	"io"
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

// openNonBlocking opens a file for reading without ever blocking on it: a
// FIFO or device swapped in after the stat, or a pollable /proc file such
// as kmsg. Reads are plain read(2) calls on the non-blocking descriptor
// (never parked in Go's poller), so "would block" is an error, not a wait.
func openNonBlocking(path string) (io.ReadCloser, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return rawFile(fd), nil
}

type rawFile int

func (f rawFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return syscall.Close(int(f)) }
