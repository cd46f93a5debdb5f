//go:build unix

package devtools

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the program in a process group of its own, so
// that Close ends its helpers (renderers, GPU, zygote) with it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
