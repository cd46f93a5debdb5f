package jsengine

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
)

// finish turns the gathered facts of every shard into a sorted, counted
// Result.
func (e *engine) finish(res *Result, mods []*shardModule, texts []textFile) {
	byPath := make(map[string]*Module, len(mods))
	roleSets := make(map[string]map[string]bool, len(mods))
	for _, m := range mods {
		byPath[m.Module.Path] = &m.Module
		set := make(map[string]bool, len(m.Module.Roles)+1)
		for _, r := range m.Module.Roles {
			set[r] = true
		}
		roleSets[m.Module.Path] = set
	}
	roles := func(p string) map[string]bool {
		if set, ok := roleSets[p]; ok {
			return set
		}
		return map[string]bool{} // not an analysed module: nothing to record
	}
	e.html = map[string]string{}
	for _, t := range texts {
		if t.kind == "html" {
			e.html[t.path] = t.src
			doc := scanHTML(t.path, t.src, e.resolveFile)
			if doc.Truncated != "" {
				res.Limitations = append(res.Limitations, doc.Truncated)
			}
			res.HTML = append(res.HTML, doc)
		}
	}
	e.rendererSenders(res) // before roles: event.sender.send in a renderer
	// Entry points and roles.
	if p := res.Package; p != nil && p.ResolvedMain != "" {
		e.entry = append(e.entry, Entrypoint{Kind: "electron-main", Path: p.ResolvedMain, Source: "package.json"})
		roles(p.ResolvedMain)["electron-main"] = true
	}
	for _, w := range e.windowList {
		if w.w.Origin != "electron-remote" {
			roles(w.w.Module)["electron-main"] = true
		}
		if pl := w.w.Preload; pl != nil && pl.Module != "" {
			e.entry = append(e.entry, Entrypoint{Kind: "electron-preload", Path: pl.Module, Source: w.w.Module})
			roles(pl.Module)["electron-preload"] = true
		}
		if pl := w.w.Preload; pl != nil {
			for _, alt := range pl.Alternatives {
				if alt.Module != "" {
					e.entry = append(e.entry, Entrypoint{Kind: "electron-preload", Path: alt.Module, Source: w.w.Module})
					roles(alt.Module)["electron-preload"] = true
				}
			}
		}
		for _, l := range w.w.Loads {
			if l.Resolved != "" {
				e.entry = append(e.entry, Entrypoint{Kind: "renderer-html", Path: l.Resolved, Source: w.w.Module})
			}
		}
	}
	for _, d := range res.HTML {
		for _, s := range d.Scripts {
			if s.Resolved != "" {
				e.entry = append(e.entry, Entrypoint{Kind: "renderer-script", Path: s.Resolved, Source: d.Path})
				roles(s.Resolved)["electron-renderer"] = true
			}
		}
	}
	e.resolveBridgeCalls()
	e.narrowAllowLists()
	e.dropSuperSites()
	for _, op := range e.ipc {
		r := roles(op.Module)
		if op.Side == "main" {
			r["electron-main"] = true
		} else if !r["electron-preload"] {
			r["electron-renderer"] = true
		}
	}
	for _, sm := range mods {
		m := &sm.Module
		for _, imp := range m.Imports {
			switch imp.Kind {
			case "worker", "service-worker":
				if imp.Resolved != "" {
					e.entry = append(e.entry, Entrypoint{Kind: imp.Kind, Path: imp.Resolved, Source: m.Path})
				}
			}
			to := imp.Resolved
			if to == "" {
				if !imp.External {
					continue
				}
				to = "external:" + imp.Specifier
			}
			e.edges = append(e.edges, GraphEdge{From: m.Path, To: to, Kind: imp.Kind})
		}
	}
	// Modules.
	for _, sm := range mods {
		m := sm.Module
		set := roleSets[m.Path]
		m.Roles = make([]string, 0, len(set))
		for r := range set {
			m.Roles = append(m.Roles, r)
		}
		sort.Strings(m.Roles)
		if m.Imports == nil {
			m.Imports = []Import{}
		}
		sortImports(m.Imports)
		res.Modules = append(res.Modules, m)
		res.Statistics.ParsedJavaScriptFiles++
		if sm.Normalised {
			res.Statistics.NormalisedFiles++
		}
	}
	sort.Slice(res.Modules, func(i, j int) bool { return res.Modules[i].Path < res.Modules[j].Path })
	// Windows.
	for _, w := range e.windowList {
		for i := range w.w.Loads {
			w.w.Loads[i].Target = redactURLs(w.w.Loads[i].Target)
		}
		e.windowFindings(w)
		sort.Strings(w.w.Unknowns)
		sortLoads(w.w.Loads)
		w.w.ID = fmt.Sprintf("window:%s:%d:%d", w.w.Location.File, w.w.Location.Line, w.w.Location.Column)
		res.Windows = append(res.Windows, w.w)
	}
	sort.Slice(res.Windows, func(i, j int) bool { return lessLoc(res.Windows[i].Location, res.Windows[j].Location) })
	e.pairIPC()
	e.appFindings(res)
	res.IPC = e.ipc
	res.ContextBridge = e.exposed
	sort.Slice(res.ContextBridge, func(i, j int) bool {
		a, b := res.ContextBridge[i], res.ContextBridge[j]
		if a.Location != b.Location {
			return lessLoc(a.Location, b.Location)
		}
		return jsonLess(a, b)
	})
	for i := range e.obs {
		e.obs[i].Argument = redactURLs(e.obs[i].Argument)
	}
	res.Observations = e.obs
	sort.Slice(res.Observations, func(i, j int) bool {
		a, b := res.Observations[i], res.Observations[j]
		if a.Location != b.Location {
			return lessLoc(a.Location, b.Location)
		}
		if a.Kind+a.API != b.Kind+b.API {
			return a.Kind+a.API < b.Kind+b.API
		}
		return jsonLess(a, b)
	})
	res.Entrypoints = dedupEntries(e.entry)
	res.ModuleGraph = dedupEdges(e.edges)
	sort.Slice(res.Bundles, func(i, j int) bool { return res.Bundles[i].Path < res.Bundles[j].Path })
	res.SourceMaps = e.sourceMaps(res.Modules)
	for _, b := range res.Bundles {
		res.Statistics.BundledModules += len(b.Modules)
	}
	res.Statistics.Modules = len(mods) + res.Statistics.BundledModules
	// Findings, cross-referenced and bounded.
	e.crossReference()
	sortFindings(e.findings)
	e.findings = dedupFindings(e.findings)
	if len(e.findings) > e.opts.MaxFindings {
		e.hit("max_findings", e.opts.MaxFindings, len(e.findings)-e.opts.MaxFindings)
		e.findings = e.findings[:e.opts.MaxFindings]
	}
	res.Findings = e.findings
	res.Statistics.Findings = len(res.Findings)
	// The step budget is 4 evaluations per allowed AST node; running out of
	// it leaves later values unknown, which is a cut in coverage.
	if e.refused > 0 {
		e.hit("evaluation_steps", e.opts.MaxASTNodes*4, e.refused)
	}
	if e.boundReached {
		e.limitations = append(e.limitations, "the constant evaluator reached its depth or step bound somewhere; affected values are reported as unknown")
	}
	e.summarise(res)
	sort.Slice(e.hits, func(i, j int) bool { return e.hits[i].Limit < e.hits[j].Limit })
	res.Coverage = Coverage{Status: "complete", LimitsReached: e.hits}
	if e.coverageGaps(res) > 0 {
		res.Coverage.Status = "partial"
	}
	if len(e.hits) > 0 {
		res.Coverage.Status = "partial"
		for _, h := range e.hits {
			e.limitations = append(e.limitations, fmt.Sprintf("limit %s reached: %d item(s) not analysed", h.Limit, h.Omitted))
		}
	}
	sort.Slice(e.omitted, func(i, j int) bool {
		if e.omitted[i].Path != e.omitted[j].Path {
			return e.omitted[i].Path < e.omitted[j].Path
		}
		return e.omitted[i].Reason < e.omitted[j].Reason
	})
	res.OmittedFiles = e.omitted
	if res.OmittedFiles == nil {
		res.OmittedFiles = []OmittedFile{}
	}
	sort.Strings(e.limitations)
	res.Limitations = e.limitations
	ensureSlices(res)
}

var sourceMapRe = regexp.MustCompile(`(?m)^//[#@] sourceMappingURL=(\S+)\s*$`)

// sourceMappingURL returns a declared source map reference (never read;
// data: URLs are reported by their media type only).
func sourceMappingURL(src string) string {
	tail := src
	if len(tail) > 4096 {
		tail = tail[len(tail)-4096:]
	}
	if !strings.Contains(tail, "sourceMappingURL=") {
		// Most files declare none; the regexp would still step through
		// every position of the tail (in wasm, 8 % of an app's calls).
		return ""
	}
	ms := sourceMapRe.FindAllStringSubmatch(tail, -1)
	if len(ms) == 0 {
		return ""
	}
	u := ms[len(ms)-1][1]
	if strings.HasPrefix(u, "data:") {
		return "data: (inline source map)"
	}
	return truncateUTF8(u, 512)
}

func lessLoc(a, b Location) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

func sortImports(imps []Import) {
	sort.Slice(imps, func(i, j int) bool {
		if imps[i].Location != imps[j].Location {
			return lessLoc(imps[i].Location, imps[j].Location)
		}
		return imps[i].Kind+imps[i].Specifier < imps[j].Kind+imps[j].Specifier
	})
}

func sortLoads(l []Load) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Location != l[j].Location {
			return lessLoc(l[i].Location, l[j].Location)
		}
		return jsonLess(l[i], l[j])
	})
}

func sortFindings(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := abi.SeverityRank(a.Severity), abi.SeverityRank(b.Severity); ra != rb {
			return ra > rb // most severe first
		}
		if a.Location != b.Location {
			return lessLoc(a.Location, b.Location)
		}
		if a.RuleID != b.RuleID {
			return a.RuleID < b.RuleID
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return jsonLess(a, b)
	})
}

func dedupFindings(fs []Finding) []Finding {
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f.RuleID == fs[i-1].RuleID && f.Location == fs[i-1].Location && f.Message == fs[i-1].Message {
			continue
		}
		out = append(out, f)
	}
	return out
}

func dedupEntries(es []Entrypoint) []Entrypoint {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Source < b.Source
	})
	out := []Entrypoint{}
	for i, x := range es {
		if i > 0 && x == es[i-1] {
			continue
		}
		out = append(out, x)
	}
	return out
}

func dedupEdges(es []GraphEdge) []GraphEdge {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		return a.Kind < b.Kind
	})
	out := []GraphEdge{}
	for i, x := range es {
		if i > 0 && x == es[i-1] {
			continue
		}
		out = append(out, x)
	}
	return out
}

// pairIPC assigns ids and pairs transmissions with handlers.
func (e *engine) pairIPC() {
	sort.Slice(e.ipc, func(i, j int) bool {
		if e.ipc[i].Location != e.ipc[j].Location {
			return lessLoc(e.ipc[i].Location, e.ipc[j].Location)
		}
		if e.ipc[i].API != e.ipc[j].API {
			return e.ipc[i].API < e.ipc[j].API
		}
		return jsonLess(e.ipc[i], e.ipc[j])
	})
	e.ipc = dedupIPC(e.ipc)
	for i := range e.ipc {
		op := &e.ipc[i]
		op.ID = fmt.Sprintf("ipc:%s:%d:%d", op.Location.File, op.Location.Line, op.Location.Column)
		// A call whose channel is one of several values is one operation
		// per value, at one location.
		if (i > 0 && e.ipc[i-1].Location == op.Location) || (i+1 < len(e.ipc) && e.ipc[i+1].Location == op.Location) {
			op.ID += ":" + op.API + ":" + op.Channel
		}
	}
	receivers := ipcReceivers
	for i := range e.ipc {
		op := &e.ipc[i]
		if op.Role != "transmission" {
			continue
		}
		match := receivers(*op)
		if match == nil {
			continue
		}
		if op.ChannelState == "dynamic" {
			op.Pairing = "dynamic"
			continue
		}
		ids := receiverIDs(e.ipc, *op, match)
		switch len(ids) {
		case 0:
			op.Pairing = "unpaired"
		case 1:
			op.Pairing = "paired"
			op.PairedWith = ids
		default:
			op.Pairing = "ambiguous"
			op.PairedWith = ids
		}
	}
	for _, op := range e.ipc {
		if op.ChannelState == "dynamic" {
			e.addFinding(Finding{RuleID: "ipc-dynamic-channel", Severity: "low", Confidence: "observed",
				Message: op.API + " uses a channel computed at run time; which messages reach it cannot be checked statically.", Location: op.Location,
				Snippet: e.snippetAt(op.Location), Remediation: "Use fixed channel names, one per operation."})
		}
		if op.Side == "main" && op.Role != "transmission" && op.SenderValidation != nil && !*op.SenderValidation {
			channel := strconv.Quote(op.Channel)
			if op.ChannelState == "dynamic" {
				channel = "a channel computed at run time"
			}
			e.addFinding(Finding{RuleID: "ipc-handler-without-sender-validation", Severity: "low", Confidence: "observed",
				Message:  fmt.Sprintf("%s(%s) never checks event.senderFrame or the sender URL, so any frame that can reach IPC can call it.", op.API, channel),
				Location: op.Location, Snippet: e.snippetAt(op.Location), Remediation: "Check event.senderFrame.url against the application's own origin before acting."})
		}
	}
}

func (e *engine) summarise(res *Result) {
	s := &res.Summary
	s.BrowserWindows = len(res.Windows)
	preloads := map[string]bool{}
	for _, w := range res.Windows {
		if w.ExplicitWebPreferences {
			s.ExplicitWebPreferences++
		}
		if w.Preload != nil {
			k := w.Preload.Module
			if k == "" {
				k = w.Preload.Path
			}
			if k == "" {
				k = w.Preload.Expression
			}
			preloads[k] = true
		}
	}
	s.PreloadEntrypoints = len(preloads)
	s.ContextBridgeAPIs = len(res.ContextBridge)
	for _, a := range res.ContextBridge {
		s.ExposedAPIMembers += len(a.Members)
	}
	channels := map[string]bool{}
	for _, op := range res.IPC {
		s.IPC.Operations++
		if op.ChannelState == "dynamic" {
			s.IPC.DynamicChannelOperations++
		} else {
			channels[op.Channel] = true
		}
		if op.Side == "renderer" {
			switch op.Role {
			case "transmission":
				s.IPC.RendererTransmissions++
				switch op.Pairing {
				case "paired":
					s.IPC.PairedRendererTransmissions++
				case "ambiguous":
					s.IPC.AmbiguousRendererTransmissions++
				case "unpaired":
					s.IPC.UnpairedLiteralRendererTransmissions++
				}
			case "listener":
				s.IPC.RendererListeners++
			}
		} else if op.Role != "transmission" {
			s.IPC.MainHandlers++
			if op.SenderValidation != nil && *op.SenderValidation {
				s.SenderValidationObservations++
			}
		}
	}
	s.IPC.LiteralChannels = len(channels)
	for _, o := range res.Observations {
		switch o.Kind {
		case "utility-process":
			s.UtilityProcesses++
			if o.State == "resolved" {
				s.ResolvedUtilityEntrypoints++
			}
		case "native-addon":
			s.NativeAddonBindings++
			if o.State == "resolved" {
				s.ResolvedNativeAddonBindings++
			}
		}
	}
	s.FindingsBySeverity = map[string]int{"high": 0, "medium": 0, "low": 0, "info": 0}
	for _, f := range res.Findings {
		if f.Suppressed != nil {
			continue // kept in the result, not counted
		}
		s.FindingsBySeverity[f.Severity]++
	}
}

func ensureSlices(r *Result) {
	if r.Entrypoints == nil {
		r.Entrypoints = []Entrypoint{}
	}
	if r.HTML == nil {
		r.HTML = []HTMLDocument{}
	}
	if r.Modules == nil {
		r.Modules = []Module{}
	}
	if r.ModuleGraph == nil {
		r.ModuleGraph = []GraphEdge{}
	}
	if r.Windows == nil {
		r.Windows = []Window{}
	}
	if r.ContextBridge == nil {
		r.ContextBridge = []ExposedAPI{}
	}
	if r.IPC == nil {
		r.IPC = []IPCOperation{}
	}
	if r.Observations == nil {
		r.Observations = []Observation{}
	}
	if r.Bundles == nil {
		r.Bundles = []Bundle{}
	}
	if r.SourceMaps == nil {
		r.SourceMaps = []SourceMapRef{}
	}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if r.Limitations == nil {
		r.Limitations = []string{}
	}
}

// sourceMaps lists .map files of the root and the maps modules declare.
func (e *engine) sourceMaps(mods []Module) []SourceMapRef {
	refs := map[string]*SourceMapRef{}
	for p := range e.files {
		if strings.HasSuffix(p, ".map") {
			refs[p] = &SourceMapRef{Path: p, Present: true, DeclaredBy: []string{}}
		}
	}
	for _, m := range mods {
		u := m.SourceMap
		if u == "" || strings.HasPrefix(u, "data:") || strings.Contains(u, "://") {
			continue
		}
		p := path.Clean(path.Join(path.Dir(m.Path), strings.SplitN(u, "?", 2)[0]))
		r, ok := refs[p]
		if !ok {
			r = &SourceMapRef{Path: p, Present: e.files[p], DeclaredBy: []string{}}
			refs[p] = r
		}
		r.DeclaredBy = append(r.DeclaredBy, m.Path)
	}
	out := make([]SourceMapRef, 0, len(refs))
	for _, r := range refs {
		sort.Strings(r.DeclaredBy)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
