// Command jsapp is the WebAssembly module that analyses JavaScript/Electron
// applications. It is a thin shell: it decodes the request, opens the
// mounted application root and calls jsengine.Analyze. Analysed code is
// never executed.
package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"runtime/debug"
	"strings"

	"rea/abi"
	"rea/jsengine"
	"rea/jsengine/report"
)

// Params is the request of the "analyze" operation (shared with the host
// through package report).
type Params = report.Params

func main() {
	abi.Serve(map[string]abi.Handler{"analyze": analyze, "analyze-shard": analyzeShard, "merge": merge})
}

// open decodes the request and opens the mounted application root.
func open(raw json.RawMessage) (Params, fs.FS, error) {
	var p Params
	if err := abi.DecodeParams(raw, &p); err != nil {
		return p, nil, err
	}
	p.Limits.FullParse = p.FullParse
	fsys, err := openRoot(p)
	return p, fsys, err
}

// openRoot applies the request's memory limit and opens its root.
func openRoot(p Params) (fs.FS, error) {
	tuneGC(p.MemoryLimitBytes)
	root, err := mountedRoot(p.Root)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "root %q is not a directory inside the /in mount; pass the application directory", p.Root).
			WithDetail("field", "root")
	}
	return os.DirFS(root), nil
}

// analyze analyses the whole application in this instance.
func analyze(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	p, fsys, err := open(raw)
	if err != nil {
		return nil, err
	}
	f, err := jsengine.AnalyzeShard(context.Background(), fsys, p.Limits, jsengine.Shard{Index: 0, Count: 1}, p.Digests, progressTo(rep))
	if err != nil {
		return nil, err
	}
	res, _, err := jsengine.Merge(context.Background(), fsys, p.Limits, []*jsengine.ShardFacts{f})
	return res, err
}

// analyzeShard analyses one shard of the application (params.shard); the
// host runs the shards in parallel instances and then "merge".
func analyzeShard(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	p, fsys, err := open(raw)
	if err != nil {
		return nil, err
	}
	if p.Shard == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "analyze-shard needs params.shard").WithDetail("field", "shard")
	}
	return jsengine.AnalyzeShard(context.Background(), fsys, p.Limits, *p.Shard, p.Digests, progressTo(rep))
}

// merge combines the shards' facts (params.facts) into one result, or
// says why the host must analyse the application in one instance.
func merge(raw json.RawMessage, _ *abi.Reporter) (any, error) {
	// The facts are decoded with the params, straight into their type: in
	// wasm each pass of encoding/json's scanner over the shards' facts
	// (megabytes for a large application) is a large part of the merge.
	var p struct {
		Params
		Facts []*jsengine.ShardFacts `json:"facts"`
	}
	if err := abi.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	facts := p.Facts
	for i, f := range facts {
		if f == nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "facts[%d] are null, not shard facts", i).WithDetail("field", "facts")
		}
	}
	fsys, err := openRoot(p.Params)
	if err != nil {
		return nil, err
	}
	res, rerun, err := jsengine.Merge(context.Background(), fsys, p.Limits, facts)
	if err != nil {
		if _, typed := err.(*abi.Error); typed {
			return nil, err
		}
		return nil, abi.Errorf(abi.CodeInvalidRequest, "merge: %v", err).WithDetail("field", "facts")
	}
	return report.MergeResult{Result: res, Rerun: rerun}, nil
}

// mountedRoot validates that root stays inside /in.
func mountedRoot(root string) (string, error) {
	if root == "" {
		return "/in", nil
	}
	clean := path.Clean(root)
	if clean != root && clean+"/" != root || strings.Contains(root, "\x00") || (clean != "/in" && !strings.HasPrefix(clean, "/in/")) {
		return "", abi.Errorf(abi.CodeInvalidRequest, "root %q must be a clean path under /in", root).WithDetail("field", "root")
	}
	return clean, nil
}

// progressTo forwards progress on phase changes and every 32 items, so a
// large application does not flood the host with lines.
func progressTo(rep *abi.Reporter) func(string, int, int) {
	last := ""
	return func(phase string, done, total int) {
		if phase == last && done%32 != 0 && done != total {
			return
		}
		last = phase
		rep.Report(abi.Progress{Phase: phase, Done: int64(done), Total: int64(total)})
	}
}

// tuneGC trades memory for time when the sandbox's limit is known: no
// collection until the heap nears 80 % of the limit. The GC is
// single-threaded in wasm, and after analysis a module keeps little live
// heap, so each collection frees most of it: on the 50 MB benchmark app
// this used 4.7 % less fuel than collecting at 4x the live heap
// (GOGC=400), with the peak still under the limit (903 vs 827 MiB of 1 GiB).
func tuneGC(limit int64) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(limit / 10 * 8)
	debug.SetGCPercent(-1)
}
