//go:build !linux

package app

// walkTreeFast needs Linux's openat2; elsewhere walkTreeRoot walks.
func walkTreeFast(mountDir, dir string, w keyWriter, walk *inputWalk) (int, bool, error) {
	return 0, false, nil
}
