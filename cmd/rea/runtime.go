package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/host/devtools"
	"rea/host/operation"
)

// runtimeCommands observe live pages and Node runtimes over the DevTools
// protocol on loopback.
func (c *cli) runtimeCommands() []*cobra.Command {
	type op struct {
		use, short, long, example string
		kind                      app.RuntimeKind
		run                       func(a *app.App, ctx context.Context, req app.RuntimeTargetRequest) (*app.RuntimeResult, error)
	}
	scopeHelp := map[app.RuntimeKind]string{
		app.RuntimeBrowser:  "Pages are in scope only when their origin is one you approve with --allow-origin (exact, repeatable).",
		app.RuntimeElectron: "Pages are in scope only when they are file:// pages under a folder you approve with --allow-root (absolute, repeatable).",
		app.RuntimeNode:     "Targets are in scope only when their main script is under a folder you approve with --allow-root (absolute, repeatable).",
	}
	endpointHelp := `The endpoint is on loopback only: http://127.0.0.1:PORT, localhost:PORT or
[::1]:PORT — Chromium or Electron started with --remote-debugging-port=PORT,
Node with --inspect=127.0.0.1:PORT. Nothing is navigated, evaluated or
invoked in the target.`
	lists := []struct {
		sp   operation.Spec
		kind app.RuntimeKind
	}{
		{operation.ListBrowserTargets(), app.RuntimeBrowser},
		{operation.ListElectronTargets(), app.RuntimeElectron},
		{operation.ListJavaScriptRuntimeTargets(), app.RuntimeNode},
	}
	var cmds []*cobra.Command
	for _, l := range lists {
		var req app.RuntimeTargetRequest
		cmd := &cobra.Command{
			Long: l.sp.CLI.Short + ".\n\n" + scopeHelp[l.kind] + "\n\n" + endpointHelp,
			RunE: func(cmd *cobra.Command, args []string) error {
				req.CDPEndpoint = args[0]
				a, err := c.application()
				if err != nil {
					return err
				}
				res, err := a.ListRuntimeTargets(c.ctx, l.kind, req)
				if err != nil {
					return err
				}
				if c.format == "json" {
					return c.printJSON(res)
				}
				fmt.Fprintf(c.stdout, "%d targets in scope at %s (%d out of scope)\n", res.Total, res.Endpoint, res.OutOfScope)
				for _, t := range res.Targets {
					fmt.Fprintf(c.stdout, "%s  %-8s %s  %s\n", t.ID, t.Type, t.URL, t.Title)
				}
				if res.NextOffset != nil {
					fmt.Fprintf(c.stdout, "… more: --offset %d\n", *res.NextOffset)
				}
				return nil
			},
		}
		cmds = append(cmds, runtimeCommand(cmd, l.sp, &req))
	}
	ops := []op{
		{use: "inspect-web-page ENDPOINT TARGET --allow-origin ORIGIN", kind: app.RuntimeBrowser,
			short: "Passive inventory of a live page: frames, elements, CSP, scripts with digests, own globals, storage counts",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.InspectRuntimePage(ctx, app.RuntimeBrowser, r, c.progressPrinter("inspect"))
			}},
		{use: "observe-web-session ENDPOINT TARGET --allow-origin ORIGIN", kind: app.RuntimeBrowser,
			short: "Record a page's console, exceptions, requests and navigations for a time window",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.ObserveRuntime(ctx, app.RuntimeBrowser, r, c.progressPrinter("observe"))
			}},
		{use: "capture-web-screenshot ENDPOINT TARGET --allow-origin ORIGIN", kind: app.RuntimeBrowser,
			short: "Capture a page's viewport as a content-addressed PNG",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.CaptureWebScreenshot(ctx, app.RuntimeBrowser, r, c.progressPrinter("screenshot"))
			}},
		{use: "analyze-web-bundle ENDPOINT TARGET --allow-origin ORIGIN", kind: app.RuntimeBrowser,
			short: "Statically analyse the scripts a live page loaded (parsed in the sandbox, never executed)",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.AnalyzeWebBundle(ctx, app.RuntimeBrowser, r, c.progressPrinter("analyze"))
			}},
		{use: "discover-webmcp-tools ENDPOINT TARGET --allow-origin ORIGIN", kind: app.RuntimeBrowser,
			short: "List the tools a page registered through WebMCP, never invoking one",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.DiscoverWebMCPTools(ctx, r, c.progressPrinter("webmcp"))
			}},
		{use: "inspect-electron-page ENDPOINT TARGET --allow-root DIR", kind: app.RuntimeElectron,
			short: "Passive inventory of a live Electron renderer: frames, elements, CSP, scripts, the globals its preload exposed",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.InspectRuntimePage(ctx, app.RuntimeElectron, r, c.progressPrinter("inspect"))
			}},
		{use: "observe-javascript-runtime ENDPOINT TARGET --allow-root DIR", kind: app.RuntimeNode,
			short: "List a Node.js runtime's loaded scripts with digests, then record its console and exceptions for a time window",
			run: func(a *app.App, ctx context.Context, r app.RuntimeTargetRequest) (*app.RuntimeResult, error) {
				return a.ObserveRuntime(ctx, app.RuntimeNode, r, c.progressPrinter("observe"))
			}},
	}
	for _, o := range ops {
		var req app.RuntimeTargetRequest
		name := strings.Fields(o.use)[0]
		cmd := &cobra.Command{
			Long: o.short + ".\n\nThe result is observed Evidence (--format json prints it whole).\n" + scopeHelp[o.kind] + "\n\n" + endpointHelp,
			Example: fmt.Sprintf("  rea %s http://127.0.0.1:9222 $(rea %s http://127.0.0.1:9222 %s --format json | jq -r '.targets[0].id')",
				name, map[app.RuntimeKind]string{app.RuntimeBrowser: "list-browser-targets", app.RuntimeElectron: "list-electron-targets", app.RuntimeNode: "list-javascript-runtime-targets"}[o.kind],
				map[app.RuntimeKind]string{app.RuntimeBrowser: "--allow-origin http://127.0.0.1:8080", app.RuntimeElectron: "--allow-root /opt/App/resources/app", app.RuntimeNode: "--allow-root /srv/app"}[o.kind]),
			RunE: func(cmd *cobra.Command, args []string) error {
				req.CDPEndpoint, req.TargetID = args[0], args[1]
				a, err := c.application()
				if err != nil {
					return err
				}
				res, err := o.run(a, c.ctx, req)
				c.endProgress()
				if err != nil {
					return err
				}
				if c.format == "json" {
					return c.printJSON(res.Evidence)
				}
				return c.printRuntime(name, res)
			},
		}
		cmds = append(cmds, runtimeCommand(cmd, runtimeSpecs[name], &req))
	}
	for _, sc := range []struct {
		sp   operation.Spec
		kind app.RuntimeKind
	}{
		{operation.CaptureBrowserScenario(), app.RuntimeBrowser},
		{operation.CaptureElectronScenario(), app.RuntimeElectron},
	} {
		var file string
		name := sc.sp.CLI.Name
		cmd := &cobra.Command{
			Long: sc.sp.CLI.Short + `.

The scenario is a JSON file (- for standard input) with the fields of the
MCP tool of the same name: start_url and allowed_origins (browser) or
executable_path, application_path, args and allowed_file_roots (Electron);
actions, a list of at most 20 steps from a fixed vocabulary —
{"action":"navigate","url":…}, {"action":"click","selector":…},
{"action":"type","selector":…,"text":…}, {"action":"wait","ms":…},
{"action":"wait_for","selector":…,"timeout_ms":…} — run as protocol input
events, never as scripts; max_duration_ms (default 30000, at most 60000),
max_timeline_events and screenshot.

The launched program runs its own code. rea gives it a private profile
folder and a DevTools port on loopback, and ends its whole process group
and removes the folder whatever happens; exit 1 with cleanup_incomplete if
it cannot.`,
			Example: "  rea " + name + " --scenario login.json --format json > capture.json",
			RunE: func(cmd *cobra.Command, args []string) error {
				var req app.ScenarioRequest
				if err := decodeRequestFile(file, "--scenario", &req); err != nil {
					return err
				}
				a, err := c.application()
				if err != nil {
					return err
				}
				res, err := a.CaptureScenario(c.ctx, sc.kind, req, c.progressPrinter("scenario"))
				c.endProgress()
				if err != nil {
					return err
				}
				if c.format == "json" {
					return c.printJSON(res.Evidence)
				}
				return c.printScenario(res)
			},
		}
		cmds = append(cmds, fromSpec(cmd, sc.sp, targets{"cli.scenario": &file}))
	}
	return cmds
}

// decodeRequestFile decodes a JSON request file (or standard input for -),
// strictly: an unknown field is an error naming it.
func decodeRequestFile(path, flag string, v any) error {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "%s: cannot read %q: %v", flag, path, err).WithDetail("flag", flag)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "%s: %q is not a valid request: %v", flag, path, err).WithDetail("flag", flag)
	}
	return nil
}

func (c *cli) printScenario(res *app.RuntimeResult) error {
	var body app.ScenarioCapture
	if err := json.Unmarshal(res.Evidence.NormalizedResult, &body); err != nil {
		return abi.Errorf(abi.CodeInternal, "scenario: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "evidence %s\n%s, start %s\n", res.Evidence.EvidenceID, body.Browser, body.StartURL)
	for _, a := range body.Actions {
		fmt.Fprintf(w, "  step %d %-9s %-7s %6d ms %s\n", a.Index, a.Action, a.Status, a.AtMS, a.Error)
	}
	if t := body.Timeline; t != nil {
		fmt.Fprintf(w, "timeline: %d events %v, ended by %s\n", len(t.Events), t.Counts, t.Ended)
	}
	if p := body.FinalPage; p != nil {
		names := make([]string, 0, len(p.ExposedGlobals))
		for _, g := range p.ExposedGlobals {
			names = append(names, g.Name)
		}
		fmt.Fprintf(w, "final page %s: %d scripts, own globals %s\n", p.Target.URL, len(p.Scripts), strings.Join(names, ", "))
	}
	fmt.Fprintf(w, "cleanup: process group ended %v, profile removed %v\n", body.Cleanup.ProcessGroupKilled, body.Cleanup.ProfileRemoved)
	for _, l := range body.Limitations {
		fmt.Fprintf(w, "limitation: %s\n", l)
	}
	return nil
}

// runtimeSpecs are the operations on one target, by command name.
var runtimeSpecs = func() map[string]operation.Spec {
	m := map[string]operation.Spec{}
	for _, sp := range []operation.Spec{operation.InspectWebPage(), operation.ObserveWebSession(), operation.CaptureWebScreenshot(),
		operation.AnalyzeWebBundle(), operation.DiscoverWebMCPTools(), operation.InspectElectronPage(), operation.ObserveJavaScriptRuntime()} {
		m[sp.CLI.Name] = sp
	}
	return m
}()

// runtimeCommand completes a runtime command from its spec, binding each
// flag the spec declares to the request field of the same name.
func runtimeCommand(cmd *cobra.Command, sp operation.Spec, req *app.RuntimeTargetRequest) *cobra.Command {
	fields := targets{"allowed_origins": &req.AllowedOrigins, "allowed_file_roots": &req.AllowedFileRoots, "offset": &req.Offset, "limit": &req.Limit,
		"observation_ms": &req.ObservationMS, "max_timeline_events": &req.MaxTimelineEvents, "max_scripts": &req.MaxScripts,
		"maximum_image_bytes": &req.MaxImageBytes, "output_dir": &req.OutputDir, "max_tools": &req.MaxTools, "max_schema_bytes": &req.MaxSchemaBytes}
	to := targets{}
	for _, f := range sp.Flags() {
		to[f.Path] = fields[f.Path]
	}
	return fromSpec(cmd, sp, to)
}

// printRuntime prints the gist of runtime Evidence as text.
func (c *cli) printRuntime(name string, res *app.RuntimeResult) error {
	w := c.stdout
	fmt.Fprintf(w, "evidence %s\n", res.Evidence.EvidenceID)
	var body struct {
		Target         devtools.TargetRef `json:"target"`
		Elements       map[string]int     `json:"elements"`
		CSP            []string           `json:"csp_meta"`
		Scripts        []devtools.Script  `json:"scripts"`
		ExposedGlobals []devtools.Global  `json:"exposed_globals"`
		Events         []devtools.Event   `json:"events"`
		Counts         map[string]int     `json:"counts"`
		Ended          string             `json:"ended"`
		SHA256         string             `json:"sha256"`
		Bytes          int                `json:"bytes"`
		Path           string             `json:"path"`
		Tools          []devtools.WebMCPTool
		Application    *struct {
			Findings []struct{ RuleID, Severity, Message string } `json:"findings"`
			IPC      []struct{ Side, API, Channel string }        `json:"ipc"`
		} `json:"application"`
		Complete    *bool    `json:"complete"`
		Limitations []string `json:"limitations"`
	}
	if err := json.Unmarshal(res.Evidence.NormalizedResult, &body); err != nil {
		return abi.Errorf(abi.CodeInternal, "%s: %v", name, err)
	}
	fmt.Fprintf(w, "target %s %s %s\n", body.Target.ID, body.Target.Type, body.Target.URL)
	if body.Elements != nil {
		fmt.Fprintf(w, "elements %d (scripts %d, iframes %d, webviews %d, forms %d)\n", body.Elements["*"], body.Elements["script"], body.Elements["iframe"], body.Elements["webview"], body.Elements["form"])
		for _, p := range body.CSP {
			fmt.Fprintf(w, "csp %s\n", p)
		}
		names := make([]string, 0, len(body.ExposedGlobals))
		for _, g := range body.ExposedGlobals {
			names = append(names, g.Name)
		}
		fmt.Fprintf(w, "own globals %d: %s\n", len(names), strings.Join(names, ", "))
	}
	if len(body.Scripts) > 0 {
		fmt.Fprintf(w, "scripts %d:\n", len(body.Scripts))
		for i, s := range body.Scripts {
			if i == 30 {
				fmt.Fprintf(w, "  … %d more (--format json for all)\n", len(body.Scripts)-30)
				break
			}
			d := s.SHA256
			if d == "" {
				d = "(not read: " + s.NotRead + ")"
			}
			fmt.Fprintf(w, "  %s %8d %s\n", d, s.Bytes, s.URL)
		}
	}
	if body.Ended != "" {
		fmt.Fprintf(w, "observation ended by %s; events %d %v\n", body.Ended, len(body.Events), body.Counts)
		for i, e := range body.Events {
			if i == 30 {
				fmt.Fprintf(w, "  … %d more (--format json for all)\n", len(body.Events)-30)
				break
			}
			fmt.Fprintf(w, "  %6d ms %-14s %s %s\n", e.AtMS, e.Kind, e.URL, e.Text)
		}
	}
	if body.SHA256 != "" {
		fmt.Fprintf(w, "png %s (%d bytes) %s\n", body.SHA256, body.Bytes, body.Path)
	}
	if a := body.Application; a != nil {
		fmt.Fprintf(w, "analysis: %d IPC operations, %d findings\n", len(a.IPC), len(a.Findings))
		for i, f := range a.Findings {
			if i == 30 {
				fmt.Fprintf(w, "  … %d more (--format json for all)\n", len(a.Findings)-30)
				break
			}
			fmt.Fprintf(w, "  %-6s %s %s\n", f.Severity, f.RuleID, f.Message)
		}
	}
	for _, t := range body.Tools {
		fmt.Fprintf(w, "webmcp tool %s: %s\n", t.Name, t.Description)
	}
	if body.Complete != nil && !*body.Complete {
		fmt.Fprintln(w, "partial:")
	}
	for _, l := range body.Limitations {
		fmt.Fprintf(w, "limitation: %s\n", l)
	}
	return nil
}
