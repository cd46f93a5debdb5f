// Package embedded holds the modules compiled into the rea binary.
//
// `make modules` writes metered modules into ./modules; a fresh clone has
// only the README there, so the binary still builds and reports
// module_unavailable until the modules are built.
package embedded

import (
	"embed"
	"io/fs"
	"unsafe"
)

//go:embed modules
var files embed.FS

// inPlace maps a module's file name to its bytes embedded as a string,
// filled by modules_gen.go, which `make modules` writes (wasm/cmd/embedindex)
// and which a fresh clone does not have.
var inPlace = map[string]string{}

// Modules returns the embedded module directory (NAME.wasm files).
func Modules() fs.FS {
	sub, err := fs.Sub(files, "modules")
	if err != nil {
		panic(err) // the directory is part of the source tree
	}
	return moduleFS{sub}
}

// moduleFS is the embedded module directory with ReadFileInPlace.
type moduleFS struct{ fs.FS }

// ReadFileInPlace returns the named module's bytes where the linker put
// them, without the copy fs.ReadFile makes, or false when the module was
// not embedded as a string. The bytes are in read-only memory: the caller
// must never write them (a write faults).
func (m moduleFS) ReadFileInPlace(name string) ([]byte, bool) {
	s, ok := inPlace[name]
	if !ok || len(s) == 0 {
		return nil, false
	}
	return unsafe.Slice(unsafe.StringData(s), len(s)), true
}
