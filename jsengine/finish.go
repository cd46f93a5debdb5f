package jsengine

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
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
	// Entry points and roles.
	if p := res.Package; p != nil && p.ResolvedMain != "" {
		e.entry = append(e.entry, Entrypoint{Kind: "electron-main", Path: p.ResolvedMain, Source: "package.json"})
		roles(p.ResolvedMain)["electron-main"] = true
	}
	for _, w := range e.windowList {
		roles(w.w.Module)["electron-main"] = true
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
	// Findings, bounded.
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

var severityRank = map[string]int{"high": 0, "medium": 1, "low": 2, "info": 3}

func sortFindings(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if severityRank[a.Severity] != severityRank[b.Severity] {
			return severityRank[a.Severity] < severityRank[b.Severity]
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

// prefRule describes an insecure webPreferences value.
type prefRule struct {
	key, rule, severity string
	bad                 func(any) bool
	message, fix        string
}

func isTrue(v any) bool   { b, ok := v.(bool); return ok && b }
func isFalse(v any) bool  { b, ok := v.(bool); return ok && !b }
func nonEmpty(v any) bool { s, ok := v.(string); return ok && s != "" }

var prefRules = []prefRule{
	{"nodeIntegration", "node-integration-enabled", "high", isTrue, "nodeIntegration is true: any script in the window, including injected content, gets Node.js.", "Set nodeIntegration: false and expose narrow APIs from a preload through contextBridge."},
	{"nodeIntegrationInWorker", "node-integration-in-worker-enabled", "high", isTrue, "nodeIntegrationInWorker is true: web workers get Node.js.", "Set nodeIntegrationInWorker: false."},
	{"nodeIntegrationInSubFrames", "node-integration-in-subframes-enabled", "medium", isTrue, "nodeIntegrationInSubFrames is true: preloads and Node run in every frame, including third-party iframes.", "Set nodeIntegrationInSubFrames: false."},
	{"contextIsolation", "context-isolation-disabled", "high", isFalse, "contextIsolation is false: page scripts share the preload's JavaScript world and can reach its privileged objects.", "Set contextIsolation: true (the default since Electron 12) and expose APIs with contextBridge."},
	{"sandbox", "sandbox-disabled", "medium", isFalse, "sandbox is false: the renderer runs without the Chromium sandbox and its preload gets full Node.js.", "Set sandbox: true (the default since Electron 20)."},
	{"webSecurity", "web-security-disabled", "high", isFalse, "webSecurity is false: same-origin policy is off and http content may load in https pages.", "Remove webSecurity: false."},
	{"allowRunningInsecureContent", "insecure-content-allowed", "high", isTrue, "allowRunningInsecureContent is true: https pages may run http scripts.", "Remove allowRunningInsecureContent."},
	{"experimentalFeatures", "experimental-features-enabled", "medium", isTrue, "experimentalFeatures is true: untested Chromium features are on.", "Remove experimentalFeatures."},
	{"enableBlinkFeatures", "blink-features-enabled", "medium", nonEmpty, "enableBlinkFeatures turns on extra Blink features.", "Remove enableBlinkFeatures."},
	{"webviewTag", "webview-tag-enabled", "medium", isTrue, "webviewTag is true: pages can create <webview> guests with their own preferences.", "Leave webviewTag off, or validate every attach in will-attach-webview."},
	{"enableRemoteModule", "remote-module-enabled", "medium", isTrue, "enableRemoteModule is true: the renderer can call main-process objects through remote.", "Remove the remote module; use explicit IPC."},
}

func (e *engine) windowFindings(w *windowRec) {
	created := Step{Description: w.w.Kind + " created here", Location: w.w.Location}
	for _, r := range prefRules {
		v, ok := w.w.WebPreferences[r.key]
		if !ok || v.State == "unknown" || !r.bad(v.Value) {
			continue
		}
		at := w.w.Location
		if v.Location != nil {
			at = *v.Location
		}
		ev := append([]Step{created}, v.Via...)
		e.addFinding(Finding{RuleID: r.rule, Severity: r.severity, Confidence: v.State, Message: r.message,
			Location: at, Snippet: e.snippetAt(at), Remediation: r.fix, Evidence: ev})
	}
	// Remote pages in a privileged window: the page's origin decides what
	// runs with Node.js or in the preload's world.
	for _, l := range w.w.Loads {
		if !l.Remote {
			continue
		}
		var why []string
		conf := "observed"
		if v, ok := w.w.WebPreferences["nodeIntegration"]; ok && v.State != "unknown" && isTrue(v.Value) {
			why = append(why, "nodeIntegration is true")
			if v.State == "inferred" {
				conf = "inferred"
			}
		}
		if v, ok := w.w.WebPreferences["contextIsolation"]; ok && v.State != "unknown" && isFalse(v.Value) {
			why = append(why, "contextIsolation is false")
			if v.State == "inferred" {
				conf = "inferred"
			}
		}
		if len(why) > 0 {
			e.addFinding(Finding{RuleID: "remote-content-privileged", Severity: "high", Confidence: conf,
				Message:  "A window that loads remote content (" + l.Target + ") is privileged: " + strings.Join(why, ", ") + ".",
				Location: l.Location, Snippet: e.snippetAt(l.Location), Evidence: []Step{created},
				Remediation: "Load remote content only in windows with nodeIntegration false, contextIsolation and sandbox true."})
		}
	}
	if v, ok := w.w.WebPreferences["disableBlinkFeatures"]; w.w.Coverage == "complete" && (!ok || !strings.Contains(strings.ToLower(fmt.Sprint(v.Value)), "auxclick")) {
		e.addFinding(Finding{RuleID: "auxclick-not-disabled", Severity: "info", Confidence: "observed",
			Message:  "Middle-click (auxclick) is not disabled: a middle-click on a link can open it outside the app's navigation handlers.",
			Location: w.w.Location, Snippet: e.snippetAt(w.w.Location),
			Remediation: "Set webPreferences.disableBlinkFeatures: 'Auxclick' if the app does not need it."})
	}
	if w.w.Coverage != "complete" {
		e.addFinding(Finding{RuleID: "window-options-unresolved", Severity: "info", Confidence: "observed",
			Message:  "Some options of this " + w.w.Kind + " could not be resolved statically: " + strings.Join(w.w.Unknowns, "; "),
			Location: w.w.Location, Snippet: e.snippetAt(w.w.Location),
			Remediation: "Review the options by hand; insecure values may hide in the unresolved parts."})
	}
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

func (e *engine) appFindings(res *Result) {
	if len(e.windowList) > 0 {
		first := res.Windows[0].Location
		if e.permissionHandlers == 0 {
			e.addFinding(Finding{RuleID: "permission-handler-missing", Severity: "low", Confidence: "observed",
				Message: "No session permission request handler is set: web content gets Chromium's default permission answers.", Location: first,
				Snippet: e.snippetAt(first), Remediation: "Call session.setPermissionRequestHandler and deny what the app does not need."})
		}
		if e.navigationLimits == 0 {
			e.addFinding(Finding{RuleID: "navigation-unrestricted", Severity: "low", Confidence: "observed",
				Message: "No will-navigate handler or setWindowOpenHandler limits where windows can navigate or open.", Location: first,
				Snippet: e.snippetAt(first), Remediation: "Handle will-navigate and setWindowOpenHandler and allow only the app's own origins."})
		}
	}
	renderers := map[string]bool{}
	for _, w := range res.Windows {
		for _, l := range w.Loads {
			if l.Resolved != "" {
				renderers[l.Resolved] = true
			}
		}
	}
	for _, d := range res.HTML {
		at := Location{File: d.Path, Line: 1, Column: 1}
		if d.CSP == nil {
			if renderers[d.Path] || len(d.Scripts) > 0 {
				e.addFinding(Finding{RuleID: "csp-missing", Severity: "low", Confidence: "observed",
					Message: "The page declares no Content-Security-Policy meta tag.", Location: at, Snippet: e.snippetAt(at),
					Remediation: "Add <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"> (or send the header)."})
			}
		} else if weak := cspWeaknesses(*d.CSP); len(weak) > 0 {
			e.addFinding(Finding{RuleID: "csp-weak", Severity: "medium", Confidence: "observed",
				Message: "The Content-Security-Policy is weak: " + strings.Join(weak, "; "), Location: *d.CSPAt, Snippet: e.snippetAt(*d.CSPAt),
				Remediation: "Restrict script-src to 'self' without 'unsafe-inline' or 'unsafe-eval'."})
		}
		for _, s := range d.Scripts {
			if strings.HasPrefix(strings.ToLower(s.Src), "http://") {
				e.addFinding(Finding{RuleID: "http-resource", Severity: "medium", Confidence: "observed",
					Message: "A script is loaded over plain http: " + s.Src, Location: s.Location, Snippet: e.snippetAt(s.Location),
					Remediation: "Ship the script with the app or load it over https with subresource integrity."})
			}
		}
		for _, wv := range d.Webviews {
			if wv.AllowPopups {
				e.addFinding(Finding{RuleID: "webview-allowpopups", Severity: "medium", Confidence: "observed",
					Message: "A <webview> has allowpopups: its guest can open new windows.", Location: wv.Location, Snippet: e.snippetAt(wv.Location),
					Remediation: "Remove allowpopups."})
			}
			if wv.NodeIntegration {
				e.addFinding(Finding{RuleID: "node-integration-enabled", Severity: "high", Confidence: "observed",
					Message: "A <webview> has nodeintegration: its guest page gets Node.js.", Location: wv.Location, Snippet: e.snippetAt(wv.Location),
					Remediation: "Remove the nodeintegration attribute."})
			}
		}
	}
	if p := res.Package; p != nil && p.ElectronVersion != "" {
		if major, ok := electronMajor(p.ElectronVersion); ok && major < e.opts.MinimumElectronMajor {
			at := Location{File: "package.json", Line: 1, Column: 1}
			if loc := electronDependencyRe.FindStringIndex(e.pkgSrc); loc != nil {
				i := loc[0]
				pf := &parsedFile{original: e.pkgSrc, generated: e.pkgSrc, lineStarts: lineStarts(e.pkgSrc), path: "package.json"}
				at = pf.loc(idxOf(i))
			}
			e.addFinding(Finding{RuleID: "electron-version-outdated", Severity: "medium", Confidence: "observed",
				Message:  fmt.Sprintf("Electron %s is older than major %d and no longer receives security fixes.", p.ElectronVersion, e.opts.MinimumElectronMajor),
				Location: at, Snippet: e.snippetAt(at), Remediation: "Upgrade to a supported Electron major."})
		}
	}
}

var majorRe = regexp.MustCompile(`(\d+)`)

// electronDependencyRe finds the "electron": "<version>" entry, not the
// word in keywords or descriptions.
var electronDependencyRe = regexp.MustCompile(`"electron"\s*:\s*"`)

func electronMajor(v string) (int, bool) {
	m := majorRe.FindString(v)
	if m == "" {
		return 0, false
	}
	n, err := strconv.Atoi(m)
	return n, err == nil
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
