package operation

// Runtime observation over the DevTools protocol on loopback: browser
// pages, Electron pages and Node.js inspectors, the scenarios rea runs
// itself, and the pure comparisons and reconciliation of what they saw.
// The CLI takes the endpoint and target as arguments and the approved
// scope as repeatable flags; the scenario commands read the request from a
// JSON file (--scenario).

// Runtime lists the declared runtime operations.
func Runtime() []Spec {
	return []Spec{CaptureBrowserScenario(), CaptureElectronScenario(), ListBrowserTargets(), InspectWebPage(), ObserveWebSession(),
		CaptureWebScreenshot(), AnalyzeWebBundle(), DiscoverWebMCPTools(), ListElectronTargets(), InspectElectronPage(),
		ListJavaScriptRuntimeTargets(), ObserveJavaScriptRuntime(), CompareWebCaptures(), CompareWebScreenshots(), ReconcileJavaScriptRuntime()}
}

const (
	exampleTargetID     = "5B1C0E0B6A1F4C2D8E9F0A1B2C3D4E5F"
	exampleNodeTargetID = "0f2c9d3e-1111-4222-8333-944455556666"
)

func cdpEndpoint() Param {
	return Param{Name: "cdp_endpoint", Type: String, Required: true, Examples: []any{"http://127.0.0.1:9222"},
		Description: "The DevTools endpoint on loopback, e.g. http://127.0.0.1:9222 (Chromium/Electron --remote-debugging-port) or 127.0.0.1:9229 (node --inspect). Other hosts are refused."}
}

func targetID() Param {
	return Param{Name: "target_id", Type: String, Required: true, Description: "A target id from the matching list_*_targets call."}
}

func allowedOrigins(flag bool) Param {
	p := Param{Name: "allowed_origins", Type: Array, Required: true, Description: "Exact origins (scheme://host[:port]) whose pages you approve observing.",
		MaxItems: 64, Items: &Param{Type: String, Description: "An origin, e.g. http://127.0.0.1:8080."}}
	if flag {
		p.Flag = &Flag{Name: "allow-origin", Help: "an origin (scheme://host[:port]) you approve observing; repeatable"}
	}
	return p
}

func allowedRoots(flag, required bool) Param {
	p := Param{Name: "allowed_file_roots", Type: Array, Required: required, Description: "Absolute folders whose file:// pages (Electron) or scripts (Node) you approve observing.",
		MaxItems: 64, Items: &Param{Type: String, Description: "An absolute folder."}}
	if flag {
		p.Flag = &Flag{Name: "allow-root", Help: "an absolute folder whose pages or scripts you approve observing; repeatable"}
	}
	return p
}

func maxScripts() Param {
	return Param{Name: "max_scripts", Type: Integer, Min: 1, Max: 5_000, Default: 200,
		Description: "Scripts whose source is read for its digest (default 200).", Flag: &Flag{Name: "max-scripts"}}
}

func maxTimelineEvents(flag bool) Param {
	p := Param{Name: "max_timeline_events", Type: Integer, Min: 1, Max: 10_000, Default: 500,
		Description: "Timeline events kept (default 500); the observation ends early, marked partial, when reached."}
	if flag {
		p.Flag = &Flag{Name: "max-timeline-events", Help: "timeline events kept (default 500)"}
	}
	return p
}

func observationMS() Param {
	return Param{Name: "observation_ms", Type: Integer, Min: 1, Max: 60_000, Default: 3000,
		Description: "Length of the observation window in milliseconds (default 3,000, at most 60,000).",
		Flag:        &Flag{Name: "observation-ms", Help: "observation window in milliseconds (default 3000, at most 60000)"}}
}

// observe is passive observation of a live target; it records Evidence
// and talks to the endpoint.
var observe = Effects{MutatesSession: true, AccessesNetwork: true}

// listTargets is one list_*_targets operation.
func listTargets(name, title, family, description, cli, short string, scope Param, example map[string]any) Spec {
	return Spec{Name: name, Title: title, Family: family, Description: description, Effects: Effects{AccessesNetwork: true, Idempotent: true},
		Params: []Param{cdpEndpoint(), scope,
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First target of the page (default 0).", Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: 1000, Default: 64, Description: "Targets per page (default 64); a page also stops at 64 KiB of targets, byte_limited, with next_offset where the rest starts.", Flag: &Flag{Name: "limit"}}},
		Examples: []map[string]any{example},
		CLI:      &Command{Name: cli, Args: []Arg{{Name: "ENDPOINT", Param: "cdp_endpoint"}}, Synopsis: synopsisOf(scope, false), Short: short}}
}

// synopsisOf is the usage line after the command's name: ENDPOINT [TARGET]
// and the scope flag.
func synopsisOf(scope Param, target bool) string {
	s := "ENDPOINT"
	if target {
		s += " TARGET"
	}
	if scope.Name == "allowed_origins" {
		return s + " --allow-origin ORIGIN"
	}
	return s + " --allow-root DIR"
}

// targetOp is an operation on one target in scope.
func targetOp(name, title, family, description, cli, short string, effects Effects, scope Param, more []Param, example map[string]any) Spec {
	return Spec{Name: name, Title: title, Family: family, Description: description, Effects: effects,
		Params: append([]Param{cdpEndpoint(), targetID(), scope}, more...), Examples: []map[string]any{example},
		CLI: &Command{Name: cli, Args: []Arg{{Name: "ENDPOINT", Param: "cdp_endpoint"}, {Name: "TARGET", Param: "target_id"}},
			Synopsis: synopsisOf(scope, true), Short: short}}
}

func browserExample() map[string]any {
	return map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "target_id": exampleTargetID, "allowed_origins": []any{"http://127.0.0.1:8080"}}
}

// ListBrowserTargets lists the page targets of a Chromium endpoint.
func ListBrowserTargets() Spec {
	return listTargets("list_browser_targets", "List browser page targets", "browser",
		"List the page targets of a Chromium DevTools endpoint on loopback whose origin is one you approved (allowed_origins, exact). "+
			"URLs are redacted (credentials, query, fragment). Paged; counts what is out of scope. Next: inspect_web_page, observe_web_session, capture_web_screenshot.",
		"list-browser-targets", "List the page targets of a Chromium DevTools endpoint in an approved origin", allowedOrigins(true),
		map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "allowed_origins": []any{"http://127.0.0.1:8080"}})
}

// ListElectronTargets lists the file:// pages of an Electron endpoint.
func ListElectronTargets() Spec {
	return listTargets("list_electron_targets", "List Electron page targets", "electron",
		"List the file:// page targets of an Electron app's DevTools endpoint (started with --remote-debugging-port on loopback) under the folders you approved. "+
			"Next: inspect_electron_page, then reconcile_javascript_runtime with the app's static analysis.",
		"list-electron-targets", "List the file:// page targets of an Electron app's DevTools endpoint under approved folders", allowedRoots(true, true),
		map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "allowed_file_roots": []any{"/opt/Example/resources/app"}})
}

// ListJavaScriptRuntimeTargets lists a Node.js inspector's targets.
func ListJavaScriptRuntimeTargets() Spec {
	return listTargets("list_javascript_runtime_targets", "List Node.js inspector targets", "javascript-runtime",
		"List the targets of a Node.js inspector endpoint on loopback (node --inspect=127.0.0.1:PORT) whose main script is under the folders you approved.",
		"list-javascript-runtime-targets", "List the targets of a Node.js inspector endpoint whose script is under approved folders", allowedRoots(true, true),
		map[string]any{"cdp_endpoint": "127.0.0.1:9229", "allowed_file_roots": []any{"/srv/app"}})
}

// InspectWebPage is the passive inventory of one page.
func InspectWebPage() Spec {
	return targetOp("inspect_web_page", "Inspect a live web page passively", "browser",
		"Passive inventory of one page in scope, without navigating it or running its code: frames, element counts (scripts, iframes, webviews, forms…), "+
			"Content-Security-Policy meta tags, every parsed script with its SHA-256 and size, the page's own globals beyond an empty page's (e.g. a contextBridge key), "+
			"storage key counts (never values) and workers. A page that closes mid-call yields an error and no Evidence. Result: observed Evidence.",
		"inspect-web-page", "Passive inventory of a live page: frames, elements, CSP, scripts with digests, own globals, storage counts",
		observe, allowedOrigins(true), []Param{maxScripts()}, browserExample())
}

// ObserveWebSession records what a page does for a time window.
func ObserveWebSession() Spec {
	return targetOp("observe_web_session", "Observe a web page for a time window", "browser",
		"Record what a page in scope does during observation_ms while a person drives it: console messages, exceptions, requests and responses (URLs redacted), "+
			"failed loads and navigations, bounded by max_timeline_events. Progress every second. If the page closes or navigates away the Evidence keeps what was seen and "+
			"says so (complete false). Nothing is evaluated in the page.",
		"observe-web-session", "Record a page's console, exceptions, requests and navigations for a time window",
		observe, allowedOrigins(true), []Param{observationMS(), maxTimelineEvents(true)}, browserExample())
}

// CaptureWebScreenshot is a content-addressed PNG of a page's viewport.
func CaptureWebScreenshot() Spec {
	return targetOp("capture_web_screenshot", "Capture a web page's viewport", "browser",
		"A PNG of the page's viewport, content-addressed by SHA-256: written as SHA256.png into output_dir when given, else carried base64 in the Evidence "+
			"(bounded by maximum_image_bytes, default 8 MiB). A page that had not finished loading is said so: document_state, complete false and a limitation.",
		"capture-web-screenshot", "Capture a page's viewport as a content-addressed PNG",
		Effects{MutatesSession: true, AccessesNetwork: true, WritesFilesystem: true}, allowedOrigins(true), []Param{
			{Name: "maximum_image_bytes", Type: Integer, Min: 1, Max: 64 << 20, Default: 8 << 20, Description: "Largest PNG accepted (default 8 MiB).",
				Flag: &Flag{Name: "maximum-image-bytes"}},
			{Name: "output_dir", Type: String, Description: "Absolute folder to write SHA256.png into (optional).",
				Flag: &Flag{Name: "output-dir", Help: "absolute folder to write SHA256.png into"}},
		}, browserExample())
}

// AnalyzeWebBundle runs the static analysis over the scripts a page loaded.
func AnalyzeWebBundle() Spec {
	return targetOp("analyze_web_bundle", "Analyse the scripts a live page loaded", "browser",
		"Read the scripts a page in scope has parsed (as inspect_web_page does) and run the static JavaScript analysis over them in the sandbox — "+
			"parsed, never executed: endpoints, IPC/bridge use, bundles and their modules, findings, each tied to a file named after the script's URL. "+
			"Returns observed Evidence holding the script map (file, URL, SHA-256) and the analysis result.",
		"analyze-web-bundle", "Statically analyse the scripts a live page loaded (parsed in the sandbox, never executed)",
		observe, allowedOrigins(true), []Param{maxScripts()}, browserExample())
}

// DiscoverWebMCPTools lists the tools a page registered through WebMCP.
func DiscoverWebMCPTools() Spec {
	return targetOp("discover_webmcp_tools", "List a page's WebMCP tools", "browser",
		"Inventory the tools a page registered for agents through WebMCP (name, description, input schema, frame) without ever invoking one. "+
			"A browser without the WebMCP DevTools domain is capability_unavailable; one that runs with the API off (Chromium needs "+
			"--enable-blink-features=WebMCPTesting) answers api_enabled false with a limitation, not an empty finding.",
		"discover-webmcp-tools", "List the tools a page registered through WebMCP, never invoking one",
		observe, allowedOrigins(true), []Param{
			{Name: "max_tools", Type: Integer, Min: 1, Max: 5000, Default: 200, Description: "Tools listed (default 200).", Flag: &Flag{Name: "max-tools"}},
			{Name: "max_schema_bytes", Type: Integer, Min: 1, Max: 1 << 20, Default: 16 << 10, Description: "Bytes of one input schema kept (default 16 KiB).",
				Flag: &Flag{Name: "max-schema-bytes"}},
		}, browserExample())
}

// InspectElectronPage is inspect_web_page for an Electron renderer.
func InspectElectronPage() Spec {
	return targetOp("inspect_electron_page", "Inspect a live Electron page passively", "electron",
		"inspect_web_page for an Electron renderer (a file:// page under allowed_file_roots): frames, elements, CSP, scripts with digests, the globals a preload "+
			"exposed (contextBridge keys, or require/process when nodeIntegration is on), storage counts. Nothing runs in the page.",
		"inspect-electron-page", "Passive inventory of a live Electron renderer: frames, elements, CSP, scripts, the globals its preload exposed",
		observe, allowedRoots(true, true), []Param{maxScripts()},
		map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "target_id": exampleTargetID, "allowed_file_roots": []any{"/opt/Example/resources/app"}})
}

// ObserveJavaScriptRuntime attaches to a Node.js inspector target.
func ObserveJavaScriptRuntime() Spec {
	return targetOp("observe_javascript_runtime", "Observe a Node.js runtime passively", "javascript-runtime",
		"Attach to a Node.js inspector target in scope with only Runtime and Debugger enabled: the scripts it has loaded (URL, SHA-256, size, source map), "+
			"then console messages and exceptions during observation_ms. No breakpoint is set and nothing is evaluated in the target.",
		"observe-javascript-runtime", "List a Node.js runtime's loaded scripts with digests, then record its console and exceptions for a time window",
		observe, allowedRoots(true, true), []Param{observationMS(), maxTimelineEvents(true), maxScripts()},
		map[string]any{"cdp_endpoint": "127.0.0.1:9229", "target_id": exampleNodeTargetID, "allowed_file_roots": []any{"/srv/app"}})
}

// scenarioParams are the steps and bounds both scenario operations take.
func scenarioParams() []Param {
	return []Param{
		{Name: "actions", Type: Array, Description: "The steps, at most 20, run in order; a failed step is recorded and the rest still run.", MaxItems: 20,
			Items: &Param{Type: Object,
				Description: "One step, from a fixed vocabulary: navigate (url), click (selector), type (selector, text), wait (ms), wait_for (selector, timeout_ms).",
				Fields: []Param{
					{Name: "action", Type: String, Required: true, Enum: []string{"navigate", "click", "type", "wait", "wait_for"}, Description: "What to do."},
					{Name: "url", Type: String, Description: "navigate: the URL to load (in scope)."},
					{Name: "selector", Type: String, Description: "click, type, wait_for: a CSS selector; its first match is used."},
					{Name: "text", Type: String, Description: "type: the text to insert."},
					{Name: "ms", Type: Integer, Min: 1, Max: 60_000, Description: "wait: milliseconds."},
					{Name: "timeout_ms", Type: Integer, Min: 1, Max: 60_000, Description: "navigate, wait_for: how long to wait (default 20,000)."},
				}}},
		{Name: "max_duration_ms", Type: Integer, Min: 1, Max: 60_000, Default: 30_000,
			Description: "Bound of the whole run (default 30,000, at most 60,000); later steps are skipped past it."},
		maxTimelineEvents(false),
		{Name: "screenshot", Type: Boolean, Description: "Also record the SHA-256 of a final viewport screenshot."},
	}
}

// scenarioFile is the CLI's --scenario: the request as a JSON file.
func scenarioFile() []Param {
	return []Param{{Name: "scenario", Type: String, Description: "the scenario JSON file, or - for standard input", Flag: &Flag{Name: "scenario", Required: true}}}
}

var launches = Effects{MutatesSession: true, AccessesNetwork: true, LaunchesProcess: true, ExecutesForeignCode: true}

// CaptureBrowserScenario runs a scripted scenario in a Chromium rea owns.
func CaptureBrowserScenario() Spec {
	return Spec{
		Name: "capture_browser_scenario", Title: "Run a scripted browser scenario rea owns", Family: "browser",
		Description: "Launch a headless Chromium that rea owns (private profile, DevTools on loopback), load start_url, run the steps (navigate, click, type, wait, " +
			"wait_for — protocol input events, never scripts) while recording console, exceptions, requests and navigations, inventory the final page, and end the " +
			"browser's whole process group and profile whatever happened (cleanup_incomplete otherwise). Pages run their own code: the call executes foreign code. " +
			"Navigation stays inside allowed_origins. Result: controlled-replay Evidence.",
		Effects: launches,
		Params: append([]Param{
			{Name: "start_url", Type: String, Required: true, Description: "The first page to load; its origin must be in allowed_origins."},
			allowedOrigins(false),
		}, scenarioParams()...),
		Examples: []map[string]any{{"start_url": "http://127.0.0.1:8080/", "allowed_origins": []any{"http://127.0.0.1:8080"},
			"actions": []any{map[string]any{"action": "click", "selector": "#login"}, map[string]any{"action": "wait_for", "selector": ".done"}}}},
		CLIFlags: scenarioFile(),
		CLI: &Command{Name: "capture-browser-scenario", Synopsis: "--scenario FILE.json",
			Short: "Launch a headless Chromium rea owns, run a scripted scenario and record what the page did"},
	}
}

// CaptureElectronScenario runs a scripted scenario in an Electron app rea
// launches.
func CaptureElectronScenario() Spec {
	return Spec{
		Name: "capture_electron_scenario", Title: "Run a scripted Electron scenario rea owns", Family: "electron",
		Description: "Launch the Electron executable you name with a DevTools port rea owns (and a private --user-data-dir), wait for its first window under " +
			"allowed_file_roots (default: application_path), run the steps as capture_browser_scenario does, inventory the final page (the globals its preload " +
			"exposed), and end its whole process group. The app runs its own code: the call executes foreign code. Result: controlled-replay Evidence; pass it " +
			"and the app's static analysis to reconcile_javascript_runtime.",
		Effects: launches,
		Params: append([]Param{
			{Name: "executable_path", Type: String, Required: true,
				Description: "Absolute path of the Electron executable to launch (it is given --remote-debugging-port and a private --user-data-dir)."},
			{Name: "application_path", Type: String, Description: "Absolute path of the app folder or .asar it opens (optional; appended to args)."},
			{Name: "args", Type: Array, Description: "Extra arguments for the executable.", MaxItems: 32, Items: &Param{Type: String, Description: "An argument."}},
			allowedRoots(false, false),
		}, scenarioParams()...),
		Examples: []map[string]any{{"executable_path": "/opt/Example/example", "application_path": "/opt/Example/resources/app.asar",
			"actions": []any{map[string]any{"action": "wait_for", "selector": "#main"}}}},
		CLIFlags: scenarioFile(),
		CLI: &Command{Name: "capture-electron-scenario", Synopsis: "--scenario FILE.json",
			Short: "Launch an Electron executable with a DevTools port rea owns, run a scripted scenario and record what its window did"},
	}
}

func captureSide(name, description string) Param {
	return Param{Name: name, Type: Evidence, Required: true, Description: description, Examples: []any{exampleRef()}}
}

// CompareWebCaptures compares two captures of a page.
func CompareWebCaptures() Spec {
	return Spec{
		Name: "compare_web_captures", Title: "Compare two captures of a page", Family: "browser",
		Description: "Compare two captures of a page — inspect_web_page or inspect_electron_page Evidence, the final pages and timelines of capture_*_scenario, or " +
			"observe_web_session timelines: scripts by URL and SHA-256, own globals (e.g. a bridge key appearing), CSP, element counts and timeline counts, each " +
			"added, removed or changed. A partial side makes what it lacks unknown, never removed. Reads Evidence only; the result is derived Evidence.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			captureSide("left", "The earlier capture: a retained reference or the inline record."),
			captureSide("right", "The later capture: a retained reference or the inline record."),
		},
		Examples:       []map[string]any{{"left": exampleRef(), "right": exampleRef2()}},
		OneSidedReason: "comparison reads Evidence retained in an MCP session",
	}
}

// CompareWebScreenshots compares two screenshots pixel by pixel.
func CompareWebScreenshots() Spec {
	return Spec{
		Name: "compare_web_screenshots", Title: "Compare two screenshots pixel by pixel", Family: "browser",
		Description: "Pixel metrics of two capture_web_screenshot records, each verified against the SHA-256 its Evidence holds: pixels differing beyond " +
			"channel_threshold, the largest channel difference, the bounding box of the difference, identical / within-threshold / different / incomparable " +
			"(sizes differ). PNGs are decoded in the sandbox, bounded by maximum_pixels before any pixel is decoded.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			captureSide("left", "capture_web_screenshot Evidence: a retained reference or the inline record."),
			captureSide("right", "capture_web_screenshot Evidence: a retained reference or the inline record."),
			{Name: "channel_threshold", Type: Integer, Min: 0, Max: 255, Default: 0,
				Description: "Per-channel difference (0-255) at or below which pixels count as equal (default 0)."},
			{Name: "maximum_pixels", Type: Integer, Min: 1, Max: 64_000_000, Default: 16_000_000,
				Description: "Largest width×height accepted per image (default 16,000,000)."},
		},
		Examples:       []map[string]any{{"left": exampleRef(), "right": exampleRef2(), "channel_threshold": 8}},
		OneSidedReason: "comparison reads Evidence retained in an MCP session",
	}
}

// ReconcileJavaScriptRuntime joins the static analysis with runtime
// observations.
func ReconcileJavaScriptRuntime() Spec {
	return Spec{
		Name: "reconcile_javascript_runtime", Title: "Reconcile static analysis with runtime observations", Family: "electron",
		Description: "Join analyze_javascript_application Evidence with runtime Evidence (inspect_electron_page, inspect_web_page, observe_web_session, observe_javascript_runtime): " +
			"each contextBridge key, window load and HTML script is confirmed (both), static-only or runtime-only; IPC channels are not-observable over the DevTools protocol and " +
			"say so. Reads Evidence only. The result is derived Evidence linked to its inputs.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			captureSide("static", "analyze_javascript_application Evidence: a retained reference or the inline record."),
			{Name: "runtime_observations", Type: Array, Required: true, Description: "Runtime Evidence, each a retained reference or an inline record.", MaxItems: 100,
				Items: &Param{Type: Evidence, Description: "One runtime Evidence."}},
		},
		Examples:       []map[string]any{{"static": exampleRef(), "runtime_observations": []any{exampleRef()}}},
		OneSidedReason: "reconciliation reads Evidence retained in an MCP session",
	}
}
