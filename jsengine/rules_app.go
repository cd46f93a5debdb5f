package jsengine

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// rulesState holds what the rules gather while finishing.
type rulesState struct {
	version    *electronVersion
	affinities []affinityUse
}

type affinityUse struct {
	name string
	at   Location
}

// electronVersion is the Electron version the application declares, the
// oldest one when several places name one (as Electronegativity does: the
// defaults of the oldest are the ones that may apply).
type electronVersion struct {
	known  bool
	major  int
	raw    string
	source string
}

// phrase says which version the defaults come from, for messages.
func (v electronVersion) phrase() string {
	if v.known {
		return fmt.Sprintf("in Electron %s (%s)", v.raw, v.source)
	}
	return "with no Electron version declared (rea assumes the oldest defaults, those before Electron 5)"
}

var versionRe = regexp.MustCompile(`(\d+)(?:\.(\d+))?(?:\.(\d+))?`)

// minVersion reads the lowest version a dependency range admits ("^4.0.4"
// → 4.0.4); false for tags, URLs and paths.
func minVersion(r string) (string, int, bool) {
	r = strings.TrimSpace(r)
	if r == "" || strings.ContainsAny(r, ":/") || r == "*" || r == "latest" {
		return "", 0, false
	}
	m := versionRe.FindStringSubmatch(r)
	if m == nil {
		return "", 0, false
	}
	major, err := strconv.Atoi(m[1])
	if err != nil {
		return "", 0, false
	}
	v := m[1] + "." + orZero(m[2]) + "." + orZero(m[3])
	return v, major, true
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// electronVersion finds the declared Electron version: package.json
// (dependencies, devDependencies), package-lock.json / npm-shrinkwrap.json,
// yarn.lock, pnpm-lock.yaml and an installed node_modules/electron.
func (e *engine) electronVersion() electronVersion {
	if e.rules.version != nil {
		return *e.rules.version
	}
	if se := e.opts.ShippedElectron; se != nil {
		if v, major, ok := minVersion(se.Version); ok {
			shipped := electronVersion{known: true, major: major, raw: v, source: "read from the shipped binary " + se.Binary}
			e.rules.version = &shipped
			return shipped
		}
	}
	var found []electronVersion
	add := func(r, source string) {
		if v, major, ok := minVersion(r); ok {
			found = append(found, electronVersion{known: true, major: major, raw: v, source: source})
		}
	}
	var pj struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if e.pkgSrc != "" && json.Unmarshal([]byte(e.pkgSrc), &pj) == nil {
		if r, ok := pj.Dependencies["electron"]; ok {
			add(r, "package.json dependencies")
		}
		if r, ok := pj.DevDependencies["electron"]; ok {
			add(r, "package.json devDependencies")
		}
	}
	read := func(p string) string {
		if !e.files[p] {
			return ""
		}
		info, err := fs.Stat(e.fsys, p)
		if err != nil || info.Size() > int64(e.opts.MaxTextFileBytes) {
			return ""
		}
		b, err := fs.ReadFile(e.fsys, p)
		if err != nil {
			return ""
		}
		return string(b)
	}
	for _, lock := range []string{"package-lock.json", "npm-shrinkwrap.json"} {
		var l struct {
			Packages     map[string]struct{ Version string } `json:"packages"`
			Dependencies map[string]struct{ Version string } `json:"dependencies"`
		}
		if src := read(lock); src != "" && json.Unmarshal([]byte(src), &l) == nil {
			if p, ok := l.Packages["node_modules/electron"]; ok {
				add(p.Version, lock)
			} else if d, ok := l.Dependencies["electron"]; ok {
				add(d.Version, lock)
			}
		}
	}
	if src := read("yarn.lock"); src != "" {
		if m := yarnElectronRe.FindStringSubmatch(src); m != nil {
			add(m[1], "yarn.lock")
		}
	}
	if src := read("pnpm-lock.yaml"); src != "" {
		if m := pnpmElectronRe.FindStringSubmatch(src); m != nil {
			add(m[1], "pnpm-lock.yaml")
		}
	}
	var installed struct{ Version string }
	if src := read("node_modules/electron/package.json"); src != "" && json.Unmarshal([]byte(src), &installed) == nil {
		add(installed.Version, "node_modules/electron")
	}
	v := electronVersion{}
	for _, f := range found {
		if !v.known || f.major < v.major {
			v = f
		}
	}
	e.rules.version = &v
	return v
}

var (
	// yarn.lock: `electron@^28.0.0:` (or `"electron@…", …:`) then `  version "28.1.0"`.
	yarnElectronRe = regexp.MustCompile(`(?m)^"?electron@[^\n]*:\n(?:[ \t]+[^\n]*\n)*?[ \t]+version:?[ \t]+"?([0-9][^"\s]*)`)
	// pnpm-lock.yaml: `/electron@28.1.0:` or `electron@28.1.0:` package keys.
	pnpmElectronRe = regexp.MustCompile(`(?m)^[ \t]+['"]?/?electron[@/]([0-9][^:'"(\s]*)`)
)

// appFindings are the findings about the application as a whole, its
// pages and its package.json.
func (e *engine) appFindings(res *Result) {
	ver := e.electronVersion()
	electronApp := len(e.windowList) > 0 || e.importsElectron(res)
	if electronApp {
		first := Location{File: "package.json", Line: 1, Column: 1}
		if len(res.Windows) > 0 {
			first = res.Windows[0].Location
		} else if m := e.firstElectronModule(res); m != "" {
			first = Location{File: m, Line: 1, Column: 1}
		}
		e.permissionFindings(first)
		e.navigationFindings(first)
		if !ver.known && len(e.windowList) > 0 {
			e.limitations = append(e.limitations, "no Electron version is declared (package.json, lockfiles, node_modules/electron): window defaults are judged as the oldest Electron's, as Electronegativity does, and such findings are marked inferred")
		}
	}
	headerCSP := false
	for _, f := range e.findings {
		if f.RuleID == "csp-defined" && sourceKind(f.Location.File) == "javascript" {
			headerCSP = true
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
			if (renderers[d.Path] || len(d.Scripts) > 0) && !headerCSP {
				e.addFinding(Finding{RuleID: "csp-missing", Severity: "low", Confidence: "observed",
					Message: "The page declares no Content-Security-Policy meta tag and the app sets none in response headers.", Location: at, Snippet: e.snippetAt(at),
					Remediation: "Add <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"> (or send the header)."})
			}
		} else {
			e.addFinding(Finding{RuleID: "csp-defined", Severity: "info", Confidence: "observed",
				Message: "The page defines a Content-Security-Policy: " + truncateUTF8(*d.CSP, 300), Location: *d.CSPAt, Snippet: e.snippetAt(*d.CSPAt),
				Remediation: "Keep script-src to the app's own origin; csp-weak lists weaknesses rea recognises."})
			if weak := cspWeaknesses(*d.CSP); len(weak) > 0 {
				e.addFinding(Finding{RuleID: "csp-weak", Severity: "medium", Confidence: "observed",
					Message: "The Content-Security-Policy is weak: " + strings.Join(weak, "; "), Location: *d.CSPAt, Snippet: e.snippetAt(*d.CSPAt),
					Remediation: "Restrict script-src to 'self' without 'unsafe-inline' or 'unsafe-eval'."})
			}
		}
		for _, s := range d.Scripts {
			if strings.HasPrefix(strings.ToLower(s.Src), "http://") {
				e.addFinding(Finding{RuleID: "http-resource", Severity: "medium", Confidence: "observed",
					Message: "A script is loaded over plain http: " + s.Src, Location: s.Location, Snippet: e.snippetAt(s.Location),
					Remediation: "Ship the script with the app or load it over https with subresource integrity."})
			}
		}
		for _, wv := range d.Webviews {
			e.webviewFindings(wv)
		}
	}
	e.affinityFindings()
	e.packageFindings(res, ver)
	e.fuseConfigFindings()
}

// importsElectron reports whether some module of the application imports
// electron: only then are app-wide Electron rules (navigation, permission
// handlers) meaningful.
func (e *engine) importsElectron(res *Result) bool {
	return e.firstElectronModule(res) != ""
}

func (e *engine) firstElectronModule(res *Result) string {
	for _, m := range res.Modules {
		for _, imp := range m.Imports {
			if s := strings.TrimPrefix(imp.Specifier, "node:"); s == "electron" || strings.HasPrefix(s, "electron/") {
				return m.Path
			}
		}
	}
	return ""
}

// permissionFindings notes each permission request handler and reports
// their absence.
func (e *engine) permissionFindings(first Location) {
	for _, o := range e.obs {
		if o.Kind == "permission-handler" && strings.HasSuffix(o.API, "setPermissionRequestHandler") {
			e.addFinding(Finding{RuleID: "permission-handler", Severity: "info", Confidence: "observed",
				Message:  o.API + " decides which permissions web content gets: review that it denies what the app does not need.",
				Location: o.Location, Snippet: e.snippetAt(o.Location),
				Remediation: "Deny by default and grant only the permissions the app's own origin needs."})
		}
	}
	if e.permissionHandlers == 0 {
		e.addFinding(Finding{RuleID: "permission-handler-missing", Severity: "low", Confidence: "observed",
			Message: "No session permission request handler is set: web content gets Chromium's default permission answers.", Location: first,
			Snippet: e.snippetAt(first), Remediation: "Call session.setPermissionRequestHandler and deny what the app does not need."})
	}
}

// navigationFindings notes each navigation handler and reports what is
// not limited: navigation (will-navigate) and new windows (new-window or
// setWindowOpenHandler).
func (e *engine) navigationFindings(first Location) {
	navigate, newWindow := false, false
	for _, o := range e.obs {
		if o.Kind != "navigation-limit" {
			continue
		}
		switch {
		case strings.HasSuffix(o.API, "setWindowOpenHandler") || o.Argument == "new-window":
			newWindow = true
		default:
			navigate = true
		}
		what := o.API
		if o.Argument != "" && !strings.HasSuffix(o.API, "setWindowOpenHandler") {
			what += "(" + strconv.Quote(o.Argument) + ")"
		}
		e.addFinding(Finding{RuleID: "navigation-handler", Severity: "info", Confidence: "observed",
			Message:  what + " decides where content may go: review that it allows only the app's own origins.",
			Location: o.Location, Snippet: e.snippetAt(o.Location),
			Remediation: "Compare the parsed target origin against a fixed allow-list and deny everything else."})
	}
	var missing []string
	if !navigate {
		missing = append(missing, "no will-navigate handler limits navigation")
	}
	if !newWindow {
		missing = append(missing, "no setWindowOpenHandler (or new-window handler) limits new windows")
	}
	if len(missing) > 0 {
		e.addFinding(Finding{RuleID: "navigation-unrestricted", Severity: "low", Confidence: "observed",
			Message: strings.ToUpper(missing[0][:1]) + strings.Join(missing, "; ")[1:] + ".", Location: first,
			Snippet: e.snippetAt(first), Remediation: "Handle will-navigate and setWindowOpenHandler and allow only the app's own origins."})
	}
}

// webviewFindings judges one <webview> tag's attributes.
func (e *engine) webviewFindings(wv HTMLWebview) {
	at := wv.Location
	add := func(rule, sev, msg, fix string) {
		e.addFinding(Finding{RuleID: rule, Severity: sev, Confidence: "observed", Message: msg, Location: at, Snippet: e.snippetAt(at), Remediation: fix})
	}
	attr := func(k string) (string, bool) { v, ok := wv.Attributes[k]; return v, ok }
	if wv.AllowPopups {
		add("webview-allowpopups", "medium", "A <webview> has allowpopups: its guest can open new windows.", "Remove allowpopups.")
	}
	if wv.NodeIntegration {
		add("node-integration-enabled", "high", "A <webview> has nodeintegration: its guest page gets Node.js.", "Remove the nodeintegration attribute.")
	} else if _, ok := attr("nodeintegrationinsubframes"); ok {
		add("node-integration-in-subframes-enabled", "medium", "A <webview> has nodeintegrationinsubframes: preloads and Node run in its subframes.", "Remove the nodeintegrationinsubframes attribute.")
	}
	if _, ok := attr("disablewebsecurity"); ok {
		add("web-security-disabled", "high", "A <webview> has disablewebsecurity: its guest runs without the same-origin policy.", "Remove disablewebsecurity.")
	}
	prefs := webviewPreferences(wv.Attributes["webpreferences"])
	if v, ok := prefs["webSecurity"]; ok && v == false {
		add("web-security-disabled", "high", "A <webview>'s webpreferences turn webSecurity off.", "Remove webSecurity from webpreferences.")
	}
	if prefs["experimentalFeatures"] == true || prefs["experimentalCanvasFeatures"] == true {
		add("experimental-features-enabled", "medium", "A <webview>'s webpreferences turn experimental features on.", "Remove the experimental features from webpreferences.")
	}
	if prefs["allowRunningInsecureContent"] == true {
		add("insecure-content-allowed", "high", "A <webview>'s webpreferences allow running insecure content.", "Remove allowRunningInsecureContent from webpreferences.")
	}
	if a, ok := prefs["affinity"]; ok {
		name := fmt.Sprint(a)
		add("affinity-set", "medium", "A <webview>'s webpreferences set affinity "+strconv.Quote(name)+": it shares a renderer process with every page of that affinity.", "Remove affinity.")
		e.rules.affinities = append(e.rules.affinities, affinityUse{name: name, at: at})
	}
	for _, k := range []string{"enableblinkfeatures", "blinkfeatures"} {
		if v, ok := attr(k); ok && strings.TrimSpace(v) != "" {
			add("blink-features-enabled", "medium", "A <webview> has "+k+"="+strconv.Quote(truncateUTF8(v, 80))+": Blink features that are off by default are turned on.", "Remove "+k+".")
		}
	}
	if v, _ := attr("disableblinkfeatures"); !namesFeature(v, "Auxclick") {
		add("auxclick-not-disabled", "info", "A <webview> does not disable middle-click (auxclick): a middle-click on a link can open it outside the app's navigation handlers.",
			"Add disableblinkfeatures=\"Auxclick\" if the guest does not need it.")
	}
	if src, ok := attr("src"); ok && wv.NodeIntegration && remoteURL(src) {
		add("remote-content-privileged", "high", "A <webview> with nodeintegration loads remote content ("+truncateUTF8(redactURLs(strings.TrimSpace(src)), 200)+"): the remote page gets Node.js.",
			"Load remote content only in webviews without nodeintegration.")
	}
	if src, ok := attr("src"); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(src)), "http://") {
		add("insecure-remote-content", "high", "A <webview> loads "+truncateUTF8(redactURLs(strings.TrimSpace(src)), 200)+" over plain http: anyone on the network can replace the page.",
			"Load remote content over https only.")
	}
}

// webviewPreferences parses a <webview> webpreferences attribute the way
// Electron does: comma-separated key=value pairs; a bare key is true;
// yes/1/true and no/0/false are booleans.
func webviewPreferences(s string) map[string]any {
	out := map[string]any{}
	if strings.TrimSpace(s) == "" {
		return out
	}
	for _, feature := range regexp.MustCompile(`,\s*`).Split(s, -1) {
		kv := regexp.MustCompile(`\s*=`).Split(feature, 2)
		key := strings.TrimSpace(kv[0])
		if key == "" {
			continue
		}
		if len(kv) == 1 {
			out[key] = true
			continue
		}
		// Electron compares the value as written: "   no" is a string.
		switch v := kv[1]; v {
		case "yes", "1", "true":
			out[key] = true
		case "no", "0", "false":
			out[key] = false
		default:
			out[key] = v
		}
	}
	return out
}

// affinityFindings reports affinities shared by several windows or
// webviews.
func (e *engine) affinityFindings() {
	by := map[string][]Location{}
	for _, a := range e.rules.affinities {
		by[a.name] = append(by[a.name], a.at)
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		locs := by[n]
		if len(locs) < 2 {
			continue
		}
		sort.Slice(locs, func(i, j int) bool { return lessLoc(locs[i], locs[j]) })
		var ev []Step
		for _, l := range locs {
			ev = append(ev, Step{Description: "affinity " + strconv.Quote(n) + " set here", Location: l})
		}
		e.addFinding(Finding{RuleID: "affinity-shared", Severity: "medium", Confidence: "observed",
			Message:  fmt.Sprintf("%d windows or webviews share the affinity %q: they run in one renderer process.", len(locs), n),
			Location: locs[0], Snippet: e.snippetAt(locs[0]), Evidence: ev,
			Remediation: "Remove affinity; windows of different trust must not share a process."})
	}
}

// remoteURL reports whether u is an http(s) URL of another host.
func remoteURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	for _, p := range []string{"http://", "https://", "//"} {
		if strings.HasPrefix(l, p) {
			h := strings.SplitN(strings.TrimPrefix(l, p), "/", 2)[0]
			h = strings.SplitN(h, ":", 2)[0]
			return h != "localhost" && h != "127.0.0.1" && h != ""
		}
	}
	return false
}
