package report

import (
	"sort"
	"strings"
)

// Rule is one security rule of the JavaScript/Electron analysis: what it
// reports, how severe it is by default, and the checks of other tools and
// guides it corresponds to, so that a user moving from Electronegativity
// or auditing against Electron's security checklist finds the same ground
// covered.
type Rule struct {
	ID          string       `json:"id"`
	Severity    string       `json:"severity"` // default; a finding may lower it (review notes, assumptions)
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Equivalents []Equivalent `json:"equivalents"`
}

// Equivalent names a check of another catalogue that a rule corresponds to.
type Equivalent struct {
	// Kind is "electronegativity" (a check id of doyensec/electronegativity)
	// or "electron-checklist" (an item number of
	// https://www.electronjs.org/docs/latest/tutorial/security).
	Kind  string `json:"kind"`
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
}

// Suppression records why a finding is suppressed: a comment in the
// analysed source (rea-disable, or Electronegativity's eng-disable through
// the cross-reference). Suppressed findings stay in the result.
type Suppression struct {
	Kind     string   `json:"kind"` // rea-disable | eng-disable
	Reason   string   `json:"reason,omitempty"`
	Location Location `json:"location"` // where the comment is
	Comment  string   `json:"comment"`
}

// Equivalent kinds.
const (
	Electronegativity = "electronegativity"
	ElectronChecklist = "electron-checklist"
)

// ChecklistItems are the numbered recommendations of Electron's security
// checklist (docs/tutorial/security.md of electron/electron).
var ChecklistItems = map[string]string{
	"1":  "Only load secure content",
	"2":  "Do not enable Node.js integration for remote content",
	"3":  "Enable context isolation",
	"4":  "Enable process sandboxing",
	"5":  "Handle session permission requests from remote content",
	"6":  "Do not disable webSecurity",
	"7":  "Define a Content-Security-Policy",
	"8":  "Do not enable allowRunningInsecureContent",
	"9":  "Do not enable experimental features",
	"10": "Do not use enableBlinkFeatures",
	"11": "<webview>: Do not use allowpopups",
	"12": "<webview>: Verify options and params",
	"13": "Disable or limit navigation",
	"14": "Disable or limit creation of new windows",
	"15": "Do not use shell.openExternal with untrusted content",
	"16": "Use a current version of Electron",
	"17": "Validate the sender of all IPC messages",
	"18": "Avoid usage of the file:// protocol and prefer usage of custom protocols",
	"19": "Check which fuses you can change",
	"20": "Do not expose Electron APIs to untrusted web content",
}

// rule builds a table row; refs are Electronegativity check ids
// (upper case) and checklist item numbers.
func rule(id, sev, title, desc string, refs ...string) Rule {
	r := Rule{ID: id, Severity: sev, Title: title, Description: desc, Equivalents: []Equivalent{}}
	for _, ref := range refs {
		if t, ok := ChecklistItems[ref]; ok {
			r.Equivalents = append(r.Equivalents, Equivalent{Kind: ElectronChecklist, ID: ref, Title: t})
		} else {
			r.Equivalents = append(r.Equivalents, Equivalent{Kind: Electronegativity, ID: ref})
		}
	}
	return r
}

// rules is the rule table, in id order (a test checks the order and that
// every rule the analysis emits is here).
var rules = []Rule{
	rule("affinity-set", "medium", "Renderer process affinity",
		"A window or <webview> sets affinity: pages of different trust may share one renderer process (the option was removed in Electron 11).",
		"AFFINITY_JS_CHECK", "AFFINITY_HTML_CHECK"),
	rule("affinity-shared", "medium", "Windows share a renderer affinity",
		"Two or more windows or webviews name the same affinity, so they run in one renderer process and share its privileges.",
		"AFFINITY_GLOBAL_CHECK"),
	rule("auxclick-not-disabled", "info", "Middle-click not disabled",
		"disableBlinkFeatures does not name Auxclick: a middle-click on a link can open it outside the app's navigation handlers.",
		"AUXCLICK_JS_CHECK", "AUXCLICK_HTML_CHECK", "13", "14"),
	rule("blink-features-enabled", "medium", "Extra Blink features enabled",
		"enableBlinkFeatures (or the legacy blinkFeatures, or a <webview>'s enableblinkfeatures/blinkfeatures) turns on Blink features that are off by default.",
		"BLINK_FEATURES_JS_CHECK", "BLINK_FEATURES_HTML_CHECK", "10"),
	rule("certificate-imported", "medium", "Certificate imported into the platform store",
		"app.importCertificate adds a certificate to the platform store: verify which certificate and why.",
		"CERTIFICATE_VERIFY_PROC_JS_CHECK"),
	rule("certificate-verification-override", "medium", "TLS certificate verification overridden",
		"A certificate-error handler or setCertificateVerifyProc decides certificate trust instead of Chromium.",
		"CERTIFICATE_ERROR_EVENT_JS_CHECK", "CERTIFICATE_VERIFY_PROC_JS_CHECK"),
	rule("context-bridge-raw-ipc-renderer", "high", "contextBridge exposes ipcRenderer",
		"A contextBridge API hands the page ipcRenderer itself (or its methods), so page scripts can send on every channel.",
		"20"),
	rule("context-isolation-disabled", "high", "Context isolation disabled",
		"contextIsolation is false, or missing where the Electron version's default is false (before 12): page scripts share the preload's JavaScript world.",
		"CONTEXT_ISOLATION_JS_CHECK", "3"),
	rule("csp-defined", "info", "Content-Security-Policy defined (review)",
		"A Content-Security-Policy is set by a <meta> tag or a response header: review the policy (csp-weak reports weak ones).",
		"CSP_JS_CHECK", "CSP_HTML_CHECK", "7"),
	rule("csp-missing", "low", "No Content-Security-Policy",
		"A page has no Content-Security-Policy meta tag and the app sets none through response headers.",
		"CSP_GLOBAL_CHECK", "7"),
	rule("csp-weak", "medium", "Weak Content-Security-Policy",
		"The policy lets scripts come from anywhere or run inline/eval code ('unsafe-inline' without a nonce, hash or 'strict-dynamic'; 'unsafe-eval'; *, http:, https:, data:).",
		"CSP_GLOBAL_CHECK", "7"),
	rule("dangerous-command-line-switch", "medium", "Security-weakening command-line switch",
		"app.commandLine.appendSwitch/appendArgument, or a package.json script or config value, passes a switch that weakens Chromium or Node security (--disable-web-security, --ignore-certificate-errors, --remote-debugging-port, --inspect, --js-flags, --no-sandbox, …).",
		"CUSTOM_ARGUMENTS_JS_CHECK", "CUSTOM_ARGUMENTS_JSON_CHECK"),
	rule("dangerous-function", "low", "Code built from strings",
		"eval, new Function, string setTimeout/setInterval/setImmediate, or executeJavaScript/insertCSS with a value computed at run time.",
		"DANGEROUS_FUNCTIONS_JS_CHECK"),
	rule("electron-fuse-config-disagrees", "info", "Configured fuse not in the shipped binary",
		"A fuse the build configuration (FusesPlugin, electronFuses) declares has another state in the shipped executable's fuse wire, which is what runs."),
	rule("electron-fuse-config-insecure", "medium", "Insecure fuse in the build configuration",
		"Electron Forge's FusesPlugin or electron-builder's electronFuses sets a fuse insecurely (RunAsNode, NODE_OPTIONS or inspect arguments on; embedded ASAR integrity validation or OnlyLoadAppFromAsar off); read from the configuration when no executable is present."),
	rule("electron-version", "info", "Electron version declared",
		"The Electron version the package declares (dependencies or devDependencies), which decides the defaults of every window.",
		"ELECTRON_VERSION_JSON_CHECK", "16"),
	rule("electron-version-outdated", "medium", "Outdated Electron",
		"The declared Electron major is older than the oldest supported major: it no longer receives security fixes.",
		"AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK", "16"),
	rule("experimental-features-enabled", "medium", "Experimental features enabled",
		"experimentalFeatures (or the legacy experimentalCanvasFeatures) is on: untested Chromium features are enabled.",
		"EXPERIMENTAL_FEATURES_JS_CHECK", "EXPERIMENTAL_FEATURES_HTML_CHECK", "9"),
	rule("http-resource", "medium", "Script over plain http",
		"A page loads a script over http: anyone on the network can replace it.",
		"1"),
	rule("insecure-content-allowed", "high", "Insecure content allowed",
		"allowRunningInsecureContent is true: https pages may run http scripts.",
		"INSECURE_CONTENT_JS_CHECK", "INSECURE_CONTENT_HTML_CHECK", "8"),
	rule("insecure-remote-content", "high", "Page loaded over plain http",
		"A window or <webview> loads a page over http: anyone on the network can replace it.",
		"HTTP_RESOURCES_JS_CHECK", "HTTP_RESOURCES_HTML_CHECK", "1"),
	rule("ipc-dynamic-channel", "low", "IPC channel computed at run time",
		"An IPC operation's channel is computed at run time and no allow-list or constant set fixes it, so which messages reach it cannot be checked statically.",
		"17"),
	rule("ipc-handler-without-sender-validation", "low", "IPC handler without sender validation",
		"A main-process IPC handler never checks event.senderFrame or the sender URL.",
		"17"),
	rule("navigation-handler", "info", "Navigation handler (review)",
		"A will-navigate/new-window handler or setWindowOpenHandler decides where content may go: review that it allows only the app's origins.",
		"LIMIT_NAVIGATION_JS_CHECK", "13", "14"),
	rule("navigation-unrestricted", "low", "Navigation not limited",
		"No will-navigate handler, or no new-window handler/setWindowOpenHandler, limits where windows navigate or open.",
		"LIMIT_NAVIGATION_GLOBAL_CHECK", "13", "14"),
	rule("node-integration-enabled", "high", "Node.js integration enabled",
		"nodeIntegration is on (set, or missing where the Electron version's default is on, before 5), or a <webview> has nodeintegration: page scripts get Node.js.",
		"NODE_INTEGRATION_JS_CHECK", "NODE_INTEGRATION_HTML_CHECK", "2"),
	rule("node-integration-in-subframes-enabled", "medium", "Node.js integration in subframes",
		"nodeIntegrationInSubFrames (or a <webview>'s nodeintegrationinsubframes) is on: preloads and Node run in every frame.",
		"NODE_INTEGRATION_JS_CHECK", "NODE_INTEGRATION_HTML_CHECK", "2"),
	rule("node-integration-in-worker-enabled", "high", "Node.js integration in workers",
		"nodeIntegrationInWorker is on: web workers get Node.js.",
		"NODE_INTEGRATION_JS_CHECK", "2"),
	rule("node-integration-sandboxed", "info", "nodeIntegration set in a sandboxed window",
		"nodeIntegration is on but sandbox: true keeps Node.js out of the renderer, so the setting has no effect; a note, not the high finding.",
		"2"),
	rule("open-external-dynamic", "medium", "shell.openExternal with a computed URL",
		"shell.openExternal/openPath gets a value computed at run time; a page that controls it can launch arbitrary protocol handlers.",
		"OPEN_EXTERNAL_JS_CHECK", "15"),
	rule("open-external-insecure", "low", "shell.openExternal over http",
		"shell.openExternal opens a plain-http URL.",
		"15"),
	rule("open-external-local", "medium", "shell.openExternal of a local scheme",
		"shell.openExternal opens a file: (or other non-web) URL, which launches local files or applications.",
		"OPEN_EXTERNAL_JS_CHECK", "15"),
	rule("permission-handler", "info", "Permission request handler (review)",
		"setPermissionRequestHandler decides which permissions web content gets: review that it denies what the app does not need.",
		"PERMISSION_REQUEST_HANDLER_JS_CHECK", "5"),
	rule("permission-handler-missing", "low", "No permission request handler",
		"No session permission request handler is set: web content gets Chromium's default permission answers.",
		"PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK", "5"),
	rule("preload-script", "info", "Preload script (review)",
		"A window runs a preload script with more privileges than its page: review what it exposes.",
		"PRELOAD_JS_CHECK", "20"),
	rule("protocol-client-registered", "low", "Protocol client registered",
		"The app registers itself as the handler of a URL scheme: deep links reach it with arguments chosen by any web page.",
		"PROTOCOL_HANDLER_JS_CHECK"),
	rule("protocol-handler", "low", "Custom protocol handler",
		"A custom protocol or scheme handler (protocol.register*/handle/intercept*, registerStandardSchemes, registerServiceWorkerSchemes) serves content to renderers outside the file/https rules.",
		"PROTOCOL_HANDLER_JS_CHECK", "18"),
	rule("remote-content-privileged", "high", "Remote content in a privileged window",
		"A window that loads remote content has Node.js integration or no context isolation.",
		"HTTP_RESOURCES_WITH_NODE_INTEGRATION_GLOBAL_CHECK", "1", "2"),
	rule("remote-module-enabled", "medium", "remote module enabled",
		"enableRemoteModule is on (set, or missing where the Electron version's default is on, before 10): the renderer can call main-process objects.",
		"REMOTE_MODULE_JS_CHECK", "20"),
	rule("sandbox-disabled", "medium", "Renderer sandbox disabled",
		"sandbox is false, or missing where the Electron version's default is off (before 20).",
		"SANDBOX_JS_CHECK", "4"),
	rule("security-warnings-disabled", "low", "Electron security warnings disabled",
		"ELECTRON_DISABLE_SECURITY_WARNINGS is set to a truthy value in code or in a package.json script or config.",
		"SECURITY_WARNINGS_DISABLED_JS_CHECK", "SECURITY_WARNINGS_DISABLED_JSON_CHECK"),
	rule("web-security-disabled", "high", "webSecurity disabled",
		"webSecurity is false (or a <webview> has disablewebsecurity): the same-origin policy is off.",
		"WEB_SECURITY_JS_CHECK", "WEB_SECURITY_HTML_CHECK", "6"),
	rule("webview-allowpopups", "medium", "<webview> allowpopups",
		"A <webview> has allowpopups: its guest can open new windows.",
		"ALLOWPOPUPS_HTML_CHECK", "11"),
	rule("webview-attach-node-integration", "high", "will-attach-webview enables Node.js",
		"A will-attach-webview handler sets webPreferences.nodeIntegration to true instead of stripping it.",
		"NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK", "12"),
	rule("webview-tag-enabled", "medium", "<webview> tag enabled",
		"webviewTag is true: pages can create <webview> guests with their own preferences.",
		"12"),
	rule("window-options-unresolved", "info", "Window options not resolved",
		"Some options of a window could not be resolved statically; insecure values may hide in them.",
		"12"),
}

// Rules returns the rule table in id order.
func Rules() []Rule {
	out := make([]Rule, len(rules))
	copy(out, rules)
	return out
}

// RuleByID returns the rule with that id.
func RuleByID(id string) (Rule, bool) {
	i := sort.Search(len(rules), func(i int) bool { return rules[i].ID >= id })
	if i < len(rules) && rules[i].ID == id {
		return rules[i], true
	}
	return Rule{}, false
}

// RulesForCheck returns the ids of the rules that name an Electronegativity
// check (its id, case-insensitive, or its class name such as
// ContextIsolationJSCheck).
func RulesForCheck(check string) []string {
	want := normaliseCheck(check)
	var out []string
	for _, r := range rules {
		for _, e := range r.Equivalents {
			if e.Kind == Electronegativity && normaliseCheck(e.ID) == want {
				out = append(out, r.ID)
				break
			}
		}
	}
	return out
}

// normaliseCheck maps CONTEXT_ISOLATION_JS_CHECK and ContextIsolationJSCheck
// to one key.
func normaliseCheck(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

// EquivalentsFor returns the equivalents of rule id that apply to a finding
// in a file of the given kind: Electronegativity's checks are per source
// type (…_JS_CHECK, …_HTML_CHECK, …_JSON_CHECK) or global, and a finding
// in an HTML page is the HTML check's, not the JS one's. kind is
// "javascript", "html" or "json"; checklist items always apply.
func EquivalentsFor(id, kind string) []Equivalent {
	r, ok := RuleByID(id)
	if !ok {
		return []Equivalent{}
	}
	suffix := map[string]string{"javascript": "_JS_CHECK", "html": "_HTML_CHECK", "json": "_JSON_CHECK"}[kind]
	out := []Equivalent{}
	for _, e := range r.Equivalents {
		if e.Kind == Electronegativity && !strings.HasSuffix(e.ID, "_GLOBAL_CHECK") && suffix != "" && !strings.HasSuffix(e.ID, suffix) {
			continue
		}
		out = append(out, e)
	}
	return out
}
