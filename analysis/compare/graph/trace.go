package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"rea/abi"
)

// Seed kinds.
var seedKinds = []string{"node-id", "route", "string", "api", "channel", "module", "native-export"}

// Seed is one typed literal a trace starts from.
type Seed struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	// Match is exact or contains; it defaults to contains for string seeds
	// and exact for every other kind.
	Match         string `json:"match,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
}

// TraceLimits bound a trace.
type TraceLimits struct {
	MaxSeedMatches int `json:"max_seed_matches,omitempty"`
	MaxDepth       int `json:"max_depth,omitempty"`
	MaxNodes       int `json:"max_nodes,omitempty"`
	MaxEdges       int `json:"max_edges,omitempty"`
	MaxPaths       int `json:"max_paths,omitempty"`
}

// TraceRequest is the trace operation's input.
type TraceRequest struct {
	Source Source `json:"source"`
	Seeds  []Seed `json:"seeds"`
	// Direction is forward (along edges), backward (against them) or both.
	Direction string      `json:"direction,omitempty"`
	Limits    TraceLimits `json:"limits"`
}

// maxPathHops bounds one reported path.
const maxPathHops = 64

// maxFrontier bounds the frontier list (the count is always complete).
const maxFrontier = 100

// DecodeTraceRequest decodes and validates the trace operation's params,
// filling defaults.
func DecodeTraceRequest(raw []byte) (*TraceRequest, error) {
	var f struct {
		Source, Seeds, Direction, Limits json.RawMessage
	}
	if err := strictParams(raw, &f); err != nil {
		return nil, err
	}
	req := &TraceRequest{}
	var err error
	if req.Source, err = decodeSource(f.Source, "source"); err != nil {
		return nil, err
	}
	if err := decodeStrict(f.Seeds, "seeds", &req.Seeds); err != nil {
		return nil, err
	}
	if err := decodeStrict(f.Direction, "direction", &req.Direction); err != nil {
		return nil, err
	}
	if err := decodeStrict(f.Limits, "limits", &req.Limits); err != nil {
		return nil, err
	}
	if err := req.Normalise(); err != nil {
		return nil, err
	}
	return req, nil
}

// Normalise validates the seeds, direction and limits and fills their
// defaults; it does not look at the source.
func (r *TraceRequest) Normalise() error {
	if len(r.Seeds) == 0 || len(r.Seeds) > 32 {
		return abi.Errorf(abi.CodeInvalidRequest, "give between 1 and 32 seeds (kind and value)").WithDetail("field", "seeds")
	}
	for i := range r.Seeds {
		s := &r.Seeds[i]
		ok := false
		for _, k := range seedKinds {
			ok = ok || k == s.Kind
		}
		if !ok {
			return abi.Errorf(abi.CodeInvalidRequest, "seed kind %q is not one of %s", s.Kind, strings.Join(seedKinds, ", ")).WithDetail("field", "seeds.kind")
		}
		if s.Value == "" || len(s.Value) > 4096 {
			return abi.Errorf(abi.CodeInvalidRequest, "seed value must be 1 to 4096 bytes").WithDetail("field", "seeds.value")
		}
		switch s.Match {
		case "":
			s.Match = "exact"
			if s.Kind == "string" {
				s.Match = "contains"
			}
		case "exact", "contains":
		default:
			return abi.Errorf(abi.CodeInvalidRequest, "match %q is not exact or contains", s.Match).WithDetail("field", "seeds.match")
		}
	}
	switch r.Direction {
	case "", "both":
		r.Direction = "both"
	case "forward", "outgoing":
		r.Direction = "forward"
	case "backward", "incoming":
		r.Direction = "backward"
	default:
		return abi.Errorf(abi.CodeInvalidRequest, "direction %q is not forward, backward or both", r.Direction).WithDetail("field", "direction")
	}
	l := &r.Limits
	for _, c := range []struct {
		v        *int
		def, max int
		name     string
	}{
		{&l.MaxSeedMatches, 25, 1000, "limits.max_seed_matches"},
		{&l.MaxDepth, 12, 64, "limits.max_depth"},
		{&l.MaxNodes, 2000, 50000, "limits.max_nodes"},
		{&l.MaxEdges, 4000, 100000, "limits.max_edges"},
		{&l.MaxPaths, 100, 1000, "limits.max_paths"},
	} {
		if err := bounded(c.v, c.def, c.max, c.name); err != nil {
			return err
		}
	}
	return nil
}

// SeedMatch is a node a seed matched, and why.
type SeedMatch struct {
	Seed   int    `json:"seed"`
	NodeID string `json:"node_id"`
	Kind   string `json:"kind"`
	// Basis is node-id, label, identity or property.
	Basis string `json:"basis"`
	Field string `json:"field"`
}

// Path is one route through the traced subgraph from a seed.
type Path struct {
	ID                string   `json:"path_id"`
	Nodes             []string `json:"nodes"`
	Edges             []string `json:"edges"`
	Authorities       []string `json:"authorities"`
	ContainsInference bool     `json:"contains_inference"`
}

// NativeHandoff is where the trace leaves JavaScript for native code: the
// addon, the exports the JavaScript asks for, and what to run next.
type NativeHandoff struct {
	NativeNodeID     string   `json:"native_node_id"`
	Path             string   `json:"path"`
	ArtifactSHA256   *string  `json:"artifact_sha256"`
	RequestedExports []string `json:"requested_exports"`
	Status           string   `json:"status"`
	EvidenceIDs      []string `json:"evidence_ids"`
	RecommendedTools []string `json:"recommended_tools"`
}

// TraceCoverage says how much of the reachable graph the trace reports.
type TraceCoverage struct {
	// Status is complete-within-source, partial (the source analysis was
	// partial), truncated (a trace limit was reached) or no-match.
	Status          string         `json:"status"`
	Omitted         map[string]int `json:"omitted"`
	LimitsReached   []string       `json:"limits_reached"`
	Frontier        []string       `json:"frontier"`
	FrontierOmitted int            `json:"frontier_omitted"`
}

// TraceSummary counts the facts in the subgraph by state.
type TraceSummary struct {
	SeedMatches      int `json:"seed_matches"`
	Nodes            int `json:"nodes"`
	Edges            int `json:"edges"`
	Paths            int `json:"paths"`
	NativeHandoffs   int `json:"native_handoffs"`
	ObservedFacts    int `json:"observed_facts"`
	InferredFacts    int `json:"inferred_facts"`
	UnknownFacts     int `json:"unknown_facts"`
	UnavailableFacts int `json:"unavailable_facts"`
}

// TraceResult is a bounded feature trace.
type TraceResult struct {
	SchemaVersion    int             `json:"schema_version"`
	TraceID          string          `json:"trace_id"`
	SourceEvidenceID string          `json:"source_evidence_id"`
	SourceGraphID    string          `json:"source_graph_id"`
	Seeds            []Seed          `json:"seeds"`
	Direction        string          `json:"direction"`
	Limits           TraceLimits     `json:"limits"`
	Summary          TraceSummary    `json:"summary"`
	SeedMatches      []SeedMatch     `json:"seed_matches"`
	Nodes            []*Node         `json:"nodes"`
	Edges            []*Edge         `json:"edges"`
	Paths            []Path          `json:"paths"`
	NativeHandoffs   []NativeHandoff `json:"native_handoffs"`
	Coverage         TraceCoverage   `json:"coverage"`
	Limitations      []string        `json:"limitations"`
}

// seedFields are the node fields each seed kind reads.
func seedFields(kind string) []string {
	switch kind {
	case "node-id":
		return []string{"node_id"}
	case "route":
		return []string{"route"}
	case "api":
		return []string{"api"}
	case "channel":
		return []string{"channel"}
	case "module":
		return []string{"path", "package"}
	case "native-export":
		return []string{"export"}
	}
	return []string{"label", "path", "route", "api", "channel", "argument", "message", "rule", "export", "package", "role", "kind"}
}

func basisOf(field string) string {
	switch field {
	case "node_id":
		return "node-id"
	case "label":
		return "label"
	case "path", "channel", "package", "export":
		return "identity"
	}
	return "property"
}

func (s Seed) matches(v string) bool {
	want := s.Value
	if !s.CaseSensitive {
		v, want = strings.ToLower(v), strings.ToLower(want)
	}
	if s.Match == "contains" {
		return strings.Contains(v, want)
	}
	if v == want {
		return true
	}
	// An exact module seed may name a file by its base name.
	return s.Kind == "module" && path.Base(v) == want
}

// Trace walks the application graph from the nodes the seeds match, within
// the limits, and reports the subgraph, its paths and native handoffs.
func Trace(ctx context.Context, req *TraceRequest) (*TraceResult, error) {
	g := Build(&req.Source.Analysis)
	if err := ctx.Err(); err != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "trace cancelled")
	}
	res := &TraceResult{
		SchemaVersion: SchemaVersion, SourceEvidenceID: req.Source.EvidenceID, SourceGraphID: g.ID(),
		Seeds: req.Seeds, Direction: req.Direction, Limits: req.Limits,
		SeedMatches: []SeedMatch{}, Nodes: []*Node{}, Edges: []*Edge{}, Paths: []Path{}, NativeHandoffs: []NativeHandoff{},
		Coverage:    TraceCoverage{Omitted: map[string]int{"seed_matches": 0, "nodes": 0, "edges": 0, "paths": 0}, LimitsReached: []string{}, Frontier: []string{}},
		Limitations: []string{},
	}
	reached := func(limit string) {
		for _, l := range res.Coverage.LimitsReached {
			if l == limit {
				return
			}
		}
		res.Coverage.LimitsReached = append(res.Coverage.LimitsReached, limit)
	}
	// Seeds.
	seen := map[string]bool{}
	var starts []string
	for si, s := range req.Seeds {
		for _, n := range g.Nodes {
			for _, field := range seedFields(s.Kind) {
				hit := false
				for _, v := range n.search[field] {
					if s.matches(v) {
						hit = true
						break
					}
				}
				if !hit {
					continue
				}
				if seen[n.ID] {
					break
				}
				if len(res.SeedMatches) >= req.Limits.MaxSeedMatches {
					res.Coverage.Omitted["seed_matches"]++
					reached("max_seed_matches")
					break
				}
				seen[n.ID] = true
				res.SeedMatches = append(res.SeedMatches, SeedMatch{Seed: si, NodeID: n.ID, Kind: n.Kind, Basis: basisOf(field), Field: field})
				starts = append(starts, n.ID)
				break
			}
		}
	}
	if len(starts) == 0 {
		res.Coverage.Status = "no-match"
		res.Limitations = append(res.Limitations, "No node of the application graph matched the seeds; try match contains, another seed kind, or case_sensitive false.")
		res.TraceID = traceID(req, res)
		return res, nil
	}
	// Breadth-first walk. With direction both, what is reached forward
	// keeps going forward and what is reached backward keeps going
	// backward: the trace is the seed's upstream and downstream, not
	// everything that shares a module with it.
	type visit struct {
		depth  int
		mode   string // forward | backward | both (seeds)
		parent string // node id of the BFS parent ("" for seeds)
		via    *Edge
	}
	visited := map[string]visit{}
	type entry struct{ id, mode string }
	queue := []entry{}
	expanded := map[entry]bool{}
	order := []string{}
	edgesIn := map[string]bool{}
	for _, id := range starts {
		if len(order) >= req.Limits.MaxNodes {
			res.Coverage.Omitted["nodes"]++
			reached("max_nodes")
			continue
		}
		visited[id] = visit{mode: req.Direction}
		order = append(order, id)
		queue = append(queue, entry{id, req.Direction})
	}
	var frontier []string
	frontierSeen := map[string]bool{}
	addFrontier := func(id string) {
		if !frontierSeen[id] {
			frontierSeen[id] = true
			frontier = append(frontier, id)
		}
	}
	depthOf := map[entry]int{}
	for qi := 0; qi < len(queue); qi++ {
		if qi%256 == 0 && ctx.Err() != nil {
			return nil, abi.Errorf(abi.CodeCancelled, "trace cancelled")
		}
		cur := queue[qi]
		if expanded[cur] {
			continue
		}
		expanded[cur] = true
		depth := depthOf[cur]
		type step struct {
			e    *Edge
			mode string
		}
		var next []step
		if cur.mode != "backward" {
			for _, e := range g.out[cur.id] {
				next = append(next, step{e, "forward"})
			}
		}
		if cur.mode != "forward" {
			for _, e := range g.in[cur.id] {
				next = append(next, step{e, "backward"})
			}
		}
		for _, st := range next {
			e := st.e
			other := e.To
			if st.mode == "backward" {
				other = e.From
			}
			if depth >= req.Limits.MaxDepth {
				if !edgesIn[e.ID] {
					addFrontier(cur.id)
					reached("max_depth")
				}
				continue
			}
			if edgesIn[e.ID] {
				continue
			}
			_, known := visited[other]
			if !known && len(order) >= req.Limits.MaxNodes {
				res.Coverage.Omitted["nodes"]++
				reached("max_nodes")
				addFrontier(cur.id)
				continue
			}
			if len(res.Edges) >= req.Limits.MaxEdges {
				res.Coverage.Omitted["edges"]++
				reached("max_edges")
				addFrontier(cur.id)
				continue
			}
			edgesIn[e.ID] = true
			res.Edges = append(res.Edges, e)
			if !known {
				visited[other] = visit{depth: depth + 1, mode: st.mode, parent: cur.id, via: e}
				order = append(order, other)
			}
			nx := entry{other, st.mode}
			if !expanded[nx] {
				if _, ok := depthOf[nx]; !ok {
					depthOf[nx] = depth + 1
				}
				queue = append(queue, nx)
			}
		}
	}
	for _, id := range order {
		res.Nodes = append(res.Nodes, g.byID[id])
	}
	sort.Slice(res.Nodes, func(i, j int) bool { return res.Nodes[i].ID < res.Nodes[j].ID })
	sort.Slice(res.Edges, func(i, j int) bool { return res.Edges[i].ID < res.Edges[j].ID })
	// Paths: from a seed to every leaf of the breadth-first tree.
	hasChild := map[string]bool{}
	for _, id := range order {
		if p := visited[id].parent; p != "" {
			hasChild[p] = true
		}
	}
	for _, id := range order {
		if hasChild[id] || visited[id].parent == "" {
			continue
		}
		if len(res.Paths) >= req.Limits.MaxPaths {
			res.Coverage.Omitted["paths"]++
			reached("max_paths")
			continue
		}
		var nodes, edges []string
		auth := map[string]bool{}
		inference := false
		for cur := id; ; {
			nodes = append(nodes, cur)
			vv := visited[cur]
			if vv.via == nil {
				break
			}
			edges = append(edges, vv.via.ID)
			auth[vv.via.Authority] = true
			inference = inference || vv.via.State != StateObserved
			cur = vv.parent
		}
		for _, n := range nodes {
			inference = inference || g.byID[n].State == StateInferred
		}
		reverse(nodes)
		reverse(edges)
		if len(edges) > maxPathHops {
			nodes, edges = nodes[:maxPathHops+1], edges[:maxPathHops]
		}
		p := Path{Nodes: nodes, Edges: edges, Authorities: sortedKeys(auth), ContainsInference: inference}
		sum := sha256.Sum256([]byte(strings.Join(nodes, "\x00") + "\x01" + strings.Join(edges, "\x00")))
		p.ID = "jatp_" + hex.EncodeToString(sum[:])
		res.Paths = append(res.Paths, p)
	}
	sort.Slice(res.Paths, func(i, j int) bool { return res.Paths[i].ID < res.Paths[j].ID })
	// Native handoffs.
	for _, n := range res.Nodes {
		if n.Kind != "native-addon" {
			continue
		}
		exports, _ := n.Properties["requested_exports"].([]string)
		res.NativeHandoffs = append(res.NativeHandoffs, NativeHandoff{
			NativeNodeID: n.ID, Path: n.Label, RequestedExports: append([]string{}, exports...),
			Status: "requires-provider-analysis", EvidenceIDs: []string{},
			RecommendedTools: []string{"inspect_binary_layout", "open_binary", "binary_overview", "search_procedures", "analyze_function", "xrefs"},
		})
	}
	// Summary and coverage.
	s := &res.Summary
	s.SeedMatches, s.Nodes, s.Edges, s.Paths, s.NativeHandoffs = len(res.SeedMatches), len(res.Nodes), len(res.Edges), len(res.Paths), len(res.NativeHandoffs)
	count := func(state string) {
		switch state {
		case StateObserved:
			s.ObservedFacts++
		case StateInferred:
			s.InferredFacts++
		case StateUnknown:
			s.UnknownFacts++
		default:
			s.UnavailableFacts++
		}
	}
	for _, n := range res.Nodes {
		count(n.State)
	}
	for _, e := range res.Edges {
		count(e.State)
	}
	sort.Strings(frontier)
	if len(frontier) > maxFrontier {
		res.Coverage.FrontierOmitted = len(frontier) - maxFrontier
		frontier = frontier[:maxFrontier]
	}
	res.Coverage.Frontier = append(res.Coverage.Frontier, frontier...)
	sort.Strings(res.Coverage.LimitsReached)
	switch {
	case len(res.Coverage.LimitsReached) > 0:
		res.Coverage.Status = "truncated"
		res.Limitations = append(res.Limitations, "The trace reached "+strings.Join(res.Coverage.LimitsReached, ", ")+"; raise the limit or start from the frontier nodes to see the rest.")
	case !req.Source.Analysis.complete():
		res.Coverage.Status = "partial"
		res.Limitations = append(res.Limitations, "The source analysis has partial coverage (a limit was reached or integrity contradictions were recorded); facts outside it are missing from the trace.")
	default:
		res.Coverage.Status = "complete-within-source"
	}
	if len(res.NativeHandoffs) > 0 {
		res.Limitations = append(res.Limitations, "The trace stops at native addons; analyse them with a native provider (inspect_binary_layout, then open_binary).")
	}
	res.TraceID = traceID(req, res)
	return res, nil
}

func traceID(req *TraceRequest, res *TraceResult) string {
	b, _ := json.Marshal(struct {
		Source    string
		Graph     string
		Seeds     []Seed
		Direction string
		Limits    TraceLimits
	}{req.Source.EvidenceID, res.SourceGraphID, req.Seeds, req.Direction, req.Limits})
	sum := sha256.Sum256(b)
	return "jatr_" + hex.EncodeToString(sum[:])
}

func reverse(s []string) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
