// Command guidance is the guidance search module: `search` and `read` over the
// packaged guidance bundle (embedded in this module together with the index
// snapshot `make` built from it) or over a bundle the host mounts and names
// with bundle_root, which every request indexes afresh, so a changed bundle
// can never be answered from an earlier one.
package main

import (
	"encoding/json"
	"os"
	"path"
	"runtime/debug"

	"rea/abi"
	"rea/guidance"
	"rea/guidance/index"
)

func main() {
	// A search over the snapshot allocates well under the runtime's 4 MiB
	// first GC goal; a larger goal keeps a collection out of the request
	// (in wasm one costs about a millisecond), while indexing a mounted
	// bundle still collects.
	debug.SetGCPercent(400)
	s := &server{}
	abi.ServePrepared(s.prepare, s.handlers())
}

// server answers one request; prepare runs before it is read.
type server struct {
	packaged    *index.Index // the opened snapshot, after prepare
	packagedErr error
}

func (s *server) handlers() map[string]abi.Handler {
	return map[string]abi.Handler{"search": s.search, "read": s.read}
}

// prepare does what every request needs before one arrives: the packaged
// snapshot opened and the JSON encoders of the result types built.
func (s *server) prepare() {
	s.packaged, s.packagedErr = index.Open(guidance.Snapshot())
	abi.WarmDecoders(&index.SearchParams{}, &index.ReadParams{})
	abi.WarmEncoders(
		&index.SearchResult{Terms: []string{""}, Matches: []index.Match{{Subsections: []index.SubsectionRef{{Terms: []string{""}}}}}},
		&index.ReadResult{HeadingPath: []string{""}, Subsections: []index.SectionRef{{}}},
	)
}

func (s *server) search(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var p index.SearchParams
	if err := abi.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	ix, err := s.open(p.BundleRoot, progress)
	if err != nil {
		return nil, err
	}
	return ix.Search(p)
}

func (s *server) read(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var p index.ReadParams
	if err := abi.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	ix, err := s.open(p.BundleRoot, progress)
	if err != nil {
		return nil, err
	}
	return ix.Read(p)
}

// open returns the packaged bundle's index, or indexes the directory at
// root when the host mounted one there.
func (s *server) open(root string, progress *abi.Reporter) (*index.Index, error) {
	if root == "" {
		if s.packaged == nil && s.packagedErr == nil { // prepare did not run
			s.prepare()
		}
		return s.packaged, s.packagedErr
	}
	if !path.IsAbs(root) || path.Clean(root) != root {
		return nil, abi.Errorf(abi.CodeInvalidRequest,
			"bundle_root %q must be a clean absolute path of a mounted directory, e.g. \"/in\"", root).
			WithDetail("field", "bundle_root")
	}
	progress.Report(abi.Progress{Phase: "index", Message: "indexing guidance bundle"})
	return index.Build(os.DirFS(root))
}
