package app

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"rea/abi"
	"rea/host/devtools"
	"rea/host/evidence"
)

// ReconciledFact is one static or runtime fact and whether the other side
// saw it too.
type ReconciledFact struct {
	Kind   string `json:"kind"` // bridge-key, window-load, script, ipc-channel
	Value  string `json:"value"`
	Status string `json:"status"` // confirmed, static-only, runtime-only, not-observable
	// StaticAt is the fact's location in the application, when static.
	StaticAt string `json:"static_at,omitempty"`
	// RuntimeEvidence names the runtime Evidence that saw it, and the target.
	RuntimeEvidence string `json:"runtime_evidence_id,omitempty"`
	Target          string `json:"target_id,omitempty"`
}

// Reconciliation is what reconcile_javascript_runtime records.
type Reconciliation struct {
	StaticEvidence  string           `json:"static_evidence_id"`
	RuntimeEvidence []string         `json:"runtime_evidence_ids"`
	Facts           []ReconciledFact `json:"facts"`
	Counts          map[string]int   `json:"counts"`
	Limitations     []string         `json:"limitations"`
}

// runtimeOperations are the Evidence reconcile reads on the runtime side.
var runtimeOperations = map[string]bool{"inspect_web_page": true, "inspect_electron_page": true, "observe_web_session": true, "observe_javascript_runtime": true,
	"capture_browser_scenario": true, "capture_electron_scenario": true}

// ReconcileJavaScriptRuntime joins an application's static analysis with
// runtime observations: each bridge key, window load and script is
// confirmed (both sides), static-only or runtime-only. IPC messages do not
// cross the DevTools protocol, so channels are listed as not observable.
func (a *App) ReconcileJavaScriptRuntime(static evidence.Record, runtimes []evidence.Record) (evidence.Record, error) {
	if static.Operation != "analyze_javascript_application" {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "static: %s is %s Evidence; give analyze_javascript_application Evidence", static.EvidenceID, static.Operation).WithDetail("field", "static")
	}
	if len(runtimes) == 0 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "runtime_observations: give at least one inspect_electron_page, inspect_web_page, observe_web_session or observe_javascript_runtime Evidence").WithDetail("field", "runtime_observations")
	}
	var an ApplicationAnalysis
	if err := json.Unmarshal(static.NormalizedResult, &an); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "static: not an application analysis: %v", err).WithDetail("field", "static")
	}
	type seen struct{ ev, target string }
	globals := map[string]seen{}
	pages := map[string]seen{} // URL path → where
	scripts := map[string]seen{}
	res := Reconciliation{StaticEvidence: static.EvidenceID, Facts: []ReconciledFact{}, Counts: map[string]int{}, Limitations: []string{}}
	for i, rec := range runtimes {
		if !runtimeOperations[rec.Operation] {
			return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "runtime_observations[%d]: %s is %s Evidence, not a runtime observation", i, rec.EvidenceID, rec.Operation).WithDetail("field", fmt.Sprintf("runtime_observations[%d]", i))
		}
		res.RuntimeEvidence = append(res.RuntimeEvidence, rec.EvidenceID)
		type page struct {
			Target         devtools.TargetRef `json:"target"`
			ExposedGlobals []devtools.Global  `json:"exposed_globals"`
			Scripts        []devtools.Script  `json:"scripts"`
			Complete       bool               `json:"complete"`
		}
		var body page
		var scenario struct {
			FinalPage *page `json:"final_page"`
			Complete  bool  `json:"complete"`
		}
		err := json.Unmarshal(rec.NormalizedResult, &body)
		if err == nil && (rec.Operation == "capture_browser_scenario" || rec.Operation == "capture_electron_scenario") {
			if err = json.Unmarshal(rec.NormalizedResult, &scenario); err == nil {
				if scenario.FinalPage == nil {
					res.Limitations = append(res.Limitations, fmt.Sprintf("scenario Evidence %s has no final page inventory", rec.EvidenceID))
					continue
				}
				body = *scenario.FinalPage
				body.Complete = body.Complete && scenario.Complete
			}
		}
		if err != nil {
			return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "runtime_observations[%d]: %v", i, err).WithDetail("field", fmt.Sprintf("runtime_observations[%d]", i))
		}
		if !body.Complete {
			res.Limitations = append(res.Limitations, fmt.Sprintf("runtime Evidence %s is partial; runtime-only and static-only verdicts may miss what it did not see", rec.EvidenceID))
		}
		at := seen{rec.EvidenceID, body.Target.ID}
		for _, g := range body.ExposedGlobals {
			if _, ok := globals[g.Name]; !ok {
				globals[g.Name] = at
			}
		}
		if p := urlPath(body.Target.URL); p != "" {
			if _, ok := pages[p]; !ok {
				pages[p] = at
			}
		}
		for _, s := range body.Scripts {
			if p := urlPath(s.URL); p != "" && !s.Inline {
				if _, ok := scripts[p]; !ok {
					scripts[p] = at
				}
			}
		}
	}
	add := func(f ReconciledFact) {
		res.Facts = append(res.Facts, f)
		res.Counts[f.Status]++
	}
	r := an.Application
	usedGlobals := map[string]bool{}
	for _, api := range r.ContextBridge {
		if api.KeyState != "literal" && api.KeyState != "constant" && api.KeyState != "" {
			continue
		}
		f := ReconciledFact{Kind: "bridge-key", Value: api.Key, StaticAt: fmt.Sprintf("%s:%d:%d", api.Location.File, api.Location.Line, api.Location.Column), Status: "static-only"}
		if s, ok := globals[api.Key]; ok {
			f.Status, f.RuntimeEvidence, f.Target = "confirmed", s.ev, s.target
			usedGlobals[api.Key] = true
		}
		add(f)
	}
	for _, name := range sortedKeysOf(globals) {
		if !usedGlobals[name] {
			s := globals[name]
			add(ReconciledFact{Kind: "bridge-key", Value: name, Status: "runtime-only", RuntimeEvidence: s.ev, Target: s.target})
		}
	}
	usedPages := map[string]bool{}
	for _, w := range r.Windows {
		for _, l := range w.Loads {
			target := l.Resolved
			if target == "" {
				target = l.Target
			}
			f := ReconciledFact{Kind: "window-load", Value: target, StaticAt: fmt.Sprintf("%s:%d:%d", l.Location.File, l.Location.Line, l.Location.Column), Status: "static-only"}
			if p, s, ok := matchPath(target, pages); ok {
				f.Status, f.RuntimeEvidence, f.Target = "confirmed", s.ev, s.target
				usedPages[p] = true
			}
			add(f)
		}
	}
	for _, p := range sortedKeysOf(pages) {
		if !usedPages[p] {
			add(ReconciledFact{Kind: "window-load", Value: p, Status: "runtime-only", RuntimeEvidence: pages[p].ev, Target: pages[p].target})
		}
	}
	usedScripts := map[string]bool{}
	for _, doc := range r.HTML {
		for _, s := range doc.Scripts {
			if s.Inline || s.Remote {
				continue
			}
			target := s.Resolved
			if target == "" {
				target = s.Src
			}
			f := ReconciledFact{Kind: "script", Value: target, StaticAt: fmt.Sprintf("%s:%d:%d", s.Location.File, s.Location.Line, s.Location.Column), Status: "static-only"}
			if p, rs, ok := matchPath(target, scripts); ok {
				f.Status, f.RuntimeEvidence, f.Target = "confirmed", rs.ev, rs.target
				usedScripts[p] = true
			}
			add(f)
		}
	}
	for _, p := range sortedKeysOf(scripts) {
		if !usedScripts[p] {
			add(ReconciledFact{Kind: "script", Value: p, Status: "runtime-only", RuntimeEvidence: scripts[p].ev, Target: scripts[p].target})
		}
	}
	channels := map[string]string{}
	for _, op := range r.IPC {
		if op.Channel != "" {
			if _, ok := channels[op.Channel]; !ok {
				channels[op.Channel] = fmt.Sprintf("%s:%d:%d", op.Location.File, op.Location.Line, op.Location.Column)
			}
		}
	}
	for _, ch := range sortedKeysOf(channels) {
		add(ReconciledFact{Kind: "ipc-channel", Value: ch, Status: "not-observable", StaticAt: channels[ch]})
	}
	if len(channels) > 0 {
		res.Limitations = append(res.Limitations, "IPC messages travel between Electron's processes, not over the DevTools protocol: channels are not-observable in page or inspector observations")
	}
	sort.SliceStable(res.Facts, func(i, j int) bool {
		if res.Facts[i].Kind != res.Facts[j].Kind {
			return res.Facts[i].Kind < res.Facts[j].Kind
		}
		return res.Facts[i].Value < res.Facts[j].Value
	})
	links := append([]string{static.EvidenceID}, res.RuntimeEvidence...)
	v := "1"
	return evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: "rea.runtime-reconcile", Name: "rea runtime reconciliation", Version: &v},
		PredicateType:    "rea.runtime-reconciliation/v1",
		Operation:        "reconcile_javascript_runtime",
		Parameters:       map[string]any{"static": static.EvidenceID, "runtime_observations": res.RuntimeEvidence},
		NormalizedResult: res,
		Confidence:       evidence.ConfidenceDerived,
		Authority:        evidence.AuthorityExternalService,
		Limitations:      res.Limitations,
		EvidenceLinks:    links,
	})
}

func sortedKeysOf[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// urlPath is the path of a file:// or http(s) URL, "" for others.
func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" || u.Path == "/" {
		return ""
	}
	switch u.Scheme {
	case "file", "http", "https":
		return path.Clean(u.Path)
	}
	return ""
}

// matchPath finds the runtime path a static target names: an app-relative
// path matches a runtime path ending in it at a segment boundary; a URL
// matches by its path the same way.
func matchPath[T any](target string, runtime map[string]T) (string, T, bool) {
	var zero T
	t := target
	if p := urlPath(target); p != "" {
		t = p
	}
	t = strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(t, "./")), "/")
	if t == "" || t == "." {
		return "", zero, false
	}
	for _, p := range sortedKeysOf(runtime) {
		if p == "/"+t || strings.HasSuffix(p, "/"+t) {
			return p, runtime[p], true
		}
	}
	return "", zero, false
}
