//go:build !linux

package capture

import (
	"io/fs"
	"sync"
)

// Capture runs only on Linux (platformSupported); these keep the package
// building elsewhere.
var subreaper = sync.OnceValue(func() error { return nil })

func reapAdopted(int) {}

// fsClassifier knows no pseudo-filesystems outside Linux.
type fsClassifier struct{}

func newFSClassifier() *fsClassifier                                 { return &fsClassifier{} }
func (*fsClassifier) pseudo(string, fs.FileInfo, fs.FileInfo) string { return "" }
