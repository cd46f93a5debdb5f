package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"rea/abi"
	"rea/jsengine/report"
)

// Matching tiers, strongest first. A pair is matched at the first tier
// whose key is unique on both sides; module ordinals, minified names and
// fuzzy text are never keys.
const (
	TierNodeIdentity    = "exact-node-identity"
	TierContentDigest   = "exact-content-digest"
	TierSourceDigest    = "exact-module-source-digest"
	TierSourceMap       = "source-map-identity"
	TierFingerprint     = "structural-fingerprint"
	TierSemanticKey     = "semantic-key"
	tierCount           = 6
	confidenceExact     = "exact"
	confidenceHigh      = "high"
	confidenceMedium    = "medium"
	statusUnchanged     = "unchanged"
	statusChanged       = "changed"
	statusAdded         = "added"
	statusRemoved       = "removed"
	statusUnknown       = "unknown"
	statusContradiction = "contradiction"
)

var tierNames = [tierCount]string{TierNodeIdentity, TierContentDigest, TierSourceDigest, TierSourceMap, TierFingerprint, TierSemanticKey}

func tierConfidence(t int) string {
	switch {
	case t <= 2:
		return confidenceExact
	case t == 3:
		return confidenceHigh
	}
	return confidenceMedium
}

// CompareLimits bound a comparison.
type CompareLimits struct {
	MaxComparisonItems int `json:"max_comparison_items,omitempty"`
	MaxCandidateNodes  int `json:"max_candidate_nodes,omitempty"`
	MaxGraphNodes      int `json:"max_graph_nodes,omitempty"`
	MaxGraphEdges      int `json:"max_graph_edges,omitempty"`
}

// CompareRequest is the compare operation's input.
type CompareRequest struct {
	Left   Source        `json:"left"`
	Right  Source        `json:"right"`
	Limits CompareLimits `json:"limits"`
	// IncludeUnchanged lists unchanged facts among the items; they are
	// always counted in the summary.
	IncludeUnchanged bool `json:"include_unchanged,omitempty"`
}

// DecodeCompareRequest decodes and validates the compare operation's
// params, filling defaults.
func DecodeCompareRequest(raw []byte) (*CompareRequest, error) {
	var f struct {
		Left, Right, Limits json.RawMessage
		IncludeUnchanged    json.RawMessage `json:"include_unchanged"`
	}
	if err := strictParams(raw, &f); err != nil {
		return nil, err
	}
	req := &CompareRequest{}
	var err error
	if req.Left, err = decodeSource(f.Left, "left"); err != nil {
		return nil, err
	}
	if req.Right, err = decodeSource(f.Right, "right"); err != nil {
		return nil, err
	}
	if err := decodeStrict(f.Limits, "limits", &req.Limits); err != nil {
		return nil, err
	}
	if err := decodeStrict(f.IncludeUnchanged, "include_unchanged", &req.IncludeUnchanged); err != nil {
		return nil, err
	}
	if err := req.Limits.Normalise(); err != nil {
		return nil, err
	}
	return req, nil
}

// Normalise validates the limits and fills their defaults.
func (l *CompareLimits) Normalise() error {
	for _, c := range []struct {
		v        *int
		def, max int
		name     string
	}{
		{&l.MaxComparisonItems, 20000, 50000, "limits.max_comparison_items"},
		{&l.MaxCandidateNodes, 100, 1000, "limits.max_candidate_nodes"},
		{&l.MaxGraphNodes, 20000, 50000, "limits.max_graph_nodes"},
		{&l.MaxGraphEdges, 40000, 100000, "limits.max_graph_edges"},
	} {
		if err := bounded(c.v, c.def, c.max, c.name); err != nil {
			return err
		}
	}
	return nil
}

// item is one comparable fact of one side.
type item struct {
	kind  string
	ref   string // stable display id on its side
	label string
	keys  [tierCount]string
	// Dimensions.
	content      string
	location     string
	props        map[string]string
	rels         []string
	availability string
	coverage     string
	files        []string
	loc          *report.Location
	// Matching state.
	match     *item
	tier      int
	ambiguous []*item // counterparts sharing a key with it
}

// Ref is one side of an item.
type Ref struct {
	ID       string           `json:"id"`
	Label    string           `json:"label"`
	Location *report.Location `json:"location,omitempty"`
}

// PropertyChange is one property that differs between the sides.
type PropertyChange struct {
	Name  string `json:"name"`
	Left  any    `json:"left"`
	Right any    `json:"right"`
}

// Item is one comparison verdict.
type Item struct {
	Kind              string           `json:"kind"`
	Status            string           `json:"status"`
	Label             string           `json:"label"`
	Left              *Ref             `json:"left"`
	Right             *Ref             `json:"right"`
	MatchedBy         string           `json:"matched_by,omitempty"`
	MatchConfidence   string           `json:"match_confidence,omitempty"`
	ChangedDimensions []string         `json:"changed_dimensions,omitempty"`
	PropertyChanges   []PropertyChange `json:"property_changes,omitempty"`
	Candidates        []string         `json:"candidates,omitempty"`
	CandidatesOmitted int              `json:"candidates_omitted,omitempty"`
	Reason            string           `json:"reason,omitempty"`
}

// GraphNode and GraphEdge form the bounded changed_from graph: each edge
// runs from a right-side fact to the left-side fact it changed from.
type GraphNode struct {
	ID    string `json:"id"`
	Side  string `json:"side"`
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

// GraphEdge is one changed_from relation.
type GraphEdge struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Relation   string `json:"relation"`
	MatchedBy  string `json:"matched_by"`
	Confidence string `json:"confidence"`
}

// ChangedFrom is the bounded changed_from graph.
type ChangedFrom struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// WindowChange is a window that is new or whose webPreferences changed.
type WindowChange struct {
	Label          string           `json:"label"`
	Module         string           `json:"module"`
	WebPreferences map[string]any   `json:"web_preferences,omitempty"`
	Changes        []PropertyChange `json:"changes,omitempty"`
}

// FindingRef names a finding in the summary.
type FindingRef struct {
	RuleID   string `json:"rule_id"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Message  string `json:"message"`
}

// CompareSummary answers the usual questions first.
type CompareSummary struct {
	Headline              []string                  `json:"headline"`
	NewWindows            []WindowChange            `json:"new_windows"`
	ChangedWebPreferences []WindowChange            `json:"changed_web_preferences"`
	IPCChannelsAdded      []string                  `json:"ipc_channels_added"`
	IPCChannelsRemoved    []string                  `json:"ipc_channels_removed"`
	ExposedAPIsAdded      []string                  `json:"exposed_apis_added"`
	ExposedAPIsRemoved    []string                  `json:"exposed_apis_removed"`
	EndpointsAdded        []string                  `json:"endpoints_added"`
	FindingsAdded         []FindingRef              `json:"findings_added"`
	FindingsRemoved       []FindingRef              `json:"findings_removed"`
	Statuses              map[string]int            `json:"statuses"`
	ByKind                map[string]map[string]int `json:"by_kind"`
}

// Omissions count what limits left out.
type Omissions struct {
	LeftItems   int `json:"left_items"`
	RightItems  int `json:"right_items"`
	Candidates  int `json:"candidates"`
	GraphNodes  int `json:"graph_nodes"`
	GraphEdges  int `json:"graph_edges"`
	UnknownSide int `json:"unknown_one_side_incomplete"`
}

// SideInfo describes one input.
type SideInfo struct {
	EvidenceID              string   `json:"evidence_id"`
	RootArtifactSHA256      string   `json:"root_artifact_sha256"`
	Coverage                string   `json:"coverage"`
	Items                   int      `json:"items"`
	IntegrityContradictions []string `json:"integrity_contradictions"`
}

// CompareResult is a version comparison.
type CompareResult struct {
	SchemaVersion int            `json:"schema_version"`
	ComparisonID  string         `json:"comparison_id"`
	Left          SideInfo       `json:"left"`
	Right         SideInfo       `json:"right"`
	Limits        CompareLimits  `json:"limits"`
	Summary       CompareSummary `json:"summary"`
	Items         []Item         `json:"items"`
	// UnchangedListed says whether items include unchanged facts
	// (include_unchanged); summary.statuses always counts them.
	UnchangedListed bool        `json:"unchanged_listed"`
	ChangedFrom     ChangedFrom `json:"changed_from"`
	Omissions       Omissions   `json:"omissions"`
	// Coverage is complete when both sides were complete and no limit
	// omitted anything; otherwise partial.
	Coverage    string   `json:"coverage"`
	Tiers       []string `json:"tiers"`
	Limitations []string `json:"limitations"`
}

var numericKey = regexp.MustCompile(`^[0-9]+$`)

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// items lists the comparable facts of one analysis.
func items(a *Analysis) []*item {
	r := &a.Application
	var out []*item
	sourceMapOf := map[string]string{}
	for _, sm := range r.SourceMaps {
		for _, d := range sm.DeclaredBy {
			sourceMapOf[d] = sm.Path
		}
	}
	for _, m := range r.Modules {
		it := &item{kind: "module", ref: moduleID(m.Path), label: m.Path, content: m.SHA256, location: m.Path,
			files: []string{m.Path}, availability: "parsed", coverage: "complete", loc: &report.Location{File: m.Path, Line: 1, Column: 1},
			props: map[string]string{"language": m.Language, "roles": canon(m.Roles)}}
		if m.ParsedBy == "failed" {
			it.availability = "parse-failed"
		}
		it.keys[0] = "module:" + m.Path
		it.keys[1] = m.SHA256
		if sm := sourceMapOf[m.Path]; sm != "" {
			it.keys[3] = "source-map:" + sm
		}
		for _, imp := range m.Imports {
			t := imp.Resolved
			if t == "" {
				t = imp.Kind + ":" + imp.Specifier
			}
			it.rels = append(it.rels, t)
		}
		out = append(out, it)
	}
	for _, bu := range r.Bundles {
		for _, m := range bu.Modules {
			numeric := numericKey.MatchString(m.Key)
			it := &item{kind: "bundled-module", ref: bundledID(bu.Path, m.Key), label: bu.Path + " › " + m.Key, content: m.FactorySHA256,
				files: []string{bu.Path}, availability: "parsed", coverage: "complete", loc: loc(m.Location), props: map[string]string{}}
			if m.Truncated {
				it.coverage = "fingerprint-truncated"
			}
			// Numeric keys are module ordinals: they identify nothing
			// across builds, so they are neither identity nor location.
			it.location = bu.Path
			if !numeric {
				it.keys[0] = bundledID(bu.Path, m.Key)
				it.location += "#" + m.Key
			}
			it.keys[2] = m.FactorySHA256
			if !m.Truncated {
				it.keys[4] = m.Fingerprint
			}
			ordinals := 0
			for _, req := range m.Requires {
				if numericKey.MatchString(req) {
					ordinals++
				} else {
					it.rels = append(it.rels, req)
				}
			}
			it.props["required_ordinal_modules"] = fmt.Sprint(ordinals)
			out = append(out, it)
		}
	}
	for _, w := range r.Windows {
		prefs := map[string]string{}
		for k, v := range w.WebPreferences {
			prefs["webPreferences."+k] = canon(v.Value)
		}
		preload := ""
		if w.Preload != nil {
			preload = w.Preload.Module
			if preload == "" {
				preload = w.Preload.Path
			}
			prefs["preload_module"] = canon(preload)
		}
		var loads []string
		for _, l := range w.Loads {
			t := l.Resolved
			if t == "" {
				t = l.Target
			}
			loads = append(loads, l.Method+":"+t)
		}
		sort.Strings(loads)
		it := &item{kind: "browser-window", ref: w.ID, label: fmt.Sprintf("%s in %s", w.Kind, w.Module), location: w.Module,
			files: []string{w.Module}, props: prefs, rels: loads, availability: "observed", coverage: w.Coverage, loc: loc(w.Location)}
		if len(loads) > 0 {
			it.label += " loading " + strings.Join(loads, ", ")
		}
		it.content = digest(w.Kind, w.Module, canon(prefs), canon(loads), w.Coverage)
		it.keys[1] = "window:" + it.content
		// The semantic key of a window is what it shows: its module, kind
		// and what it loads (or its preload when it loads nothing known).
		what := strings.Join(loads, ",")
		if what == "" {
			what = "preload:" + preload
		}
		if what != "preload:" {
			it.keys[5] = "window:" + w.Module + "|" + w.Kind + "|" + what
		}
		out = append(out, it)
	}
	// IPC channels aggregate their operations.
	type chanAgg struct {
		roles, modules map[string]bool
		files          []string
		validation     map[string]bool
		states         map[string]bool
		loc            *report.Location
	}
	chans := map[string]*chanAgg{}
	for _, op := range r.IPC {
		if op.Channel == "" {
			continue
		}
		c := chans[op.Channel]
		if c == nil {
			c = &chanAgg{roles: map[string]bool{}, modules: map[string]bool{}, validation: map[string]bool{}, states: map[string]bool{}, loc: loc(op.Location)}
			chans[op.Channel] = c
		}
		c.roles[op.Side+":"+op.API] = true
		c.modules[op.Module] = true
		c.states[op.ChannelState] = true
		c.files = append(c.files, op.Module)
		if op.SenderValidation != nil {
			c.validation[fmt.Sprintf("%s:%v", op.API, *op.SenderValidation)] = true
		}
	}
	for name, c := range chans {
		it := &item{kind: "ipc-channel", ref: "channel:" + name, label: name, files: c.files, availability: "observed", coverage: "complete", loc: c.loc,
			props: map[string]string{"operations": canon(sortedKeys(c.roles)), "sender_validation": canon(sortedKeys(c.validation)), "channel_states": canon(sortedKeys(c.states))}}
		it.rels = sortedKeys(c.modules)
		it.location = name
		it.keys[0] = "channel:" + name
		it.content = digest(canon(it.props), canon(it.rels))
		out = append(out, it)
	}
	// Exposed APIs: one item per member path of the main-world surface.
	apis := map[string]*item{}
	for _, b := range r.ContextBridge {
		names := []string{b.Key}
		if len(b.Members) > 0 {
			names = nil
			for _, m := range b.Members {
				names = append(names, b.Key+"."+m)
			}
		}
		for _, n := range names {
			id := "exposed-api:" + b.World + ":" + n
			it := apis[id]
			if it == nil {
				it = &item{kind: "exposed-api", ref: id, label: n, location: n, availability: "observed", loc: loc(b.Location), props: map[string]string{}}
				it.keys[0] = id
				apis[id] = it
				out = append(out, it)
			}
			it.files = append(it.files, b.Module)
			it.rels = union(it.rels, []string{b.Module})
			it.props["key_state"] = b.KeyState
			it.props["raw_ipc_renderer"] = canon(len(b.RawIPCRenderer) > 0)
			it.coverage = b.Coverage
			it.content = digest(canon(it.props), canon(it.rels), it.coverage)
		}
	}
	// Endpoints, native addons and other observations aggregate by what
	// they name, never by where they sit.
	obs := map[string]*item{}
	addObs := func(id, kind, label string, o report.Observation, props map[string]string) {
		it := obs[id]
		if it == nil {
			it = &item{kind: kind, ref: id, label: label, location: label, availability: "observed", coverage: "complete", loc: loc(o.Location), props: map[string]string{}}
			it.keys[0] = id
			obs[id] = it
			out = append(out, it)
		}
		it.files = append(it.files, o.Module)
		it.rels = union(it.rels, []string{o.Module})
		for k, v := range props {
			it.props[k] = v
		}
		it.content = digest(canon(it.props), canon(it.rels))
	}
	for _, o := range r.Observations {
		switch o.Kind {
		case "load":
		case "endpoint":
			addObs("endpoint:"+o.Argument, "endpoint", o.Argument, o, map[string]string{"api:" + o.API: "true"})
		case "native-addon":
			m := append([]string{}, o.Members...)
			sort.Strings(m)
			addObs("native-addon:"+o.Argument, "native-addon", o.Argument, o, map[string]string{"requested_exports:" + o.Module: canon(m)})
		default:
			addObs("observation:"+o.Kind+":"+o.API+":"+o.Argument, o.Kind, strings.TrimSpace(o.API+" "+o.Argument), o, map[string]string{"state": o.State})
		}
	}
	for _, w := range r.Windows {
		for _, l := range w.Loads {
			if l.Remote {
				addObs("endpoint:"+l.Target, "endpoint", l.Target, report.Observation{Module: w.Module, Location: l.Location}, map[string]string{"api:" + l.Method: "true"})
			}
		}
	}
	// Findings aggregate by rule, file and message.
	finds := map[string]*item{}
	for _, f := range r.Findings {
		id := "finding:" + f.RuleID + ":" + f.Location.File + ":" + digest(f.Message)[:16]
		it := finds[id]
		if it == nil {
			it = &item{kind: "finding", ref: id, label: f.RuleID + " in " + f.Location.File + ": " + f.Message, location: f.Location.File,
				files: []string{f.Location.File}, availability: "observed", coverage: "complete", loc: loc(f.Location),
				props: map[string]string{"severity": f.Severity, "rule_id": f.RuleID, "message": f.Message, "file": f.Location.File}}
			it.keys[0] = id
			finds[id] = it
			out = append(out, it)
		}
		it.rels = append(it.rels, f.Snippet)
		it.props["occurrences"] = fmt.Sprint(len(it.rels))
		it.content = digest(canon(it.props), canon(it.rels))
	}
	for _, it := range finds {
		sort.Strings(it.rels)
		it.content = digest(canon(it.props), canon(it.rels))
	}
	for _, sm := range r.SourceMaps {
		it := &item{kind: "source-map", ref: "source-map:" + sm.Path, label: sm.Path, location: sm.Path, files: []string{sm.Path},
			coverage: "complete", props: map[string]string{}}
		it.availability = "present"
		if !sm.Present {
			it.availability = "missing"
		}
		d := append([]string{}, sm.DeclaredBy...)
		sort.Strings(d)
		it.rels = d
		it.keys[0] = it.ref
		out = append(out, it)
	}
	for _, h := range r.HTML {
		var scripts []string
		for _, s := range h.Scripts {
			t := s.Resolved
			if t == "" {
				t = s.Src
			}
			if s.Inline {
				t = "inline:" + s.SHA256
			}
			scripts = append(scripts, t)
		}
		sort.Strings(scripts)
		csp := "none"
		if h.CSP != nil {
			csp = *h.CSP
		}
		it := &item{kind: "html-document", ref: "html:" + h.Path, label: h.Path, location: h.Path, files: []string{h.Path},
			availability: "observed", coverage: "complete", rels: scripts, props: map[string]string{"csp": csp, "webviews": fmt.Sprint(len(h.Webviews))}}
		it.keys[0] = it.ref
		it.content = digest(canon(it.props), canon(scripts))
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].kind != out[j].kind {
			return out[i].kind < out[j].kind
		}
		return out[i].ref < out[j].ref
	})
	return out
}

// match pairs the items of both sides tier by tier. At each tier only keys
// held by exactly one unmatched item on each side pair; keys shared by
// several items record the ambiguity instead of guessing, and the first
// tier that finds any candidate decides.
func match(ctx context.Context, left, right []*item) error {
	for t := 0; t < tierCount; t++ {
		if ctx.Err() != nil {
			return abi.Errorf(abi.CodeCancelled, "comparison cancelled")
		}
		index := func(side []*item) map[string][]*item {
			m := map[string][]*item{}
			for _, it := range side {
				// An item that found several candidates at a stronger
				// tier stays unknown: a weaker key must not pick one.
				if it.match == nil && len(it.ambiguous) == 0 && it.keys[t] != "" {
					k := it.kind + "\x00" + it.keys[t]
					m[k] = append(m[k], it)
				}
			}
			return m
		}
		li, ri := index(left), index(right)
		for k, ls := range li {
			rs := ri[k]
			if len(rs) == 0 {
				continue
			}
			if len(ls) == 1 && len(rs) == 1 {
				ls[0].match, rs[0].match = rs[0], ls[0]
				ls[0].tier, rs[0].tier = t, t
				continue
			}
			for _, l := range ls {
				l.ambiguous = append(l.ambiguous, rs...)
			}
			for _, r := range rs {
				r.ambiguous = append(r.ambiguous, ls...)
			}
		}
	}
	return nil
}

// Compare matches two application analyses and classifies every fact.
func Compare(ctx context.Context, req *CompareRequest) (*CompareResult, error) {
	lim := req.Limits
	res := &CompareResult{SchemaVersion: SchemaVersion, Limits: lim, Items: []Item{},
		ChangedFrom: ChangedFrom{Nodes: []GraphNode{}, Edges: []GraphEdge{}}, Tiers: tierNames[:], Limitations: []string{}}
	side := func(s *Source, info *SideInfo) ([]*item, map[string]bool, int) {
		all := items(&s.Analysis)
		omitted := 0
		if len(all) > lim.MaxComparisonItems {
			omitted = len(all) - lim.MaxComparisonItems
			all = all[:lim.MaxComparisonItems]
		}
		bad := map[string]bool{}
		info.IntegrityContradictions = []string{}
		for _, c := range s.Analysis.IntegrityContradictions {
			bad[c.LogicalPath] = true
			info.IntegrityContradictions = append(info.IntegrityContradictions, c.LogicalPath)
		}
		info.EvidenceID, info.RootArtifactSHA256, info.Coverage, info.Items = s.EvidenceID, s.Analysis.RootArtifactSHA256, s.Analysis.Coverage, len(all)+omitted
		return all, bad, omitted
	}
	left, leftBad, lo := side(&req.Left, &res.Left)
	right, rightBad, ro := side(&req.Right, &res.Right)
	res.Omissions.LeftItems, res.Omissions.RightItems = lo, ro
	if err := match(ctx, left, right); err != nil {
		return nil, err
	}
	leftComplete := req.Left.Analysis.complete() && lo == 0
	rightComplete := req.Right.Analysis.complete() && ro == 0
	contradicted := func(it *item) bool {
		for _, f := range it.files {
			if leftBad[f] || rightBad[f] {
				return true
			}
		}
		return false
	}
	ref := func(it *item) *Ref {
		if it == nil {
			return nil
		}
		return &Ref{ID: it.ref, Label: it.label, Location: it.loc}
	}
	candidates := func(v *Item, it *item) {
		seen := map[string]bool{}
		var ids []string
		for _, c := range it.ambiguous {
			if !seen[c.ref] {
				seen[c.ref] = true
				ids = append(ids, c.ref)
			}
		}
		sort.Strings(ids)
		if len(ids) > lim.MaxCandidateNodes {
			v.CandidatesOmitted = len(ids) - lim.MaxCandidateNodes
			res.Omissions.Candidates += v.CandidatesOmitted
			ids = ids[:lim.MaxCandidateNodes]
		}
		v.Candidates = ids
	}
	for _, l := range left {
		v := Item{Kind: l.kind, Label: l.label, Left: ref(l)}
		switch r := l.match; {
		case r != nil:
			v.Right = ref(r)
			v.Label = r.label
			v.MatchedBy, v.MatchConfidence = tierNames[l.tier], tierConfidence(l.tier)
			v.ChangedDimensions, v.PropertyChanges = dimensions(l, r)
			v.Status = statusUnchanged
			if len(v.ChangedDimensions) > 0 {
				v.Status = statusChanged
			}
			if contradicted(l) || contradicted(r) {
				v.Status, v.Reason = statusContradiction, "an integrity contradiction covers a file of this fact; its bytes are not trusted"
			}
		case contradicted(l):
			v.Status, v.Reason = statusContradiction, "an integrity contradiction covers a file of this fact; its bytes are not trusted"
		case len(l.ambiguous) > 0:
			v.Status, v.Reason = statusUnknown, "several right-side facts share a matching key; rea does not guess between them"
			candidates(&v, l)
		case !rightComplete:
			v.Status, v.Reason = statusUnknown, "not found on the right, whose coverage is incomplete; it may be outside what was analysed"
			res.Omissions.UnknownSide++
		default:
			v.Status = statusRemoved
		}
		res.Items = append(res.Items, v)
	}
	for _, r := range right {
		if r.match != nil {
			continue
		}
		v := Item{Kind: r.kind, Label: r.label, Right: ref(r)}
		switch {
		case contradicted(r):
			v.Status, v.Reason = statusContradiction, "an integrity contradiction covers a file of this fact; its bytes are not trusted"
		case len(r.ambiguous) > 0:
			v.Status, v.Reason = statusUnknown, "several left-side facts share a matching key; rea does not guess between them"
			candidates(&v, r)
		case !leftComplete:
			v.Status, v.Reason = statusUnknown, "not found on the left, whose coverage is incomplete; it may be outside what was analysed"
			res.Omissions.UnknownSide++
		default:
			v.Status = statusAdded
		}
		res.Items = append(res.Items, v)
	}
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "comparison cancelled")
	}
	rank := map[string]int{statusContradiction: 0, statusAdded: 1, statusRemoved: 2, statusChanged: 3, statusUnknown: 4, statusUnchanged: 5}
	sort.SliceStable(res.Items, func(i, j int) bool {
		a, b := res.Items[i], res.Items[j]
		if rank[a.Status] != rank[b.Status] {
			return rank[a.Status] < rank[b.Status]
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return itemKey(a) < itemKey(b)
	})
	res.changedFrom(lim)
	res.summarise(left, right)
	if !req.IncludeUnchanged {
		kept := res.Items[:0]
		for _, v := range res.Items {
			if v.Status != statusUnchanged {
				kept = append(kept, v)
			}
		}
		res.Items = kept
		res.UnchangedListed = false
	} else {
		res.UnchangedListed = true
	}
	res.Coverage = "complete"
	if !leftComplete || !rightComplete || res.Omissions.Candidates+res.Omissions.GraphNodes+res.Omissions.GraphEdges > 0 {
		res.Coverage = "partial"
	}
	if lo+ro > 0 {
		res.Limitations = append(res.Limitations, fmt.Sprintf("max_comparison_items (%d) left out %d left and %d right facts; absence is not claimed.", lim.MaxComparisonItems, lo, ro))
	}
	if !req.Left.Analysis.complete() || !req.Right.Analysis.complete() {
		res.Limitations = append(res.Limitations, "At least one side has partial coverage: facts missing from the other side are reported unknown, never added or removed.")
	}
	if len(res.Left.IntegrityContradictions)+len(res.Right.IntegrityContradictions) > 0 {
		res.Limitations = append(res.Limitations, "Integrity contradictions were recorded; facts in those files are classified contradiction.")
	}
	b, _ := json.Marshal(struct {
		L, R   string
		Limits CompareLimits
		N      int
	}{req.Left.EvidenceID, req.Right.EvidenceID, lim, len(res.Items)})
	sum := sha256.Sum256(b)
	res.ComparisonID = "jacv_" + hex.EncodeToString(sum[:])
	return res, nil
}

func itemKey(v Item) string {
	k := ""
	if v.Right != nil {
		k = v.Right.ID
	}
	if v.Left != nil {
		k += "\x00" + v.Left.ID
	}
	return k
}

// dimensions lists what differs between two matched facts.
func dimensions(l, r *item) ([]string, []PropertyChange) {
	var dims []string
	if l.content != r.content {
		dims = append(dims, "content")
	}
	if l.location != r.location {
		dims = append(dims, "location")
	}
	var changes []PropertyChange
	keys := map[string]bool{}
	for k := range l.props {
		keys[k] = true
	}
	for k := range r.props {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		lv, lok := l.props[k]
		rv, rok := r.props[k]
		if lok == rok && lv == rv {
			continue
		}
		changes = append(changes, PropertyChange{Name: k, Left: decodeProp(lv, lok), Right: decodeProp(rv, rok)})
	}
	if len(changes) > 0 {
		dims = append(dims, "properties")
	}
	if canon(l.rels) != canon(r.rels) {
		dims = append(dims, "relationships")
	}
	if l.availability != r.availability {
		dims = append(dims, "availability")
	}
	if l.coverage != r.coverage {
		dims = append(dims, "coverage")
	}
	return dims, changes
}

// decodeProp shows a property value as JSON when it is JSON, null when
// the side does not have it.
func decodeProp(v string, ok bool) any {
	if !ok {
		return nil
	}
	var x any
	if json.Unmarshal([]byte(v), &x) == nil {
		return x
	}
	return v
}

func (res *CompareResult) changedFrom(lim CompareLimits) {
	seen := map[string]bool{}
	g := &res.ChangedFrom
	for _, v := range res.Items {
		if v.Status != statusChanged || v.Left == nil || v.Right == nil {
			continue
		}
		from, to := "right:"+v.Right.ID, "left:"+v.Left.ID
		var fresh []GraphNode
		if !seen[from] {
			fresh = append(fresh, GraphNode{ID: from, Side: "right", Kind: v.Kind, Label: v.Right.Label})
		}
		if !seen[to] {
			fresh = append(fresh, GraphNode{ID: to, Side: "left", Kind: v.Kind, Label: v.Left.Label})
		}
		// An edge enters with both its ends or not at all: the graph
		// never holds a dangling node.
		if len(g.Edges) >= lim.MaxGraphEdges || len(g.Nodes)+len(fresh) > lim.MaxGraphNodes {
			res.Omissions.GraphEdges++
			res.Omissions.GraphNodes += len(fresh)
			continue
		}
		for _, n := range fresh {
			seen[n.ID] = true
			g.Nodes = append(g.Nodes, n)
		}
		g.Edges = append(g.Edges, GraphEdge{From: from, To: to, Relation: "changed_from", MatchedBy: v.MatchedBy, Confidence: v.MatchConfidence})
	}
}

func (res *CompareResult) summarise(left, right []*item) {
	s := &res.Summary
	s.NewWindows, s.ChangedWebPreferences = []WindowChange{}, []WindowChange{}
	s.IPCChannelsAdded, s.IPCChannelsRemoved, s.ExposedAPIsAdded, s.ExposedAPIsRemoved, s.EndpointsAdded = []string{}, []string{}, []string{}, []string{}, []string{}
	s.FindingsAdded, s.FindingsRemoved = []FindingRef{}, []FindingRef{}
	s.Statuses, s.ByKind = map[string]int{}, map[string]map[string]int{}
	byRef := map[string]*item{}
	for _, it := range right {
		byRef["r\x00"+it.ref] = it
	}
	for _, it := range left {
		byRef["l\x00"+it.ref] = it
	}
	windowPrefs := func(it *item) map[string]any {
		out := map[string]any{}
		for k, v := range it.props {
			if name, ok := strings.CutPrefix(k, "webPreferences."); ok {
				out[name] = decodeProp(v, true)
			}
		}
		return out
	}
	finding := func(it *item) FindingRef {
		return FindingRef{RuleID: it.props["rule_id"], Severity: it.props["severity"], File: it.props["file"], Message: it.props["message"]}
	}
	for _, v := range res.Items {
		s.Statuses[v.Status]++
		if s.ByKind[v.Kind] == nil {
			s.ByKind[v.Kind] = map[string]int{}
		}
		s.ByKind[v.Kind][v.Status]++
		var l, r *item
		if v.Left != nil {
			l = byRef["l\x00"+v.Left.ID]
		}
		if v.Right != nil {
			r = byRef["r\x00"+v.Right.ID]
		}
		switch {
		case v.Kind == "browser-window" && v.Status == statusAdded:
			s.NewWindows = append(s.NewWindows, WindowChange{Label: r.label, Module: r.location, WebPreferences: windowPrefs(r)})
		case v.Kind == "browser-window" && v.Status == statusChanged:
			var ch []PropertyChange
			for _, c := range v.PropertyChanges {
				if strings.HasPrefix(c.Name, "webPreferences.") || c.Name == "preload_module" {
					ch = append(ch, c)
				}
			}
			if len(ch) > 0 {
				s.ChangedWebPreferences = append(s.ChangedWebPreferences, WindowChange{Label: r.label, Module: r.location, Changes: ch})
			}
		case v.Kind == "ipc-channel" && v.Status == statusAdded:
			s.IPCChannelsAdded = append(s.IPCChannelsAdded, r.label)
		case v.Kind == "ipc-channel" && v.Status == statusRemoved:
			s.IPCChannelsRemoved = append(s.IPCChannelsRemoved, l.label)
		case v.Kind == "exposed-api" && v.Status == statusAdded:
			s.ExposedAPIsAdded = append(s.ExposedAPIsAdded, r.label)
		case v.Kind == "exposed-api" && v.Status == statusRemoved:
			s.ExposedAPIsRemoved = append(s.ExposedAPIsRemoved, l.label)
		case v.Kind == "endpoint" && v.Status == statusAdded:
			s.EndpointsAdded = append(s.EndpointsAdded, r.label)
		case v.Kind == "finding" && v.Status == statusAdded:
			s.FindingsAdded = append(s.FindingsAdded, finding(r))
		case v.Kind == "finding" && v.Status == statusRemoved:
			s.FindingsRemoved = append(s.FindingsRemoved, finding(l))
		}
	}
	for _, l := range [][]string{s.IPCChannelsAdded, s.IPCChannelsRemoved, s.ExposedAPIsAdded, s.ExposedAPIsRemoved, s.EndpointsAdded} {
		sort.Strings(l)
	}
	h := []string{}
	if n := len(s.NewWindows); n > 0 {
		h = append(h, fmt.Sprintf("%d new window(s)", n))
	}
	if n := len(s.ChangedWebPreferences); n > 0 {
		h = append(h, fmt.Sprintf("%d window(s) with changed webPreferences", n))
	}
	if len(s.IPCChannelsAdded)+len(s.IPCChannelsRemoved) > 0 {
		h = append(h, fmt.Sprintf("IPC channels +%d −%d", len(s.IPCChannelsAdded), len(s.IPCChannelsRemoved)))
	}
	if len(s.ExposedAPIsAdded)+len(s.ExposedAPIsRemoved) > 0 {
		h = append(h, fmt.Sprintf("exposed APIs +%d −%d", len(s.ExposedAPIsAdded), len(s.ExposedAPIsRemoved)))
	}
	if n := len(s.EndpointsAdded); n > 0 {
		h = append(h, fmt.Sprintf("%d new endpoint(s)", n))
	}
	if len(s.FindingsAdded)+len(s.FindingsRemoved) > 0 {
		h = append(h, fmt.Sprintf("findings +%d −%d", len(s.FindingsAdded), len(s.FindingsRemoved)))
	}
	h = append(h, fmt.Sprintf("%d changed, %d added, %d removed, %d unknown, %d contradiction, %d unchanged",
		s.Statuses[statusChanged], s.Statuses[statusAdded], s.Statuses[statusRemoved], s.Statuses[statusUnknown], s.Statuses[statusContradiction], s.Statuses[statusUnchanged]))
	s.Headline = h
}
