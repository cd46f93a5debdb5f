//go:build !unix

package devtools

import "os/exec"

// On systems without process groups only the program itself is ended; its
// children end when their parent does.
func ownProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
