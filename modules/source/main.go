// Command source is the WebAssembly module that reads an application's
// JavaScript for people and agents: pages of source (pretty-printed when
// minified, mapped back to shipped and original positions), text search,
// bundle unpacking and source-map source extraction. A thin shell over
// analysis/jssource; nothing it reads is executed.
package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"runtime/debug"
	"strings"

	"rea/abi"
	"rea/analysis/jssource"
	"rea/analysis/jssource/sourcewire"
)

func main() {
	abi.Serve(map[string]abi.Handler{
		sourcewire.OpRead: func(raw json.RawMessage, _ *abi.Reporter) (any, error) {
			var p struct {
				sourcewire.ReadRequest
				Memory int64 `json:"memory_limit_bytes"`
			}
			if err := abi.DecodeParams(raw, &p); err != nil {
				return nil, err
			}
			fsys, err := openRoot(p.Root, p.Memory)
			if err != nil {
				return nil, err
			}
			return jssource.Read(fsys, p.ReadRequest)
		},
		sourcewire.OpSpans: func(raw json.RawMessage, _ *abi.Reporter) (any, error) {
			var p sourcewire.SpansRequest
			if err := abi.DecodeParams(raw, &p); err != nil {
				return nil, err
			}
			fsys, err := openRoot(p.Root, 0)
			if err != nil {
				return nil, err
			}
			return jssource.FileSpans(fsys, p)
		},
		sourcewire.OpSearch: func(raw json.RawMessage, _ *abi.Reporter) (any, error) {
			var p sourcewire.SearchRequest
			if err := abi.DecodeParams(raw, &p); err != nil {
				return nil, err
			}
			fsys, err := openRoot(p.Root, 0)
			if err != nil {
				return nil, err
			}
			return jssource.Search(fsys, p)
		},
		sourcewire.OpUnpack: func(raw json.RawMessage, _ *abi.Reporter) (any, error) {
			var p sourcewire.UnpackRequest
			if err := abi.DecodeParams(raw, &p); err != nil {
				return nil, err
			}
			fsys, err := openRoot(p.Root, 0)
			if err != nil {
				return nil, err
			}
			return jssource.Unpack(fsys, p)
		},
		sourcewire.OpExtract: func(raw json.RawMessage, _ *abi.Reporter) (any, error) {
			var p sourcewire.ExtractRequest
			if err := abi.DecodeParams(raw, &p); err != nil {
				return nil, err
			}
			fsys, err := openRoot(p.Root, 0)
			if err != nil {
				return nil, err
			}
			return jssource.ExtractSources(fsys, p)
		},
	})
}

// openRoot opens the mounted root, which must stay inside /in.
func openRoot(root string, memory int64) (fs.FS, error) {
	if memory > 0 {
		debug.SetMemoryLimit(memory / 10 * 8)
	}
	if root == "" {
		root = "/in"
	}
	clean := path.Clean(root)
	if clean != root || strings.Contains(root, "\x00") || (clean != "/in" && !strings.HasPrefix(clean, "/in/")) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "root %q must be a clean path under /in", root).WithDetail("field", "root")
	}
	if st, err := os.Stat(clean); err != nil || !st.IsDir() {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "root %q is not a directory inside the /in mount", root).WithDetail("field", "root")
	}
	return os.DirFS(clean), nil
}
