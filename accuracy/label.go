package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// App is one hand-labelled application: where its source comes from and the
// facts a reader finds in that source. Labels are written by reading the
// app's code (grep for the Electron APIs, then follow wrappers by hand),
// never from rea's output.
type App struct {
	Name    string   `json:"name"`
	Shape   string   `json:"shape"`   // what kind of app it is (plain JS, Vue + vite, TS monorepo…)
	Source  Source   `json:"source"`  // where the exact bytes come from
	Include []string `json:"include"` // paths (files or folders) of the source kept for analysis; empty = all
	// Root is the folder of the materialised source that rea analyses
	// (empty = the whole tree); the labels' paths are relative to it.
	Root   string   `json:"root,omitempty"`
	Method string   `json:"method"` // how the facts were found
	Notes  []string `json:"notes,omitempty"`

	Windows []WindowLabel `json:"windows"`
	Bridge  []BridgeLabel `json:"bridge_keys"`
	IPC     []IPCLabel    `json:"ipc"`
}

// Source pins the application's bytes: a GitHub repository at one commit
// (read from a bare mirror) or an npm package version with its integrity.
type Source struct {
	Kind      string `json:"kind"` // github | npm
	Repo      string `json:"repo,omitempty"`
	Commit    string `json:"commit,omitempty"`
	Package   string `json:"package,omitempty"`
	Version   string `json:"version,omitempty"`
	Integrity string `json:"integrity,omitempty"`
}

// WindowLabel is one `new BrowserWindow(…)` (or BrowserView /
// WebContentsView, or a subclass constructor call) at file:line, with the
// security-relevant webPreferences as the code writes them.
type WindowLabel struct {
	File           string               `json:"file"`
	Line           int                  `json:"line"`
	Kind           string               `json:"kind,omitempty"`
	WebPreferences map[string]PrefLabel `json:"web_preferences,omitempty"`
	// Preload lists the analysed module(s) the window's preload resolves
	// to; more than one when the code picks between alternatives.
	Preload   []string `json:"preload,omitempty"`
	Shape     string   `json:"shape,omitempty"`
	Note      string   `json:"note,omitempty"`
	Uncertain bool     `json:"uncertain,omitempty"`
}

// PrefLabel is one webPreferences key: a boolean (or string) value as
// written, or "unknown" when the code computes it (a ternary, an env check,
// a variable reassigned elsewhere). Written either as the bare value or as
// {"value": …, "uncertain": true, "note": "…"}.
type PrefLabel struct {
	Value     any    `json:"value"`
	Uncertain bool   `json:"uncertain,omitempty"`
	Note      string `json:"note,omitempty"`
	Shape     string `json:"shape,omitempty"`
}

// UnmarshalJSON accepts the bare value or the object form.
func (p *PrefLabel) UnmarshalJSON(b []byte) error {
	var obj struct {
		Value     any    `json:"value"`
		Uncertain bool   `json:"uncertain"`
		Note      string `json:"note"`
		Shape     string `json:"shape"`
	}
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		*p = PrefLabel{Value: obj.Value, Uncertain: obj.Uncertain, Note: obj.Note, Shape: obj.Shape}
		return nil
	}
	return json.Unmarshal(b, &p.Value)
}

// Unknown reports whether the label says the code computes the value.
func (p PrefLabel) Unknown() bool { s, ok := p.Value.(string); return ok && s == "unknown" }

// BridgeLabel is one contextBridge.exposeInMainWorld key (or the key a
// library such as @electron-toolkit/preload exposes on the app's behalf).
type BridgeLabel struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Key       string `json:"key"`
	Shape     string `json:"shape,omitempty"`
	Note      string `json:"note,omitempty"`
	Uncertain bool   `json:"uncertain,omitempty"`
}

// IPCLabel is one IPC operation at the call site a reader would point at:
// for a wrapper (`registerEvent('x', fn)`, `api.send('x')`,
// `ipc.answerRenderer('x', fn)`) that is the wrapper's call site, where the
// channel is written.
type IPCLabel struct {
	Side    string `json:"side"` // main | renderer
	Role    string `json:"role"` // transmission | listener | handler
	API     string `json:"api"`  // what the code calls, e.g. ipcMain.handle, window.api.send
	Channel string `json:"channel"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	// Pairing is the verdict for a transmission: paired when a receiver
	// for the channel exists on the other side of the analysed code
	// (invoke → handle, send → on/once, webContents.send → renderer on).
	Pairing   string `json:"pairing,omitempty"`
	Shape     string `json:"shape,omitempty"` // the code construct, for grouping misses
	Note      string `json:"note,omitempty"`
	Uncertain bool   `json:"uncertain,omitempty"`
}

// Direction folds rea's and the labels' roles into send or receive.
func Direction(role string) string {
	if role == "transmission" {
		return "send"
	}
	return "receive"
}

// InvokeStyle reports whether a transmission expects a reply from a
// handler (ipcRenderer.invoke, electron-better-ipc callMain/callRenderer).
func InvokeStyle(api string) bool {
	return strings.Contains(api, "invoke") || strings.Contains(api, "callMain") || strings.Contains(api, "callRenderer") || strings.Contains(api, "callFocusedRenderer")
}

// LoadApps reads every *.json under dir, sorted by name.
func LoadApps(dir string) ([]App, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var apps []App
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var a App
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if err := a.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		apps = append(apps, a)
	}
	return apps, nil
}

// securityPrefs are the webPreferences keys the harness scores.
var securityPrefs = map[string]bool{
	"contextIsolation": true, "nodeIntegration": true, "nodeIntegrationInWorker": true,
	"nodeIntegrationInSubFrames": true, "sandbox": true, "webSecurity": true,
	"allowRunningInsecureContent": true, "webviewTag": true, "enableRemoteModule": true,
	"experimentalFeatures": true, "preload": true,
}

// Validate checks a label file for the mistakes a labeller makes: missing
// pins, unknown sides or roles, transmissions without a verdict, and
// verdicts the labels themselves contradict.
func (a App) Validate() error {
	if a.Name == "" {
		return fmt.Errorf("no name")
	}
	switch a.Source.Kind {
	case "github":
		if a.Source.Repo == "" || len(a.Source.Commit) != 40 {
			return fmt.Errorf("github source needs repo and a 40-hex commit")
		}
	case "npm":
		if a.Source.Package == "" || a.Source.Version == "" || !strings.HasPrefix(a.Source.Integrity, "sha") {
			return fmt.Errorf("npm source needs package, version and integrity")
		}
	default:
		return fmt.Errorf("source kind %q: want github or npm", a.Source.Kind)
	}
	for _, w := range a.Windows {
		if w.File == "" || w.Line <= 0 {
			return fmt.Errorf("window without file:line")
		}
		for k := range w.WebPreferences {
			if !securityPrefs[k] {
				return fmt.Errorf("window %s:%d: webPreferences key %q is not scored", w.File, w.Line, k)
			}
		}
	}
	for _, op := range a.IPC {
		if op.Side != "main" && op.Side != "renderer" {
			return fmt.Errorf("ipc %s:%d: side %q", op.File, op.Line, op.Side)
		}
		switch op.Role {
		case "transmission":
			if op.Pairing != "paired" && op.Pairing != "unpaired" {
				return fmt.Errorf("ipc %s:%d %q: transmission needs pairing paired|unpaired", op.File, op.Line, op.Channel)
			}
			if want := a.expectedPairing(op); want != op.Pairing {
				return fmt.Errorf("ipc %s:%d %q: labelled %s but the labels hold %s receivers", op.File, op.Line, op.Channel, op.Pairing, want)
			}
		case "listener", "handler":
			if op.Pairing != "" {
				return fmt.Errorf("ipc %s:%d: only transmissions carry a pairing", op.File, op.Line)
			}
		default:
			return fmt.Errorf("ipc %s:%d: role %q", op.File, op.Line, op.Role)
		}
		if op.Channel == "" || op.File == "" || op.Line <= 0 {
			return fmt.Errorf("ipc label without channel or file:line")
		}
	}
	return nil
}

// expectedPairing derives a transmission's verdict from the other labels:
// a receiver on the opposite side with the same channel — a handler for an
// invoke-style call (invoke, better-ipc callMain/callRenderer), a listener
// for everything else. The labeller writes the verdict by hand; this keeps
// the two from drifting apart.
func (a App) expectedPairing(op IPCLabel) string {
	want := "listener"
	if InvokeStyle(op.API) {
		want = "handler"
	}
	for _, h := range a.IPC {
		if h.Side != op.Side && h.Role == want && h.Channel == op.Channel {
			return "paired"
		}
	}
	return "unpaired"
}
