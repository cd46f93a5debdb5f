package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"rea/jsengine/report"
)

// ShardFacts is what one shard found: the facts of the modules it owns,
// before pairing, findings over the whole application, sorting and
// counting, which Merge does once over every shard's facts. It travels as
// JSON between module instances; its shape is internal to jsengine.
type ShardFacts struct {
	Shard Shard `json:"shard"`
	// Rerun, when not empty, says why merging would not give exactly what
	// one instance finds (a limit that depends on the order of work was
	// reached).
	Rerun []string `json:"rerun,omitempty"`

	// Selection facts: identical in every shard, kept by shard 0 only.
	Package    *PackageInfo  `json:"package,omitempty"`
	HTML       []string      `json:"html,omitempty"`
	Statistics Statistics    `json:"statistics"`
	Omitted    []OmittedFile `json:"omitted,omitempty"`

	Modules      []shardModule  `json:"modules"`
	Failed       []Module       `json:"failed,omitempty"`
	Windows      []Window       `json:"windows,omitempty"`
	Exposed      []ExposedAPI   `json:"exposed,omitempty"`
	IPC          []IPCOperation `json:"ipc,omitempty"`
	Observations []Observation  `json:"observations,omitempty"`
	Findings     []Finding      `json:"findings,omitempty"`
	Entrypoints  []Entrypoint   `json:"entrypoints,omitempty"`
	Bundles      []Bundle       `json:"bundles,omitempty"`
	Limitations  []string       `json:"limitations,omitempty"`
	Hits         []LimitHit     `json:"hits,omitempty"`
	// Bridges and BridgeCalls are matched once all shards are in: the
	// functions preloads expose that wrap IPC, and renderer calls of them.
	Bridges     []bridgeFact `json:"bridges,omitempty"`
	BridgeCalls []bridgeCall `json:"bridge_calls,omitempty"`

	PermissionHandlers int  `json:"permission_handlers,omitempty"`
	NavigationLimits   int  `json:"navigation_limits,omitempty"`
	Refused            int  `json:"refused,omitempty"`
	StepsUsed          int  `json:"steps_used,omitempty"`
	BoundReached       bool `json:"bound_reached,omitempty"`
	BundledModules     int  `json:"bundled_modules,omitempty"`
	// Snippets are the source lines of the locations Merge's findings
	// point at (windows, their preferences and loads, IPC operations),
	// keyed by file:line:column.
	Snippets map[string]string `json:"snippets,omitempty"`
}

// shardModule is an analysed module and whether esbuild normalised it.
type shardModule struct {
	Module     Module `json:"module"`
	Normalised bool   `json:"normalised,omitempty"`
}

// assignShard gives this instance its contiguous run of the queue: the
// queue is cut into shard.Count runs of about equal bytes, so that a file
// and the files it requires (queued next to it by reachableFirst) mostly
// land in the same shard.
func (e *engine) assignShard(queue []textFile) {
	e.owned = make(map[string]bool, len(queue))
	e.pos = make(map[string]int, len(queue))
	total := 0
	for _, t := range queue {
		total += len(t.src)
	}
	n := max(e.shard.Count, 1)
	seen := 0
	for i, t := range queue {
		e.pos[t.path] = i
		// The shard of a file is where its first byte falls.
		if seen*n/max(total, 1) == e.shard.Index || n == 1 {
			if e.ownedCount == 0 {
				e.ownedFrom = i
			}
			e.owned[t.path] = true
			e.ownedCount++
		}
		seen += len(t.src)
	}
}

// catchUp brings modules of other shards that were parsed on demand to the
// state one instance would have them in at the current queue position:
// those queued before it have been analysed by then, so their bundle tables
// exist and their trees are pruned (or, for unreached dependencies,
// released). Their facts belong to their own shard and are not recorded.
func (e *engine) catchUp() {
	keep := e.foreign[:0]
	for _, m := range e.foreign {
		if e.pos[m.path] >= e.cur {
			keep = append(keep, m)
			continue
		}
		m.analysed = true
		bundled, hits, lims := e.bundledModules, append([]LimitHit(nil), e.hits...), len(e.limitations)
		_ = guard(func() { e.detectBundle(m) })
		e.bundledModules, e.hits, e.limitations = bundled, hits, e.limitations[:lims]
		if e.rest[m.path] {
			e.release(m)
		} else {
			e.prune(m)
		}
	}
	e.foreign = keep
}

func locKey(l Location) string { return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column) }

// collect turns the engine's state after analyseModules into facts.
func (e *engine) collect(res *Result, texts []textFile) *ShardFacts {
	f := &ShardFacts{Shard: e.shard, Rerun: e.rerun, Statistics: res.Statistics, Failed: res.Modules,
		Exposed: e.exposed, IPC: e.ipc, Observations: e.obs, Findings: e.findings, Entrypoints: e.entry,
		Bundles: res.Bundles, Limitations: e.limitations, Hits: e.hits, Omitted: e.omitted, Bridges: e.bridges, BridgeCalls: e.bridgeCalls,
		PermissionHandlers: e.permissionHandlers, NavigationLimits: e.navigationLimits,
		Refused: e.refused, StepsUsed: e.opts.MaxASTNodes*4 - e.steps, BoundReached: e.boundReached,
		Snippets: map[string]string{}}
	if e.refused > 0 {
		f.Rerun = append(f.Rerun, "the evaluation step budget ran out")
	}
	for _, h := range e.hits {
		if h.Limit == "max_bundle_modules" {
			f.Rerun = append(f.Rerun, "the bundle module limit was reached")
		}
	}
	for _, b := range res.Bundles {
		f.BundledModules += len(b.Modules)
	}
	if e.shard.Index == 0 {
		f.Package = res.Package
		for _, t := range texts {
			if t.kind == "html" {
				f.HTML = append(f.HTML, t.path)
			}
		}
	}
	for _, m := range e.order {
		if !e.owned[m.path] {
			continue
		}
		roles := make([]string, 0, len(m.roles))
		for r := range m.roles {
			roles = append(roles, r)
		}
		sort.Strings(roles)
		f.Modules = append(f.Modules, shardModule{Module: Module{Path: m.path, SHA256: m.sha, Bytes: m.size, Language: m.pf.language,
			ParsedBy: m.pf.parsedBy, Roles: roles, ASTNodes: m.nodes, Imports: m.imports, SourceMap: sourceMappingURL(m.pf.original)},
			Normalised: m.pf.normalised()})
	}
	snip := func(l Location) {
		if _, ok := f.Snippets[locKey(l)]; !ok {
			f.Snippets[locKey(l)] = e.snippetAt(l)
		}
	}
	for _, w := range e.windowList {
		f.Windows = append(f.Windows, w.w)
		snip(w.w.Location)
		for _, v := range w.w.WebPreferences {
			if v.Location != nil {
				snip(*v.Location)
			}
		}
		for _, l := range w.w.Loads {
			snip(l.Location)
		}
	}
	for _, op := range e.ipc {
		snip(op.Location)
	}
	return f
}

// Merge combines the facts of every shard of one analysis (in shard order)
// into the Result one instance would have produced. When that is not
// guaranteed — a shard reached an order-dependent limit, the shards'
// totals exceed a limit, or shards disagree about a shared fact — it
// returns no Result and the reason; the caller then analyses the
// application in one instance.
func Merge(ctx context.Context, fsys fs.FS, opts Options, shards []*ShardFacts) (*Result, string, error) {
	o, err := opts.WithDefaults()
	if err != nil {
		return nil, "", err
	}
	if len(shards) == 0 || shards[0].Shard.Index != 0 {
		return nil, "", fmt.Errorf("jsengine: merge needs every shard's facts in order")
	}
	for i, f := range shards {
		if f.Shard.Index != i || f.Shard.Count != len(shards) {
			return nil, "", fmt.Errorf("jsengine: facts of shard %d/%d given as %d of %d", f.Shard.Index, f.Shard.Count, i, len(shards))
		}
		if len(f.Rerun) > 0 && len(shards) > 1 {
			return nil, fmt.Sprintf("shard %d: %s", i, strings.Join(f.Rerun, "; ")), nil
		}
	}
	if reason := overLimits(o, shards); reason != "" {
		return nil, reason, nil
	}
	e := &engine{opts: o, fsys: fsys, files: map[string]bool{}, snippets: map[string]string{}}
	if err := e.list(ctx); err != nil {
		return nil, "", err
	}
	e.packageJSON() // for the package.json source; its facts are shard 0's
	res := &Result{SchemaVersion: SchemaVersion, Package: shards[0].Package}
	var mods []*shardModule
	windows := map[string]*windowRec{}
	for _, f := range shards {
		addStatistics(&res.Statistics, f.Statistics)
		res.Modules = append(res.Modules, f.Failed...)
		res.Bundles = append(res.Bundles, f.Bundles...)
		for i := range f.Modules {
			mods = append(mods, &f.Modules[i])
		}
		for _, w := range f.Windows {
			k := locKey(w.Location)
			have, ok := windows[k]
			if !ok {
				rec := &windowRec{w: w}
				windows[k] = rec
				e.windowList = append(e.windowList, rec)
				continue
			}
			if !sameWindow(have.w, w) {
				return nil, "shards resolved the window at " + k + " differently", nil
			}
			have.w.Loads = append(have.w.Loads, w.Loads...)
		}
		e.exposed = append(e.exposed, f.Exposed...)
		e.ipc = append(e.ipc, f.IPC...)
		e.bridges = append(e.bridges, f.Bridges...)
		e.bridgeCalls = append(e.bridgeCalls, f.BridgeCalls...)
		e.obs = append(e.obs, f.Observations...)
		e.findings = append(e.findings, f.Findings...)
		e.entry = append(e.entry, f.Entrypoints...)
		e.limitations = append(e.limitations, f.Limitations...)
		for _, h := range f.Hits {
			e.hit(h.Limit, h.Value, h.Omitted)
		}
		e.omitted = append(e.omitted, f.Omitted...)
		e.permissionHandlers += f.PermissionHandlers
		e.navigationLimits += f.NavigationLimits
		e.refused += f.Refused
		e.boundReached = e.boundReached || f.BoundReached
		for k, v := range f.Snippets {
			e.snippets[k] = v
		}
	}
	var texts []textFile
	for _, p := range shards[0].HTML {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, "", fmt.Errorf("read %s: %w", p, err)
		}
		texts = append(texts, textFile{path: p, src: string(b), kind: "html"})
	}
	e.finish(res, mods, texts)
	if o.FailOnLimit && len(e.hits) > 0 {
		h := e.hits[0]
		return nil, "", report.LimitError(h.Limit, h.Value, h.Omitted)
	}
	return res, "", nil
}

// overLimits checks the limits one instance counts across all modules:
// shards each count only their part, so their sums decide.
func overLimits(o Options, shards []*ShardFacts) string {
	if len(shards) == 1 {
		return ""
	}
	var nodes, modules, steps, bundled int
	for _, f := range shards {
		nodes += f.Statistics.VisitedASTNodes
		modules += len(f.Modules)
		steps += f.StepsUsed
		bundled += f.BundledModules
	}
	switch {
	case nodes >= o.MaxASTNodes:
		return "the shards' AST nodes together reach max_ast_nodes"
	case modules > o.MaxModules:
		return "the shards' modules together exceed max_modules"
	case steps > o.MaxASTNodes*4:
		return "the shards' evaluation steps together exceed the budget"
	case bundled > o.MaxBundleModules:
		return "the shards' bundle modules together exceed max_bundle_modules"
	}
	return ""
}

func addStatistics(to *Statistics, s Statistics) {
	to.RelevantFiles += s.RelevantFiles
	to.TextFilesSelected += s.TextFilesSelected
	to.TextBytesRead += s.TextBytesRead
	to.OmittedTextFiles += s.OmittedTextFiles
	to.LimitOmittedTextFiles += s.LimitOmittedTextFiles
	to.InvalidUTF8Files += s.InvalidUTF8Files
	to.VisitedASTNodes += s.VisitedASTNodes
	to.ParseFailures += s.ParseFailures
	to.TruncatedScopes += s.TruncatedScopes
}

// sameWindow reports whether two shards recorded the same window creation
// the same way (loads are added by whichever module calls them).
func sameWindow(a, b Window) bool {
	a.Loads, b.Loads = nil, nil
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// jsonLess orders two values by their JSON encoding: the last tie-break of
// sorts whose input order differs between one instance and merged shards.
func jsonLess(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Compare(x, y) < 0
}
