package devtools

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domstorage"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"

	"rea/abi"
)

// windowBaseline lists the global property names of an empty Chromium page
// (about:blank); a page's own globals — a contextBridge key, Node's
// require — are the names outside it.
//
//go:embed window_baseline.txt
var windowBaseline string

// Limits bound one observation.
type Limits struct {
	// Duration of a timed observation (observe_*), at most MaxDuration.
	Duration time.Duration
	// MaxEvents of the timeline; the rest are counted, not kept.
	MaxEvents int
	// MaxScripts whose source is read for its digest.
	MaxScripts int
	// MaxScriptBytes is the total of script source read.
	MaxScriptBytes int64
	// MaxTextBytes bounds one console message or URL kept.
	MaxTextBytes int
	// MaxGlobals bounds the exposed global names listed.
	MaxGlobals int
	// Settle is how long to wait for replayed events (scripts already
	// parsed) after enabling a domain.
	Settle time.Duration
	// Stop, when closed, ends a timed observation before its duration
	// (a scenario's actions are done); it ends as "stopped".
	Stop <-chan struct{}
	// Ready, when set, is closed once the observed domains are enabled.
	Ready chan<- struct{}
	// InScope, when set, says whether a URL is in the approved scope; a
	// top-frame navigation out of it ends the observation, so nothing of
	// a page the user did not approve is recorded.
	InScope func(url string) bool
}

// FirstAnswer is how long a target may take to answer its first call.
const FirstAnswer = 30 * time.Second

// Defaults and maxima of the limits.
const (
	DefaultDuration       = 3 * time.Second
	MaxDuration           = 60 * time.Second
	DefaultMaxEvents      = 500
	MaxMaxEvents          = 10_000
	DefaultMaxScripts     = 200
	DefaultMaxScriptBytes = 32 << 20
	DefaultMaxTextBytes   = 1024
	DefaultMaxGlobals     = 200
)

// WithDefaults fills unset limits.
func (l Limits) WithDefaults() Limits {
	if l.Duration <= 0 {
		l.Duration = DefaultDuration
	}
	if l.MaxEvents <= 0 {
		l.MaxEvents = DefaultMaxEvents
	}
	if l.MaxScripts <= 0 {
		l.MaxScripts = DefaultMaxScripts
	}
	if l.MaxScriptBytes <= 0 {
		l.MaxScriptBytes = DefaultMaxScriptBytes
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultMaxTextBytes
	}
	if l.MaxGlobals <= 0 {
		l.MaxGlobals = DefaultMaxGlobals
	}
	if l.Settle <= 0 {
		l.Settle = 300 * time.Millisecond
	}
	return l
}

// Script is one script the target has parsed.
type Script struct {
	ScriptID     string `json:"script_id"`
	URL          string `json:"url"`
	Inline       bool   `json:"inline"`
	Module       bool   `json:"module"`
	SHA256       string `json:"sha256,omitempty"`
	Bytes        int    `json:"bytes"`
	SourceMapURL string `json:"source_map_url,omitempty"`
	// NotRead says why the source was not read (limits, an error).
	NotRead string `json:"not_read,omitempty"`
	// Source is kept only for analysis (analyze_web_bundle) and never
	// written into Evidence.
	Source string `json:"-"`
}

// Frame is one frame of a page.
type Frame struct {
	ID       string `json:"id"`
	ParentID string `json:"parent_id,omitempty"`
	URL      string `json:"url"`
	Origin   string `json:"security_origin,omitempty"`
}

// Global is one property of the page's global object that an empty page
// does not have.
type Global struct {
	Name string `json:"name"`
	Type string `json:"type"` // object, function, accessor, …
}

// Inspection is a passive inventory of one page.
type Inspection struct {
	Target         TargetRef      `json:"target"`
	Frames         []Frame        `json:"frames"`
	Elements       map[string]int `json:"elements"`
	CSP            []string       `json:"csp_meta"`
	Scripts        []Script       `json:"scripts"`
	ExposedGlobals []Global       `json:"exposed_globals"`
	Storage        map[string]int `json:"storage_keys"`
	Workers        []TargetRef    `json:"workers"`
	// DocumentState is the page's document.readyState when it was read:
	// "loading" or "interactive" means frames and elements may still grow,
	// and the inspection is marked partial.
	DocumentState string   `json:"document_state"`
	Complete      bool     `json:"complete"`
	Limitations   []string `json:"limitations"`
}

// TargetRef names a target in results, its URL redacted.
type TargetRef struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Ref is the target as results name it.
func (t Target) Ref() TargetRef {
	return TargetRef{ID: t.ID, Type: t.Type, Title: t.Title, URL: RedactURL(t.URL)}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s + "…"
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// elementQueries are the elements a security reviewer counts.
var elementQueries = []string{"*", "script", "iframe", "webview", "form", "input", "a", "link", "meta", "object", "embed"}

// xpathOf makes a tag an XPath query: DOM.performSearch reads a bare word as
// text to find, not as an element name.
func xpathOf(tag string) string { return "//" + tag }

// Inspect inventories a page without navigating it or running its code:
// frames, element counts, CSP meta tags, parsed scripts with digests, own
// globals beyond an empty page's, storage key counts and workers.
func Inspect(ctx context.Context, s *Session, t Target, workers []Target, l Limits) (*Inspection, error) {
	l = l.WithDefaults()
	ins := &Inspection{Target: t.Ref(), Elements: map[string]int{}, CSP: []string{}, Scripts: []Script{}, ExposedGlobals: []Global{},
		Storage: map[string]int{}, Workers: []TargetRef{}, Frames: []Frame{}, Complete: true, Limitations: []string{}}
	note := func(format string, args ...any) {
		ins.Complete = false
		ins.Limitations = append(ins.Limitations, fmt.Sprintf(format, args...))
	}
	for _, w := range workers {
		ins.Workers = append(ins.Workers, w.Ref())
	}

	origin := ""
	// The document's state before anything is counted: a page still
	// loading gets a partial inventory, said so, rather than a short one
	// that looks complete (read after the counts, a page that finished
	// meanwhile would look whole with frames missed).
	ins.DocumentState = DocumentState(ctx, s)
	if ins.DocumentState != "complete" {
		note("the page had not finished loading (document.readyState %q): frames, elements and scripts may still grow — inspect it again once it has loaded", ins.DocumentState)
	}
	// The first call says whether the target answers at all: a renderer
	// stuck in a script or a layout gets a typed deadline, not a record of
	// nothing.
	pctx, cancel := context.WithTimeout(ctx, FirstAnswer)
	tree, err := cdp.Call(pctx, s, page.GetFrameTree, cdp.Empty{})
	cancel()
	if err != nil && pctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "target %s did not answer within %s (a page busy in a script or layout, or paused in a debugger)", t.ID, FirstAnswer).
			WithDetail("resource", "deadline").WithDetail("field", "target_id")
	}
	if err == nil && tree.FrameTree != nil {
		var walk func(ft *page.FrameTree)
		walk = func(ft *page.FrameTree) {
			if ft == nil || ft.Frame == nil || len(ins.Frames) >= 1000 {
				return
			}
			ins.Frames = append(ins.Frames, Frame{ID: string(ft.Frame.ID), ParentID: string(ft.Frame.ParentID), URL: clip(RedactURL(ft.Frame.URL), l.MaxTextBytes), Origin: ft.Frame.SecurityOrigin})
			for _, c := range ft.ChildFrames {
				walk(c)
			}
		}
		walk(tree.FrameTree)
		if tree.FrameTree.Frame != nil {
			origin = tree.FrameTree.Frame.SecurityOrigin
		}
	} else if detachedErr(err) {
		return nil, detached(t)
	} else {
		note("frames not read: %v", err)
	}

	if doc, err := cdp.Call(ctx, s, dom.GetDocument, dom.GetDocumentParams{}); err == nil && doc.Root != nil {
		for _, q := range elementQueries {
			r, err := cdp.Call(ctx, s, dom.PerformSearch, dom.PerformSearchParams{Query: xpathOf(q)})
			if err != nil {
				note("element count %q not read: %v", q, err)
				continue
			}
			ins.Elements[q] = int(r.ResultCount)
			_, _ = cdp.Call(ctx, s, dom.DiscardSearchResults, dom.DiscardSearchResultsParams{SearchID: r.SearchID})
		}
		metas, err := cdp.Call(ctx, s, dom.QuerySelectorAll, dom.QuerySelectorAllParams{NodeID: doc.Root.NodeID, Selector: "meta[http-equiv]"})
		if err != nil && !detachedErr(err) {
			// The document node is stale when the page replaced its
			// document meanwhile: once more with a fresh one.
			if again, derr := cdp.Call(ctx, s, dom.GetDocument, dom.GetDocumentParams{}); derr == nil && again.Root != nil {
				metas, err = cdp.Call(ctx, s, dom.QuerySelectorAll, dom.QuerySelectorAllParams{NodeID: again.Root.NodeID, Selector: "meta[http-equiv]"})
			}
		}
		if err != nil {
			if detachedErr(err) {
				return nil, detached(t)
			}
			note("CSP meta elements not read: %v", err)
		} else {
			for i, id := range metas.NodeIDs {
				if i == 50 {
					note("more than 50 meta http-equiv elements; the first 50 read")
					break
				}
				attrs, err := cdp.Call(ctx, s, dom.GetAttributes, dom.GetAttributesParams{NodeID: id})
				if err != nil {
					continue
				}
				kv := map[string]string{}
				for j := 0; j+1 < len(attrs.Attributes); j += 2 {
					kv[strings.ToLower(attrs.Attributes[j])] = attrs.Attributes[j+1]
				}
				if strings.EqualFold(kv["http-equiv"], "content-security-policy") {
					ins.CSP = append(ins.CSP, clip(kv["content"], 8192))
				}
			}
		}
	} else if detachedErr(err) {
		return nil, detached(t)
	} else {
		note("DOM not read: %v", err)
	}

	scripts, err := parsedScripts(ctx, s, l)
	if err != nil {
		if detachedErr(err) {
			return nil, detached(t)
		}
		note("scripts not listed: %v", err)
	}
	for _, sc := range scripts {
		if sc.NotRead != "" {
			ins.Complete = false
		}
	}
	if n := countNotRead(scripts); n > 0 {
		ins.Limitations = append(ins.Limitations, fmt.Sprintf("%d scripts listed without their digest (limits max_scripts/max_script_bytes, or the target refused)", n))
	}
	ins.Scripts = scripts

	globals, err := ownGlobals(ctx, s, l)
	if err != nil {
		if detachedErr(err) {
			return nil, detached(t)
		}
		note("global names not read: %v", err)
	} else {
		if len(globals) > l.MaxGlobals {
			note("%d globals beyond an empty page's; the first %d listed (max_globals)", len(globals), l.MaxGlobals)
			globals = globals[:l.MaxGlobals]
		}
		ins.ExposedGlobals = globals
	}

	if origin != "" && origin != "null" && !strings.HasPrefix(origin, "file") {
		for _, local := range []bool{true, false} {
			items, err := cdp.Call(ctx, s, domstorage.GetDOMStorageItems, domstorage.GetDOMStorageItemsParams{StorageID: &domstorage.StorageID{SecurityOrigin: origin, IsLocalStorage: local}})
			key := "session_storage"
			if local {
				key = "local_storage"
			}
			if err != nil {
				note("%s not read: %v", key, err)
				continue
			}
			ins.Storage[key] = len(items.Entries) // names and values are never recorded
		}
	}
	return ins, nil
}

// DocumentState reads document.readyState without side effects; a page
// whose state cannot be read says "unknown".
func DocumentState(ctx context.Context, s *Session) string {
	// A renderer that does not answer must not hold the call past the
	// first-answer deadline; its state is then unknown.
	ctx, cancel := context.WithTimeout(ctx, FirstAnswer)
	defer cancel()
	yes := true
	r, err := cdp.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: "document.readyState", Silent: &yes, ThrowOnSideEffect: &yes, ReturnByValue: &yes, Timeout: 1000})
	if err != nil || r.ExceptionDetails != nil || r.Result == nil {
		return "unknown"
	}
	var state string
	if json.Unmarshal(r.Result.Value, &state) != nil || state == "" {
		return "unknown"
	}
	return clip(state, 32)
}

func countNotRead(scripts []Script) int {
	n := 0
	for _, s := range scripts {
		if s.NotRead != "" {
			n++
		}
	}
	return n
}

func detached(t Target) error {
	return abi.Errorf(abi.CodeCapabilityUnavailable, "target %s closed or navigated away during the call; nothing was recorded — list the targets again", t.ID).
		WithDetail("field", "target_id").WithDetail("reason", "target_detached")
}

// parsedScripts enables the debugger only to receive the scripts the target
// has already parsed (Debugger.enable replays them), reads each one's source
// for its digest within the limits, and disables it again. No breakpoint is
// set and nothing runs.
func parsedScripts(ctx context.Context, s *Session, l Limits) ([]Script, error) {
	events, cancel := s.Subscribe(debugger.ScriptParsed.Method)
	defer cancel()
	if _, err := cdp.Call(ctx, s, debugger.Enable, debugger.EnableParams{}); err != nil {
		return nil, err
	}
	defer func() { _, _ = cdp.Call(context.WithoutCancel(ctx), s, debugger.Disable, cdp.Empty{}) }()
	var parsed []debugger.EventScriptParsed
	timer := time.NewTimer(l.Settle)
	defer timer.Stop()
collect:
	for {
		select {
		case raw, ok := <-events:
			if !ok {
				return nil, ErrDetached
			}
			var ev debugger.EventScriptParsed
			if err := unmarshal(raw, &ev); err == nil {
				parsed = append(parsed, ev)
			}
			timer.Reset(l.Settle / 3)
		case <-timer.C:
			break collect
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	sort.SliceStable(parsed, func(i, j int) bool {
		if parsed[i].URL != parsed[j].URL {
			return parsed[i].URL < parsed[j].URL
		}
		return parsed[i].Hash < parsed[j].Hash
	})
	out := make([]Script, 0, len(parsed))
	var read int64
	for i, ev := range parsed {
		sc := Script{ScriptID: string(ev.ScriptID), URL: clip(RedactURL(ev.URL), l.MaxTextBytes), Module: ev.IsModule, Bytes: int(ev.Length),
			SourceMapURL: clip(RedactURL(ev.SourceMapURL), l.MaxTextBytes), Inline: ev.URL == "" || ev.StartLine > 0 || ev.StartColumn > 0}
		switch {
		case i >= l.MaxScripts:
			sc.NotRead = "max_scripts"
		case ev.Length > 0 && read+ev.Length > l.MaxScriptBytes:
			sc.NotRead = "max_script_bytes"
		default:
			src, err := cdp.Call(ctx, s, debugger.GetScriptSource, debugger.GetScriptSourceParams{ScriptID: ev.ScriptID})
			if err != nil {
				if detachedErr(err) {
					return nil, err
				}
				sc.NotRead = clip(err.Error(), 200)
				break
			}
			read += int64(len(src.ScriptSource))
			sc.SHA256, sc.Bytes, sc.Source = digest(src.ScriptSource), len(src.ScriptSource), src.ScriptSource
		}
		out = append(out, sc)
	}
	// Scripts are identified by content, not by the target's run-time ids,
	// so two inspections of the same page agree.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].URL != out[j].URL {
			return out[i].URL < out[j].URL
		}
		return out[i].SHA256 < out[j].SHA256
	})
	for i := range out {
		out[i].ScriptID = fmt.Sprintf("s%d", i+1)
	}
	return out, nil
}

// ownGlobals reads the names of the global object's own properties through
// Runtime.getProperties. Getting the global object is the one evaluation rea
// makes: the expression globalThis, with V8's side-effect check on, so no
// page code can run.
func ownGlobals(ctx context.Context, s *Session, l Limits) ([]Global, error) {
	yes := true
	g, err := cdp.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: "globalThis", Silent: &yes, ThrowOnSideEffect: &yes, Timeout: 1000, ObjectGroup: "rea"})
	if err != nil {
		return nil, err
	}
	defer func() {
		_, _ = cdp.Call(context.WithoutCancel(ctx), s, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "rea"})
	}()
	if g.ExceptionDetails != nil || g.Result == nil || g.Result.ObjectID == "" {
		return nil, fmt.Errorf("the global object is not readable")
	}
	props, err := cdp.Call(ctx, s, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: g.Result.ObjectID, OwnProperties: &yes, NonIndexedPropertiesOnly: &yes})
	if err != nil {
		return nil, err
	}
	base := map[string]bool{}
	for _, line := range strings.Split(windowBaseline, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			base[line] = true
		}
	}
	var out []Global
	for _, p := range props.Result {
		if p == nil || base[p.Name] || p.Symbol != nil {
			continue
		}
		typ := "accessor"
		if p.Value != nil {
			typ = string(p.Value.Type)
		}
		// Other browser builds add constructors and event-handler slots
		// of their own; those are not the page's.
		if builtinShape(p.Name, typ) {
			continue
		}
		out = append(out, Global{Name: clip(p.Name, l.MaxTextBytes), Type: typ})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Event is one entry of an observation's timeline.
type Event struct {
	AtMS   int64  `json:"at_ms"`
	Kind   string `json:"kind"` // console, exception, request, response, request-failed, navigation, log
	Level  string `json:"level,omitempty"`
	Text   string `json:"text,omitempty"`
	URL    string `json:"url,omitempty"`
	Status int64  `json:"status,omitempty"`
	Method string `json:"method,omitempty"`
	// rawURL is a navigation's unredacted URL, checked against the scope.
	rawURL string
	// top marks a navigation of the target's own (top) frame.
	top bool
}

// Observation is a timed, bounded record of what a target did.
type Observation struct {
	Target        TargetRef      `json:"target"`
	DurationMS    int64          `json:"duration_ms"`
	Events        []Event        `json:"events"`
	Counts        map[string]int `json:"counts"`
	EventsDropped int            `json:"events_dropped"`
	Scripts       []Script       `json:"scripts"`
	Ended         string         `json:"ended"` // duration, stopped, max_events, target_detached, navigated_out_of_scope
	Complete      bool           `json:"complete"`
	Limitations   []string       `json:"limitations"`
}

// Observe records console messages, exceptions, network requests and
// navigations for the duration (or until max_events, cancellation or the
// target's end), reporting progress each second. With scripts it also lists
// the scripts parsed (a Node inspector target). Only the Runtime, Network,
// Page and Log domains are enabled; nothing is evaluated.
func Observe(ctx context.Context, s *Session, t Target, l Limits, scripts bool, progress func(abi.Progress)) (*Observation, error) {
	l = l.WithDefaults()
	obs := &Observation{Target: t.Ref(), Events: []Event{}, Counts: map[string]int{}, Scripts: []Script{}, Complete: true, Limitations: []string{}}
	type feed struct {
		method string
		ch     <-chan []byte
	}
	methods := []string{runtime.ConsoleAPICalled.Method, runtime.ExceptionThrown.Method}
	if t.Type != "node" {
		methods = append(methods, network.RequestWillBeSent.Method, network.ResponseReceived.Method, network.LoadingFailed.Method, page.FrameNavigated.Method)
	}
	merged := make(chan struct {
		method string
		raw    []byte
	}, eventBuffer)
	var cancels []func()
	for _, m := range methods {
		ch, cancel := s.Subscribe(m)
		cancels = append(cancels, cancel)
		go func(m string) {
			for raw := range ch {
				select {
				case merged <- struct {
					method string
					raw    []byte
				}{m, raw}:
				default:
					s.dropped.Add(1)
				}
			}
		}(m)
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	start := time.Now()
	enable := []func() error{
		func() error { _, err := cdp.Call(ctx, s, runtime.Enable, cdp.Empty{}); return err },
	}
	if t.Type != "node" {
		enable = append(enable,
			func() error { _, err := cdp.Call(ctx, s, network.Enable, network.EnableParams{}); return err },
			func() error { _, err := cdp.Call(ctx, s, page.Enable, page.EnableParams{}); return err })
	}
	for _, e := range enable {
		if err := e(); err != nil {
			if detachedErr(err) {
				return nil, detached(t)
			}
			return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "target %s refused observation: %v", t.ID, err).WithDetail("field", "target_id")
		}
	}
	defer func() {
		bg := context.WithoutCancel(ctx)
		_, _ = cdp.Call(bg, s, runtime.Disable, cdp.Empty{})
		if t.Type != "node" {
			_, _ = cdp.Call(bg, s, network.Disable, cdp.Empty{})
			_, _ = cdp.Call(bg, s, page.Disable, cdp.Empty{})
		}
	}()
	if l.Ready != nil {
		close(l.Ready)
	}
	if scripts {
		list, err := parsedScripts(ctx, s, l)
		if err != nil {
			if detachedErr(err) {
				return nil, detached(t)
			}
			obs.Complete = false
			obs.Limitations = append(obs.Limitations, fmt.Sprintf("scripts not listed: %v", err))
		}
		obs.Scripts = list
		if n := countNotRead(list); n > 0 {
			obs.Complete = false
			obs.Limitations = append(obs.Limitations, fmt.Sprintf("%d scripts listed without their digest (limits)", n))
		}
	}
	deadline := time.NewTimer(l.Duration)
	defer deadline.Stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	total := l.Duration.Milliseconds()
	obs.Ended = "duration"
	dropped := 0
	// keep records one event; false ends the observation.
	keep := func(method string, raw []byte) bool {
		e, ok := decodeEvent(method, raw, l)
		if !ok {
			return true
		}
		obs.Counts[e.Kind]++
		if len(obs.Events) >= l.MaxEvents {
			dropped++
			obs.Ended = "max_events"
			return false
		}
		e.AtMS = time.Since(start).Milliseconds()
		if e.Kind == "navigation" && e.top && l.InScope != nil && !l.InScope(e.rawURL) {
			// Keep where it went (its origin only), then stop.
			e.URL = originOf(e.rawURL)
			obs.Events = append(obs.Events, e)
			obs.Ended = "navigated_out_of_scope"
			return false
		}
		obs.Events = append(obs.Events, e)
		return true
	}
loop:
	for {
		select {
		case ev := <-merged:
			if !keep(ev.method, ev.raw) {
				break loop
			}
		case <-tick.C:
			if progress != nil {
				done := time.Since(start).Milliseconds()
				progress(abi.Progress{Phase: "observe", Done: min(done, total), Total: total, Message: "ms observed"})
			}
		case <-deadline.C:
			break loop
		case <-l.Stop:
			obs.Ended = "stopped"
			// What had already arrived when the caller stopped belongs to
			// the window (a request its last action started): kept, not
			// lost. A loaded machine may not have read it yet.
			for drained := false; !drained; {
				select {
				case ev := <-merged:
					if !keep(ev.method, ev.raw) {
						drained = true
					}
				default:
					drained = true
				}
			}
			break loop
		case <-s.Closed():
			obs.Ended = "target_detached"
			break loop
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	obs.DurationMS = time.Since(start).Milliseconds()
	obs.EventsDropped = dropped + int(s.Dropped())
	switch obs.Ended {
	case "max_events":
		obs.Complete = false
		obs.Limitations = append(obs.Limitations, fmt.Sprintf("the timeline stopped at max_events=%d; the observation ended early", l.MaxEvents))
	case "navigated_out_of_scope":
		obs.Complete = false
		obs.Limitations = append(obs.Limitations, "the page navigated to "+obs.Events[len(obs.Events)-1].URL+", outside the approved scope; the observation stopped there and nothing after it was recorded")
	case "target_detached":
		obs.Complete = false
		obs.Limitations = append(obs.Limitations, "the target closed or navigated away before the observation window ended; what was seen until then is kept")
	}
	if obs.EventsDropped > 0 {
		obs.Complete = false
		obs.Limitations = append(obs.Limitations, fmt.Sprintf("%d events arrived faster than they could be kept and were dropped", obs.EventsDropped))
	}
	return obs, nil
}

// originOf is a URL's scheme://host, or its scheme alone (file:, data:,
// about:) when it has no host.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "(unparsable URL)"
	}
	if u.Host == "" {
		return u.Scheme + ":"
	}
	return u.Scheme + "://" + u.Host
}

func decodeEvent(method string, raw []byte, l Limits) (Event, bool) {
	switch method {
	case runtime.ConsoleAPICalled.Method:
		var ev runtime.EventConsoleAPICalled
		if unmarshal(raw, &ev) != nil {
			return Event{}, false
		}
		var parts []string
		n := 0
		for _, a := range ev.Args {
			if a == nil {
				continue
			}
			s := a.Description
			if len(a.Value) > 0 {
				s = string(a.Value)
			}
			parts = append(parts, s)
			if n += len(s); n > l.MaxTextBytes {
				break
			}
		}
		return Event{Kind: "console", Level: string(ev.Type), Text: clip(strings.Join(parts, " "), l.MaxTextBytes)}, true
	case runtime.ExceptionThrown.Method:
		var ev runtime.EventExceptionThrown
		if unmarshal(raw, &ev) != nil || ev.ExceptionDetails == nil {
			return Event{}, false
		}
		text := ev.ExceptionDetails.Text
		if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
			text += " " + ex.Description
		}
		return Event{Kind: "exception", Text: clip(text, l.MaxTextBytes), URL: clip(RedactURL(ev.ExceptionDetails.URL), l.MaxTextBytes)}, true
	case network.RequestWillBeSent.Method:
		var ev network.EventRequestWillBeSent
		if unmarshal(raw, &ev) != nil || ev.Request == nil {
			return Event{}, false
		}
		return Event{Kind: "request", Method: ev.Request.Method, URL: clip(RedactURL(ev.Request.URL), l.MaxTextBytes)}, true
	case network.ResponseReceived.Method:
		var ev network.EventResponseReceived
		if unmarshal(raw, &ev) != nil || ev.Response == nil {
			return Event{}, false
		}
		return Event{Kind: "response", Status: ev.Response.Status, URL: clip(RedactURL(ev.Response.URL), l.MaxTextBytes)}, true
	case network.LoadingFailed.Method:
		var ev network.EventLoadingFailed
		if unmarshal(raw, &ev) != nil {
			return Event{}, false
		}
		return Event{Kind: "request-failed", Text: clip(ev.ErrorText, l.MaxTextBytes)}, true
	case page.FrameNavigated.Method:
		var ev page.EventFrameNavigated
		if unmarshal(raw, &ev) != nil || ev.Frame == nil {
			return Event{}, false
		}
		return Event{Kind: "navigation", URL: clip(RedactURL(ev.Frame.URL), l.MaxTextBytes), rawURL: ev.Frame.URL, top: ev.Frame.ParentID == ""}, true
	}
	return Event{}, false
}

// Screenshot captures the target's viewport as PNG, refusing one over
// maxBytes.
func Screenshot(ctx context.Context, s *Session, t Target, maxBytes int) ([]byte, error) {
	shot, err := cdp.Call(ctx, s, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
		if detachedErr(err) {
			return nil, detached(t)
		}
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "target %s gave no screenshot: %v", t.ID, err).WithDetail("field", "target_id")
	}
	if len(shot.Data) > maxBytes {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "the screenshot is %d bytes, over maximum_image_bytes=%d; raise it or shrink the window", len(shot.Data), maxBytes).
			WithDetail("resource", "output").WithDetail("field", "maximum_image_bytes")
	}
	return shot.Data, nil
}

// WebMCPTool is a tool a page registered for agents (never invoked).
type WebMCPTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	InputSchema string `json:"input_schema,omitempty"`
	FrameID     string `json:"frame_id,omitempty"`
}

// WebMCPTools lists the WebMCP tools a page has registered: the WebMCP
// domain reports them when enabled; none is ever invoked. A browser without
// the domain is capability_unavailable.
func WebMCPTools(ctx context.Context, s *Session, t Target, l Limits, maxTools, maxSchemaBytes int) ([]WebMCPTool, bool, error) {
	events, cancel := s.Subscribe(webmcp.ToolsAdded.Method)
	defer cancel()
	if _, err := cdp.Call(ctx, s, webmcp.Enable, cdp.Empty{}); err != nil {
		if detachedErr(err) {
			return nil, false, detached(t)
		}
		return nil, false, abi.Errorf(abi.CodeCapabilityUnavailable, "this browser has no WebMCP domain (%v); a Chromium with WebMCP support is needed to list page tools", err).
			WithDetail("reason", "webmcp_unavailable")
	}
	defer func() { _, _ = cdp.Call(context.WithoutCancel(ctx), s, webmcp.Disable, cdp.Empty{}) }()
	var tools []WebMCPTool
	truncated := false
	timer := time.NewTimer(l.WithDefaults().Settle)
	defer timer.Stop()
	for {
		select {
		case raw, ok := <-events:
			if !ok {
				return nil, false, detached(t)
			}
			var ev webmcp.EventToolsAdded
			if unmarshal(raw, &ev) != nil {
				continue
			}
			for _, tool := range ev.Tools {
				if tool == nil {
					continue
				}
				if len(tools) >= maxTools {
					truncated = true
					continue
				}
				tools = append(tools, WebMCPTool{Name: clip(tool.Name, 256), Description: clip(tool.Description, 2048),
					InputSchema: clip(string(tool.InputSchema), maxSchemaBytes), FrameID: string(tool.FrameID)})
			}
		case <-timer.C:
			sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
			return tools, truncated, nil
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}

// WebMCPInterface reports whether the page's global object has WebMCP's
// ModelContext interface, read through Runtime.getProperties like the
// globals inventory, so no page code runs. Without it a listing of zero
// tools says nothing about the page: the browser has the API off.
func WebMCPInterface(ctx context.Context, s *Session) (bool, error) {
	yes := true
	g, err := cdp.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: "globalThis", Silent: &yes, ThrowOnSideEffect: &yes, Timeout: 1000, ObjectGroup: "rea-webmcp"})
	if err != nil {
		return false, err
	}
	defer func() {
		_, _ = cdp.Call(context.WithoutCancel(ctx), s, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "rea-webmcp"})
	}()
	if g.ExceptionDetails != nil || g.Result == nil || g.Result.ObjectID == "" {
		return false, fmt.Errorf("the global object is not readable")
	}
	props, err := cdp.Call(ctx, s, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: g.Result.ObjectID, OwnProperties: &yes, NonIndexedPropertiesOnly: &yes})
	if err != nil {
		return false, err
	}
	for _, p := range props.Result {
		if p != nil && p.Name == "ModelContext" && p.Symbol == nil {
			return true, nil
		}
	}
	return false, nil
}

// builtinShape is true for names shaped like a browser's own globals that
// the baseline may lack on another build: constructors (Capitalised
// functions) and event-handler slots (on…).
func builtinShape(name, typ string) bool {
	if name == "" {
		return true
	}
	if typ == "function" && name[0] >= 'A' && name[0] <= 'Z' {
		return true
	}
	return strings.HasPrefix(name, "on") && (typ == "accessor" || typ == "object")
}
