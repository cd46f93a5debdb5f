package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/evidence"
)

// compare_functions limits, REA's.
const (
	MaxCompareRecords     = 100
	DefaultCompareLimit   = 100
	MaxCompareLimit       = 100
	maxDiffCells          = 4_000_000
	compareFunctionsOp    = "compare_functions"
	compareProviderID     = "rea-compare"
	compareProviderSchema = 1
)

// FunctionDimensions are the eight compared facets, in order.
func FunctionDimensions() []string {
	return []string{"identity", "pseudocode", "assembly", "comments", "calls", "references", "strings_names", "cfg"}
}

// CompareFunctionsRequest pairs analyze_function Evidence: inline records
// (the CLI reads them from files; MCP resolves retained ids to records).
type CompareFunctionsRequest struct {
	Left   []evidence.Record `json:"-"`
	Right  []evidence.Record `json:"-"`
	Offset int               `json:"offset,omitempty"`
	Limit  int               `json:"limit,omitempty"`
}

// TextDelta counts line changes between two facets.
type TextDelta struct {
	AddedLines   int `json:"added_lines"`
	RemovedLines int `json:"removed_lines"`
	Hunks        int `json:"hunks"`
}

// DimensionResult is one facet's verdict for one function pair.
type DimensionResult struct {
	Dimension      string     `json:"dimension"`
	Status         string     `json:"status"`
	LeftCount      int        `json:"left_count"`
	RightCount     int        `json:"right_count"`
	LeftDigest     *string    `json:"left_digest"`
	RightDigest    *string    `json:"right_digest"`
	TextDelta      *TextDelta `json:"text_delta"`
	ConclusionKind string     `json:"conclusion_kind"`
	EvidenceLinks  []string   `json:"evidence_links"`
	Limitations    []string   `json:"limitations"`
}

// FunctionMatch says how a pair was formed.
type FunctionMatch struct {
	// Kind: symbol (same name both sides), added, removed.
	Kind      string  `json:"kind"`
	LeftName  *string `json:"left_name"`
	RightName *string `json:"right_name"`
}

// FunctionChange is one compared pair (or one unmatched function).
type FunctionChange struct {
	Status     string            `json:"status"`
	Match      FunctionMatch     `json:"function_match"`
	Dimensions []DimensionResult `json:"dimensions"`
}

// CompareSummary counts pair verdicts.
type CompareSummary struct {
	Pairs     int `json:"pairs"`
	Unchanged int `json:"unchanged"`
	Changed   int `json:"changed"`
	Truncated int `json:"truncated"`
	Unknown   int `json:"unknown"`
	Added     int `json:"added"`
	Removed   int `json:"removed"`
}

// FunctionComparison is compare_functions' normalized result.
type FunctionComparison struct {
	Status             string                   `json:"status"`
	LeftSubjectSHA256  []string                 `json:"left_subject_sha256"`
	RightSubjectSHA256 []string                 `json:"right_subject_sha256"`
	Summary            CompareSummary           `json:"summary"`
	Changes            abi.Page[FunctionChange] `json:"changes"`
	Limitations        []string                 `json:"limitations"`
}

// CompareFunctionsResult is the derived Evidence and its comparison.
type CompareFunctionsResult struct {
	Evidence   evidence.Record     `json:"evidence"`
	Comparison *FunctionComparison `json:"-"`
}

type dossierSide struct {
	id string
	d  nativewire.Dossier
}

func readDossiers(side string, recs []evidence.Record) (map[string]dossierSide, []string, error) {
	if len(recs) < 1 || len(recs) > MaxCompareRecords {
		return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "%s needs 1 to %d analyze_function records, got %d", side, MaxCompareRecords, len(recs)).WithDetail("field", side)
	}
	out := map[string]dossierSide{}
	var subjects []string
	seen := map[string]bool{}
	for i, r := range recs {
		field := fmt.Sprintf("%s[%d]", side, i)
		if r.Operation != "analyze_function" {
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "%s is %s Evidence; compare_functions reads analyze_function records", field, r.Operation).WithDetail("field", field)
		}
		var d nativewire.Dossier
		if err := json.Unmarshal(r.NormalizedResult, &d); err != nil {
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "%s holds no analyze_function result: %v", field, err).WithDetail("field", field)
		}
		name := d.Procedure.Name
		if _, dup := out[name]; dup {
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "%s names %s twice; pass one record per function", side, name).WithDetail("field", field)
		}
		out[name] = dossierSide{id: r.EvidenceID, d: d}
		if r.Subject != nil && !seen[r.Subject.Digest.SHA256] {
			seen[r.Subject.Digest.SHA256] = true
			subjects = append(subjects, r.Subject.Digest.SHA256)
		}
	}
	sort.Strings(subjects)
	return out, subjects, nil
}

// CompareFunctions compares two sets of analyze_function Evidence pairwise
// by procedure name over the eight dimensions. Gaps are never equality:
// a paged-out facet is truncated, a facet native-lite cannot produce
// (pseudocode, comments) is unknown.
func (a *App) CompareFunctions(req CompareFunctionsRequest) (*CompareFunctionsResult, error) {
	if req.Offset < 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "offset must not be negative").WithDetail("field", "offset")
	}
	if req.Limit == 0 {
		req.Limit = DefaultCompareLimit
	}
	if req.Limit < 1 || req.Limit > MaxCompareLimit {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d", MaxCompareLimit).WithDetail("field", "limit")
	}
	left, ls, err := readDossiers("left", req.Left)
	if err != nil {
		return nil, err
	}
	right, rs, err := readDossiers("right", req.Right)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for n := range left {
		names[n] = true
	}
	for n := range right {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	cmp := &FunctionComparison{LeftSubjectSHA256: ls, RightSubjectSHA256: rs, Limitations: []string{
		"functions are paired by exact procedure name; a renamed function shows as removed and added",
		"addresses are normalised away, so code that only moved compares unchanged",
	}}
	var changes []FunctionChange
	var links []string
	for _, n := range sorted {
		l, lok := left[n]
		r, rok := right[n]
		name := n
		switch {
		case lok && rok:
			ch := comparePair(l, r)
			ch.Match = FunctionMatch{Kind: "symbol", LeftName: &name, RightName: &name}
			changes = append(changes, ch)
			links = append(links, l.id, r.id)
			cmp.Summary.Pairs++
			switch ch.Status {
			case "unchanged":
				cmp.Summary.Unchanged++
			case "changed":
				cmp.Summary.Changed++
			case "truncated":
				cmp.Summary.Truncated++
			default:
				cmp.Summary.Unknown++
			}
		case lok:
			changes = append(changes, FunctionChange{Status: "removed", Match: FunctionMatch{Kind: "removed", LeftName: &name}, Dimensions: []DimensionResult{}})
			links = append(links, l.id)
			cmp.Summary.Removed++
		default:
			changes = append(changes, FunctionChange{Status: "added", Match: FunctionMatch{Kind: "added", RightName: &name}, Dimensions: []DimensionResult{}})
			links = append(links, r.id)
			cmp.Summary.Added++
		}
	}
	switch s := cmp.Summary; {
	case s.Changed > 0 || s.Added > 0 || s.Removed > 0:
		cmp.Status = "changed"
	case s.Truncated > 0:
		cmp.Status = "truncated"
	case s.Unknown > 0:
		cmp.Status = "unknown"
	default:
		cmp.Status = "unchanged"
	}
	cmp.Changes = abi.PageOf(changes, req.Offset, req.Limit)
	sort.Strings(links)
	links = dedupe(links)
	params := map[string]any{"left": ids(req.Left), "right": ids(req.Right), "offset": req.Offset, "limit": req.Limit}
	rec, err := evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: compareProviderID, Name: "rea function comparison", Version: strPtr("1")},
		Operation:        compareFunctionsOp,
		Parameters:       params,
		NormalizedResult: cmp,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      cmp.Limitations,
		EvidenceLinks:    links,
	})
	if err != nil {
		return nil, err
	}
	return &CompareFunctionsResult{Evidence: rec, Comparison: cmp}, nil
}

func strPtr(s string) *string { return &s }

func ids(rs []evidence.Record) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.EvidenceID)
	}
	return out
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// facet is one dimension's lines for one side, and whether they are all.
type facet struct {
	lines    []string
	complete bool
	// unknown explains why this provider cannot produce the facet.
	unknown string
}

var hexAddr = regexp.MustCompile(`0x[0-9a-f]{4,}`)

// normalise removes addresses, which move between builds.
func normalise(s string) string { return hexAddr.ReplaceAllString(s, "ADDR") }

func facets(d nativewire.Dossier) map[string]facet {
	p := d.Procedure
	f := map[string]facet{
		"identity": {lines: []string{"name " + p.Name, "kind " + p.Kind, fmt.Sprintf("thunk %v external %v", p.Thunk, p.External)}, complete: true},
	}
	if d.Pseudocode.Status != "available" {
		f["pseudocode"] = facet{unknown: "pseudocode is " + d.Pseudocode.Status + ": " + d.Pseudocode.Reason}
	}
	f["comments"] = facet{unknown: "native-lite records no comments"}
	var asm []string
	for _, in := range d.Assembly.Items {
		asm = append(asm, normalise(in.Text))
	}
	f["assembly"] = facet{lines: asm, complete: d.Assembly.Offset == 0 && d.Assembly.NextOffset == nil}
	var calls []string
	for _, c := range d.Callees.Items {
		calls = append(calls, c.Kind.String()+" "+normaliseName(c.CalleeName))
	}
	sort.Strings(calls)
	f["calls"] = facet{lines: calls, complete: d.Callees.Offset == 0 && d.Callees.NextOffset == nil}
	var refs []string
	for _, r := range d.References.Items {
		refs = append(refs, r.Kind)
	}
	sort.Strings(refs)
	f["references"] = facet{lines: refs, complete: d.References.Offset == 0 && d.References.NextOffset == nil}
	var sn []string
	for _, s := range d.ReferencedStrings.Items {
		sn = append(sn, "string "+s.Value)
	}
	for _, n := range d.ReferencedNames.Items {
		sn = append(sn, "name "+normaliseName(n.Name))
	}
	sort.Strings(sn)
	f["strings_names"] = facet{lines: sn, complete: d.ReferencedStrings.Offset == 0 && d.ReferencedStrings.NextOffset == nil &&
		d.ReferencedNames.Offset == 0 && d.ReferencedNames.NextOffset == nil}
	// CFG topology with block starts replaced by their order.
	index := map[string]int{}
	for i, b := range d.Blocks.Items {
		index[b.Start.String()] = i
	}
	var cfg []string
	for i, b := range d.Blocks.Items {
		var succ []string
		for _, s := range b.Successors {
			if j, ok := index[s.String()]; ok {
				succ = append(succ, fmt.Sprint(j))
			} else {
				succ = append(succ, "?")
			}
		}
		cfg = append(cfg, fmt.Sprintf("%d: %d %s -> %s", i, b.Instructions, b.Terminator, strings.Join(succ, ",")))
	}
	f["cfg"] = facet{lines: cfg, complete: d.Blocks.Offset == 0 && d.Blocks.NextOffset == nil}
	return f
}

// normaliseName drops the address in a sub_ name.
func normaliseName(n string) string {
	if strings.HasPrefix(n, "sub_") {
		return "sub_ADDR"
	}
	return n
}

func digest(lines []string) *string {
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	s := hex.EncodeToString(h[:])
	return &s
}

func comparePair(l, r dossierSide) FunctionChange {
	lf, rf := facets(l.d), facets(r.d)
	ch := FunctionChange{Status: "unchanged"}
	worst := 0
	rank := map[string]int{"unchanged": 0, "unknown": 1, "truncated": 2, "changed": 3}
	for _, dim := range FunctionDimensions() {
		a, b := lf[dim], rf[dim]
		res := DimensionResult{Dimension: dim, LeftCount: len(a.lines), RightCount: len(b.lines), EvidenceLinks: []string{l.id, r.id}, Limitations: []string{}}
		switch {
		case a.unknown != "" || b.unknown != "":
			res.Status, res.ConclusionKind = "unknown", "unresolved_branch"
			for _, u := range []string{a.unknown, b.unknown} {
				if u != "" && !slices.Contains(res.Limitations, u) {
					res.Limitations = append(res.Limitations, u)
				}
			}
		case !a.complete || !b.complete:
			res.Status, res.ConclusionKind = "truncated", "unresolved_branch"
			res.Limitations = append(res.Limitations, "a side holds only one page of this facet; analyse the function again with a larger limit")
		default:
			res.LeftDigest, res.RightDigest = digest(a.lines), digest(b.lines)
			res.TextDelta = lineDelta(a.lines, b.lines)
			res.Status, res.ConclusionKind = "unchanged", "derived_relationship"
			if *res.LeftDigest != *res.RightDigest {
				res.Status = "changed"
			}
		}
		if rank[res.Status] > worst {
			worst, ch.Status = rank[res.Status], res.Status
		}
		ch.Dimensions = append(ch.Dimensions, res)
	}
	return ch
}

// lineDelta counts added and removed lines and their hunks (LCS).
func lineDelta(a, b []string) *TextDelta {
	if len(a)*len(b) > maxDiffCells {
		// Too large for the table: count by multiset, hunks unknown (0).
		count := map[string]int{}
		for _, s := range a {
			count[s]++
		}
		d := &TextDelta{}
		for _, s := range b {
			if count[s] > 0 {
				count[s]--
			} else {
				d.AddedLines++
			}
		}
		for _, c := range count {
			d.RemovedLines += c
		}
		return d
	}
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	d := &TextDelta{}
	inHunk := false
	for i, j := 0, 0; i < n || j < m; {
		switch {
		case i < n && j < m && a[i] == b[j]:
			i, j, inHunk = i+1, j+1, false
			continue
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			d.AddedLines++
			j++
		default:
			d.RemovedLines++
			i++
		}
		if !inHunk {
			d.Hunks++
			inHunk = true
		}
	}
	return d
}
