//go:build !unix

package main

import (
	"io"
	"os"
)

// isTerminal reports whether r is an interactive terminal; without
// termios, a character device is taken for one.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
