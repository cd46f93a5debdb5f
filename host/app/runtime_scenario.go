package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"time"

	"rea/abi"
	"rea/host/devtools"
	"rea/host/evidence"
)

// ScenarioRequest is a scripted run of a browser (or an Electron app) that
// rea launches and owns: a start page, a fixed vocabulary of actions, and
// the bounds of the run.
type ScenarioRequest struct {
	StartURL          string            `json:"start_url"`
	AllowedOrigins    []string          `json:"allowed_origins"`
	AllowedFileRoots  []string          `json:"allowed_file_roots"`
	Actions           []devtools.Action `json:"actions"`
	MaxDurationMS     int               `json:"max_duration_ms"`
	MaxTimelineEvents int               `json:"max_timeline_events"`
	Screenshot        bool              `json:"screenshot"`
	// Electron: the executable to launch, the application it opens, and
	// extra arguments.
	ExecutablePath  string   `json:"executable_path"`
	ApplicationPath string   `json:"application_path"`
	Args            []string `json:"args"`
}

// Scenario bounds.
const (
	DefaultScenarioMS  = 30_000
	MaxScenarioMS      = 60_000
	MaxScenarioActions = 20
	launchDeadline     = 30 * time.Second
)

// ScenarioCapture is what a scenario records.
type ScenarioCapture struct {
	Browser     string                  `json:"browser"`
	StartURL    string                  `json:"start_url,omitempty"`
	Actions     []devtools.ActionResult `json:"actions"`
	Timeline    *devtools.Observation   `json:"timeline"`
	FinalPage   *devtools.Inspection    `json:"final_page,omitempty"`
	Screenshot  string                  `json:"screenshot_sha256,omitempty"`
	Cleanup     devtools.Cleanup        `json:"cleanup"`
	Complete    bool                    `json:"complete"`
	Limitations []string                `json:"limitations"`
}

func (req ScenarioRequest) validate(kind RuntimeKind) (scope, error) {
	if len(req.Actions) > MaxScenarioActions {
		return scope{}, abi.Errorf(abi.CodeInvalidRequest, "actions: at most %d", MaxScenarioActions).WithDetail("field", "actions")
	}
	if req.MaxDurationMS < 0 || req.MaxDurationMS > MaxScenarioMS {
		return scope{}, abi.Errorf(abi.CodeInvalidRequest, "max_duration_ms must be 1..%d", MaxScenarioMS).WithDetail("field", "max_duration_ms")
	}
	treq := RuntimeTargetRequest{AllowedOrigins: req.AllowedOrigins, AllowedFileRoots: req.AllowedFileRoots}
	if kind == RuntimeElectron {
		if !filepath.IsAbs(req.ExecutablePath) {
			return scope{}, abi.Errorf(abi.CodeInvalidRequest, "executable_path: give the absolute path of the Electron executable").WithDetail("field", "executable_path")
		}
		if req.ApplicationPath != "" {
			if !filepath.IsAbs(req.ApplicationPath) {
				return scope{}, abi.Errorf(abi.CodeInvalidRequest, "application_path: %q is not absolute", req.ApplicationPath).WithDetail("field", "application_path")
			}
			if len(treq.AllowedFileRoots) == 0 {
				treq.AllowedFileRoots = []string{req.ApplicationPath}
			}
		}
	}
	sc, err := newScope(kind, treq)
	if err != nil {
		return scope{}, err
	}
	inScope := func(field, raw string) error {
		if !sc.allows(devtools.Target{Type: "page", URL: raw}) {
			return abi.Errorf(abi.CodeInvalidRequest, "%s: %q is outside the approved scope (%s)", field, raw, map[bool]string{true: "allowed_origins", false: "allowed_file_roots"}[kind == RuntimeBrowser]).WithDetail("field", field)
		}
		return nil
	}
	if kind == RuntimeBrowser {
		if err := inScope("start_url", req.StartURL); err != nil {
			return scope{}, err
		}
	}
	for i, a := range req.Actions {
		field := fmt.Sprintf("actions[%d]", i)
		switch a.Action {
		case "navigate":
			if _, err := url.Parse(a.URL); err != nil || a.URL == "" {
				return scope{}, abi.Errorf(abi.CodeInvalidRequest, "%s.url: give the URL to load", field).WithDetail("field", field+".url")
			}
			if err := inScope(field+".url", a.URL); err != nil {
				return scope{}, err
			}
		case "click", "wait_for", "type":
			if a.Selector == "" {
				return scope{}, abi.Errorf(abi.CodeInvalidRequest, "%s.selector: give a CSS selector", field).WithDetail("field", field+".selector")
			}
		case "wait":
			if a.MS < 1 || a.MS > MaxScenarioMS {
				return scope{}, abi.Errorf(abi.CodeInvalidRequest, "%s.ms must be 1..%d", field, MaxScenarioMS).WithDetail("field", field+".ms")
			}
		default:
			return scope{}, abi.Errorf(abi.CodeInvalidRequest, "%s.action %q is not navigate, click, type, wait or wait_for", field, a.Action).WithDetail("field", field+".action")
		}
	}
	return sc, nil
}

// CaptureScenario launches a browser (capture_browser_scenario) or the
// Electron executable the caller names (capture_electron_scenario) with a
// DevTools port rea owns, runs the actions while recording the timeline,
// inventories the final page, and ends the whole process group and its
// profile folder whatever happened.
func (a *App) CaptureScenario(ctx context.Context, kind RuntimeKind, req ScenarioRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	sc, err := req.validate(kind)
	if err != nil {
		return nil, err
	}
	if req.MaxDurationMS == 0 {
		req.MaxDurationMS = DefaultScenarioMS
	}
	budget := time.Duration(req.MaxDurationMS) * time.Millisecond
	ctx, cancel := context.WithTimeout(ctx, budget+launchDeadline+30*time.Second)
	defer cancel()
	exe, args := req.ExecutablePath, append([]string{}, req.Args...)
	if kind == RuntimeBrowser {
		if exe, err = devtools.FindChromium(); err != nil {
			return nil, err
		}
		args = append(devtools.ChromiumArgs(), "about:blank")
	} else if req.ApplicationPath != "" {
		args = append(args, req.ApplicationPath)
	}
	reportPhase(progress, "launch", 0, 4)
	owned, err := devtools.Launch(ctx, exe, args, launchDeadline)
	if err != nil {
		return nil, err
	}
	res := &ScenarioCapture{Browser: filepath.Base(exe), StartURL: devtools.RedactURL(req.StartURL), Actions: []devtools.ActionResult{}, Complete: true, Limitations: []string{}}
	closed := false
	finish := func() {
		if !closed {
			closed = true
			res.Cleanup = owned.Close()
		}
	}
	defer finish()
	note := func(format string, args ...any) {
		res.Complete = false
		res.Limitations = append(res.Limitations, fmt.Sprintf(format, args...))
	}

	t, err := a.firstPage(ctx, owned.Endpoint, kind, sc)
	if err != nil {
		return nil, err
	}
	s, err := devtools.Attach(ctx, t)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	start := time.Now()
	stop, ready := make(chan struct{}), make(chan struct{})
	obsDone := make(chan struct {
		obs *devtools.Observation
		err error
	}, 1)
	go func() {
		o, err := devtools.Observe(ctx, s, t, devtools.Limits{Duration: budget, MaxEvents: req.MaxTimelineEvents, Stop: stop, Ready: ready}, false, nil)
		obsDone <- struct {
			obs *devtools.Observation
			err error
		}{o, err}
	}()
	select {
	case <-ready:
	case r := <-obsDone:
		return nil, runtimeCallError(ctx, r.err)
	}
	reportPhase(progress, "actions", 1, 4)
	remaining := func() time.Duration { return budget - time.Since(start) }
	if kind == RuntimeBrowser {
		if err := devtools.Navigate(ctx, s, req.StartURL, min(remaining(), 20*time.Second)); err != nil {
			note("start_url: %v", err)
		}
	}
	for i, act := range req.Actions {
		r := devtools.ActionResult{Index: i, Action: act.Action, Status: "ok", AtMS: time.Since(start).Milliseconds()}
		left := remaining()
		if left <= 0 {
			r.Status, r.Error = "skipped", "max_duration_ms reached"
			note("action %d (%s) skipped: max_duration_ms reached", i, act.Action)
			res.Actions = append(res.Actions, r)
			continue
		}
		timeout := min(left, 20*time.Second)
		if act.TimeoutMS > 0 {
			timeout = min(left, time.Duration(act.TimeoutMS)*time.Millisecond)
		}
		var err error
		switch act.Action {
		case "navigate":
			err = devtools.Navigate(ctx, s, act.URL, timeout)
		case "click":
			err = devtools.Click(ctx, s, act.Selector)
		case "type":
			err = devtools.Type(ctx, s, act.Selector, act.Text)
		case "wait":
			select {
			case <-time.After(min(left, time.Duration(act.MS)*time.Millisecond)):
			case <-ctx.Done():
				err = ctx.Err()
			}
		case "wait_for":
			err = devtools.WaitFor(ctx, s, act.Selector, timeout)
		}
		if err != nil {
			r.Status, r.Error = "failed", err.Error()
			note("action %d (%s) failed: %v", i, act.Action, err)
		}
		res.Actions = append(res.Actions, r)
	}
	reportPhase(progress, "final page", 2, 4)
	if ins, err := devtools.Inspect(ctx, s, t, nil, devtools.Limits{}); err == nil {
		res.FinalPage = ins
	} else {
		note("final page not inspected: %v", err)
	}
	if req.Screenshot {
		if png, err := devtools.Screenshot(ctx, s, t, DefaultImageBytes); err == nil {
			sum := sha256.Sum256(png)
			res.Screenshot = hex.EncodeToString(sum[:])
		} else {
			note("screenshot not taken: %v", err)
		}
	}
	close(stop)
	r := <-obsDone
	if r.err != nil {
		note("timeline: %v", r.err)
	} else {
		res.Timeline = r.obs
		if !r.obs.Complete {
			res.Complete = false
			res.Limitations = append(res.Limitations, r.obs.Limitations...)
		}
	}
	reportPhase(progress, "cleanup", 3, 4)
	s.Close()
	finish()
	if !res.Cleanup.ProcessGroupKilled || !res.Cleanup.ProfileRemoved {
		return nil, abi.Errorf(abi.CodeCleanupIncomplete, "the launched browser was not fully cleaned up: %s", res.Cleanup.Error).WithDetail("cleanup", res.Cleanup)
	}
	op := "capture_browser_scenario"
	if kind == RuntimeElectron {
		op = "capture_electron_scenario"
	}
	params := map[string]any{"start_url": devtools.RedactURL(req.StartURL), "actions": len(req.Actions), "max_duration_ms": req.MaxDurationMS}
	if kind == RuntimeElectron {
		params["executable_path"], params["application_path"] = req.ExecutablePath, req.ApplicationPath
	}
	rec, err := evidence.New(evidence.Draft{
		Provider:         runtimeProvider(kind),
		PredicateType:    "rea.runtime-scenario/v1",
		Operation:        op,
		Parameters:       params,
		NormalizedResult: res,
		Confidence:       evidence.ConfidenceObserved,
		Authority:        evidence.AuthorityControlledReplay,
		Environment: &evidence.Environment{ID: "rea.devtools/owned-browser", Platform: runtime.GOOS,
			Architecture: goArchitecture(), Isolation: "process"},
		Limitations: res.Limitations,
	})
	if err != nil {
		return nil, err
	}
	reportPhase(progress, "done", 4, 4)
	return &RuntimeResult{Evidence: rec}, nil
}

// firstPage waits for the launched program's first page target in scope
// (for a browser, its about:blank).
func (a *App) firstPage(ctx context.Context, ep devtools.Endpoint, kind RuntimeKind, sc scope) (devtools.Target, error) {
	deadline := time.Now().Add(launchDeadline)
	for {
		targets, _, err := devtools.ListTargets(ctx, ep, endpointTimeout)
		if err != nil {
			return devtools.Target{}, err
		}
		for _, t := range targets {
			if t.Type == "page" && (kind == RuntimeBrowser && t.URL == "about:blank" || kind != RuntimeBrowser && sc.allows(t)) {
				return t, nil
			}
		}
		if time.Now().After(deadline) {
			return devtools.Target{}, abi.Errorf(abi.CodeCapabilityUnavailable, "the launched program opened no page in scope within %s", launchDeadline).WithDetail("field", "allowed_file_roots")
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return devtools.Target{}, ctx.Err()
		}
	}
}
