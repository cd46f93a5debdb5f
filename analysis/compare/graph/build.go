package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/jsengine/report"
)

// Fact states of nodes and edges.
const (
	StateObserved    = "observed"
	StateInferred    = "inferred"
	StateUnknown     = "unknown"
	StateUnavailable = "unavailable"
)

// Edge authorities: what kind of reasoning established an edge.
const (
	AuthorityStatic    = "ast-static-analysis"
	AuthorityInference = "static-relationship-inference"
	AuthorityBytes     = "artifact-bytes"
)

// Node is one fact of the application: a module, window, channel, API…
type Node struct {
	ID         string           `json:"id"`
	Kind       string           `json:"kind"`
	Label      string           `json:"label"`
	State      string           `json:"state"`
	Location   *report.Location `json:"location,omitempty"`
	Properties map[string]any   `json:"properties,omitempty"`
	// search holds the values seeds match, by field name.
	search map[string][]string
}

// Edge is a relation between two nodes with the authority behind it.
type Edge struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	To        string `json:"to"`
	Relation  string `json:"relation"`
	Authority string `json:"authority"`
	State     string `json:"state"`
}

// Graph is the application graph of one analysis. Nodes and edges are in
// a stable order (by id) so that traces are deterministic.
type Graph struct {
	Nodes []*Node
	Edges []*Edge
	byID  map[string]*Node
	out   map[string][]*Edge
	in    map[string][]*Edge
}

// Node returns the node with id, or nil.
func (g *Graph) Node(id string) *Node { return g.byID[id] }

// ID is a digest of the graph's nodes and edges: the identity of the graph
// a trace walked.
func (g *Graph) ID() string {
	h := sha256.New()
	for _, n := range g.Nodes {
		fmt.Fprintf(h, "n\x00%s\x00%s\x00%s\x00%s\n", n.ID, n.Kind, n.Label, n.State)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(h, "e\x00%s\x00%s\x00%s\x00%s\x00%s\n", e.From, e.To, e.Relation, e.Authority, e.State)
	}
	return "jag_" + hex.EncodeToString(h.Sum(nil))
}

type builder struct {
	g     *Graph
	edges map[string]*Edge
}

func (b *builder) node(id, kind, label, state string, loc *report.Location) *Node {
	if n, ok := b.g.byID[id]; ok {
		// A node first created as a bare reference takes the facts of its
		// declaration.
		if n.State == StateUnknown && state != StateUnknown {
			n.Kind, n.Label, n.State = kind, label, state
		}
		if n.Location == nil {
			n.Location = loc
		}
		return n
	}
	n := &Node{ID: id, Kind: kind, Label: label, State: state, Location: loc, search: map[string][]string{}}
	b.g.byID[id] = n
	b.g.Nodes = append(b.g.Nodes, n)
	return n
}

func (n *Node) prop(k string, v any) {
	if n.Properties == nil {
		n.Properties = map[string]any{}
	}
	n.Properties[k] = v
}

func (n *Node) index(field string, values ...string) {
	for _, v := range values {
		if v != "" {
			n.search[field] = append(n.search[field], v)
		}
	}
}

func (b *builder) edge(from, to, relation, authority, state string) {
	if from == to {
		return
	}
	id := edgeID(from, to, relation)
	if e, ok := b.edges[id]; ok {
		// The strongest statement wins: observed beats inferred.
		if e.State != StateObserved && state == StateObserved {
			e.State, e.Authority = state, authority
		}
		return
	}
	e := &Edge{ID: id, From: from, To: to, Relation: relation, Authority: authority, State: state}
	b.edges[id] = e
	b.g.Edges = append(b.g.Edges, e)
}

func edgeID(from, to, relation string) string {
	sum := sha256.Sum256([]byte(from + "\x00" + relation + "\x00" + to))
	return "jae_" + hex.EncodeToString(sum[:12])
}

func loc(l report.Location) *report.Location {
	if l.File == "" {
		return nil
	}
	return &l
}

func stateOf(s string) string {
	switch s {
	case "observed", "literal", "known", "complete":
		return StateObserved
	case "inferred", "constant":
		return StateInferred
	case "", "unknown", "dynamic", "partial", "none":
		return StateUnknown
	}
	return StateInferred
}

// moduleID names a module node.
func moduleID(path string) string { return "module:" + path }

// Build constructs the application graph of an analysis: modules and their
// imports, bundled factories, HTML documents, windows with their preloads
// and loads, context bridges and their members, IPC operations and
// channels, endpoints, native addons and their requested exports, findings
// and source maps.
func Build(a *Analysis) *Graph {
	b := &builder{g: &Graph{byID: map[string]*Node{}}, edges: map[string]*Edge{}}
	r := &a.Application
	for _, m := range r.Modules {
		st := StateObserved
		if m.ParsedBy == "failed" {
			st = StateUnavailable
		}
		n := b.node(moduleID(m.Path), "module", m.Path, st, &report.Location{File: m.Path, Line: 1, Column: 1})
		n.prop("sha256", m.SHA256)
		n.prop("roles", m.Roles)
		n.index("path", m.Path)
		n.index("role", m.Roles...)
	}
	for _, e := range r.ModuleGraph {
		to := moduleID(e.To)
		if strings.HasPrefix(e.To, "external:") {
			to = e.To
			n := b.node(to, "package", strings.TrimPrefix(e.To, "external:"), StateObserved, nil)
			n.index("package", n.Label)
		} else {
			b.node(to, "module", e.To, StateUnknown, nil).index("path", e.To)
		}
		b.node(moduleID(e.From), "module", e.From, StateUnknown, nil).index("path", e.From)
		b.edge(moduleID(e.From), to, "imports:"+e.Kind, AuthorityStatic, StateObserved)
	}
	for _, h := range r.HTML {
		n := b.node("html:"+h.Path, "html-document", h.Path, StateObserved, &report.Location{File: h.Path, Line: 1, Column: 1})
		n.index("path", h.Path)
		n.index("route", h.Path)
		for _, s := range h.Scripts {
			if s.Resolved != "" {
				b.node(moduleID(s.Resolved), "module", s.Resolved, StateUnknown, nil).index("path", s.Resolved)
				b.edge(n.ID, moduleID(s.Resolved), "loads-script", AuthorityStatic, StateObserved)
			} else if s.Remote && s.Src != "" {
				ep := b.endpoint(s.Src)
				b.edge(n.ID, ep.ID, "loads-script", AuthorityStatic, StateObserved)
			}
		}
	}
	for _, w := range r.Windows {
		n := b.node(w.ID, "browser-window", fmt.Sprintf("%s at %s:%d", w.Kind, w.Location.File, w.Location.Line), stateOf(w.Coverage), loc(w.Location))
		prefs := map[string]any{}
		for k, v := range w.WebPreferences {
			prefs[k] = v.Value
		}
		n.prop("web_preferences", prefs)
		n.prop("options_coverage", w.Coverage)
		n.index("kind", w.Kind)
		b.edge(moduleID(w.Module), n.ID, "creates-window", AuthorityStatic, StateObserved)
		if p := w.Preload; p != nil {
			target := p.Module
			if target == "" {
				target = p.Path
			}
			if target != "" {
				b.node(moduleID(target), "module", target, StateUnknown, nil).index("path", target)
				b.edge(n.ID, moduleID(target), "loads-preload", authorityFor(p.State), stateOf(p.State))
			}
		}
		for _, l := range w.Loads {
			var to *Node
			switch {
			case l.Remote || strings.Contains(l.Target, "://"):
				to = b.endpoint(l.Target)
			case l.Resolved != "":
				to = b.node("html:"+l.Resolved, "html-document", l.Resolved, StateUnknown, nil)
				to.index("route", l.Resolved)
				to.index("path", l.Resolved)
			default:
				continue
			}
			b.edge(n.ID, to.ID, "loads:"+l.Method, authorityFor(l.State), stateOf(l.State))
		}
	}
	for _, api := range r.ContextBridge {
		id := "bridge:" + api.Module + "#" + api.World + ":" + api.Key
		n := b.node(id, "context-bridge-api", api.Key, stateOf(api.KeyState), loc(api.Location))
		n.prop("world", api.World)
		n.prop("members", api.Members)
		n.prop("coverage", api.Coverage)
		if len(api.RawIPCRenderer) > 0 {
			n.prop("raw_ipc_renderer", api.RawIPCRenderer)
		}
		n.index("api", api.Key, "window."+api.Key)
		b.edge(moduleID(api.Module), id, "exposes", AuthorityStatic, StateObserved)
		for _, m := range api.Members {
			full := api.Key + "." + m
			mn := b.node("exposed-api:"+api.World+":"+full, "exposed-api", full, stateOf(api.KeyState), loc(api.Location))
			mn.index("api", full, "window."+full, m)
			b.edge(id, mn.ID, "exposes-member", AuthorityStatic, StateObserved)
		}
	}
	for _, op := range r.IPC {
		kind := "ipc-" + op.Role
		label := op.API
		if op.Channel != "" {
			label += "(" + strconvQuote(op.Channel) + ")"
		}
		st := StateObserved
		if op.ChannelState == "dynamic" {
			st = StateUnknown
		}
		n := b.node(op.ID, kind, label, st, loc(op.Location))
		n.prop("side", op.Side)
		n.prop("api", op.API)
		n.prop("channel_state", op.ChannelState)
		if op.SenderValidation != nil {
			n.prop("sender_validation", *op.SenderValidation)
		}
		n.index("api", op.API)
		b.edge(moduleID(op.Module), op.ID, "declares-ipc", AuthorityStatic, StateObserved)
		if op.Channel == "" {
			continue
		}
		ch := b.node("channel:"+op.Channel, "ipc-channel", op.Channel, StateObserved, nil)
		ch.index("channel", op.Channel)
		cst := stateOf(op.ChannelState)
		auth := AuthorityStatic
		if cst != StateObserved {
			auth = AuthorityInference
		}
		if op.Role == "transmission" {
			b.edge(op.ID, ch.ID, "sends-on", auth, cst)
		} else {
			b.edge(ch.ID, op.ID, "delivers-to", auth, cst)
		}
	}
	for _, o := range r.Observations {
		switch o.Kind {
		case "load":
			continue // the windows' loads say this with their window
		case "endpoint":
			ep := b.endpoint(o.Argument)
			b.edge(moduleID(o.Module), ep.ID, "requests:"+o.API, AuthorityStatic, stateOf(o.State))
		case "native-addon":
			id := "native-addon:" + o.Argument
			n := b.node(id, "native-addon", o.Argument, stateOf(o.State), loc(o.Location))
			n.index("path", o.Argument)
			members := append([]string{}, o.Members...)
			if prev, ok := n.Properties["requested_exports"].([]string); ok {
				members = union(prev, members)
			}
			sort.Strings(members)
			n.prop("requested_exports", members)
			b.edge(moduleID(o.Module), id, "loads-native", AuthorityStatic, stateOf(o.State))
			for _, m := range o.Members {
				en := b.node("native-export:"+o.Argument+"#"+m, "native-export", m, StateInferred, loc(o.Location))
				en.index("export", m)
				b.edge(id, en.ID, "requests-export", AuthorityInference, StateInferred)
			}
		default:
			id := fmt.Sprintf("observation:%s:%s:%d:%d", o.Kind, o.Location.File, o.Location.Line, o.Location.Column)
			n := b.node(id, o.Kind, strings.TrimSpace(o.API+" "+o.Argument), stateOf(o.State), loc(o.Location))
			n.index("api", o.API)
			n.index("argument", o.Argument)
			if o.Kind == "utility-process" && o.Argument != "" {
				n.index("route", o.Argument)
			}
			b.edge(moduleID(o.Module), id, "uses:"+o.Kind, AuthorityStatic, StateObserved)
		}
	}
	for _, bu := range r.Bundles {
		for _, m := range bu.Modules {
			id := bundledID(bu.Path, m.Key)
			n := b.node(id, "bundled-module", m.Key, StateObserved, loc(m.Location))
			n.prop("factory_sha256", m.FactorySHA256)
			n.prop("fingerprint", m.Fingerprint)
			n.index("path", m.Key)
			b.edge(moduleID(bu.Path), id, "bundles", AuthorityStatic, StateObserved)
		}
		for _, m := range bu.Modules {
			for _, req := range m.Requires {
				to := bundledID(bu.Path, req)
				if b.g.byID[to] == nil {
					b.node(to, "bundled-module", req, StateUnknown, nil).index("path", req)
				}
				b.edge(bundledID(bu.Path, m.Key), to, "requires", AuthorityStatic, StateObserved)
			}
		}
	}
	for _, f := range r.Findings {
		id := fmt.Sprintf("finding:%s:%s:%d:%d", f.RuleID, f.Location.File, f.Location.Line, f.Location.Column)
		n := b.node(id, "finding", f.RuleID+": "+f.Message, stateOf(f.Confidence), loc(f.Location))
		n.prop("severity", f.Severity)
		n.index("rule", f.RuleID)
		n.index("message", f.Message)
		if f.Location.File != "" {
			b.edge(moduleID(f.Location.File), id, "has-finding", AuthorityStatic, StateObserved)
		}
	}
	for _, sm := range r.SourceMaps {
		st := StateObserved
		if !sm.Present {
			st = StateUnavailable
		}
		n := b.node("source-map:"+sm.Path, "source-map", sm.Path, st, nil)
		n.index("path", sm.Path)
		for _, d := range sm.DeclaredBy {
			b.edge(moduleID(d), n.ID, "declares-source-map", AuthorityStatic, StateObserved)
		}
	}
	// Every edge endpoint exists: references to modules never analysed
	// (e.g. a preload path outside the root) stay as unknown nodes.
	for _, e := range b.g.Edges {
		for _, id := range []string{e.From, e.To} {
			if b.g.byID[id] == nil {
				label := id
				if strings.HasPrefix(id, "module:") {
					label = strings.TrimPrefix(id, "module:")
				}
				b.node(id, "module", label, StateUnknown, nil).index("path", label)
			}
		}
	}
	g := b.g
	sort.Slice(g.Nodes, func(i, j int) bool { return g.Nodes[i].ID < g.Nodes[j].ID })
	sort.Slice(g.Edges, func(i, j int) bool { return g.Edges[i].ID < g.Edges[j].ID })
	g.out, g.in = map[string][]*Edge{}, map[string][]*Edge{}
	for _, e := range g.Edges {
		g.out[e.From] = append(g.out[e.From], e)
		g.in[e.To] = append(g.in[e.To], e)
	}
	for _, n := range g.Nodes {
		n.index("label", n.Label)
		n.index("node_id", n.ID)
	}
	return g
}

func (b *builder) endpoint(target string) *Node {
	n := b.node("endpoint:"+target, "endpoint", target, StateObserved, nil)
	if len(n.search["route"]) == 0 {
		n.index("route", target)
	}
	return n
}

func bundledID(bundle, key string) string { return "bundled:" + bundle + "#" + key }

func authorityFor(state string) string {
	if stateOf(state) == StateObserved {
		return AuthorityStatic
	}
	return AuthorityInference
}

func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
