// Package embedded holds the modules compiled into the rea binary.
//
// `make modules` writes metered modules into ./modules; a fresh clone has
// only the README there, so the binary still builds and reports
// module_unavailable until the modules are built.
package embedded

import (
	"embed"
	"io/fs"
)

//go:embed modules
var files embed.FS

// Modules returns the embedded module directory (NAME.wasm files).
func Modules() fs.FS {
	sub, err := fs.Sub(files, "modules")
	if err != nil {
		panic(err) // the directory is part of the source tree
	}
	return sub
}
