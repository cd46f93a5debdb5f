package capture

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// removePrivateDir removes the private working directory rea made for a
// run, wherever the program moved it: dir is the directory held open since
// it was made, so its identity (device and inode) is known, and the kernel
// says where it is now (/proc/self/fd). A new directory the program made
// under the original name goes too. Directories the program made
// unwritable are made writable first.
func removePrivateDir(path string, dir *os.File) error {
	if dir == nil {
		return removeTree(path)
	}
	defer dir.Close()
	id, err := dir.Stat()
	if err != nil {
		return removeTree(path)
	}
	if st, err := os.Lstat(path); err == nil && os.SameFile(st, id) {
		return removeTree(path)
	}
	// Moved away (or deleted): find it by the open descriptor.
	var errs []error
	if _, err := os.Lstat(path); err == nil {
		errs = append(errs, removeTree(path))
	}
	now, err := os.Readlink(procRoot + "/self/fd/" + strconv.Itoa(int(dir.Fd())))
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("the private directory %s was moved and cannot be located: %w", path, err))
	case strings.HasSuffix(now, " (deleted)"):
		// The program removed it itself.
	default:
		if st, err := os.Lstat(now); err != nil || !os.SameFile(st, id) {
			errs = append(errs, fmt.Errorf("the private directory %s was moved to %s and replaced there; remove it by hand", path, now))
		} else {
			errs = append(errs, removeTree(now))
		}
	}
	return errors.Join(errs...)
}

// removeTree is os.RemoveAll that first gives rea write and search
// permission on every directory it owns in the tree (a program may have
// made a subdirectory read-only).
func removeTree(path string) error {
	if err := os.RemoveAll(path); err == nil {
		return nil
	}
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		} else if err != nil {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(path)
}
