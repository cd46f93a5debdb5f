package app

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"strings"
	"sync"

	"rea/abi"
	"rea/host/sandbox"
	"rea/jsengine/report"
)

// Sharding: Go compiled to wasm runs the analysis about ten times slower
// than natively and single-threaded, so a large application is cut into
// shards analysed by parallel jsapp instances (the Runner bounds them to one
// per core), whose facts one more instance merges into exactly the result
// one instance gives. The shard count depends on the input only — never on
// the machine — so results, fuel and Evidence are the same everywhere.
//
// Below 8 MiB of JavaScript one instance does it (the per-shard fixed work,
// selection and merge, would not pay); then 2 shards up to 32 MiB, 4 up to
// 256 MiB, 8 beyond: powers of two fit the usual core counts, and 8 bounds
// the instances (and memory) one analysis may hold. On the 50 MiB benchmark
// app 4 shards took as long as 2 on two cores (26.1 s vs 26.4 s, fuel +3 %)
// with a lower peak (1.15 vs 1.84 GB) and use four cores where there are
// four; 8 cost 8 % more time there.
func shardCount(jsBytes int64) int {
	switch {
	case jsBytes < 8<<20:
		return 1
	case jsBytes < 32<<20:
		return 2
	case jsBytes < 256<<20:
		return 4
	}
	return 8
}

// shardsFor is the shard count for a tree under the analysis limits. An
// application that would reach max_ast_nodes or max_modules is analysed in
// one instance: where such a limit cuts depends on the order of work, so
// shards that reach it are analysed again in one instance, and default
// limits bound the work anyway. Nodes are estimated at one per two bytes
// (0.12–0.64 on the fixtures, 0.29 on the generated app); a denser
// application costs a rerun, never a different result.
//
// Between 2 and 8 MiB an application is cut in two when esbuild has less
// than a third of its text (normalised: TypeScript, JSX, ESM files): the
// normaliser runs ahead on a core of its own (host/sandbox), so an app of
// mostly TypeScript already keeps two cores busy, while a CommonJS one
// leaves one idle. Measured by fuel: @theia/core's lib (3.4 MB of
// CommonJS) 108.7 M in one instance, 60.7 M in the larger of two shards
// plus 14.7 M for the merge; whole @theia/core (half TypeScript) 385 M in
// one instance against 263 + 29 M in two, with more CPU in all.
func shardsFor(files int, jsBytes, normalised int64, limits report.Options) int {
	if int64(limits.MaxASTNodes) < jsBytes/2 || files > limits.MaxModules {
		return 1
	}
	if n := shardCount(jsBytes); n > 1 || jsBytes < 2<<20 || normalised*3 >= jsBytes {
		return n
	}
	return 2
}

// jsappRun is one analysis of an inventoried tree by the jsapp module.
type jsappRun struct {
	app      *App
	tree     *treeFS
	limits   report.Options
	progress func(abi.Progress)
	cacheKey string
	shards   int // 0: shardCount of the tree's text bytes
}

func (r *jsappRun) params() report.Params {
	return report.Params{Root: "/in", Limits: r.limits, MemoryLimitBytes: int64(r.app.Config.Limits.WithDefaults().MemoryBytes),
		Digests: r.tree.textDigests(), FullParse: fullParse()}
}

func (r *jsappRun) call(op string, p report.Params, progress func(abi.Progress)) sandbox.Call {
	return sandbox.Call{
		Module: JSAppModule, Operation: op, Params: p,
		Mounts: []sandbox.Mount{{GuestPath: "/in", FS: r.tree}},
		Limits: r.app.Config.Limits, Progress: progress, CacheKey: r.cacheKey,
		Normaliser: NormaliseModule,
	}
}

// analyse runs the analysis in shards when the application is large
// enough, or in one instance; the returned outcome's usage adds up every
// instance's fuel and reports the largest instance's peak memory.
func (r *jsappRun) analyse(ctx context.Context) (*report.Result, *sandbox.Outcome, error) {
	n := r.shards
	if n == 0 {
		files, bytes, normalised := r.tree.textSize()
		n = shardsFor(files, bytes, normalised, r.limits)
	}
	if n > 1 {
		res, out, err := r.sharded(ctx, n)
		if err != nil || res != nil {
			return res, out, err
		}
		single, err := r.single(ctx)
		if single != nil {
			out.Usage = addUsage(out.Usage, single.Usage)
			single.Usage = out.Usage
			return r.result(single, err)
		}
		return nil, nil, err
	}
	out, err := r.single(ctx)
	return r.result(out, err)
}

func (r *jsappRun) single(ctx context.Context) (*sandbox.Outcome, error) {
	call := r.call("analyze", r.params(), r.progress)
	// One instance transforms every file the application has: start the
	// normaliser beside it. (A shard's files are chosen in the guest, so
	// shards start theirs on demand.)
	files, bytes := r.tree.normalisedSize()
	call.StartNormaliser = files > 0
	// A second normaliser instance for applications with several files to
	// transform, small in total: there the guest parses faster than one
	// instance transforms (electron/fiddle's waited 0.33 s of 0.53), and
	// memory is plentiful. Beyond normaliseLanesBytes (@theia/core's
	// 3.7 MB) the analysis itself is the longer path and the second
	// instance's memory would come on top of its largest heap.
	call.SecondNormaliser = call.StartNormaliser && files >= normaliseLanesFiles && bytes < normaliseLanesBytes
	return r.app.Runner.Run(ctx, call)
}

// Where a second normaliser instance pays (jsappRun.single): at least
// this many files to transform, of fewer bytes than this in total.
const (
	normaliseLanesFiles = 4
	normaliseLanesBytes = 1 << 20
)

// normalisedSize counts the files the normaliser transforms whatever
// their content, and their bytes.
func (t *treeFS) normalisedSize() (files int, bytes int64) {
	for p, node := range t.nodes {
		if !node.dir && normalised(p) {
			files++
			bytes += node.size
		}
	}
	return files, bytes
}

// hasNormalised reports whether the tree holds a file the jsapp module
// hands to the normaliser whatever its content.
func (t *treeFS) hasNormalised() bool {
	for p, node := range t.nodes {
		if !node.dir && normalised(p) {
			return true
		}
	}
	return false
}

func (r *jsappRun) result(out *sandbox.Outcome, err error) (*report.Result, *sandbox.Outcome, error) {
	if err != nil {
		return nil, nil, err
	}
	var res report.Result
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return nil, nil, abi.Errorf(abi.CodeModuleFailed, "the jsapp module answered with an unreadable result: %v", err)
	}
	return &res, out, nil
}

// sharded analyses n shards in parallel and merges them. A nil result with
// a nil error means the merge asked for one instance (the outcome then
// carries the usage spent so far).
func (r *jsappRun) sharded(ctx context.Context, n int) (*report.Result, *sandbox.Outcome, error) {
	base := r.params()
	outs := make([]*sandbox.Outcome, n)
	errs := make([]error, n)
	prog := newShardProgress(n, r.progress)
	var wg sync.WaitGroup
	for i := range n {
		p := base
		p.Shard = &report.Shard{Index: i, Count: n}
		wg.Go(func() { outs[i], errs[i] = r.app.Runner.Run(ctx, r.call("analyze-shard", p, prog.of(i))) })
	}
	wg.Wait()
	total := &sandbox.Outcome{}
	p := base
	for i, out := range outs {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		r.app.log.Debug("jsapp shard analysed", "shard", i, "of", n, "wall", out.Usage.Wall, "facts_bytes", len(out.Result), "fuel", out.Usage.FuelUsed, "peak_memory_bytes", out.Usage.PeakMemoryBytes)
		total.Usage = addUsage(total.Usage, out.Usage)
		total.Module, total.Limits = out.Module, out.Limits
		p.Facts = append(p.Facts, out.Result)
	}
	p.Digests = nil // the merge reads no module's bytes for its digest
	out, err := r.app.Runner.Run(ctx, r.call("merge", p, r.progress))
	if err != nil {
		return nil, nil, err
	}
	r.app.log.Debug("jsapp shards merged", "shards", n, "wall", out.Usage.Wall, "fuel", out.Usage.FuelUsed)
	total.Usage = addUsage(total.Usage, out.Usage)
	var mr report.MergeResult
	if err := json.Unmarshal(out.Result, &mr); err != nil {
		return nil, nil, abi.Errorf(abi.CodeModuleFailed, "the jsapp module answered with an unreadable merge: %v", err)
	}
	if mr.Result == nil {
		r.app.log.Info("jsapp shards analysed again in one instance", "shards", n, "reason", mr.Rerun)
		return nil, total, nil
	}
	return mr.Result, total, nil
}

// shardProgress shows the shards as one analysis: the "analyze" phase
// counts every shard's own modules; the phases every shard repeats alike
// (reading, parsing on demand) are shown as shard 0 reports them.
type shardProgress struct {
	to          func(abi.Progress)
	mu          sync.Mutex
	done, total []int64
}

func newShardProgress(n int, to func(abi.Progress)) *shardProgress {
	return &shardProgress{to: to, done: make([]int64, n), total: make([]int64, n)}
}

func (s *shardProgress) of(i int) func(abi.Progress) {
	if s.to == nil {
		return nil
	}
	return func(p abi.Progress) {
		if p.Phase != "analyze" {
			if i == 0 {
				s.to(p)
			}
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.done[i], s.total[i] = p.Done, p.Total
		var done, total int64
		for k := range s.done {
			done, total = done+s.done[k], total+s.total[k]
		}
		s.to(abi.Progress{Phase: "analyze", Done: done, Total: total})
	}
}

// addUsage adds fuel and wall time; peak memory is the largest instance's.
func addUsage(a, b sandbox.Usage) sandbox.Usage {
	return sandbox.Usage{FuelUsed: a.FuelUsed + b.FuelUsed, Wall: a.Wall + b.Wall, PeakMemoryBytes: max(a.PeakMemoryBytes, b.PeakMemoryBytes)}
}

// textSize counts the files the analysis reads as text and their bytes,
// and the bytes of those the normaliser transforms (by name, as
// jsengine's parse sends them: TypeScript, JSX, ESM, components).
func (t *treeFS) textSize() (files int, bytes, normalised int64) {
	for p, node := range t.nodes {
		if !node.dir && report.TextKind(p) != "" {
			files++
			bytes += node.size
			if normalisedExtensions[strings.ToLower(path.Ext(p))] {
				normalised += node.size
			}
		}
	}
	return files, bytes, normalised
}

// fileDigests are the inventory's sha256 of every file of the tree (a
// finding may sit in package.json as well as in code).
func (t *treeFS) fileDigests() map[string]string {
	d := map[string]string{}
	for p, node := range t.nodes {
		if !node.dir && node.expect != "" {
			d[p] = node.expect
		}
	}
	return d
}

// textDigests are the inventory's sha256 of the files the analysis reads
// as text, so that the module reports them instead of hashing in wasm.
func (t *treeFS) textDigests() map[string]string {
	d := map[string]string{}
	for p, node := range t.nodes {
		if !node.dir && node.expect != "" && report.TextKind(p) != "" {
			d[p] = node.expect
		}
	}
	return d
}

// fullParse is the parse mode of the jsapp module: a syntax tree for
// every file (the default, and REA_JS_PARSE=full), or with
// REA_JS_PARSE=lexer only for the files the lexer-level pass finds able to
// contribute (jsengine/lexpass.go; the same results). The lexer pass is
// not the default: on the apps measured (docs/benchmarks.md, issue 22
// point 3) it skipped 0–7 % of the files and its planning cost more CPU
// than it saved. The mode travels in the module's params, so it is part
// of the result-cache key.
func fullParse() bool { return os.Getenv("REA_JS_PARSE") != "lexer" }
