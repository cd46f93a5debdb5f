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
	// Retiring analysed modules (jsengine/retire.go) saves memory for the
	// price of an import graph (5 % of @theia/core lib's fuel): worth it
	// only beside the normaliser, where the budget is small.
	p.Limits.KeepAnalysed = !normalises(p.Digests)
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
	// The merge reports no progress for adjust to follow: it paces at
	// once.
	if gc.hard > 0 {
		gc.live = nil
		gc.pace(false)
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
// budget before the first collection, and from then on the collector paces
// itself at GOGC=100 (a collection when the heap reaches twice what the
// last one left live), never past 80 % of the limit. A small application
// never collects (its heap stays under the budget); a large one collects
// as GOGC=100 would once its first collection has run.
//
// Pacing by the live heap replaced holding the memory limit at twice the
// live heap (sessions 10–14): a limit is a floor as much as a ceiling — the
// heap filled up to it whatever was live, and a budget under what the
// analysis needed made Go's collector run back to back until its CPU
// limiter let the heap grow past it (a 64 MiB budget ended larger than a
// 96 MiB one). With GOGC after the first collection, the budget can be
// small: on the whole of @theia/core the jsapp's memory when the
// normaliser retires went from 90 to 82 MB (budget 64 MiB against 48),
// total fuel 253.9 → 253.2 M.
//
// gcSoftBudget is the heap the analysis of one application may reach
// before it collects, shared by the instances that run at once (its
// shards), in bytes; "off" keeps the pre-session-10 policy (for
// measurements).
var gcSoftBudget = "134217728"

// besideNormaliser caps the budget when the normaliser module runs beside
// the analysis (an application with TypeScript or JSX): the two linear
// memories and both modules' code are then the peak of the process, so
// the analysis collects early and the normaliser at its own floor (gcFloor
// in modules/normalise, 24 MiB). On the whole of @theia/core this and the
// pacing above took the peak from 289 to 246 MiB; alone, the analysis
// keeps the full budget (@theia/core lib: 122 M fuel at 72 MiB against 114
// M at 128, for 10 MiB).
const besideNormaliser = 48 << 20

// capBesideNormaliser caps the paced heap beside the normaliser: GOGC=100
// alone let one collection that fell while much was live set a goal of 64
// MiB and the runtime's total (which in wasm never shrinks) reached 74 MiB
// on the whole of @theia/core. Under the cap the collector runs more often
// instead (peak 252–253 k → 242–243 k KiB, fuel 253.2 → 267.4 M). The cap
// is lifted to the hard limit once the live heap passes 60 % of it, so an
// application that needs more never collects back to back.
const capBesideNormaliser = 64 << 20

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
	hard   int64 // 80 % of the sandbox limit
	calls  int
	cycles []metrics.Sample // nil once the collector paces itself
	capped bool             // pace under capBesideNormaliser
	live   []metrics.Sample // while the cap holds
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
		debug.SetMemoryLimit(gc.hard)
		return
	}
	if normalised {
		budget = min(budget, besideNormaliser)
	}
	gc.cycles = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	gc.capped = normalised
	debug.SetMemoryLimit(min(gc.hard, budget/int64(max(shards, 1))))
}

// adjust hands the collector to GOGC=100 once the budget brought the
// first collection, and lifts the cap beside the normaliser when the live
// heap nears it. The analysis calls it through its progress reports,
// every file or so; reading a metric is cheap.
func (g *gcPolicy) adjust() {
	if g.cycles == nil && g.live == nil {
		return
	}
	if g.calls++; g.calls%8 != 0 {
		return
	}
	if g.live != nil {
		metrics.Read(g.live)
		if v := g.live[0].Value; v.Kind() == metrics.KindUint64 && int64(v.Uint64())*10 > capBesideNormaliser*6 {
			debug.SetMemoryLimit(g.hard)
			g.live = nil
		}
		return
	}
	metrics.Read(g.cycles)
	if v := g.cycles[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > 0 {
		g.pace(g.capped)
	}
}

// pace collects at twice the live heap from now on, under the hard limit
// or, when capped, under capBesideNormaliser until adjust lifts it.
func (g *gcPolicy) pace(capped bool) {
	debug.SetGCPercent(100)
	g.cycles = nil
	limit := g.hard
	if capped && g.hard > capBesideNormaliser {
		limit = capBesideNormaliser
		g.live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	debug.SetMemoryLimit(limit)
}
