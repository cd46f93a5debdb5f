package jsengine

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
)

// A window's security preferences are judged by what Electron would do with
// them: an explicit boolean decides; a missing key takes the default of the
// Electron version the application declares (or, when none is declared,
// the oldest defaults — the assumption is stated in the finding); a value
// that is not a boolean is read the way that version reads it; a value the
// evaluator could not resolve is reported as unknown with confidence
// inferred, since an insecure value may hide in it.

// prefRule describes a security preference of webPreferences.
type prefRule struct {
	keys     []string // the key and its legacy names
	rule     string
	severity string
	// bad is the insecure boolean value.
	bad bool
	// secureFrom is the Electron major from which a missing key is
	// secure; 0 when the default is secure in every version.
	secureFrom   int
	message, fix string
}

var prefRules = []prefRule{
	{[]string{"nodeIntegration"}, "node-integration-enabled", "high", true, 5,
		"nodeIntegration is on: any script in the window, including injected content, gets Node.js.",
		"Set nodeIntegration: false and expose narrow APIs from a preload through contextBridge."},
	{[]string{"nodeIntegrationInWorker"}, "node-integration-in-worker-enabled", "high", true, 0,
		"nodeIntegrationInWorker is on: web workers get Node.js.", "Set nodeIntegrationInWorker: false."},
	{[]string{"nodeIntegrationInSubFrames"}, "node-integration-in-subframes-enabled", "medium", true, 0,
		"nodeIntegrationInSubFrames is on: preloads and Node run in every frame, including third-party iframes.", "Set nodeIntegrationInSubFrames: false."},
	{[]string{"contextIsolation"}, "context-isolation-disabled", "high", false, 12,
		"contextIsolation is off: page scripts share the preload's JavaScript world and can reach its privileged objects.",
		"Set contextIsolation: true (the default since Electron 12) and expose APIs with contextBridge."},
	{[]string{"sandbox"}, "sandbox-disabled", "medium", false, 20,
		"sandbox is off: the renderer runs without the Chromium sandbox and its preload gets full Node.js.",
		"Set sandbox: true (the default since Electron 20)."},
	{[]string{"webSecurity"}, "web-security-disabled", "high", false, 0,
		"webSecurity is off: the same-origin policy is off and http content may load in https pages.", "Remove webSecurity: false."},
	{[]string{"allowRunningInsecureContent"}, "insecure-content-allowed", "high", true, 0,
		"allowRunningInsecureContent is on: https pages may run http scripts.", "Remove allowRunningInsecureContent."},
	{[]string{"experimentalFeatures", "experimentalCanvasFeatures"}, "experimental-features-enabled", "medium", true, 0,
		"experimental features are on: untested Chromium features are enabled.", "Remove experimentalFeatures."},
	{[]string{"webviewTag"}, "webview-tag-enabled", "medium", true, 0,
		"webviewTag is on: pages can create <webview> guests with their own preferences.",
		"Leave webviewTag off, or validate every attach in will-attach-webview."},
	{[]string{"enableRemoteModule"}, "remote-module-enabled", "medium", true, 10,
		"enableRemoteModule is on: the renderer can call main-process objects through remote.",
		"Remove the remote module; use explicit IPC."},
}

// truthyFromMajor is the Electron major from which rea reads a non-boolean
// webPreferences value by JavaScript truthiness (gin's bool conversion);
// older versions ignored a non-boolean and used the default. An
// assumption, documented in docs/conformance.md.
const truthyFromMajor = 15

// prefVerdict is what one key of one window amounts to.
type prefVerdict struct {
	insecure bool
	conf     string // observed | inferred
	at       Location
	via      []Step
	why      string // how the value was read, for the message
}

// judgePref decides one key of w. ok is false when the key does not make
// the window insecure (or nothing can be said).
func (e *engine) judgePref(w *Window, r prefRule, key string, ver electronVersion) (prefVerdict, bool) {
	v, present := w.WebPreferences[key]
	at := w.Location
	if present && v.Location != nil {
		at = *v.Location
	}
	if !present {
		if key != r.keys[0] || r.secureFrom == 0 || w.Coverage != "complete" {
			return prefVerdict{}, false
		}
		if ver.known && ver.major >= r.secureFrom {
			return prefVerdict{}, false
		}
		return prefVerdict{insecure: true, conf: "inferred", at: at,
			why: fmt.Sprintf("%s is not set and %s it defaults to %v", key, ver.phrase(), r.bad)}, true
	}
	if v.State == "unknown" {
		return prefVerdict{insecure: true, conf: "inferred", at: at, via: v.Via,
			why: fmt.Sprintf("%s is %s, which could not be resolved statically; the window is insecure if it is %v", key, truncateUTF8(fmt.Sprint(v.Value), 80), r.bad)}, true
	}
	if b, isBool := v.Value.(bool); isBool {
		if b != r.bad {
			return prefVerdict{}, false
		}
		return prefVerdict{insecure: true, conf: v.State, at: at, via: v.Via, why: fmt.Sprintf("%s is %v", key, b)}, true
	}
	// Not a boolean: older Electron ignores it (the default applies),
	// newer Electron converts it by truthiness.
	shown := truncateUTF8(fmt.Sprint(jsRender(v.Value)), 80)
	if ver.known && ver.major >= truthyFromMajor {
		if truthyJSON(v.Value) != r.bad {
			return prefVerdict{}, false
		}
		return prefVerdict{insecure: true, conf: "inferred", at: at, via: v.Via,
			why: fmt.Sprintf("%s is %s, not a boolean; %s reads it as %v", key, shown, ver.phrase(), r.bad)}, true
	}
	def := r.bad // the default before secureFrom …
	if r.secureFrom == 0 || (ver.known && ver.major >= r.secureFrom) {
		def = !r.bad // … and in every version where it is secure
	}
	if def != r.bad {
		return prefVerdict{}, false
	}
	return prefVerdict{insecure: true, conf: "inferred", at: at, via: v.Via,
		why: fmt.Sprintf("%s is %s, not a boolean, so %s ignores it and uses the default %v", key, shown, ver.phrase(), r.bad)}, true
}

func jsRender(v any) any {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	if v == nil {
		return "null"
	}
	return v
}

func truthyJSON(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case nil:
		return false
	}
	return true
}

func (e *engine) windowFindings(w *windowRec) {
	win := &w.w
	ver := e.electronVersion()
	created := Step{Description: win.Kind + " created here", Location: win.Location}
	sandboxed := false
	if v, ok := win.WebPreferences["sandbox"]; ok && v.State != "unknown" && v.Value == true {
		sandboxed = true
	}
	for _, r := range prefRules {
		for _, key := range r.keys {
			pv, bad := e.judgePref(win, r, key, ver)
			if !bad {
				continue
			}
			ev := append([]Step{created}, pv.via...)
			msg := pv.why + ": " + r.message[strings.Index(r.message, ": ")+2:]
			f := Finding{RuleID: r.rule, Severity: r.severity, Confidence: pv.conf, Message: msg,
				Location: pv.at, Snippet: e.snippetAt(pv.at), Remediation: r.fix, Evidence: ev}
			if sandboxed && strings.HasPrefix(r.rule, "node-integration") {
				// sandbox: true keeps Node.js out of the renderer whatever
				// nodeIntegration says: a note, not the high finding.
				f.RuleID, f.Severity = "node-integration-sandboxed", "info"
				f.Message = pv.why + ", but sandbox: true keeps Node.js out of this renderer, so the setting has no effect."
				f.Remediation = "Remove the nodeIntegration setting so the configuration says what runs."
			}
			e.addFinding(f)
		}
	}
	// Remote pages in a privileged window: the page's origin decides what
	// runs with Node.js or in the preload's world.
	for _, l := range win.Loads {
		if !l.Remote {
			continue
		}
		var why []string
		conf := "observed"
		if v, ok := win.WebPreferences["nodeIntegration"]; ok && v.State != "unknown" && isTrue(v.Value) && !sandboxed {
			why = append(why, "nodeIntegration is true")
			if v.State == "inferred" {
				conf = "inferred"
			}
		}
		if v, ok := win.WebPreferences["contextIsolation"]; ok && v.State != "unknown" && isFalse(v.Value) {
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
	e.blinkFindings(w, created)
	if win.Preload != nil {
		at := win.Preload.Location
		if at.File == "" {
			at = win.Location
		}
		if v, ok := win.WebPreferences["preload"]; ok && v.Location != nil {
			at = *v.Location
		}
		target := win.Preload.Module
		if target == "" {
			target = win.Preload.Expression
		}
		e.addFinding(Finding{RuleID: "preload-script", Severity: "info", Confidence: win.Preload.State,
			Message:  "This " + win.Kind + " runs the preload script " + truncateUTF8(target, 120) + ", which has more privileges than the page: review what it exposes.",
			Location: at, Snippet: e.snippetAt(at), Evidence: []Step{created},
			Remediation: "Keep the preload small: expose single-purpose functions through contextBridge and no Electron or Node objects."})
	}
	if v, ok := win.WebPreferences["affinity"]; ok && (v.State == "unknown" || truthyJSON(v.Value)) {
		at := win.Location
		if v.Location != nil {
			at = *v.Location
		}
		e.addFinding(Finding{RuleID: "affinity-set", Severity: "medium", Confidence: nonUnknown(v.State),
			Message:  fmt.Sprintf("affinity is %s: windows with the same affinity share one renderer process, and with it each other's privileges.", truncateUTF8(fmt.Sprint(jsRender(v.Value)), 80)),
			Location: at, Snippet: e.snippetAt(at), Evidence: []Step{created},
			Remediation: "Remove affinity (Electron 11 removed it); give windows of different trust their own processes."})
		if s, ok := v.Value.(string); ok && v.State != "unknown" {
			e.rules.affinities = append(e.rules.affinities, affinityUse{name: s, at: at})
		}
	}
	if win.Coverage != "complete" {
		e.addFinding(Finding{RuleID: "window-options-unresolved", Severity: "info", Confidence: "observed",
			Message:  "Some options of this " + win.Kind + " could not be resolved statically: " + strings.Join(win.Unknowns, "; "),
			Location: win.Location, Snippet: e.snippetAt(win.Location),
			Remediation: "Review the options by hand; insecure values may hide in the unresolved parts."})
	}
}

// blinkFindings reports enableBlinkFeatures/blinkFeatures and a
// disableBlinkFeatures that does not name Auxclick.
func (e *engine) blinkFindings(w *windowRec, created Step) {
	win := &w.w
	for _, key := range []string{"enableBlinkFeatures", "blinkFeatures"} {
		v, ok := win.WebPreferences[key]
		if !ok || (v.State != "unknown" && !truthyJSON(v.Value)) {
			continue
		}
		at := win.Location
		if v.Location != nil {
			at = *v.Location
		}
		e.addFinding(Finding{RuleID: "blink-features-enabled", Severity: "medium", Confidence: nonUnknown(v.State),
			Message:  fmt.Sprintf("%s is %s: Blink features that are off by default are turned on.", key, truncateUTF8(fmt.Sprint(jsRender(v.Value)), 80)),
			Location: at, Snippet: e.snippetAt(at), Evidence: []Step{created}, Remediation: "Remove " + key + "."})
	}
	v, ok := win.WebPreferences["disableBlinkFeatures"]
	if !ok && win.Coverage != "complete" {
		return
	}
	at := win.Location
	if ok {
		if v.State == "unknown" {
			return // cannot tell; the window lists the unresolved value
		}
		if s, isStr := v.Value.(string); isStr && namesFeature(s, "Auxclick") {
			return
		}
		if v.Location != nil {
			at = *v.Location
		}
	}
	e.addFinding(Finding{RuleID: "auxclick-not-disabled", Severity: "info", Confidence: "observed",
		Message:  "Middle-click (auxclick) is not disabled: a middle-click on a link can open it outside the app's navigation handlers.",
		Location: at, Snippet: e.snippetAt(at), Evidence: []Step{created},
		Remediation: "Set webPreferences.disableBlinkFeatures: 'Auxclick' if the app does not need it."})
}

// namesFeature reports whether a comma-separated Blink feature list names
// feature (Blink's names; "NOT_AUXCLICK" is not "Auxclick").
func namesFeature(list, feature string) bool {
	for _, f := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(f), feature) {
			return true
		}
	}
	return false
}

func nonUnknown(state string) string {
	if state == "unknown" {
		return "inferred"
	}
	return state
}

func isTrue(v any) bool  { b, ok := v.(bool); return ok && b }
func isFalse(v any) bool { b, ok := v.(bool); return ok && !b }

// uninitialised reports whether x names a variable declared without a
// value and never assigned (let o; new BrowserWindow(o)): its value is
// undefined.
func uninitialised(s *scope, x ast.Expression) bool {
	id, ok := x.(*ast.Identifier)
	if !ok {
		return false
	}
	b := s.lookup(string(id.Name))
	return b != nil && b.init == nil && b.fn == nil && !b.opaque && len(b.assigned()) == 0 && len(b.members()) == 0 && len(b.populators()) == 0 && b.preset() == nil
}
