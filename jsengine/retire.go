package jsengine

import (
	"path"
	"slices"
)

// Retiring analysed modules. After its analysis a module keeps what other
// modules' evaluations can reach (prune: its exports and the top-level
// bindings they name, with their syntax). Most of that is never reached
// again: a module is evaluated only from the analysis of a module that
// names it, directly or through other modules. So once every queued
// module that can reach it through the import graph has been analysed,
// nothing can evaluate it any more and it is released whole (retired).
// On @theia/core that is 22 of the 52 MiB the analysis otherwise keeps
// live at its end.
//
// The import graph is read from the files' bytes (scanSpecifiers, the
// same scan the lexer-level pass uses), so it knows literal specifiers
// only. A require whose specifier is computed adds its edge when it is
// evaluated, raising the retirement point of what it reaches; if what it
// reaches is already retired (the scan could not have predicted it), the
// analysis is redone keeping every module (Options.KeepAnalysed), so the
// result is always the one without retirement.

// importGraph is which queued files each queued file names.
type importGraph struct {
	edges  map[string][]string // file → the queued files it names, itself excluded
	capped map[string]bool     // files whose specifier scan stopped at its limit
}

// maxScannedSpecifiers bounds the specifiers read from one file.
const maxScannedSpecifiers = 100_000

// importEdges scans every queued file for the specifiers it names and
// resolves them as the analysis would (lexTargets).
func (e *engine) importEdges(queue []textFile) *importGraph {
	g := &importGraph{edges: make(map[string][]string, len(queue)), capped: map[string]bool{}}
	inQueue := make(map[string]bool, len(queue))
	for _, t := range queue {
		inQueue[t.path] = true
	}
	memo := map[[2]string][]string{}
	for _, t := range queue {
		dir := path.Dir(t.path)
		var to []string
		specs := scanSpecifiers(bytesOf(t.src), maxScannedSpecifiers)
		if len(specs) >= maxScannedSpecifiers {
			g.capped[t.path] = true
		}
		for _, spec := range specs {
			key := [2]string{dir, spec}
			targets, ok := memo[key]
			if !ok {
				targets = e.lexTargets(dir, spec)
				memo[key] = targets
			}
			for _, r := range targets {
				if inQueue[r] && r != t.path {
					to = append(to, r)
				}
			}
		}
		g.edges[t.path] = to
	}
	return g
}

// retirePlan says when each queued module can be retired.
type retirePlan struct {
	edges map[string][]string // the import graph, plus edges seen evaluated
	// last is, by path, the queue position of the last module whose
	// analysis may reach it; it is retired before the next one.
	last   map[string]int
	byLast map[int][]string // paths by last (an entry is stale when last moved on)
	done   int              // positions below this have had their modules retired
	miss   string           // a retired module an evaluation reached
}

// planRetire computes, for every queued module, the last queue position
// whose analysis can reach it through g, and takes g's edges (reached adds
// to them; nothing else reads g after the plans are made).
func (e *engine) planRetire(queue []textFile, g *importGraph) {
	if len(g.capped) > 0 {
		return // a file may name anything queued: nothing is retired
	}
	r := &retirePlan{edges: g.edges, last: make(map[string]int, len(queue)), byLast: map[int][]string{}}
	for i := len(queue) - 1; i >= 0; i-- {
		// From the highest position down, so each module is raised once
		// to its final value (plus revisits inside cycles).
		r.raise(queue[i].path, i)
	}
	e.retire = r
}

// raise makes p, and what it reaches, live until position at least.
func (r *retirePlan) raise(p string, at int) {
	stack := []string{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l, ok := r.last[q]; ok && l >= at {
			continue
		}
		r.last[q] = at
		r.byLast[at] = append(r.byLast[at], q)
		stack = append(stack, r.edges[q]...)
	}
}

// retireBefore retires the analysed modules no analysis from position cur
// on can reach.
func (e *engine) retireBefore(cur int) {
	r := e.retire
	if r == nil {
		return
	}
	for ; r.done < cur; r.done++ {
		for _, p := range r.byLast[r.done] {
			if r.last[p] != r.done {
				continue // raised since
			}
			if m := e.modules[p]; m != nil && m.analysed && !m.released {
				e.release(m)
				m.retired = true
				m.pf.forgetGenerated()
			}
		}
		delete(r.byLast, r.done)
	}
}

// reached notes that evaluating from's code reached module to (a require
// or import resolved to it): to must live as long as from. It reports
// false when to is retired already (or, in a shard, would be by now in
// the single instance), which the import graph did not predict.
func (e *engine) reached(from, to string) bool {
	r := e.retire
	if r == nil || from == to {
		return true
	}
	l, ok := r.last[to]
	if !ok {
		return true // not queued: never retired
	}
	if l < e.cur {
		if r.miss == "" {
			r.miss = to
		}
		return false
	}
	at := max(r.last[from], e.cur)
	if !slices.Contains(r.edges[from], to) {
		r.edges[from] = append(r.edges[from], to)
	}
	r.raise(to, at)
	return true
}

// retiredReached records a miss when mod was retired: a value of it
// outlived its retirement, which the import graph did not predict.
func (e *engine) retiredReached(mod *moduleInfo) {
	if mod.retired && e.retire != nil && e.retire.miss == "" {
		e.retire.miss = mod.path
	}
}
