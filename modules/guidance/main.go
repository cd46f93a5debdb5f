// Command guidance is the guidance search module: `search` and `read` over the
// packaged guidance bundle (embedded in this module) or over a bundle the host
// mounts and names with bundle_root. Every request builds a fresh index, so a
// changed bundle can never be answered from an earlier one.
package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"

	"rea/guidance"
	"rea/guidance/index"
	"rea/modules/abi"
)

func main() { abi.Serve(handlers()) }

func handlers() map[string]abi.Handler {
	return map[string]abi.Handler{"search": search, "read": read}
}

func search(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var p index.SearchParams
	if err := abi.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	ix, err := open(p.BundleRoot, progress)
	if err != nil {
		return nil, err
	}
	return ix.Search(p)
}

func read(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var p index.ReadParams
	if err := abi.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	ix, err := open(p.BundleRoot, progress)
	if err != nil {
		return nil, err
	}
	return ix.Read(p)
}

// open indexes the embedded bundle, or the directory at root when the host
// mounted one there.
func open(root string, progress *abi.Reporter) (*index.Index, error) {
	var fsys fs.FS = guidance.Bundle()
	if root != "" {
		if !path.IsAbs(root) || path.Clean(root) != root {
			return nil, abi.Errorf(abi.CodeInvalidRequest,
				"bundle_root %q must be a clean absolute path of a mounted directory, e.g. \"/in\"", root).
				WithDetail("field", "bundle_root")
		}
		fsys = os.DirFS(root)
	}
	progress.Report(abi.Progress{Phase: "index", Message: "indexing guidance bundle"})
	return index.Build(fsys)
}
