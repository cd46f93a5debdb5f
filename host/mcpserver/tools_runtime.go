package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// runtimeTools observe live pages and runtimes over the DevTools protocol on
// loopback: browser pages, Electron pages and Node.js inspectors, plus the
// pure reconciliation of what they saw with the static analysis.
func (s *Server) runtimeTools() []*Tool {
	listOutput := result("One page of targets in the approved scope.", map[string]Schema{
		"cdp_endpoint": typed("string"), "kind": typed("string"), "targets": {"type": "array", "items": typed("object")},
		"total": typed("integer"), "out_of_scope": typed("integer"), "refused_non_loopback_sockets": typed("integer"),
		"offset": typed("integer"), "limit": typed("integer"), "next_offset": typed("integer", "null"), "limitations": {"type": "array", "items": typed("string")},
	})
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
	return []*Tool{
		{
			Spec: spec(operation.CaptureBrowserScenario()),
			Run:  scenario(app.RuntimeBrowser),
		},
		{
			Spec: spec(operation.CaptureElectronScenario()),
			Run:  scenario(app.RuntimeElectron),
		},
		{
			Spec:   spec(operation.ListBrowserTargets()),
			Output: listOutput,
			Run:    list(app.RuntimeBrowser),
		},
		{
			Spec: spec(operation.InspectWebPage()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.InspectRuntimePage(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Spec: spec(operation.ObserveWebSession()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.ObserveRuntime(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Spec: spec(operation.CaptureWebScreenshot()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.CaptureWebScreenshot(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Spec:    spec(operation.AnalyzeWebBundle()),
			Modules: []string{"artifact", "jsapp"},
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.AnalyzeWebBundle(ctx, app.RuntimeBrowser, r, p)
			}),
		},
		{
			Spec: spec(operation.DiscoverWebMCPTools()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.DiscoverWebMCPTools(ctx, r, p)
			}),
		},
		{
			Spec:   spec(operation.ListElectronTargets()),
			Output: listOutput,
			Run:    list(app.RuntimeElectron),
		},
		{
			Spec: spec(operation.InspectElectronPage()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.InspectRuntimePage(ctx, app.RuntimeElectron, r, p)
			}),
		},
		{
			Spec:   spec(operation.ListJavaScriptRuntimeTargets()),
			Output: listOutput,
			Run:    list(app.RuntimeNode),
		},
		{
			Spec: spec(operation.ObserveJavaScriptRuntime()),
			Run: call(func(ctx context.Context, r app.RuntimeTargetRequest, p func(abi.Progress)) (*app.RuntimeResult, error) {
				return s.app.ObserveRuntime(ctx, app.RuntimeNode, r, p)
			}),
		},
		{
			Spec: spec(operation.CompareWebCaptures()),
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
			Spec:    spec(operation.CompareWebScreenshots()),
			Modules: []string{"compare"},
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
			Spec: spec(operation.ReconcileJavaScriptRuntime()),
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
