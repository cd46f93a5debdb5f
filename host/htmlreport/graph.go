// Package htmlreport renders an application analysis as one self-contained
// HTML page: the app's security boundary drawn as a layered graph (windows →
// preloads → bridge APIs → IPC channels → main-process handlers), the
// per-window preferences, the findings with their code, and what was not
// analysed. Every string in the page comes from an analysed application and
// is untrusted: it is escaped by html/template, the page loads nothing, and
// its own Content-Security-Policy admits only its own inline style and script
// by hash.
package htmlreport

import (
	"fmt"
	"sort"
	"strings"

	"rea/jsengine/report"
)

// Layers of the boundary graph, left to right.
const (
	LayerWindow = iota
	LayerPreload
	LayerBridge
	LayerChannel
	LayerMain
	layerCount
)

var layerTitles = [layerCount]string{"windows", "preloads & renderer code", "bridge APIs", "IPC channels", "main-process handlers"}

// Fact is one labelled value shown when a node is selected.
type Fact struct {
	Label string
	Value string
}

// Node is one box of the boundary graph.
type Node struct {
	ID       string
	Layer    int
	Kind     string
	Label    string
	Location string
	Severity string // worst finding attached: high, medium, low, info or ""
	Findings []int  // indexes into Graph.Findings
	Facts    []Fact
	// Position, computed by Layout.
	X, Y      int
	Collapsed bool
	order     float64
	file      string
	line      int
}

// Edge joins two nodes; Pairing is the IPC pairing verdict where the edge is
// a channel use (paired, ambiguous, unpaired, dynamic).
type Edge struct {
	From, To  string
	Pairing   string
	Label     string
	Collapsed bool
}

// Graph is the boundary of one application.
type Graph struct {
	Nodes    []*Node
	Edges    []Edge
	Findings []report.Finding
	byID     map[string]*Node
	edgeSeen map[Edge]bool
}

func (g *Graph) node(id string) *Node { return g.byID[id] }

func (g *Graph) add(n *Node) *Node {
	if old, ok := g.byID[n.ID]; ok {
		return old
	}
	g.byID[n.ID] = n
	g.Nodes = append(g.Nodes, n)
	return n
}

func (g *Graph) link(from, to, pairing, label string) {
	e := Edge{From: from, To: to, Pairing: pairing, Label: label}
	if g.edgeSeen[e] {
		return
	}
	g.edgeSeen[e] = true
	g.Edges = append(g.Edges, e)
}

func loc(l report.Location) string {
	if l.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
}

// BuildGraph derives the boundary graph from an analysis result. It only
// reads r; the same result always gives the same graph.
func BuildGraph(r *report.Result) *Graph {
	g := &Graph{byID: map[string]*Node{}, edgeSeen: map[Edge]bool{}}
	moduleNode := func(module, kind string) *Node {
		id := "m:" + module
		if n := g.node(id); n != nil {
			return n
		}
		// A module node sits at the top of its file: findings in the file
		// that no closer node claims land on it.
		n := g.add(&Node{ID: id, Layer: LayerPreload, Kind: kind, Label: module, Location: module, file: module, line: 1,
			Facts: []Fact{{"module", module}, {"role", kind}}})
		return n
	}

	for i, w := range r.Windows {
		id := fmt.Sprintf("w:%d", i)
		facts := []Fact{{"kind", w.Kind}, {"created at", loc(w.Location)}, {"options coverage", w.Coverage}}
		keys := make([]string, 0, len(w.WebPreferences))
		for k := range w.WebPreferences {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := w.WebPreferences[k]
			facts = append(facts, Fact{"webPreferences." + k, fmt.Sprintf("%v (%s)", v.Value, v.State)})
		}
		for _, l := range w.Loads {
			remote := ""
			if l.Remote {
				remote = ", remote"
			}
			facts = append(facts, Fact{l.Method, fmt.Sprintf("%s (%s%s)", l.Target, l.State, remote)})
		}
		for _, u := range w.Unknowns {
			facts = append(facts, Fact{"unknown", u})
		}
		n := g.add(&Node{ID: id, Layer: LayerWindow, Kind: w.Kind, Label: w.Kind + windowName(w), Location: loc(w.Location),
			Facts: facts, file: w.Location.File, line: w.Location.Line, order: float64(i)})
		if w.Preload != nil {
			target := w.Preload.Module
			kind := "preload"
			if target == "" {
				target = w.Preload.Expression
				kind = "preload (" + w.Preload.State + ")"
			}
			p := moduleNode(target, kind)
			p.Facts = append(p.Facts, Fact{"declared at", loc(w.Preload.Location)}, Fact{"state", w.Preload.State})
			g.link(n.ID, p.ID, "", "preload")
		}
	}

	apisOf := map[string][]string{} // module → bridge node ids
	for i, api := range r.ContextBridge {
		p := moduleNode(api.Module, "preload")
		id := fmt.Sprintf("a:%d", i)
		facts := []Fact{{"key", api.Key + " (" + api.KeyState + ")"}, {"world", api.World}, {"exposed at", loc(api.Location)},
			{"members", strings.Join(api.Members, ", ")}, {"coverage", api.Coverage}}
		for _, raw := range api.RawIPCRenderer {
			facts = append(facts, Fact{"exposes ipcRenderer itself", raw})
		}
		g.add(&Node{ID: id, Layer: LayerBridge, Kind: "contextBridge", Label: "window." + api.Key, Location: loc(api.Location),
			Facts: facts, file: api.Location.File, line: api.Location.Line})
		g.link(p.ID, id, "", "exposes")
		apisOf[api.Module] = append(apisOf[api.Module], id)
	}

	for _, op := range r.IPC {
		chID, chLabel := "c:"+op.Channel, op.Channel
		if op.Channel == "" {
			chID, chLabel = "c:?"+op.ID, "("+op.ChannelState+" channel)"
		}
		ch := g.add(&Node{ID: chID, Layer: LayerChannel, Kind: "channel", Label: chLabel, Facts: []Fact{{"channel", chLabel}}})
		if op.Channel != "" {
			ch.Facts = append(ch.Facts[:0], Fact{"channel", op.Channel}, Fact{"state", op.ChannelState})
		}
		opFacts := []Fact{{"api", op.API}, {"role", op.Role}, {"side", op.Side}, {"channel", chLabel}, {"at", loc(op.Location)}}
		if op.Pairing != "" {
			opFacts = append(opFacts, Fact{"pairing", op.Pairing})
		}
		if op.SenderValidation != nil {
			opFacts = append(opFacts, Fact{"sender validated", fmt.Sprint(*op.SenderValidation)})
		}
		for _, s := range op.ChannelVia {
			opFacts = append(opFacts, Fact{"channel via", s.Description + " at " + loc(s.Location)})
		}
		if op.Side == "main" {
			id := "h:" + op.ID
			g.add(&Node{ID: id, Layer: LayerMain, Kind: op.Role, Label: op.API, Location: loc(op.Location), Facts: opFacts,
				file: op.Location.File, line: op.Location.Line})
			label := "handled by"
			if op.Role == "transmission" {
				label = "sent by"
			}
			g.link(chID, id, op.Pairing, label)
			continue
		}
		from := apisOf[op.Module]
		if len(from) == 0 {
			m := moduleNode(op.Module, "renderer code")
			from = []string{m.ID}
		}
		ch.Facts = append(ch.Facts, Fact{op.API, loc(op.Location)})
		for _, f := range from {
			g.link(f, chID, op.Pairing, op.API)
		}
	}

	attachFindings(g, r.Findings)
	return g
}

func windowName(w report.Window) string {
	if w.Variable != "" {
		return " " + w.Variable
	}
	return ""
}

var severityRank = map[string]int{"high": 4, "medium": 3, "low": 2, "info": 1}

// attachFindings ties each finding to the node of its file that starts at or
// closest before its line (a window's option, a handler's body); a finding in
// a file without nodes stays in the list only.
func attachFindings(g *Graph, findings []report.Finding) {
	g.Findings = append([]report.Finding(nil), findings...)
	byFile := map[string][]*Node{}
	for _, n := range g.Nodes {
		if n.file != "" {
			byFile[n.file] = append(byFile[n.file], n)
		}
	}
	for i, f := range g.Findings {
		cands := byFile[f.Location.File]
		var best *Node
		for _, n := range cands {
			if n.line <= f.Location.Line && (best == nil || n.line > best.line || (n.line == best.line && n.ID < best.ID)) {
				best = n
			}
		}
		if best == nil {
			for _, n := range cands {
				if best == nil || n.line < best.line || (n.line == best.line && n.ID < best.ID) {
					best = n
				}
			}
		}
		if best == nil {
			continue
		}
		best.Findings = append(best.Findings, i)
		if severityRank[f.Severity] > severityRank[best.Severity] {
			best.Severity = f.Severity
		}
	}
}

// Geometry of the drawing, in SVG user units.
const (
	nodeWidth   = 180
	nodeHeight  = 40
	columnGap   = 50
	rowGap      = 14
	marginTop   = 34
	marginLeft  = 10
	columnWidth = nodeWidth + columnGap
)

// Layout places nodes in their layer's column and orders each column by the
// mean position of the node's predecessors (one barycentric sweep left to
// right), ties broken by id, so the same graph always lands the same way.
// Beyond maxShown nodes a column is collapsed: those nodes and their edges
// are drawn hidden until the reader asks for them.
func Layout(g *Graph, maxShown int) (width, height int) {
	columns := make([][]*Node, layerCount)
	for _, n := range g.Nodes {
		columns[n.Layer] = append(columns[n.Layer], n)
	}
	preds := map[string][]string{}
	for _, e := range g.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	index := map[string]int{}
	rows := 0
	for layer, col := range columns {
		if layer > 0 {
			for _, n := range col {
				sum, k := 0.0, 0
				for _, p := range preds[n.ID] {
					if i, ok := index[p]; ok {
						sum += float64(i)
						k++
					}
				}
				if k > 0 {
					n.order = sum / float64(k)
				} else {
					n.order = 1e9
				}
			}
		}
		sort.SliceStable(col, func(i, j int) bool {
			if col[i].order != col[j].order {
				return col[i].order < col[j].order
			}
			return col[i].ID < col[j].ID
		})
		shown := 0
		for i, n := range col {
			index[n.ID] = i
			n.X = marginLeft + layer*columnWidth
			n.Y = marginTop + i*(nodeHeight+rowGap)
			n.Collapsed = maxShown > 0 && i >= maxShown
			if !n.Collapsed {
				shown++
			}
		}
		rows = max(rows, len(col))
	}
	hidden := map[string]bool{}
	for _, n := range g.Nodes {
		hidden[n.ID] = n.Collapsed
	}
	for i := range g.Edges {
		g.Edges[i].Collapsed = hidden[g.Edges[i].From] || hidden[g.Edges[i].To]
	}
	width = marginLeft*2 + layerCount*columnWidth - columnGap
	height = marginTop + max(rows, 1)*(nodeHeight+rowGap) + 10
	return width, height
}
