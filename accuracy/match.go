package main

import (
	"fmt"
	"reflect"
	"sort"

	"rea/jsengine/report"
)

// The fact kinds the harness scores, in print order.
const (
	KindWindows     = "windows"
	KindWebPrefs    = "webPreferences"
	KindPreload     = "preload-to-window"
	KindBridge      = "bridge keys"
	KindIPCMain     = "IPC main"
	KindIPCRenderer = "IPC renderer"
	KindPairing     = "pairing"
	// Channel-level views of the IPC kinds: distinct channels per side,
	// wherever rea places them (the first measurement counted
	// channels). Not separate facts: misses are listed under the
	// operation kinds.
	KindChanMain     = "channels main"
	KindChanRenderer = "channels renderer"
)

// Kinds lists every fact kind in print order.
var Kinds = []string{KindWindows, KindWebPrefs, KindPreload, KindBridge, KindIPCMain, KindIPCRenderer, KindPairing, KindChanMain, KindChanRenderer}

// LineSlack is how far rea's line may be from the labelled line: a label
// points at the statement a reader sees, rea at the expression it parsed
// (`new` vs the call's first argument, a multi-line call's callee).
const LineSlack = 2

// Tally counts one fact kind. Recall is Found/Labelled; precision is
// Correct/Reported, where Reported counts only facts rea states as known
// (a value rea calls unknown, or a channel it calls dynamic, claims nothing).
type Tally struct {
	Labelled int `json:"labelled"`
	Found    int `json:"found"`
	Reported int `json:"reported"`
	Correct  int `json:"correct"`
}

// Add accumulates another tally.
func (t *Tally) Add(o Tally) {
	t.Labelled += o.Labelled
	t.Found += o.Found
	t.Reported += o.Reported
	t.Correct += o.Correct
}

// Fact is one labelled fact rea missed, or one fact rea stated that the
// code does not hold.
type Fact struct {
	Kind  string `json:"kind"`
	At    string `json:"at"`
	What  string `json:"what"`
	Shape string `json:"shape"`
	Note  string `json:"note,omitempty"`
}

// Score is the outcome of matching one app's labels against rea's result.
type Score struct {
	App       string           `json:"app"`
	Tallies   map[string]Tally `json:"tallies"`
	Misses    []Fact           `json:"misses"`
	False     []Fact           `json:"false_facts"`
	Misplaced []Fact           `json:"misplaced,omitempty"` // right channel and side, another place
	// Seconds and Coverage describe the rea run (set by the harness, not
	// by Match): wall time on a shared machine, and rea's coverage status.
	Seconds  float64 `json:"seconds"`
	Coverage string  `json:"coverage"`
}

// Match scores rea's result against one app's labels. Facts marked
// uncertain are neither counted as misses nor as false facts.
func Match(a App, r report.Result) Score {
	s := Score{App: a.Name, Tallies: map[string]Tally{}}
	t := map[string]*Tally{}
	for _, k := range Kinds {
		t[k] = &Tally{}
	}
	miss := func(kind, at, what, shape, note string) {
		if shape == "" {
			shape = "literal"
		}
		s.Misses = append(s.Misses, Fact{Kind: kind, At: at, What: what, Shape: shape, Note: note})
	}
	wrong := func(kind string, loc report.Location, what string) {
		s.False = append(s.False, Fact{Kind: kind, At: fmt.Sprintf("%s:%d", loc.File, loc.Line), What: what})
	}

	// Windows: one-to-one by file and line ± LineSlack.
	usedWin := make([]bool, len(r.Windows))
	labelWin := make([]int, len(r.Windows)) // rea window → label index, -1 none
	for i := range labelWin {
		labelWin[i] = -1
	}
	for li, w := range a.Windows {
		ri := -1
		for j, rw := range r.Windows {
			if !usedWin[j] && rw.Location.File == w.File && near(rw.Location.Line, w.Line) {
				ri = j
				break
			}
		}
		if ri >= 0 {
			usedWin[ri] = true
			labelWin[ri] = li
		}
		if w.Uncertain {
			continue
		}
		at := fmt.Sprintf("%s:%d", w.File, w.Line)
		t[KindWindows].Labelled++
		if ri >= 0 {
			t[KindWindows].Found++
		} else {
			miss(KindWindows, at, "window "+w.Kind, w.Shape, w.Note)
		}
		var rw *report.Window
		if ri >= 0 {
			rw = &r.Windows[ri]
		}
		for _, k := range sortedKeys(w.prefs()) {
			p := w.prefs()[k]
			if p.Uncertain {
				continue
			}
			t[KindWebPrefs].Labelled++
			if rw != nil && prefAgrees(p, rw.WebPreferences, k) {
				t[KindWebPrefs].Found++
			} else {
				shape := p.Shape
				if shape == "" {
					shape = w.Shape
				}
				miss(KindWebPrefs, at, fmt.Sprintf("%s=%v", k, p.Value), shape, p.Note)
			}
		}
		if len(w.Preload) > 0 {
			t[KindPreload].Labelled++
			if rw != nil && anyIn(w.Preload, statedPreloads(rw.Preload)) {
				t[KindPreload].Found++
			} else {
				miss(KindPreload, at, fmt.Sprintf("preload %v", w.Preload), w.Shape, w.Note)
			}
		}
	}
	for j, rw := range r.Windows {
		li := labelWin[j]
		if li >= 0 && a.Windows[li].Uncertain {
			continue
		}
		t[KindWindows].Reported++
		if li < 0 {
			wrong(KindWindows, rw.Location, "window "+rw.Kind)
			continue
		}
		t[KindWindows].Correct++
		w := a.Windows[li]
		prefs := w.prefs()
		for _, k := range sortedKeys(rw.WebPreferences) {
			if !securityPrefs[k] {
				continue
			}
			v := rw.WebPreferences[k]
			p, labelled := prefs[k]
			if labelled && p.Uncertain {
				continue
			}
			if v.State == "unknown" && !(labelled && p.Unknown()) {
				continue // rea claims no value
			}
			t[KindWebPrefs].Reported++
			if labelled && prefAgrees(p, rw.WebPreferences, k) {
				t[KindWebPrefs].Correct++
			} else {
				wrong(KindWebPrefs, rw.Location, fmt.Sprintf("%s=%v (%s)", k, v.Value, v.State))
			}
		}
		if stated := statedPreloads(rw.Preload); len(stated) > 0 {
			t[KindPreload].Reported++
			if bad := notIn(w.Preload, stated); bad == "" {
				t[KindPreload].Correct++
			} else {
				wrong(KindPreload, rw.Location, fmt.Sprintf("preload %s", bad))
			}
		}
	}

	// contextBridge keys: by file and key.
	for _, b := range a.Bridge {
		if b.Uncertain {
			continue
		}
		t[KindBridge].Labelled++
		found := false
		for _, x := range r.ContextBridge {
			if x.Module == b.File && x.Key == b.Key {
				found = true
				break
			}
		}
		if found {
			t[KindBridge].Found++
		} else {
			miss(KindBridge, fmt.Sprintf("%s:%d", b.File, b.Line), "key "+b.Key, b.Shape, b.Note)
		}
	}
	for _, x := range r.ContextBridge {
		if x.Key == "" || x.KeyState == "unknown" || x.KeyState == "dynamic" {
			continue
		}
		var hit *BridgeLabel
		for i := range a.Bridge {
			if a.Bridge[i].File == x.Module && a.Bridge[i].Key == x.Key {
				hit = &a.Bridge[i]
				break
			}
		}
		if hit != nil && hit.Uncertain {
			continue
		}
		t[KindBridge].Reported++
		if hit != nil {
			t[KindBridge].Correct++
		} else {
			wrong(KindBridge, x.Location, "key "+x.Key)
		}
	}

	// IPC: one-to-one by side, direction, channel, file and line ± LineSlack.
	usedOp := make([]bool, len(r.IPC))
	labelOp := make([]int, len(r.IPC))
	for i := range labelOp {
		labelOp[i] = -1
	}
	for li, op := range a.IPC {
		ri := -1
		for j, x := range r.IPC {
			if !usedOp[j] && x.ChannelState != "dynamic" && x.Side == op.Side && Direction(x.Role) == Direction(op.Role) &&
				x.Channel == op.Channel && x.Location.File == op.File && near(x.Location.Line, op.Line) {
				ri = j
				break
			}
		}
		if ri >= 0 {
			usedOp[ri] = true
			labelOp[ri] = li
		}
		if op.Uncertain {
			continue
		}
		kind := ipcKind(op.Side)
		at := fmt.Sprintf("%s:%d", op.File, op.Line)
		t[kind].Labelled++
		if ri >= 0 {
			t[kind].Found++
		} else {
			miss(kind, at, fmt.Sprintf("%s %q", op.API, op.Channel), op.Shape, op.Note)
		}
		if op.Role == "transmission" {
			t[KindPairing].Labelled++
			verdict := ""
			if ri >= 0 {
				verdict = foldPairing(r.IPC[ri].Pairing)
			}
			if verdict == op.Pairing {
				t[KindPairing].Found++
			} else {
				what := fmt.Sprintf("%q %s, rea %s", op.Channel, op.Pairing, orNone(verdict))
				shape := op.Shape
				if ri < 0 {
					what = fmt.Sprintf("%q %s, operation not found", op.Channel, op.Pairing)
				} else {
					// The transmission was found: the verdict went wrong
					// on the other side, so name the receiver's shape.
					shape = "receiver " + a.receiverShape(op)
				}
				miss(KindPairing, at, what, shape, op.Note)
			}
			if ri >= 0 && verdict != "" && verdict != "dynamic" {
				t[KindPairing].Reported++
				if verdict == op.Pairing {
					t[KindPairing].Correct++
				} else {
					wrong(KindPairing, r.IPC[ri].Location, fmt.Sprintf("%q %s", op.Channel, verdict))
				}
			}
		}
	}
	for j, x := range r.IPC {
		if x.Channel == "" || x.ChannelState == "dynamic" {
			continue
		}
		li := labelOp[j]
		if li >= 0 && a.IPC[li].Uncertain {
			continue
		}
		kind := ipcKind(x.Side)
		if li < 0 {
			// Not at a labelled place: is the channel on that side at all?
			if a.hasUncertainChannel(x) {
				continue
			}
			t[kind].Reported++
			if a.hasChannel(x) {
				t[kind].Correct++
				s.Misplaced = append(s.Misplaced, Fact{Kind: kind, At: fmt.Sprintf("%s:%d", x.Location.File, x.Location.Line), What: fmt.Sprintf("%s %q", x.API, x.Channel)})
			} else {
				wrong(kind, x.Location, fmt.Sprintf("%s %q", x.API, x.Channel))
			}
			continue
		}
		t[kind].Reported++
		t[kind].Correct++
	}

	// Distinct channels per side: labelled (scored) channels found by any
	// rea operation on that side with that channel, and rea's distinct
	// channels that the labels hold on that side (uncertain-only channels
	// are left out of both).
	type sideChan struct{ side, channel string }
	certain, uncertainOnly := map[sideChan]bool{}, map[sideChan]bool{}
	for _, op := range a.IPC {
		k := sideChan{op.Side, op.Channel}
		if op.Uncertain {
			if !certain[k] {
				uncertainOnly[k] = true
			}
			continue
		}
		certain[k] = true
		delete(uncertainOnly, k)
	}
	got := map[sideChan]bool{}
	for _, x := range r.IPC {
		if x.Channel != "" && x.ChannelState != "dynamic" {
			got[sideChan{x.Side, x.Channel}] = true
		}
	}
	chanKind := func(side string) string {
		if side == "main" {
			return KindChanMain
		}
		return KindChanRenderer
	}
	for k := range certain {
		t[chanKind(k.side)].Labelled++
		if got[k] {
			t[chanKind(k.side)].Found++
		}
	}
	for k := range got {
		if uncertainOnly[k] {
			continue
		}
		t[chanKind(k.side)].Reported++
		if certain[k] {
			t[chanKind(k.side)].Correct++
		}
	}

	for k, v := range t {
		s.Tallies[k] = *v
	}
	return s
}

// prefs returns the window's scored webPreferences; a preload written
// without an explicit "preload" entry counts as the key being present.
func (w WindowLabel) prefs() map[string]PrefLabel {
	out := map[string]PrefLabel{}
	for k, v := range w.WebPreferences {
		out[k] = v
	}
	if _, ok := out["preload"]; !ok && len(w.Preload) > 0 {
		out["preload"] = PrefLabel{Value: "present"}
	}
	return out
}

// prefAgrees compares one labelled key with rea's: "present" needs the key,
// "unknown" needs rea to say unknown, any other value needs rea to state
// that value as known.
func prefAgrees(p PrefLabel, got map[string]report.Value, key string) bool {
	v, ok := got[key]
	if !ok {
		return false
	}
	if s, isStr := p.Value.(string); isStr && s == "present" {
		return true
	}
	if p.Unknown() {
		return v.State == "unknown"
	}
	return v.State != "unknown" && reflect.DeepEqual(v.Value, p.Value)
}

// receiverShape is the shape of the first labelled receiver of a
// transmission that can take it (a handler for invoke-style calls), a
// scored one before an uncertain one ("none" when the labels hold none,
// "literal" by default).
func (a App) receiverShape(op IPCLabel) string {
	want := "listener"
	if InvokeStyle(op.API) {
		want = "handler"
	}
	shape := "none"
	for _, h := range a.IPC {
		if h.Side != op.Side && h.Role == want && h.Channel == op.Channel {
			s := h.Shape
			if s == "" {
				s = "literal"
			}
			if !h.Uncertain {
				return s // a scored receiver is the one rea had to find
			}
			if shape == "none" {
				shape = s
			}
		}
	}
	return shape
}

func (a App) hasChannel(x report.IPCOperation) bool {
	for _, op := range a.IPC {
		if !op.Uncertain && op.Side == x.Side && Direction(op.Role) == Direction(x.Role) && op.Channel == x.Channel {
			return true
		}
	}
	return false
}

func (a App) hasUncertainChannel(x report.IPCOperation) bool {
	for _, op := range a.IPC {
		if op.Uncertain && op.Side == x.Side && op.Channel == x.Channel {
			return true
		}
	}
	return false
}

func ipcKind(side string) string {
	if side == "main" {
		return KindIPCMain
	}
	return KindIPCRenderer
}

// foldPairing maps rea's verdicts onto the labels': ambiguous (two or more
// receivers) is paired.
func foldPairing(p string) string {
	if p == "ambiguous" {
		return "paired"
	}
	return p
}

func near(a, b int) bool { d := a - b; return d >= -LineSlack && d <= LineSlack }

func contains(list []string, s string) bool {
	if s == "" {
		return false
	}
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// statedPreloads are the preloads rea states as known for a window: its
// module (else path), or — for an unknown expression — each known
// alternative's. An alternative is a claim too: every one must be right.
func statedPreloads(p *report.Preload) []preloadClaim {
	if p == nil {
		return nil
	}
	if p.State != "unknown" {
		if p.Module == "" && p.Path == "" {
			return nil
		}
		return []preloadClaim{{p.Module, p.Path}}
	}
	var out []preloadClaim
	for _, a := range p.Alternatives {
		if a.State != "unknown" && (a.Module != "" || a.Path != "") {
			out = append(out, preloadClaim{a.Module, a.Path})
		}
	}
	return out
}

type preloadClaim struct{ module, path string }

func (c preloadClaim) in(labels []string) bool {
	return contains(labels, c.module) || contains(labels, c.path)
}

func anyIn(labels []string, claims []preloadClaim) bool {
	for _, c := range claims {
		if c.in(labels) {
			return true
		}
	}
	return false
}

// notIn names the first claim the labels do not hold ("" when all do).
func notIn(labels []string, claims []preloadClaim) string {
	for _, c := range claims {
		if !c.in(labels) {
			return firstNonEmpty(c.module, c.path)
		}
	}
	return ""
}
