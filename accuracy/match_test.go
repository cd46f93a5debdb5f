package main

import (
	"encoding/json"
	"strings"
	"testing"

	"rea/jsengine/report"
)

func loc(file string, line int) report.Location {
	return report.Location{File: file, Line: line, Column: 1}
}

// labelled is a small app with one window, one bridge key and a paired
// send/on and an unpaired invoke.
func labelled() App {
	return App{
		Name:   "t",
		Source: Source{Kind: "github", Repo: "o/r", Commit: strings.Repeat("a", 40)},
		Windows: []WindowLabel{{File: "main.js", Line: 10, Preload: []string{"preload.js"},
			WebPreferences: map[string]PrefLabel{"contextIsolation": {Value: true}, "sandbox": {Value: "unknown"}}}},
		Bridge: []BridgeLabel{{File: "preload.js", Line: 3, Key: "api"}},
		IPC: []IPCLabel{
			{Side: "main", Role: "listener", API: "ipcMain.on", Channel: "ping", File: "main.js", Line: 20},
			{Side: "renderer", Role: "transmission", API: "ipcRenderer.send", Channel: "ping", File: "preload.js", Line: 5, Pairing: "paired"},
			{Side: "renderer", Role: "transmission", API: "ipcRenderer.invoke", Channel: "gone", File: "preload.js", Line: 6, Pairing: "unpaired", Shape: "wrapper"},
		},
	}
}

func perfect() report.Result {
	return report.Result{
		Windows: []report.Window{{Kind: "BrowserWindow", Location: loc("main.js", 11),
			WebPreferences: map[string]report.Value{
				"contextIsolation": {Value: true, State: "observed"},
				"sandbox":          {State: "unknown"},
				"preload":          {Value: "preload.js", State: "observed"},
				"width":            {Value: 800.0, State: "observed"}, // not scored
			},
			Preload: &report.Preload{Module: "preload.js", State: "observed"}}},
		ContextBridge: []report.ExposedAPI{{Module: "preload.js", Key: "api", KeyState: "literal", Location: loc("preload.js", 3)}},
		IPC: []report.IPCOperation{
			{Side: "main", Role: "listener", API: "ipcMain.on", Channel: "ping", ChannelState: "literal", Location: loc("main.js", 20)},
			{Side: "renderer", Role: "transmission", API: "ipcRenderer.send", Channel: "ping", ChannelState: "literal", Pairing: "paired", Location: loc("preload.js", 5)},
			{Side: "renderer", Role: "transmission", API: "ipcRenderer.invoke", Channel: "gone", ChannelState: "literal", Pairing: "unpaired", Location: loc("preload.js", 6)},
		},
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(*report.Result)
		want   map[string]Tally
		misses []string // kind@at, in order
		false_ []string
	}{
		{name: "perfect", edit: func(*report.Result) {},
			want: map[string]Tally{
				KindWindows: {1, 1, 1, 1}, KindWebPrefs: {3, 3, 3, 3}, KindPreload: {1, 1, 1, 1}, KindBridge: {1, 1, 1, 1},
				KindIPCMain: {1, 1, 1, 1}, KindIPCRenderer: {2, 2, 2, 2}, KindPairing: {2, 2, 2, 2},
				KindChanMain: {1, 1, 1, 1}, KindChanRenderer: {2, 2, 2, 2}}},
		{name: "window off by three lines misses everything it holds",
			edit:   func(r *report.Result) { r.Windows[0].Location.Line = 13 },
			want:   map[string]Tally{KindWindows: {1, 0, 1, 0}, KindWebPrefs: {3, 0, 0, 0}, KindPreload: {1, 0, 0, 0}},
			misses: []string{"windows@main.js:10", "webPreferences@main.js:10", "webPreferences@main.js:10", "webPreferences@main.js:10", "preload-to-window@main.js:10"},
			false_: []string{"windows@main.js:13"}},
		{name: "a known value where the code computes one is a false fact",
			edit: func(r *report.Result) {
				r.Windows[0].WebPreferences["sandbox"] = report.Value{Value: true, State: "observed"}
			},
			want:   map[string]Tally{KindWebPrefs: {3, 2, 3, 2}},
			misses: []string{"webPreferences@main.js:10"}, false_: []string{"webPreferences@main.js:11"}},
		{name: "unknown where the code writes a value is a miss, not a false fact",
			edit: func(r *report.Result) {
				r.Windows[0].WebPreferences["contextIsolation"] = report.Value{State: "unknown"}
			},
			want: map[string]Tally{KindWebPrefs: {3, 2, 2, 2}}, misses: []string{"webPreferences@main.js:10"}},
		{name: "a key the code does not write",
			edit: func(r *report.Result) {
				r.Windows[0].WebPreferences["nodeIntegration"] = report.Value{Value: false, State: "observed"}
			},
			want: map[string]Tally{KindWebPrefs: {3, 3, 4, 3}}, false_: []string{"webPreferences@main.js:11"}},
		{name: "wrong preload module",
			edit: func(r *report.Result) { r.Windows[0].Preload.Module = "other.js" },
			want: map[string]Tally{KindPreload: {1, 0, 1, 0}}, misses: []string{"preload-to-window@main.js:10"}, false_: []string{"preload-to-window@main.js:11"}},
		{name: "an unknown preload's alternatives are claims: found when one is labelled, right only when all are",
			edit: func(r *report.Result) {
				r.Windows[0].Preload = &report.Preload{State: "unknown", Alternatives: []report.PreloadAlternative{
					{Module: "preload.js", State: "inferred"}, {Path: "dev/preload.js", State: "inferred"}}}
			},
			want: map[string]Tally{KindPreload: {1, 1, 1, 0}}, false_: []string{"preload-to-window@main.js:11"}},
		{name: "an unknown preload whose alternatives are all labelled",
			edit: func(r *report.Result) {
				r.Windows[0].Preload = &report.Preload{State: "unknown", Alternatives: []report.PreloadAlternative{
					{Module: "preload.js", State: "inferred"}, {Module: "preload.js", Path: "dev/preload.js", State: "inferred"}, {State: "unknown"}}}
			},
			want: map[string]Tally{KindPreload: {1, 1, 1, 1}}},
		{name: "dynamic channel claims nothing; its pairing is missed",
			edit: func(r *report.Result) {
				r.IPC[1].Channel, r.IPC[1].ChannelState, r.IPC[1].Pairing = "", "dynamic", "dynamic"
			},
			want:   map[string]Tally{KindIPCRenderer: {2, 1, 1, 1}, KindPairing: {2, 1, 1, 1}},
			misses: []string{"IPC renderer@preload.js:5", "pairing@preload.js:5"}},
		{name: "a channel at another place on the right side is misplaced, not false",
			edit: func(r *report.Result) {
				r.IPC = append(r.IPC, report.IPCOperation{Side: "main", Role: "handler", API: "ipcMain.on", Channel: "ping", ChannelState: "inferred", Location: loc("lib.js", 4)})
			},
			want: map[string]Tally{KindIPCMain: {1, 1, 2, 2}, KindChanMain: {1, 1, 1, 1}}}, // one channel, two places
		{name: "a channel not in the code",
			edit: func(r *report.Result) {
				r.IPC = append(r.IPC, report.IPCOperation{Side: "main", Role: "handler", API: "ipcMain.handle", Channel: "nope", ChannelState: "literal", Location: loc("main.js", 30)})
			},
			want: map[string]Tally{KindIPCMain: {1, 1, 2, 1}, KindChanMain: {1, 1, 2, 1}}, false_: []string{"IPC main@main.js:30"}},
		{name: "ambiguous counts as paired; wrong verdict names the receiver's shape",
			edit: func(r *report.Result) { r.IPC[1].Pairing = "ambiguous"; r.IPC[2].Pairing = "paired" },
			want: map[string]Tally{KindPairing: {2, 1, 2, 1}}, misses: []string{"pairing@preload.js:6"}, false_: []string{"pairing@preload.js:6"}},
		{name: "same channel on the wrong side does not match",
			edit:   func(r *report.Result) { r.IPC[0].Side = "renderer" },
			want:   map[string]Tally{KindIPCMain: {1, 0, 0, 0}, KindIPCRenderer: {2, 2, 3, 2}},
			misses: []string{"IPC main@main.js:20"}, false_: []string{"IPC renderer@main.js:20"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := perfect()
			c.edit(&r)
			s := Match(labelled(), r)
			for k, want := range c.want {
				if got := s.Tallies[k]; got != want {
					t.Errorf("%s: got %+v, want %+v", k, got, want)
				}
			}
			if got := facts(s.Misses); strings.Join(got, " ") != strings.Join(c.misses, " ") {
				t.Errorf("misses %v, want %v", got, c.misses)
			}
			if got := facts(s.False); strings.Join(got, " ") != strings.Join(c.false_, " ") {
				t.Errorf("false facts %v, want %v", got, c.false_)
			}
		})
	}
}

func facts(fs []Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+"@"+f.At)
	}
	return out
}

func TestUncertainFactsAreIgnored(t *testing.T) {
	a := labelled()
	a.Windows[0].Uncertain = true
	a.IPC[0].Uncertain = true
	r := perfect()
	r.IPC[0].Location.Line = 99 // off place, but the channel is only labelled uncertain
	s := Match(a, r)
	for _, k := range []string{KindWindows, KindWebPrefs, KindPreload, KindIPCMain} {
		if got := s.Tallies[k]; got != (Tally{}) {
			t.Errorf("%s counted %+v for uncertain facts", k, got)
		}
	}
	if len(s.False) != 0 {
		t.Errorf("false facts %v", s.False)
	}
}

func TestMissShapeOfAWrongVerdictIsTheReceivers(t *testing.T) {
	a := labelled()
	a.IPC[0].Shape = "main-wrapper-call"
	r := perfect()
	r.IPC = r.IPC[1:] // the handler is missed, so rea calls "ping" unpaired
	r.IPC[0].Pairing = "unpaired"
	s := Match(a, r)
	var shapes []string
	for _, m := range s.Misses {
		shapes = append(shapes, m.Kind+":"+m.Shape)
	}
	want := "IPC main:main-wrapper-call pairing:receiver main-wrapper-call"
	if strings.Join(shapes, " ") != want {
		t.Errorf("miss shapes %q, want %q", shapes, want)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*App)
		err  string
	}{
		{"valid", func(*App) {}, ""},
		{"short commit", func(a *App) { a.Source.Commit = "abc" }, "40-hex"},
		{"npm without integrity", func(a *App) { a.Source = Source{Kind: "npm", Package: "x", Version: "1.0.0"} }, "integrity"},
		{"unscored key", func(a *App) { a.Windows[0].WebPreferences["width"] = PrefLabel{Value: 1.0} }, "not scored"},
		{"transmission without verdict", func(a *App) { a.IPC[1].Pairing = "" }, "needs pairing"},
		{"verdict the labels contradict", func(a *App) { a.IPC[2].Pairing = "paired" }, "labelled paired"},
		{"invoke does not pair with a listener", func(a *App) { a.IPC[1].API = "ipcRenderer.invoke" }, "labelled paired"},
		{"listener with a verdict", func(a *App) { a.IPC[0].Pairing = "paired" }, "only transmissions"},
		{"bad side", func(a *App) { a.IPC[0].Side = "worker" }, "side"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := labelled()
			c.edit(&a)
			err := a.Validate()
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("Validate() = %v, want %q", err, c.err)
			}
		})
	}
}

// TestLabelFilesAreValid loads the committed label files: each must decode
// strictly, pin its source and agree with its own pairing verdicts, and
// there must be at least ten of them.
func TestLabelFilesAreValid(t *testing.T) {
	apps, err := LoadApps("apps")
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) < 10 { // issue 18 asks for at least ten real apps
		t.Fatalf("%d label files, want at least 10", len(apps))
	}
	seen := map[string]bool{}
	for _, a := range apps {
		if seen[a.Name] {
			t.Errorf("two label files name %s", a.Name)
		}
		seen[a.Name] = true
	}
}

func TestPrefLabelForms(t *testing.T) {
	var w WindowLabel
	if err := jsonUnmarshal(`{"file":"m.js","line":1,"web_preferences":{"sandbox":false,"webSecurity":{"value":"unknown","uncertain":true}}}`, &w); err != nil {
		t.Fatal(err)
	}
	if w.WebPreferences["sandbox"].Value != false || !w.WebPreferences["webSecurity"].Unknown() || !w.WebPreferences["webSecurity"].Uncertain {
		t.Errorf("decoded %+v", w.WebPreferences)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func TestIncluded(t *testing.T) {
	inc := []string{"src", "package.json", "app/*.js"}
	for p, want := range map[string]bool{
		"src/main.ts": true, "src": true, "srcx/a.js": false, "package.json": true,
		"app/main.js": true, "app/utils/x.js": false, "other/package.json": false,
	} {
		if got := Included(inc, p); got != want {
			t.Errorf("Included(%q) = %v, want %v", p, got, want)
		}
	}
	if !Included(nil, "anything") {
		t.Error("an empty include keeps everything")
	}
}
