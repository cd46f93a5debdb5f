package app

import (
	"context"
	"os"
	"runtime"
	"slices"
	"sync"

	"rea/abi"
	"rea/host/sandbox"
	"rea/jsengine/report"
)

// An application that is a directory is analysed while it is inventoried.
// The result cache's key walk (appcache.go) has already listed, in the
// inventory's order and without following links, every entry the
// inventory will list, with each file's size, execute bit and SHA-256 —
// all the tree the jsapp module reads is made of. So the jsapp module
// starts on a tree built from the walk instead of waiting for the
// artifact module (half a second on a 3,000-file package, a core left
// idle), and the inventory runs beside it.
//
// The inventory still decides. The early answer is kept only when the
// tree the inventory gives is the same tree: every path, kind, size,
// execute bit and digest (treeFS.same). Otherwise — a name the inventory
// normalises, a file changed between the walk and the inventory, an entry
// the inventory leaves out — it is dropped and the analysis runs again on
// the inventory's tree, exactly as without it. The answer is always the
// analysis of the inventoried bytes; only when it starts differs.

// earlyAnalysis is a jsapp run started on the key walk's tree.
type earlyAnalysis struct {
	tree   *treeFS
	cancel context.CancelFunc
	done   chan struct{}
	res    *report.Result
	out    *sandbox.Outcome
	err    error
}

// startEarly starts the analysis of a directory input on the tree its key
// walk describes, or returns nil when the walk cannot stand for the
// inventory (not a directory, an entry the inventory refuses) or there is
// no second core to run it beside the inventory.
func (a *App) startEarly(ctx context.Context, walk *inputWalk, in artifactInput, limits report.Options, progress func(abi.Progress)) *earlyAnalysis {
	if a.Config.AnalyseAfterInventory || walk == nil || walk.root != "." || !in.isDir || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	root, err := os.OpenRoot(in.mountDir)
	if err != nil {
		return nil
	}
	tree := newTreeFS()
	paths := make([]string, 0, len(walk.kinds))
	for p := range walk.kinds {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		switch walk.kinds[p] {
		case 'd':
			tree.ensureDir(p)
		case 'f':
			tree.addFile(p, walk.sizes[p], walk.execs[p], walk.files[p], openRange(root, p, 0, walk.sizes[p]))
		case 'l':
			// Recorded by the inventory, never followed.
		default:
			root.Close()
			return nil // the inventory refuses special files
		}
	}
	tree.seal()
	if tree.hasNormalised() {
		// Loaded while the jsapp module starts, as after an inventory.
		go func() { _, _, _ = a.Runner.Compile(context.WithoutCancel(ctx), NormaliseModule, a.Config.Limits) }()
	}
	ctx, cancel := context.WithCancel(ctx)
	e := &earlyAnalysis{tree: tree, cancel: cancel, done: make(chan struct{})}
	run := jsappRun{app: a, tree: tree, limits: limits, progress: progress, cacheKey: "jsapp-tree:" + tree.contentKey()}
	go func() {
		defer close(e.done)
		defer root.Close()
		e.res, e.out, e.err = run.analyse(ctx)
	}()
	return e
}

// result waits for the early analysis when the inventory's tree is the
// tree it ran on; ok is false (and the run is stopped) otherwise.
func (e *earlyAnalysis) result(inventoried *treeFS, skipped int) (res *report.Result, out *sandbox.Outcome, err error, ok bool) {
	if e == nil {
		return nil, nil, nil, false
	}
	if skipped > 0 || !e.tree.same(inventoried) {
		e.stop()
		return nil, nil, nil, false
	}
	<-e.done
	e.cancel()
	return e.res, e.out, e.err, true
}

// stop cancels the early analysis and waits for its instances to end.
func (e *earlyAnalysis) stop() {
	if e == nil {
		return
	}
	e.cancel()
	<-e.done
}

// serialProgress makes a progress callback safe to call from the
// inventory and the early analysis at once.
func serialProgress(progress func(abi.Progress)) func(abi.Progress) {
	if progress == nil {
		return nil
	}
	var mu sync.Mutex
	return func(p abi.Progress) {
		mu.Lock()
		defer mu.Unlock()
		progress(p)
	}
}
