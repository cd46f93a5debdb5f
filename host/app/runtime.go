package app

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"rea/abi"
	"rea/host/devtools"
	"rea/host/evidence"
)

// RuntimeKind is which family a runtime request belongs to: browser pages
// (filtered by origin), Electron pages (file:// under roots) or Node.js
// inspector targets.
type RuntimeKind string

// The runtime families.
const (
	RuntimeBrowser  RuntimeKind = "browser"
	RuntimeElectron RuntimeKind = "electron"
	RuntimeNode     RuntimeKind = "javascript-runtime"
)

// RuntimeTargetRequest names an endpoint, a target and the scope a caller
// approved: exact origins for browser pages, absolute file roots for
// Electron pages and Node scripts.
type RuntimeTargetRequest struct {
	CDPEndpoint      string   `json:"cdp_endpoint"`
	TargetID         string   `json:"target_id"`
	AllowedOrigins   []string `json:"allowed_origins"`
	AllowedFileRoots []string `json:"allowed_file_roots"`
	Offset           int      `json:"offset"`
	Limit            int      `json:"limit"`
	// ObservationMS is the length of a timed observation.
	ObservationMS     int `json:"observation_ms"`
	MaxTimelineEvents int `json:"max_timeline_events"`
	MaxScripts        int `json:"max_scripts"`
	MaxImageBytes     int `json:"maximum_image_bytes"`
	MaxTools          int `json:"max_tools"`
	MaxSchemaBytes    int `json:"max_schema_bytes"`
	// OutputDir receives a screenshot as SHA256.png when given.
	OutputDir string `json:"output_dir"`
}

// Runtime request bounds.
const (
	DefaultTargetLimit = 64
	MaxTargetLimit     = 1000
	DefaultImageBytes  = 8 << 20
	MaxImageBytes      = 64 << 20
	endpointTimeout    = 10 * time.Second
)

// TargetList is one page of an endpoint's targets in scope.
type TargetList struct {
	Endpoint   string               `json:"cdp_endpoint"`
	Kind       RuntimeKind          `json:"kind"`
	Targets    []devtools.TargetRef `json:"targets"`
	Total      int                  `json:"total"`
	OutOfScope int                  `json:"out_of_scope"`
	Refused    int                  `json:"refused_non_loopback_sockets"`
	Offset     int                  `json:"offset"`
	Limit      int                  `json:"limit"`
	NextOffset *int                 `json:"next_offset"`
	// ByteLimited says the page stopped before limit targets at the page
	// byte budget (abi.DefaultPageBytes); the rest starts at NextOffset.
	ByteLimited bool     `json:"byte_limited,omitempty"`
	Limitations []string `json:"limitations"`
}

type scope struct {
	kind    RuntimeKind
	origins map[string]bool
	roots   []string
}

func newScope(kind RuntimeKind, req RuntimeTargetRequest) (scope, error) {
	sc := scope{kind: kind, origins: map[string]bool{}}
	switch kind {
	case RuntimeBrowser:
		if len(req.AllowedOrigins) == 0 {
			return sc, abi.Errorf(abi.CodeInvalidRequest, "allowed_origins: name the exact origins you approve observing, e.g. [\"http://127.0.0.1:8080\"]").WithDetail("field", "allowed_origins")
		}
		for i, o := range req.AllowedOrigins {
			u, err := url.Parse(o)
			if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				return sc, abi.Errorf(abi.CodeInvalidRequest, "allowed_origins[%d]: %q is not an origin (scheme://host[:port])", i, o).WithDetail("field", fmt.Sprintf("allowed_origins[%d]", i))
			}
			sc.origins[u.Scheme+"://"+u.Host] = true
		}
	default:
		if len(req.AllowedFileRoots) == 0 {
			return sc, abi.Errorf(abi.CodeInvalidRequest, "allowed_file_roots: name the absolute folders whose file:// pages or scripts you approve observing").WithDetail("field", "allowed_file_roots")
		}
		for i, r := range req.AllowedFileRoots {
			if !filepath.IsAbs(r) {
				return sc, abi.Errorf(abi.CodeInvalidRequest, "allowed_file_roots[%d]: %q is not an absolute path", i, r).WithDetail("field", fmt.Sprintf("allowed_file_roots[%d]", i))
			}
			sc.roots = append(sc.roots, filepath.Clean(r))
		}
	}
	return sc, nil
}

// allows says whether a target is in the approved scope.
func (sc scope) allows(t devtools.Target) bool {
	switch sc.kind {
	case RuntimeBrowser:
		if t.Type != "page" && t.Type != "iframe" {
			return false
		}
		return sc.allowsURL(t.URL)
	case RuntimeElectron:
		if t.Type != "page" && t.Type != "iframe" && t.Type != "webview" {
			return false
		}
		return sc.underRoot(t.URL)
	default:
		if t.Type != "node" {
			return false
		}
		// A Node target's url is its main script (file:///…).
		return sc.underRoot(t.URL)
	}
}

// allowsURL says whether a page URL is in scope: an approved origin for a
// browser, a file under an approved root for an Electron renderer.
func (sc scope) allowsURL(raw string) bool {
	if sc.kind == RuntimeBrowser {
		u, err := url.Parse(raw)
		return err == nil && sc.origins[u.Scheme+"://"+u.Host]
	}
	return sc.underRoot(raw)
}

func (sc scope) underRoot(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" {
		return false
	}
	p := filepath.Clean(u.Path)
	for _, r := range sc.roots {
		if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// ListRuntimeTargets lists the endpoint's targets in scope, paged.
func (a *App) ListRuntimeTargets(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest) (*TargetList, error) {
	ep, err := devtools.ParseEndpoint("cdp_endpoint", req.CDPEndpoint)
	if err != nil {
		return nil, err
	}
	sc, err := newScope(kind, req)
	if err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = DefaultTargetLimit
	}
	if req.Limit < 1 || req.Limit > MaxTargetLimit || req.Offset < 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "limit must be 1..%d and offset ≥ 0", MaxTargetLimit).WithDetail("field", "limit")
	}
	all, refused, err := devtools.ListTargets(ctx, ep, endpointTimeout)
	if err != nil {
		return nil, err
	}
	out := &TargetList{Endpoint: ep.String(), Kind: kind, Targets: []devtools.TargetRef{}, Refused: refused, Offset: req.Offset, Limit: req.Limit, Limitations: []string{}}
	var in []devtools.Target
	for _, t := range all {
		if sc.allows(t) {
			in = append(in, t)
		} else {
			out.OutOfScope++
		}
	}
	out.Total = len(in)
	// A page stops at limit targets or at the page byte budget of their
	// serialised refs (titles and URLs are the pages' own), like every
	// other paged view.
	refs := make([]devtools.TargetRef, 0, min(len(in), req.Offset+req.Limit))
	for i := 0; i < len(in) && i < req.Offset+req.Limit; i++ {
		refs = append(refs, in[i].Ref())
	}
	page := abi.PageOf(refs, req.Offset, req.Limit)
	out.Targets, out.ByteLimited = page.Items, page.ByteLimited
	switch {
	case page.NextOffset != nil:
		out.NextOffset = page.NextOffset
	case req.Offset+req.Limit < len(in):
		n := req.Offset + req.Limit
		out.NextOffset = &n
	}
	if refused > 0 {
		out.Limitations = append(out.Limitations, fmt.Sprintf("%d targets named a debugger socket off this endpoint and were refused", refused))
	}
	return out, nil
}

// attachInScope validates the request, finds the target in scope and
// attaches to it.
func (a *App) attachInScope(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest) (*devtools.Session, devtools.Target, []devtools.Target, error) {
	ep, err := devtools.ParseEndpoint("cdp_endpoint", req.CDPEndpoint)
	if err != nil {
		return nil, devtools.Target{}, nil, err
	}
	sc, err := newScope(kind, req)
	if err != nil {
		return nil, devtools.Target{}, nil, err
	}
	if req.TargetID == "" {
		return nil, devtools.Target{}, nil, abi.Errorf(abi.CodeInvalidRequest, "target_id: give a target id from list_%s_targets", listName(kind)).WithDetail("field", "target_id")
	}
	all, _, err := devtools.ListTargets(ctx, ep, endpointTimeout)
	if err != nil {
		return nil, devtools.Target{}, nil, err
	}
	t, err := devtools.FindTarget(all, req.TargetID)
	if err != nil {
		return nil, devtools.Target{}, nil, err
	}
	if !sc.allows(t) {
		return nil, devtools.Target{}, nil, abi.Errorf(abi.CodeInvalidRequest, "target %s (%s) is outside the approved scope; add its origin or file root", t.ID, devtools.RedactURL(t.URL)).
			WithDetail("field", "target_id").WithDetail("reason", "target_out_of_scope")
	}
	var workers []devtools.Target
	for _, w := range all {
		if w.Type == "worker" || w.Type == "service_worker" || w.Type == "shared_worker" {
			if sc.kind == RuntimeBrowser || sc.underRoot(w.URL) {
				workers = append(workers, w)
			}
		}
	}
	s, err := devtools.Attach(ctx, t)
	if err != nil {
		return nil, devtools.Target{}, nil, err
	}
	return s, t, workers, nil
}

func listName(kind RuntimeKind) string {
	switch kind {
	case RuntimeBrowser:
		return "browser"
	case RuntimeElectron:
		return "electron"
	}
	return "javascript_runtime"
}

func runtimeProvider(kind RuntimeKind) evidence.Provider {
	v := "1"
	if kind == RuntimeNode {
		return evidence.Provider{ID: "rea.v8-inspector", Name: "rea V8 inspector observer", Version: &v}
	}
	return evidence.Provider{ID: "rea.cdp-" + string(kind), Name: "rea DevTools observer", Version: &v}
}

func runtimeEvidence(kind RuntimeKind, operation string, params any, result any, limitations []string) (evidence.Record, error) {
	return evidence.New(evidence.Draft{
		Provider:         runtimeProvider(kind),
		PredicateType:    "rea.runtime-observation/v1",
		Operation:        operation,
		Parameters:       params,
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceObserved,
		Authority:        evidence.AuthorityExternalService,
		Environment: &evidence.Environment{ID: "rea.devtools/loopback", Platform: runtime.GOOS,
			Architecture: goArchitecture(), Isolation: "process"},
		Limitations: limitations,
	})
}

// redactedRuntimeParams is what Evidence records of a request.
func redactedRuntimeParams(req RuntimeTargetRequest) map[string]any {
	p := map[string]any{"cdp_endpoint": req.CDPEndpoint, "target_id": req.TargetID}
	if len(req.AllowedOrigins) > 0 {
		p["allowed_origins"] = req.AllowedOrigins
	}
	if len(req.AllowedFileRoots) > 0 {
		p["allowed_file_roots"] = req.AllowedFileRoots
	}
	if req.ObservationMS > 0 {
		p["observation_ms"] = req.ObservationMS
	}
	if req.MaxTimelineEvents > 0 {
		p["max_timeline_events"] = req.MaxTimelineEvents
	}
	return p
}

func runtimeLimits(req RuntimeTargetRequest) (devtools.Limits, error) {
	if req.ObservationMS < 0 || time.Duration(req.ObservationMS)*time.Millisecond > devtools.MaxDuration {
		return devtools.Limits{}, abi.Errorf(abi.CodeInvalidRequest, "observation_ms must be 1..%d", devtools.MaxDuration.Milliseconds()).WithDetail("field", "observation_ms")
	}
	if req.MaxTimelineEvents < 0 || req.MaxTimelineEvents > devtools.MaxMaxEvents {
		return devtools.Limits{}, abi.Errorf(abi.CodeInvalidRequest, "max_timeline_events must be 1..%d", devtools.MaxMaxEvents).WithDetail("field", "max_timeline_events")
	}
	return devtools.Limits{Duration: time.Duration(req.ObservationMS) * time.Millisecond, MaxEvents: req.MaxTimelineEvents, MaxScripts: req.MaxScripts}.WithDefaults(), nil
}

// RuntimeResult is the Evidence of a runtime call.
type RuntimeResult struct {
	Evidence evidence.Record
}

// InspectRuntimePage inventories a browser or Electron page passively
// (inspect_web_page, inspect_electron_page).
func (a *App) InspectRuntimePage(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	l, err := runtimeLimits(req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s, t, workers, err := a.attachInScope(ctx, kind, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	reportPhase(progress, "inspect", 1, 2)
	ins, err := devtools.Inspect(ctx, s, t, workers, l)
	if err != nil {
		return nil, runtimeCallError(ctx, err)
	}
	reportPhase(progress, "inspect", 2, 2)
	op := "inspect_web_page"
	if kind == RuntimeElectron {
		op = "inspect_electron_page"
	}
	rec, err := runtimeEvidence(kind, op, redactedRuntimeParams(req), ins, ins.Limitations)
	if err != nil {
		return nil, err
	}
	return &RuntimeResult{Evidence: rec}, nil
}

// ObserveRuntime records a bounded timeline of a page (observe_web_session)
// or a Node inspector target with its scripts (observe_javascript_runtime).
func (a *App) ObserveRuntime(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	l, err := runtimeLimits(req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, l.Duration+60*time.Second)
	defer cancel()
	s, t, _, err := a.attachInScope(ctx, kind, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if sc, err := newScope(kind, req); err == nil && kind != RuntimeNode {
		l.InScope = sc.allowsURL
	}
	obs, err := devtools.Observe(ctx, s, t, l, kind == RuntimeNode, progress)
	if err != nil {
		return nil, runtimeCallError(ctx, err)
	}
	op := "observe_web_session"
	if kind == RuntimeNode {
		op = "observe_javascript_runtime"
	}
	rec, err := runtimeEvidence(kind, op, redactedRuntimeParams(req), obs, obs.Limitations)
	if err != nil {
		return nil, err
	}
	return &RuntimeResult{Evidence: rec}, nil
}

// ScreenshotResult is what capture_web_screenshot records.
type ScreenshotResult struct {
	Target devtools.TargetRef `json:"target"`
	SHA256 string             `json:"sha256"`
	Bytes  int                `json:"bytes"`
	Format string             `json:"format"`
	// Path is where the PNG was written (output_dir/SHA256.png), or "".
	Path string `json:"path,omitempty"`
	// PNGBase64 carries the image when no output_dir was given.
	PNGBase64 string `json:"png_base64,omitempty"`
	// DocumentState is the page's document.readyState when the image was
	// taken: a page still loading ("loading", "interactive") may not have
	// painted what it will show, so the screenshot is marked partial.
	DocumentState string   `json:"document_state"`
	Complete      bool     `json:"complete"`
	Limitations   []string `json:"limitations"`
}

// CaptureWebScreenshot captures a page's viewport, content-addressed.
func (a *App) CaptureWebScreenshot(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	if req.MaxImageBytes == 0 {
		req.MaxImageBytes = DefaultImageBytes
	}
	if req.MaxImageBytes < 1 || req.MaxImageBytes > MaxImageBytes {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "maximum_image_bytes must be 1..%d", MaxImageBytes).WithDetail("field", "maximum_image_bytes")
	}
	if req.OutputDir != "" && !filepath.IsAbs(req.OutputDir) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "output_dir: %q is not an absolute path", req.OutputDir).WithDetail("field", "output_dir")
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s, t, _, err := a.attachInScope(ctx, kind, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// The state is read before the image: "complete" then means the page
	// had loaded before it was painted.
	state := devtools.DocumentState(ctx, s)
	png, err := devtools.Screenshot(ctx, s, t, req.MaxImageBytes)
	if err != nil {
		return nil, runtimeCallError(ctx, err)
	}
	sum := sha256.Sum256(png)
	res := &ScreenshotResult{Target: t.Ref(), SHA256: hex.EncodeToString(sum[:]), Bytes: len(png), Format: "png",
		DocumentState: state, Complete: true, Limitations: []string{}}
	if state != "complete" {
		res.Complete = false
		res.Limitations = append(res.Limitations, fmt.Sprintf("the page had not finished loading (document.readyState %q): the image may not show what it will once loaded — capture it again once it has loaded", state))
	}
	if req.OutputDir != "" {
		path := filepath.Join(req.OutputDir, res.SHA256+".png")
		if err := writeNewFile(path, png); err != nil {
			return nil, err
		}
		res.Path = path
	} else {
		res.PNGBase64 = base64.StdEncoding.EncodeToString(png)
	}
	rec, err := runtimeEvidence(kind, "capture_web_screenshot", redactedRuntimeParams(req), res, res.Limitations)
	if err != nil {
		return nil, err
	}
	return &RuntimeResult{Evidence: rec}, nil
}

// writeNewFile writes a content-addressed file; one already there with the
// same name holds the same bytes.
func writeNewFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if os.IsExist(err) {
		return nil
	}
	if err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "output_dir: cannot write %s: %v", path, err).WithDetail("field", "output_dir")
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return abi.Errorf(abi.CodeInvalidRequest, "output_dir: cannot write %s: %v", path, err).WithDetail("field", "output_dir")
	}
	return f.Close()
}

// WebMCPResult is what discover_webmcp_tools records.
type WebMCPResult struct {
	Target    devtools.TargetRef    `json:"target"`
	Tools     []devtools.WebMCPTool `json:"tools"`
	Truncated bool                  `json:"truncated"`
	// APIEnabled is false when the page has no WebMCP interface at all (the
	// browser runs with the API off), so zero tools is not a finding.
	APIEnabled bool `json:"api_enabled"`
}

// Defaults of discover_webmcp_tools.
const (
	DefaultWebMCPTools       = 200
	DefaultWebMCPSchemaBytes = 16 << 10
)

// DiscoverWebMCPTools lists the tools a page registered through WebMCP,
// never invoking one.
func (a *App) DiscoverWebMCPTools(ctx context.Context, req RuntimeTargetRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	if req.MaxTools == 0 {
		req.MaxTools = DefaultWebMCPTools
	}
	if req.MaxSchemaBytes == 0 {
		req.MaxSchemaBytes = DefaultWebMCPSchemaBytes
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s, t, _, err := a.attachInScope(ctx, RuntimeBrowser, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	tools, truncated, err := devtools.WebMCPTools(ctx, s, t, devtools.Limits{}, req.MaxTools, req.MaxSchemaBytes)
	if err != nil {
		return nil, runtimeCallError(ctx, err)
	}
	if tools == nil {
		tools = []devtools.WebMCPTool{}
	}
	var lim []string
	if truncated {
		lim = append(lim, fmt.Sprintf("more than max_tools=%d tools; the first listed", req.MaxTools))
	}
	enabled := len(tools) > 0
	if !enabled {
		if enabled, err = devtools.WebMCPInterface(ctx, s); err != nil {
			return nil, runtimeCallError(ctx, err)
		}
	}
	if !enabled {
		lim = append(lim, "the page has no WebMCP interface (document.modelContext): the browser runs with WebMCP off, so zero tools does not mean the page registers none; "+
			"start Chromium with --enable-blink-features=WebMCPTesting to list them")
	}
	rec, err := runtimeEvidence(RuntimeBrowser, "discover_webmcp_tools", redactedRuntimeParams(req), WebMCPResult{Target: t.Ref(), Tools: tools, Truncated: truncated, APIEnabled: enabled}, lim)
	if err != nil {
		return nil, err
	}
	return &RuntimeResult{Evidence: rec}, nil
}

// runtimeCallError maps a context end to rea's vocabulary.
func runtimeCallError(ctx context.Context, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		return abi.Errorf(abi.CodeResourceConstraint, "the target did not answer in time; it may be busy or paused in a debugger").WithDetail("resource", "deadline")
	}
	if ctx.Err() != nil {
		return abi.Errorf(abi.CodeCancelled, "cancelled")
	}
	return err
}

func reportPhase(progress func(abi.Progress), phase string, done, total int64) {
	if progress != nil {
		progress(abi.Progress{Phase: phase, Done: done, Total: total})
	}
}
