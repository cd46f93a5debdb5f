// Package artifacts compares two artifact inventories (the normalized
// results of inspect_artifact Evidence) per logical path. Each side may be
// several pages of one scan; only what both sides hold is compared, and
// every gap — an unread page, partial coverage, an unavailable digest —
// becomes truncated or unknown, never equivalence. It is pure computation
// and builds natively as well as inside the compare wasm module.
package artifacts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/abi"
)

// Statuses of a logical path and of the whole comparison.
const (
	StatusUnchanged     = "unchanged"
	StatusAdded         = "added"
	StatusRemoved       = "removed"
	StatusChanged       = "changed"
	StatusUnknown       = "unknown"
	StatusContradiction = "contradiction"
	// StatusTruncated is only an overall status: a side's pages do not
	// cover its whole inventory.
	StatusTruncated = "truncated"
)

// Dimensions compared for a path present on both sides, in report order.
var Dimensions = []string{"content", "kind", "format", "size", "executable", "relations", "availability", "integrity"}

// Node is one content-addressed artifact.
type Node struct {
	ArtifactID string `json:"artifact_id"`
	Kind       string `json:"kind"`
	SHA256     string `json:"sha256"`
	Size       int64  `json:"size"`
	Format     string `json:"format,omitempty"`
}

// Occurrence is one entry of one container.
type Occurrence struct {
	OccurrenceID     string  `json:"occurrence_id"`
	ArtifactID       *string `json:"artifact_id"`
	ParentArtifactID string  `json:"parent_artifact_id"`
	LogicalPath      string  `json:"logical_path"`
	EntryKind        string  `json:"entry_kind"`
	Size             int64   `json:"size"`
	ObservedSHA256   *string `json:"observed_sha256"`
	HashStatus       string  `json:"hash_status,omitempty"`
	Executable       bool    `json:"executable"`
	Unpacked         bool    `json:"unpacked"`
	LinkTarget       string  `json:"link_target,omitempty"`
}

// Edge is one relation between artifacts.
type Edge struct {
	EdgeID         string `json:"edge_id"`
	Relation       string `json:"relation"`
	FromArtifactID string `json:"from_artifact_id"`
	ToArtifactID   string `json:"to_artifact_id"`
	OccurrenceID   string `json:"occurrence_id"`
}

// Contradiction is a recorded integrity contradiction.
type Contradiction struct {
	ContradictionID string `json:"contradiction_id"`
	OccurrenceID    string `json:"occurrence_id"`
	LogicalPath     string `json:"logical_path"`
}

// Inventory is the part of inspect_artifact's normalized result this
// package reads; unknown fields are ignored.
type Inventory struct {
	ManifestID              string               `json:"manifest_id"`
	RootArtifactID          string               `json:"root_artifact_id"`
	Format                  string               `json:"format"`
	Coverage                string               `json:"coverage"`
	Nodes                   abi.Page[Node]       `json:"nodes"`
	Occurrences             abi.Page[Occurrence] `json:"occurrences"`
	Edges                   abi.Page[Edge]       `json:"edges"`
	IntegrityContradictions []Contradiction      `json:"integrity_contradictions"`
}

// PageRecord is one inspect_artifact Evidence record of a side.
type PageRecord struct {
	EvidenceID string    `json:"evidence_id"`
	Inventory  Inventory `json:"inventory"`
}

// Side is every page one side contributes; all pages must come from the
// same scan (one manifest_id).
type Side struct {
	Pages []PageRecord `json:"pages"`
}

// Request is the compare_artifacts operation's input.
type Request struct {
	Left             Side `json:"left"`
	Right            Side `json:"right"`
	Offset           int  `json:"offset"`
	Limit            int  `json:"limit"`
	IncludeUnchanged bool `json:"include_unchanged"`
}

// Page bounds.
const (
	MaxPagesPerSide = 100
	DefaultLimit    = 100
	MaxLimit        = 500
)

// DecodeRequest decodes and validates the operation's params.
func DecodeRequest(raw []byte) (*Request, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var f struct {
		Left             *json.RawMessage `json:"left"`
		Right            *json.RawMessage `json:"right"`
		Offset           int              `json:"offset"`
		Limit            int              `json:"limit"`
		IncludeUnchanged bool             `json:"include_unchanged"`
	}
	if err := dec.Decode(&f); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
	}
	req := &Request{Offset: f.Offset, Limit: f.Limit, IncludeUnchanged: f.IncludeUnchanged}
	for _, s := range []struct {
		raw  *json.RawMessage
		side *Side
		name string
	}{{f.Left, &req.Left, "left"}, {f.Right, &req.Right, "right"}} {
		if s.raw == nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: pass the inspect_artifact Evidence of this side", s.name).WithDetail("field", s.name)
		}
		if err := json.Unmarshal(*s.raw, s.side); err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: not inventory pages: %v", s.name, err).WithDetail("field", s.name)
		}
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return req, nil
}

// Validate fills defaults and checks bounds and page consistency.
func (r *Request) Validate() error {
	if r.Offset < 0 {
		return abi.Errorf(abi.CodeInvalidRequest, "offset must not be negative").WithDetail("field", "offset")
	}
	if r.Limit == 0 {
		r.Limit = DefaultLimit
	}
	if r.Limit < 1 || r.Limit > MaxLimit {
		return abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d", MaxLimit).WithDetail("field", "limit")
	}
	for _, s := range []struct {
		side *Side
		name string
	}{{&r.Left, "left"}, {&r.Right, "right"}} {
		n := len(s.side.Pages)
		if n < 1 || n > MaxPagesPerSide {
			return abi.Errorf(abi.CodeInvalidRequest, "%s: give 1 to %d inspect_artifact records, got %d", s.name, MaxPagesPerSide, n).WithDetail("field", s.name)
		}
		m := s.side.Pages[0].Inventory.ManifestID
		for i, p := range s.side.Pages {
			if p.Inventory.ManifestID == "" {
				return abi.Errorf(abi.CodeInvalidRequest, "%s: record %d has no manifest_id; pass inspect_artifact Evidence", s.name, i).WithDetail("field", s.name)
			}
			if p.Inventory.ManifestID != m {
				return abi.Errorf(abi.CodeInvalidRequest,
					"%s: the pages do not share a graph commitment (manifest %s and %s); pass pages of one inspect_artifact scan per side",
					s.name, m, p.Inventory.ManifestID).WithDetail("field", s.name)
			}
		}
	}
	return nil
}

// Dimension is one compared property of a path; Left and Right are nil
// when it does not apply to the entry kind.
type Dimension struct {
	Name   string `json:"name"`
	Status string `json:"status"` // unchanged | changed | unknown
	Left   any    `json:"left"`
	Right  any    `json:"right"`
	Reason string `json:"reason,omitempty"`
}

// Entry is one side of a logical path.
type Entry struct {
	EvidenceID   string  `json:"evidence_id"`
	OccurrenceID string  `json:"occurrence_id"`
	ArtifactID   *string `json:"artifact_id"`
	EntryKind    string  `json:"entry_kind"`
	Size         int64   `json:"size"`
}

// Change is the verdict of one logical path.
type Change struct {
	LogicalPath       string      `json:"logical_path"`
	Kind              string      `json:"kind"`
	Left              *Entry      `json:"left"`
	Right             *Entry      `json:"right"`
	ChangedDimensions []string    `json:"changed_dimensions,omitempty"`
	UnknownDimensions []string    `json:"unknown_dimensions,omitempty"`
	Dimensions        []Dimension `json:"dimensions,omitempty"`
	Reason            string      `json:"reason,omitempty"`
}

// SideCoverage says how much of a side the given pages hold.
type SideCoverage struct {
	ManifestID        string   `json:"manifest_id"`
	EvidenceIDs       []string `json:"evidence_ids"`
	Coverage          string   `json:"coverage"`
	OccurrencesSeen   int      `json:"occurrences_seen"`
	OccurrencesTotal  int      `json:"occurrences_total"`
	NodesSeen         int      `json:"nodes_seen"`
	NodesTotal        int      `json:"nodes_total"`
	EdgesSeen         int      `json:"edges_seen"`
	EdgesTotal        int      `json:"edges_total"`
	Contradictions    int      `json:"integrity_contradictions"`
	PagesComplete     bool     `json:"pages_complete"`
	AbsenceClaimable  bool     `json:"absence_claimable"`
	UnplacedEntries   int      `json:"unplaced_entries,omitempty"`
	DuplicatePathKeys int      `json:"duplicate_paths,omitempty"`
}

// Result is the comparison.
type Result struct {
	SchemaVersion int            `json:"schema_version"`
	ComparisonID  string         `json:"comparison_id"`
	Status        string         `json:"status"`
	Left          SideCoverage   `json:"left"`
	Right         SideCoverage   `json:"right"`
	Summary       map[string]int `json:"summary"`
	Total         int            `json:"total_changes"`
	Offset        int            `json:"offset"`
	Limit         int            `json:"limit"`
	NextOffset    *int           `json:"next_offset"`
	Changes       []Change       `json:"changes"`
	Dimensions    []string       `json:"dimensions"`
	Limitations   []string       `json:"limitations"`
}

// side is one side merged from its pages.
type side struct {
	cov       SideCoverage
	nodes     map[string]Node
	byPath    map[string]*placed
	out       map[string][]string // artifact id → "relation→target digest"
	badOcc    map[string]bool
	edgesDone bool
	nodesDone bool
}

type placed struct {
	occ       Occurrence
	evidence  string
	duplicate bool
}

func merge(s Side) *side {
	out := &side{nodes: map[string]Node{}, byPath: map[string]*placed{}, out: map[string][]string{}, badOcc: map[string]bool{}}
	first := s.Pages[0].Inventory
	out.cov = SideCoverage{ManifestID: first.ManifestID, Coverage: first.Coverage, EvidenceIDs: []string{},
		OccurrencesTotal: first.Occurrences.Total, NodesTotal: first.Nodes.Total, EdgesTotal: first.Edges.Total}
	occs := map[string]Occurrence{}
	occEvidence := map[string]string{}
	edges := map[string]Edge{}
	seenEv := map[string]bool{}
	for _, p := range s.Pages {
		inv := p.Inventory
		if !seenEv[p.EvidenceID] {
			seenEv[p.EvidenceID] = true
			out.cov.EvidenceIDs = append(out.cov.EvidenceIDs, p.EvidenceID)
		}
		if inv.Coverage != "complete" {
			out.cov.Coverage = inv.Coverage
		}
		for _, n := range inv.Nodes.Items {
			out.nodes[n.ArtifactID] = n
		}
		for _, o := range inv.Occurrences.Items {
			if _, ok := occs[o.OccurrenceID]; !ok {
				occs[o.OccurrenceID] = o
				occEvidence[o.OccurrenceID] = p.EvidenceID
			}
		}
		for _, e := range inv.Edges.Items {
			edges[e.EdgeID] = e
		}
		for _, c := range inv.IntegrityContradictions {
			out.badOcc[c.OccurrenceID] = true
		}
	}
	sort.Strings(out.cov.EvidenceIDs)
	out.cov.Contradictions = len(out.badOcc)
	out.cov.OccurrencesSeen, out.cov.NodesSeen, out.cov.EdgesSeen = len(occs), len(out.nodes), len(edges)
	out.nodesDone = out.cov.NodesSeen >= out.cov.NodesTotal
	out.edgesDone = out.cov.EdgesSeen >= out.cov.EdgesTotal
	out.cov.PagesComplete = out.cov.OccurrencesSeen >= out.cov.OccurrencesTotal && out.nodesDone && out.edgesDone
	for _, e := range edges {
		target := e.ToArtifactID
		if n, ok := out.nodes[target]; ok {
			target = n.SHA256
		}
		out.out[e.FromArtifactID] = append(out.out[e.FromArtifactID], e.Relation+"→"+strings.TrimPrefix(target, "art_"))
	}
	for k := range out.out {
		sort.Strings(out.out[k])
	}
	// Place every occurrence at its logical path: entries of nested
	// containers are prefixed with their container's path.
	holder := map[string]string{} // artifact id → occurrence id holding it (first by id)
	ids := make([]string, 0, len(occs))
	for id := range occs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if a := occs[id].ArtifactID; a != nil {
			if _, ok := holder[*a]; !ok {
				holder[*a] = id
			}
		}
	}
	var pathOf func(id string, depth int) (string, bool)
	pathOf = func(id string, depth int) (string, bool) {
		o := occs[id]
		if o.ParentArtifactID == first.RootArtifactID || depth > 32 {
			return o.LogicalPath, depth <= 32
		}
		h, ok := holder[o.ParentArtifactID]
		if !ok {
			return "", false
		}
		p, ok := pathOf(h, depth+1)
		return p + "!/" + o.LogicalPath, ok
	}
	for _, id := range ids {
		p, ok := pathOf(id, 0)
		if !ok {
			out.cov.UnplacedEntries++
			continue
		}
		if prev, dup := out.byPath[p]; dup {
			prev.duplicate = true
			out.cov.DuplicatePathKeys++
			continue
		}
		out.byPath[p] = &placed{occ: occs[id], evidence: occEvidence[id]}
	}
	out.cov.AbsenceClaimable = out.cov.OccurrencesSeen >= out.cov.OccurrencesTotal && out.cov.Coverage == "complete" && out.cov.UnplacedEntries == 0
	return out
}

func (s *side) entry(p *placed) *Entry {
	return &Entry{EvidenceID: p.evidence, OccurrenceID: p.occ.OccurrenceID, ArtifactID: p.occ.ArtifactID, EntryKind: p.occ.EntryKind, Size: p.occ.Size}
}

func digestOf(o Occurrence) *string {
	if o.ObservedSHA256 != nil {
		return o.ObservedSHA256
	}
	if o.ArtifactID != nil {
		d := strings.TrimPrefix(*o.ArtifactID, "art_")
		return &d
	}
	return nil
}

func available(o Occurrence) bool {
	if o.EntryKind != "file" {
		return true
	}
	return o.HashStatus != "unavailable" && digestOf(o) != nil
}

// compareDims compares one path present on both sides.
func compareDims(ls, rs *side, l, r Occurrence) []Dimension {
	dim := func(name string, lv, rv any, unknown string) Dimension {
		d := Dimension{Name: name, Left: lv, Right: rv, Status: StatusUnchanged}
		switch {
		case unknown != "":
			d.Status, d.Reason = StatusUnknown, unknown
		case fmt.Sprint(lv) != fmt.Sprint(rv):
			d.Status = StatusChanged
		}
		return d
	}
	var dims []Dimension
	// content
	la, ra := available(l), available(r)
	switch {
	case l.EntryKind == "link" || r.EntryKind == "link":
		dims = append(dims, dim("content", l.LinkTarget, r.LinkTarget, ""))
	case l.EntryKind != "file" || r.EntryKind != "file":
		dims = append(dims, dim("content", nil, nil, ""))
	case !la || !ra:
		dims = append(dims, dim("content", ptr(digestOf(l)), ptr(digestOf(r)), "a side's bytes were not observed"))
	default:
		dims = append(dims, dim("content", *digestOf(l), *digestOf(r), ""))
	}
	// kind and format: the entry kind, then the artifact's kind when both
	// nodes are on the given pages.
	ln, lok := nodeOf(ls, l)
	rn, rok := nodeOf(rs, r)
	if l.EntryKind != r.EntryKind {
		dims = append(dims, dim("kind", l.EntryKind, r.EntryKind, ""))
		dims = append(dims, dim("format", ln.Format, rn.Format, ""))
	} else if l.EntryKind != "file" {
		dims = append(dims, dim("kind", l.EntryKind, r.EntryKind, ""))
		dims = append(dims, dim("format", nil, nil, ""))
	} else if !lok || !rok {
		why := "the artifact node is not on the given pages"
		dims = append(dims, dim("kind", ln.Kind, rn.Kind, why), dim("format", ln.Format, rn.Format, why))
	} else {
		dims = append(dims, dim("kind", ln.Kind, rn.Kind, ""), dim("format", ln.Format, rn.Format, ""))
	}
	dims = append(dims, dim("size", l.Size, r.Size, ""))
	dims = append(dims, dim("executable", l.Executable, r.Executable, ""))
	// relations: what the artifact contains (only containers have any).
	lr, lu := relationsOf(ls, l, ln, lok)
	rr, ru := relationsOf(rs, r, rn, rok)
	why := ""
	if lu || ru {
		why = "the edges of a container are not all on the given pages"
	}
	dims = append(dims, dim("relations", strings.Join(lr, ","), strings.Join(rr, ","), why))
	dims = append(dims, dim("availability", availability(l), availability(r), ""))
	li, ri := integrity(ls, l), integrity(rs, r)
	why = ""
	if (li == "unavailable" || ri == "unavailable") && li != "mismatched" && ri != "mismatched" {
		why = "a side's integrity could not be checked"
	}
	dims = append(dims, dim("integrity", li, ri, why))
	return dims
}

func ptr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func nodeOf(s *side, o Occurrence) (Node, bool) {
	if o.ArtifactID == nil {
		return Node{}, false
	}
	n, ok := s.nodes[*o.ArtifactID]
	return n, ok
}

// relationsOf lists an artifact's outgoing relations; unknown when they
// may be on pages not given.
func relationsOf(s *side, o Occurrence, n Node, nodeKnown bool) ([]string, bool) {
	if o.ArtifactID == nil {
		return nil, false
	}
	rels := s.out[*o.ArtifactID]
	if s.edgesDone {
		return rels, false
	}
	if nodeKnown && n.Kind != "container" {
		return nil, false
	}
	return rels, true
}

func availability(o Occurrence) string {
	a := "observed"
	if !available(o) {
		a = "unavailable"
	}
	if o.Unpacked {
		a += ",unpacked"
	}
	return a
}

func integrity(s *side, o Occurrence) string {
	if o.HashStatus == "mismatched" || s.badOcc[o.OccurrenceID] {
		return "mismatched"
	}
	if o.HashStatus == "" {
		return "n/a"
	}
	return o.HashStatus
}

// Compare classifies every logical path of either side.
func Compare(ctx context.Context, req *Request) (*Result, error) {
	ls, rs := merge(req.Left), merge(req.Right)
	res := &Result{SchemaVersion: 1, Left: ls.cov, Right: rs.cov, Summary: map[string]int{}, Dimensions: Dimensions,
		Offset: req.Offset, Limit: req.Limit, Changes: []Change{}, Limitations: []string{}}
	for _, k := range []string{StatusUnchanged, StatusAdded, StatusRemoved, StatusChanged, StatusUnknown, StatusContradiction} {
		res.Summary[k] = 0
	}
	paths := map[string]bool{}
	for p := range ls.byPath {
		paths[p] = true
	}
	for p := range rs.byPath {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var all []Change
	for i, p := range sorted {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, abi.Errorf(abi.CodeCancelled, "compare_artifacts was cancelled")
		}
		l, r := ls.byPath[p], rs.byPath[p]
		c := Change{LogicalPath: p}
		switch {
		case l != nil && r != nil:
			c.Left, c.Right = ls.entry(l), rs.entry(r)
			c.Dimensions = compareDims(ls, rs, l.occ, r.occ)
			for _, d := range c.Dimensions {
				switch d.Status {
				case StatusChanged:
					c.ChangedDimensions = append(c.ChangedDimensions, d.Name)
				case StatusUnknown:
					c.UnknownDimensions = append(c.UnknownDimensions, d.Name)
				}
			}
			switch {
			case integrity(ls, l.occ) == "mismatched" || integrity(rs, r.occ) == "mismatched":
				c.Kind, c.Reason = StatusContradiction, "the bytes contradict the container's declared integrity on a side"
			case l.duplicate || r.duplicate:
				c.Kind, c.Reason = StatusUnknown, "several entries share this logical path on a side"
			case len(c.ChangedDimensions) > 0:
				c.Kind = StatusChanged
			case len(c.UnknownDimensions) > 0:
				c.Kind, c.Reason = StatusUnknown, "a dimension could not be compared from the given pages"
			default:
				c.Kind = StatusUnchanged
			}
		case l != nil:
			c.Left = ls.entry(l)
			if rs.cov.AbsenceClaimable {
				c.Kind = StatusRemoved
			} else {
				c.Kind, c.Reason = StatusUnknown, "absent from the right pages, but they do not cover the whole right inventory"
			}
		default:
			c.Right = rs.entry(r)
			if ls.cov.AbsenceClaimable {
				c.Kind = StatusAdded
			} else {
				c.Kind, c.Reason = StatusUnknown, "absent from the left pages, but they do not cover the whole left inventory"
			}
		}
		res.Summary[c.Kind]++
		if c.Kind == StatusUnchanged && !req.IncludeUnchanged {
			continue
		}
		if c.Kind == StatusUnchanged {
			c.Dimensions = nil
		}
		all = append(all, c)
	}
	res.Status = overall(res.Summary, ls, rs)
	res.Limitations = limitations(ls, rs)
	res.Total = len(all)
	if changes, next := abi.Window(all, req.Offset, req.Limit); changes != nil {
		res.Changes, res.NextOffset = changes, next
	}
	b, _ := json.Marshal(struct {
		L, R             SideCoverage
		S                map[string]int
		Include          bool
		Offset, Limit, N int
	}{ls.cov, rs.cov, res.Summary, req.IncludeUnchanged, req.Offset, req.Limit, len(all)})
	sum := sha256.Sum256(b)
	res.ComparisonID = "acmp_" + hex.EncodeToString(sum[:])
	return res, nil
}

// overall folds the per-path verdicts: a contradiction dominates, then
// page gaps (truncated), then anything unknown; equivalence is claimed
// only when both sides were read whole.
func overall(s map[string]int, ls, rs *side) string {
	switch {
	case s[StatusContradiction] > 0:
		return StatusContradiction
	case !ls.cov.PagesComplete || !rs.cov.PagesComplete:
		return StatusTruncated
	case s[StatusUnknown] > 0 || ls.cov.Coverage != "complete" || rs.cov.Coverage != "complete":
		return StatusUnknown
	case s[StatusChanged] > 0 || (s[StatusAdded] > 0 && s[StatusRemoved] > 0):
		return StatusChanged
	case s[StatusAdded] > 0:
		return StatusAdded
	case s[StatusRemoved] > 0:
		return StatusRemoved
	}
	return StatusUnchanged
}

func limitations(ls, rs *side) []string {
	out := []string{}
	for _, s := range []struct {
		name string
		c    SideCoverage
	}{{"left", ls.cov}, {"right", rs.cov}} {
		c := s.c
		if c.OccurrencesSeen < c.OccurrencesTotal {
			out = append(out, fmt.Sprintf("%s: the pages hold %d of %d occurrences; paths on unread pages are unknown, not absent — pass the remaining pages", s.name, c.OccurrencesSeen, c.OccurrencesTotal))
		}
		if c.NodesSeen < c.NodesTotal {
			out = append(out, fmt.Sprintf("%s: the pages hold %d of %d artifact nodes; artifact kinds off the pages are unknown", s.name, c.NodesSeen, c.NodesTotal))
		}
		if c.EdgesSeen < c.EdgesTotal {
			out = append(out, fmt.Sprintf("%s: the pages hold %d of %d edges; container relations off the pages are unknown", s.name, c.EdgesSeen, c.EdgesTotal))
		}
		if c.Coverage != "complete" {
			out = append(out, fmt.Sprintf("%s: the inventory's coverage is %s; no absence is claimed against it", s.name, c.Coverage))
		}
		if c.UnplacedEntries > 0 {
			out = append(out, fmt.Sprintf("%s: %d entries sit in containers whose own entry is not on the given pages", s.name, c.UnplacedEntries))
		}
	}
	return out
}
