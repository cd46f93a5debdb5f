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
	"runtime/metrics"
	"strconv"
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
	shards := 1
	if p.Shard != nil {
		shards = p.Shard.Count
	}
	tuneGC(p.MemoryLimitBytes, shards, normalises(p.Digests))
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
	// The merge reports no progress for adjust to follow its heap: it
	// collects at twice its live heap (GOGC=100) instead.
	if gc.hard > 0 {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(gc.hard)
		gc.live = nil
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
		gc.adjust()
		if phase == last && done%32 != 0 && done != total {
			return
		}
		last = phase
		rep.Report(abi.Progress{Phase: phase, Done: int64(done), Total: int64(total)})
	}
}

// The guest's collector: with the GC off until 80 % of the sandbox limit
// (as shipped until session 9) the linear memory only grew — 144 MiB of
// @theia/core lib's 345 MiB peak RSS was jsapp garbage, and the two shards
// of the whole package each kept more. Now the heap may grow to a soft
// target before the first collection, and after it to twice the live heap
// (what GOGC=100 allows) when that is more, never past 80 % of the limit.
// A small application never collects (its heap stays under the target, as
// before); a large one collects about as often as GOGC=100 would once its
// live heap passes half the target, and much less before.
//
// gcSoftBudget is the heap the analysis of one application may reach
// before it collects, shared by the instances that run at once (its
// shards), in bytes; "off" keeps the old policy (for measurements).
var gcSoftBudget = "134217728"

// normaliserFloor is the heap the normaliser module may reach before its
// first collection (gcFloor in modules/normalise). It runs beside the
// analysis of an application with TypeScript or JSX, so its heap comes out
// of the same budget: on the whole of @theia/core the two heaps and both
// modules' code peaked together at 353 MB with the full budget here, 325
// MB with this share, for 2 % less fuel (the collector ran at other
// points).
const normaliserFloor = 32 << 20

// normalises reports whether the application holds a source the
// normaliser transforms whatever its content (TypeScript, JSX); ESM in .js
// files is not counted, a cheap estimate that only moves when the
// collector runs, never what the analysis finds.
func normalises(files map[string]string) bool {
	for p := range files {
		switch path.Ext(p) {
		case ".ts", ".mts", ".cts":
			if !strings.HasSuffix(p, ".d.ts") && !strings.HasSuffix(p, ".d.mts") && !strings.HasSuffix(p, ".d.cts") {
				return true
			}
		case ".tsx", ".jsx":
			return true
		}
	}
	return false
}

// gcPolicy is this instance's collector policy.
type gcPolicy struct {
	hard  int64 // 80 % of the sandbox limit
	limit int64 // the memory limit set now
	calls int
	live  []metrics.Sample
}

var gc gcPolicy

// tuneGC sets the policy for a request under the sandbox limit (0:
// unknown, the Go defaults stay) run as one of shards instances, beside
// the normaliser when normalised.
func tuneGC(limit int64, shards int, normalised bool) {
	if limit <= 0 {
		return
	}
	gc.hard = limit / 10 * 8
	debug.SetGCPercent(-1)
	budget, err := strconv.ParseInt(gcSoftBudget, 10, 64)
	if err != nil || budget <= 0 {
		gc.limit = gc.hard
		debug.SetMemoryLimit(gc.limit)
		return
	}
	if normalised && budget > 2*normaliserFloor {
		budget -= normaliserFloor
	}
	gc.limit = min(gc.hard, budget/int64(max(shards, 1)))
	gc.live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	debug.SetMemoryLimit(gc.limit)
}

// adjust raises the memory limit to twice the live heap when the live heap
// has grown past half of it (a collection at the limit would free too
// little and the next would follow at once). The analysis calls it through
// its progress reports, every file or so; reading the metric is cheap.
func (g *gcPolicy) adjust() {
	if g.live == nil {
		return
	}
	if g.calls++; g.calls%8 != 0 {
		return
	}
	metrics.Read(g.live)
	if g.live[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if want := int64(g.live[0].Value.Uint64()) * 2; want > g.limit && g.limit < g.hard {
		g.limit = min(want, g.hard)
		debug.SetMemoryLimit(g.limit)
	}
}
