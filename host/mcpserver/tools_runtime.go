package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
)

// runtimeTools observe live pages and runtimes over the DevTools protocol on
// loopback: browser pages, Electron pages and Node.js inspectors, plus the
// pure reconciliation of what they saw with the static analysis.
func (s *Server) runtimeTools() []*Tool {
	endpoint := withExamples(str("The DevTools endpoint on loopback, e.g. http://127.0.0.1:9222 (Chromium/Electron --remote-debugging-port) or 127.0.0.1:9229 (node --inspect). Other hosts are refused."), "http://127.0.0.1:9222")
	target := str("A target id from the matching list_*_targets call.")
	origins := array("Exact origins (scheme://host[:port]) whose pages you approve observing.", str("An origin, e.g. http://127.0.0.1:8080."), 64)
	roots := array("Absolute folders whose file:// pages (Electron) or scripts (Node) you approve observing.", str("An absolute folder."), 64)
	offset := integer("First target of the page (default 0).", 0, 1<<31)
	limit := integer("Targets per page (default 64).", 1, 1000)
	observation := integer("Length of the observation window in milliseconds (default 3,000, at most 60,000).", 1, 60_000)
	maxEvents := integer("Timeline events kept (default 500); the observation ends early, marked partial, when reached.", 1, 10_000)
	maxScripts := integer("Scripts whose source is read for its digest (default 200).", 1, 5_000)
	listOutput := result("One page of targets in the approved scope.", map[string]Schema{
		"cdp_endpoint": typed("string"), "kind": typed("string"), "targets": {"type": "array", "items": typed("object")},
		"total": typed("integer"), "out_of_scope": typed("integer"), "refused_non_loopback_sockets": typed("integer"),
		"offset": typed("integer"), "limit": typed("integer"), "next_offset": typed("integer", "null"), "limitations": {"type": "array", "items": typed("string")},
	})
	observe := Effects{MutatesSession: true, AccessesNetwork: true}
	decode := func(c *Call) (app.RuntimeTargetRequest, error) {
		var req app.RuntimeTargetRequest
		err := c.Decode(&req)
		return req, err
	}
	list := func(kind app.RuntimeKind) func(ctx context.Context, c *Call) (any, error) {
		return func(ctx context.Context, c *Call) (any, error) {
			req, err := decode(c)
			if err != nil {
				return nil, err
			}
			return s.app.ListRuntimeTargets(ctx, kind, req)
		}
	}
	call := func(f func(context.Context, app.RuntimeTargetRequest, func(p abi.Progress)) (*app.RuntimeResult, error)) func(ctx context.Context, c *Call) (any, error) {
		return func(ctx context.Context, c *Call) (any, error) {
			req, err := decode(c)
			if err != nil {
				return nil, err
			}
			res, err := f(ctx, req, c.Progress)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		}
	}
	ex := map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "target_id": "5B1C0E0B6A1F4C2D8E9F0A1B2C3D4E5F", "allowed_origins": []any{"http://127.0.0.1:8080"}}
	exE := map[string]any{"cdp_endpoint": "http://127.0.0.1:9222", "target_id": "5B1C0E0B6A1F4C2D8E9F0A1B2C3D4E5F", "allowed_file_roots": []any{"/opt/Example/resources/app"}}
	exN := map[string]any{"cdp_endpoint": "127.0.0.1:9229", "target_id": "0f2c9d3e-1111-4222-8333-944455556666", "allowed_file_roots": []any{"/srv/app"}}
	evidenceRef := map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	action := object("One step, from a fixed vocabulary: navigate (url), click (selector), type (selector, text), wait (ms), wait_for (selector, timeout_ms).", map[string]Schema{
		"action":     enum("What to do.", "navigate", "click", "type", "wait", "wait_for"),
		"url":        str("navigate: the URL to load (in scope)."),
		"selector":   str("click, type, wait_for: a CSS selector; its first match is used."),
		"text":       str("type: the text to insert."),
		"ms":         integer("wait: milliseconds.", 1, 60_000),
		"timeout_ms": integer("navigate, wait_for: how long to wait (default 20,000).", 1, 60_000),
	}, "action")
	scenarioProps := map[string]Schema{
		"actions":             array("The steps, at most 20, run in order; a failed step is recorded and the rest still run.", action, 20),
		"max_duration_ms":     integer("Bound of the whole run (default 30,000, at most 60,000); later steps are skipped past it.", 1, 60_000),
		"max_timeline_events": maxEvents,
		"screenshot":          boolean("Also record the SHA-256 of a final viewport screenshot."),
	}
	browserScenario := map[string]Schema{"start_url": str("The first page to load; its origin must be in allowed_origins."), "allowed_origins": origins}
	electronScenario := map[string]Schema{
		"executable_path":    str("Absolute path of the Electron executable to launch (it is given --remote-debugging-port and a private --user-data-dir)."),
		"application_path":   str("Absolute path of the app folder or .asar it opens (optional; appended to args)."),
		"args":               array("Extra arguments for the executable.", str("An argument."), 32),
		"allowed_file_roots": roots,
	}
	for k, v := range scenarioProps {
		browserScenario[k], electronScenario[k] = v, v
	}
	scenario := func(kind app.RuntimeKind) func(ctx context.Context, c *Call) (any, error) {
		return func(ctx context.Context, c *Call) (any, error) {
			var req app.ScenarioRequest
			if err := c.Decode(&req); err != nil {
				return nil, err
			}
			res, err := s.app.CaptureScenario(ctx, kind, req, c.Progress)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		}
	}
	launches := Effects{MutatesSession: true, AccessesNetwork: true, LaunchesProcess: true, ExecutesForeignCode: true}
	return []*Tool{
		{
			Name: "capture_browser_scenario", Title: "Run a scripted browser scenario rea owns", Family: "browser",
			Description: "Launch a headless Chromium that rea owns (private profile, DevTools on loopback), load start_url, run the steps (navigate, click, type, wait, " +
				"wait_for — protocol input events, never scripts) while recording console, exceptions, requests and navigations, inventory the final page, and end the " +
				"browser's whole process group and profile whatever happened (cleanup_incomplete otherwise). Pages run their own code: the call executes foreign code. " +
				"Navigation stays inside allowed_origins. Result: controlled-replay Evidence.",
			Effects: launches, Input: object("", browserScenario, "start_url", "allowed_origins"),
			Examples: []map[string]any{{"start_url": "http://127.0.0.1:8080/", "allowed_origins": []any{"http://127.0.0.1:8080"},
				"actions": []any{map[string]any{"action": "click", "selector": "#login"}, map[string]any{"action": "wait_for", "selector": ".done"}}}},
			CLI: "capture-browser-scenario", Run: scenario(app.RuntimeBrowser),
		},
		{
			Name: "capture_electron_scenario", Title: "Run a scripted Electron scenario rea owns", Family: "electron",
			Description: "Launch the Electron executable you name with a DevTools port rea owns (and a private --user-data-dir), wait for its first window under " +
				"allowed_file_roots (default: application_path), run the steps as capture_browser_scenario does, inventory the final page (the globals its preload " +
				"exposed), and end its whole process group. The app runs its own code: the call executes foreign code. Result: controlled-replay Evidence; pass it " +
				"and the app's static analysis to reconcile_javascript_runtime.",
			Effects: launches, Input: object("", electronScenario, "executable_path"),
			Examples: []map[string]any{{"executable_path": "/opt/Example/example", "application_path": "/opt/Example/resources/app.asar",
				"actions": []any{map[string]any{"action": "wait_for", "selector": "#main"}}}},
			CLI: "capture-electron-scenario", Run: scenario(app.RuntimeElectron),
		},
		{
			Name: "list_browser_targets", Title: "List browser page targets", Family: "browser",
			Description: "List the page targets of a Chromium DevTools endpoint on loopback whose origin is one you approved (allowed_origins, exact). " +
				"URLs are redacted (credentials, query, fragment). Paged; counts what is out of scope. Next: inspect_web_page, observe_web_session, capture_web_screenshot.",
			Effects: Effects{AccessesNetwork: true, Idempotent: true},
			Input:   object("", map[string]Schema{"cdp_endpoint": endpoint, "allowed_origins": origins, "offset": offset, "limit": limit}, "cdp_endpoint", "allowed_origins"),
			Output:  listOutput, Examples: []map[string]any{{"cdp_endpoint": "http://127.0.0.1:9222", "allowed_origins": []any{"http://127.0.0.1:8080"}}},
			CLI: "list-browser-targets", Run: list(app.RuntimeBrowser),
		},
		{
			Name: "inspect_web_page", Title: "Inspect a live web page passively", Family: "browser",
			Description: "Passive inventory of one page in scope, without navigating it or running its code: frames, element counts (scripts, iframes, webviews, forms…), " +
				"Content-Security-Policy meta tags, every parsed script with its SHA-256 and size, the page's own globals beyond an empty page's (e.g. a contextBridge key), " +
				"storage key counts (never values) and workers. A page that closes mid-call yields an error and no Evidence. Result: observed Evidence.",
			Effects: observe, Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_origins": origins, "max_scripts": maxScripts}, "cdp_endpoint", "target_id", "allowed_origins"),
			Examples: []map[string]any{ex}, CLI: "inspect-web-page",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.InspectRuntimePage(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Name: "observe_web_session", Title: "Observe a web page for a time window", Family: "browser",
			Description: "Record what a page in scope does during observation_ms while a person drives it: console messages, exceptions, requests and responses (URLs redacted), " +
				"failed loads and navigations, bounded by max_timeline_events. Progress every second. If the page closes or navigates away the Evidence keeps what was seen and " +
				"says so (complete false). Nothing is evaluated in the page.",
			Effects: observe, Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_origins": origins, "observation_ms": observation, "max_timeline_events": maxEvents}, "cdp_endpoint", "target_id", "allowed_origins"),
			Examples: []map[string]any{ex}, CLI: "observe-web-session",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.ObserveRuntime(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Name: "capture_web_screenshot", Title: "Capture a web page's viewport", Family: "browser",
			Description: "A PNG of the page's viewport, content-addressed by SHA-256: written as SHA256.png into output_dir when given, else carried base64 in the Evidence " +
				"(bounded by maximum_image_bytes, default 8 MiB).",
			Effects: Effects{MutatesSession: true, AccessesNetwork: true, WritesFilesystem: true},
			Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_origins": origins,
				"maximum_image_bytes": integer("Largest PNG accepted (default 8 MiB).", 1, 64<<20), "output_dir": str("Absolute folder to write SHA256.png into (optional).")}, "cdp_endpoint", "target_id", "allowed_origins"),
			Examples: []map[string]any{ex}, CLI: "capture-web-screenshot",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.CaptureWebScreenshot(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Name: "analyze_web_bundle", Title: "Analyse the scripts a live page loaded", Family: "browser", Modules: []string{"artifact", "jsapp"},
			Description: "Read the scripts a page in scope has parsed (as inspect_web_page does) and run the static JavaScript analysis over them in the sandbox — " +
				"parsed, never executed: endpoints, IPC/bridge use, bundles and their modules, findings, each tied to a file named after the script's URL. " +
				"Returns observed Evidence holding the script map (file, URL, SHA-256) and the analysis result.",
			Effects: observe, Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_origins": origins, "max_scripts": maxScripts}, "cdp_endpoint", "target_id", "allowed_origins"),
			Examples: []map[string]any{ex}, CLI: "analyze-web-bundle",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.AnalyzeWebBundle(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Name: "discover_webmcp_tools", Title: "List a page's WebMCP tools", Family: "browser",
			Description: "Inventory the tools a page registered for agents through WebMCP (name, description, input schema, frame) without ever invoking one. " +
				"A browser without the WebMCP DevTools domain is capability_unavailable; one that runs with the API off (Chromium needs --enable-blink-features=WebMCPTesting) answers api_enabled false with a limitation, not an empty finding.",
			Effects: observe,
			Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_origins": origins,
				"max_tools": integer("Tools listed (default 200).", 1, 5000), "max_schema_bytes": integer("Bytes of one input schema kept (default 16 KiB).", 1, 1<<20)}, "cdp_endpoint", "target_id", "allowed_origins"),
			Examples: []map[string]any{ex}, CLI: "discover-webmcp-tools",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.DiscoverWebMCPTools(ctx, r, p)
			}),
		},
		{
			Name: "list_electron_targets", Title: "List Electron page targets", Family: "electron",
			Description: "List the file:// page targets of an Electron app's DevTools endpoint (started with --remote-debugging-port on loopback) under the folders you approved. " +
				"Next: inspect_electron_page, then reconcile_javascript_runtime with the app's static analysis.",
			Effects: Effects{AccessesNetwork: true, Idempotent: true},
			Input:   object("", map[string]Schema{"cdp_endpoint": endpoint, "allowed_file_roots": roots, "offset": offset, "limit": limit}, "cdp_endpoint", "allowed_file_roots"),
			Output:  listOutput, Examples: []map[string]any{{"cdp_endpoint": "http://127.0.0.1:9222", "allowed_file_roots": []any{"/opt/Example/resources/app"}}},
			CLI: "list-electron-targets", Run: list(app.RuntimeElectron),
		},
		{
			Name: "inspect_electron_page", Title: "Inspect a live Electron page passively", Family: "electron",
			Description: "inspect_web_page for an Electron renderer (a file:// page under allowed_file_roots): frames, elements, CSP, scripts with digests, the globals a preload " +
				"exposed (contextBridge keys, or require/process when nodeIntegration is on), storage counts. Nothing runs in the page.",
			Effects: observe, Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_file_roots": roots, "max_scripts": maxScripts}, "cdp_endpoint", "target_id", "allowed_file_roots"),
			Examples: []map[string]any{exE}, CLI: "inspect-electron-page",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.InspectRuntimePage(ctx, app.RuntimeElectron, r, p)
			}),
		},
		{
			Name: "list_javascript_runtime_targets", Title: "List Node.js inspector targets", Family: "javascript-runtime",
			Description: "List the targets of a Node.js inspector endpoint on loopback (node --inspect=127.0.0.1:PORT) whose main script is under the folders you approved.",
			Effects:     Effects{AccessesNetwork: true, Idempotent: true},
			Input:       object("", map[string]Schema{"cdp_endpoint": endpoint, "allowed_file_roots": roots, "offset": offset, "limit": limit}, "cdp_endpoint", "allowed_file_roots"),
			Output:      listOutput, Examples: []map[string]any{{"cdp_endpoint": "127.0.0.1:9229", "allowed_file_roots": []any{"/srv/app"}}},
			CLI: "list-javascript-runtime-targets", Run: list(app.RuntimeNode),
		},
		{
			Name: "observe_javascript_runtime", Title: "Observe a Node.js runtime passively", Family: "javascript-runtime",
			Description: "Attach to a Node.js inspector target in scope with only Runtime and Debugger enabled: the scripts it has loaded (URL, SHA-256, size, source map), " +
				"then console messages and exceptions during observation_ms. No breakpoint is set and nothing is evaluated in the target.",
			Effects: observe,
			Input: object("", map[string]Schema{"cdp_endpoint": endpoint, "target_id": target, "allowed_file_roots": roots, "observation_ms": observation,
				"max_timeline_events": maxEvents, "max_scripts": maxScripts}, "cdp_endpoint", "target_id", "allowed_file_roots"),
			Examples: []map[string]any{exN}, CLI: "observe-javascript-runtime",
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.ObserveRuntime(ctx, app.RuntimeNode, r, p)
			}),
		},
		{
			Name: "compare_web_captures", Title: "Compare two captures of a page", Family: "browser",
			Description: "Compare two captures of a page — inspect_web_page or inspect_electron_page Evidence, the final pages and timelines of capture_*_scenario, or " +
				"observe_web_session timelines: scripts by URL and SHA-256, own globals (e.g. a bridge key appearing), CSP, element counts and timeline counts, each " +
				"added, removed or changed. A partial side makes what it lacks unknown, never removed. Reads Evidence only; the result is derived Evidence.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"left":  withExamples(anyJSON("The earlier capture: a retained reference or the inline record."), evidenceRef),
				"right": withExamples(anyJSON("The later capture: a retained reference or the inline record."), evidenceRef),
			}, "left", "right"),
			Examples:       []map[string]any{{"left": evidenceRef, "right": map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"}}},
			OneSidedReason: "comparison reads Evidence retained in an MCP session",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct{ Left, Right json.RawMessage }
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				l, r, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareWebCaptures(l, r)
			},
		},
		{
			Name: "compare_web_screenshots", Title: "Compare two screenshots pixel by pixel", Family: "browser", Modules: []string{"compare"},
			Description: "Pixel metrics of two capture_web_screenshot records, each verified against the SHA-256 its Evidence holds: pixels differing beyond " +
				"channel_threshold, the largest channel difference, the bounding box of the difference, identical / within-threshold / different / incomparable " +
				"(sizes differ). PNGs are decoded in the sandbox, bounded by maximum_pixels before any pixel is decoded.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"left":              withExamples(anyJSON("capture_web_screenshot Evidence: a retained reference or the inline record."), evidenceRef),
				"right":             withExamples(anyJSON("capture_web_screenshot Evidence: a retained reference or the inline record."), evidenceRef),
				"channel_threshold": integer("Per-channel difference (0-255) at or below which pixels count as equal (default 0).", 0, 255),
				"maximum_pixels":    integer("Largest width×height accepted per image (default 16,000,000).", 1, 64_000_000),
			}, "left", "right"),
			Examples:       []map[string]any{{"left": evidenceRef, "right": map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"}, "channel_threshold": 8}},
			OneSidedReason: "comparison reads Evidence retained in an MCP session",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left, Right json.RawMessage
					app.ScreenshotLimits
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				l, r, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareWebScreenshots(ctx, l, r, in.ScreenshotLimits, c.Progress)
			},
		},
		{
			Name: "reconcile_javascript_runtime", Title: "Reconcile static analysis with runtime observations", Family: "electron",
			Description: "Join analyze_javascript_application Evidence with runtime Evidence (inspect_electron_page, inspect_web_page, observe_web_session, observe_javascript_runtime): " +
				"each contextBridge key, window load and HTML script is confirmed (both), static-only or runtime-only; IPC channels are not-observable over the DevTools protocol and " +
				"say so. Reads Evidence only. The result is derived Evidence linked to its inputs.",
			Effects: Effects{MutatesSession: true, Idempotent: true},
			Input: object("", map[string]Schema{
				"static":               withExamples(anyJSON("analyze_javascript_application Evidence: a retained reference or the inline record."), evidenceRef),
				"runtime_observations": array("Runtime Evidence, each a retained reference or an inline record.", anyJSON("One runtime Evidence."), 100),
			}, "static", "runtime_observations"),
			Examples:       []map[string]any{{"static": evidenceRef, "runtime_observations": []any{evidenceRef}}},
			OneSidedReason: "reconciliation reads Evidence retained in an MCP session",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Static  json.RawMessage   `json:"static"`
					Runtime []json.RawMessage `json:"runtime_observations"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				st, err := c.Resolve(in.Static, "static")
				if err != nil {
					return nil, err
				}
				rts, err := c.ResolveAll(in.Runtime, "runtime_observations")
				if err != nil {
					return nil, err
				}
				return s.app.ReconcileJavaScriptRuntime(st, rts)
			},
		},
	}
}
