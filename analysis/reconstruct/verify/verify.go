package verify

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/abi"
)

// NoSubjectLimitation is Evidence's automatic note on records without an
// artifact identity. Comparisons span two artifacts and carry it by
// construction, so it does not limit a claim.
const NoSubjectLimitation = "Artifact identity is unavailable for this observation."

// Environment is where a controlled observation ran.
type Environment struct {
	ID           string `json:"id"`
	Platform     string `json:"platform"`
	Architecture string `json:"architecture"`
	Isolation    string `json:"isolation"`
}

// Record is the part of an Evidence record verification reads.
type Record struct {
	EvidenceID       string          `json:"evidence_id"`
	Operation        string          `json:"operation"`
	Authority        string          `json:"authority"`
	Confidence       string          `json:"confidence"`
	Environment      *Environment    `json:"environment"`
	Limitations      []string        `json:"limitations"`
	EvidenceLinks    []string        `json:"evidence_links"`
	NormalizedResult json.RawMessage `json:"normalized_result,omitempty"`
	// Parameters is the comparison's canonical request; its left/right name
	// the inputs when the result does not.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// UnknownHead is the current revision of a residual unknown as far as
// verification needs it.
type UnknownHead struct {
	UnknownID                string   `json:"unknown_id"`
	Revision                 int64    `json:"revision"`
	Status                   string   `json:"status"`
	Question                 string   `json:"question"`
	SupportingEvidenceIDs    []string `json:"supporting_evidence_ids"`
	ContradictingEvidenceIDs []string `json:"contradicting_evidence_ids"`
	RecommendedProbes        []Probe  `json:"recommended_probes"`
}

// Request is what the host sends: the specification, every comparison
// record the claims name, whichever of their input records are retained, and
// the unknown heads of the session.
type Request struct {
	Specification json.RawMessage `json:"specification"`
	Comparisons   []Record        `json:"comparisons"`
	Inputs        []Record        `json:"inputs"`
	Unknowns      []UnknownHead   `json:"unknowns"`
	Offset        int             `json:"offset"`
	Limit         int             `json:"limit"`
}

// Claim statuses.
const (
	Pass    = "pass"
	Fail    = "fail"
	Unknown = "unknown"
)

// Observed statuses a comparison can report.
func observedStatuses() []string {
	return []string{"unchanged", "added", "removed", "changed", "truncated", "unknown", "contradiction"}
}

// Probe is a next step that could settle an unknown claim.
type Probe struct {
	Operation string `json:"operation"`
	Rationale string `json:"rationale"`
	ClaimID   string `json:"claim_id,omitempty"`
	UnknownID string `json:"unknown_id,omitempty"`
}

// ClaimResult is the verdict on one claim, with everything it rests on.
type ClaimResult struct {
	ClaimID              string   `json:"claim_id"`
	Kind                 string   `json:"kind"`
	Dimension            string   `json:"dimension"`
	Statement            string   `json:"statement"`
	Status               string   `json:"status"`
	ObservedStatus       string   `json:"observed_status"`
	Reason               string   `json:"reason"`
	ComparisonEvidenceID string   `json:"comparison_evidence_id"`
	LeftEvidenceIDs      []string `json:"left_evidence_ids"`
	RightEvidenceIDs     []string `json:"right_evidence_ids"`
	EvidenceLinks        []string `json:"evidence_links"`
	UnknownIDs           []string `json:"unknown_ids"`
	Limitations          []string `json:"limitations"`
}

// Summary counts every claim, not only the page.
type Summary struct {
	Total      int `json:"total"`
	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	Unknown    int `json:"unknown"`
	Behavioral int `json:"behavioral"`
	Structural int `json:"structural"`
}

// Page locates the returned claims.
type Page struct {
	Offset     int  `json:"offset"`
	Limit      int  `json:"limit"`
	Returned   int  `json:"returned"`
	Total      int  `json:"total"`
	NextOffset *int `json:"next_offset"`
}

// Result is the verification report.
type Result struct {
	SchemaVersion         int           `json:"schema_version"`
	SpecificationName     string        `json:"specification_name"`
	SpecificationSHA256   string        `json:"specification_sha256"`
	Verdict               string        `json:"verdict"`
	Summary               Summary       `json:"summary"`
	Claims                []ClaimResult `json:"claims"`
	Page                  Page          `json:"page"`
	RecommendedProbes     []Probe       `json:"recommended_probes"`
	OmittedProbes         int           `json:"omitted_probes"`
	ComparisonEvidenceIDs []string      `json:"comparison_evidence_ids"`
	Scope                 string        `json:"scope"`
}

// ScopeStatement is repeated in every result so no reader mistakes pass for
// equivalence.
const ScopeStatement = "pass means each declared claim has complete, comparable, unlimited comparison Evidence showing no difference in its dimension; it does not establish that the reconstruction is equivalent outside the declared claims"

// Evaluate checks every claim and returns the requested page. Claims whose
// comparison Evidence is absent from the request are an error the host
// should have reported; here they fail closed as unknown.
func Evaluate(req Request) (Result, error) {
	spec, err := ParseSpecification(req.Specification)
	if err != nil {
		return Result{}, err
	}
	if req.Offset < 0 {
		return Result{}, invalid([]any{"offset"}, "minimum", "offset must be ≥ 0")
	}
	if req.Limit == 0 {
		req.Limit = MaxLimit
	}
	if req.Limit < 1 || req.Limit > MaxLimit {
		return Result{}, invalid([]any{"limit"}, "maximum", "limit must be 1–%d", MaxLimit)
	}
	comps := map[string]Record{}
	for _, r := range req.Comparisons {
		comps[r.EvidenceID] = r
	}
	inputs := map[string]Record{}
	for _, r := range req.Inputs {
		inputs[r.EvidenceID] = r
	}
	for i, c := range spec.Claims {
		if r, ok := comps[c.EvidenceID]; ok && r.Operation != Operation(c.Kind) {
			return Result{}, invalid([]any{"specification", "claims", i, "evidence_id"}, "invalid_value",
				"%s is %s Evidence; a %s claim reads %s Evidence", c.EvidenceID, r.Operation, c.Kind, Operation(c.Kind))
		}
	}
	ix := indexUnknowns(req.Unknowns)
	views := map[string]*comparisonView{}
	specDigest, err := spec.Digest()
	if err != nil {
		return Result{}, err
	}
	res := Result{SchemaVersion: SchemaVersion, SpecificationName: spec.Name, SpecificationSHA256: specDigest,
		Claims: []ClaimResult{}, RecommendedProbes: []Probe{}, Scope: ScopeStatement}
	all := make([]ClaimResult, len(spec.Claims))
	probeSeen := map[string]bool{}
	compIDs := map[string]bool{}
	for i, c := range spec.Claims {
		cr, probes := evaluateClaim(c, comps, inputs, ix, views)
		all[i] = cr
		compIDs[c.EvidenceID] = true
		switch cr.Status {
		case Pass:
			res.Summary.Passed++
		case Fail:
			res.Summary.Failed++
		default:
			res.Summary.Unknown++
		}
		if c.Kind == KindBehavioral {
			res.Summary.Behavioral++
		} else {
			res.Summary.Structural++
		}
		for _, p := range probes {
			k := p.ClaimID + "\x00" + p.UnknownID + "\x00" + p.Operation + "\x00" + p.Rationale
			if probeSeen[k] {
				continue
			}
			probeSeen[k] = true
			if len(res.RecommendedProbes) >= MaxProbes {
				res.OmittedProbes++
				continue
			}
			res.RecommendedProbes = append(res.RecommendedProbes, p)
		}
	}
	res.Summary.Total = len(all)
	switch {
	case res.Summary.Failed > 0:
		res.Verdict = Fail
	case res.Summary.Unknown > 0:
		res.Verdict = Unknown
	default:
		res.Verdict = Pass
	}
	for id := range compIDs {
		res.ComparisonEvidenceIDs = append(res.ComparisonEvidenceIDs, id)
	}
	sort.Strings(res.ComparisonEvidenceIDs)
	res.Page = Page{Offset: req.Offset, Limit: req.Limit, Total: len(all)}
	if claims, next := abi.Window(all, req.Offset, req.Limit); claims != nil {
		res.Claims, res.Page.NextOffset = claims, next
	}
	res.Page.Returned = len(res.Claims)
	return res, nil
}

type unknownIndex struct {
	byID       map[string]UnknownHead
	byEvidence map[string][]string
}

func indexUnknowns(us []UnknownHead) unknownIndex {
	ix := unknownIndex{byID: map[string]UnknownHead{}, byEvidence: map[string][]string{}}
	for _, u := range us {
		ix.byID[u.UnknownID] = u
		for _, id := range append(append([]string{}, u.SupportingEvidenceIDs...), u.ContradictingEvidenceIDs...) {
			ix.byEvidence[id] = append(ix.byEvidence[id], u.UnknownID)
		}
	}
	return ix
}

// evaluateClaim applies the rule in order: any limitation ⇒ unknown;
// changed, added, removed or contradiction ⇒ fail; unknown or truncated, or
// an open related unknown ⇒ unknown; else pass.
func evaluateClaim(c Claim, comps, inputs map[string]Record, ix unknownIndex, views map[string]*comparisonView) (ClaimResult, []Probe) {
	cr := ClaimResult{ClaimID: c.ClaimID, Kind: c.Kind, Dimension: c.Dimension, Statement: c.Statement,
		ComparisonEvidenceID: c.EvidenceID, LeftEvidenceIDs: []string{}, RightEvidenceIDs: []string{},
		UnknownIDs: []string{}, Limitations: []string{}}
	op := Operation(c.Kind)
	var probes []Probe
	probe := func(operation, rationale, unknownID string) {
		probes = append(probes, Probe{Operation: operation, Rationale: rationale, ClaimID: c.ClaimID, UnknownID: unknownID})
	}
	comp, ok := comps[c.EvidenceID]
	if !ok {
		cr.Status, cr.ObservedStatus = Unknown, "unknown"
		cr.Limitations = append(cr.Limitations, "The comparison Evidence "+c.EvidenceID+" was not provided.")
		cr.Reason = "missing-comparison"
		cr.EvidenceLinks = []string{c.EvidenceID}
		probe(op, "Produce or import the comparison Evidence "+c.EvidenceID+" and verify again.", "")
		return cr, probes
	}
	view, ok := views[comp.EvidenceID]
	if !ok {
		view = viewOf(comp.NormalizedResult)
		views[comp.EvidenceID] = view
	}
	for _, l := range comp.Limitations {
		if l != NoSubjectLimitation {
			cr.Limitations = append(cr.Limitations, l)
		}
	}
	cr.Limitations = append(cr.Limitations, view.Limitations...)
	observed, dimLimits, found := view.status(c.Dimension)
	cr.Limitations = append(cr.Limitations, dimLimits...)
	if !found {
		cr.Limitations = append(cr.Limitations, fmt.Sprintf("The %s Evidence reports no status for dimension %q.", comp.Operation, c.Dimension))
		observed = "unknown"
	} else if !contains(observedStatuses(), observed) {
		cr.Limitations = append(cr.Limitations, fmt.Sprintf("The %s Evidence reports status %q for dimension %q, which is not a comparison outcome.", comp.Operation, observed, c.Dimension))
		observed = "unknown"
	}
	cr.ObservedStatus = observed
	cr.LeftEvidenceIDs, cr.RightEvidenceIDs = view.sides(comp.EvidenceLinks, comp.Parameters)
	links := []string{comp.EvidenceID}
	links = append(links, cr.LeftEvidenceIDs...)
	links = append(links, cr.RightEvidenceIDs...)
	cr.EvidenceLinks = uniqueSorted(links)
	if len(cr.LeftEvidenceIDs) == 0 || len(cr.RightEvidenceIDs) == 0 {
		cr.Limitations = append(cr.Limitations, "The comparison does not name both its left and right input Evidence.")
	}
	if c.Kind == KindBehavioral {
		cr.Limitations = append(cr.Limitations, environmentLimitations(cr.LeftEvidenceIDs, cr.RightEvidenceIDs, inputs)...)
	}
	// Related unknowns: declared by the claim, or tied to any Evidence the
	// claim rests on.
	related := map[string]bool{}
	for _, id := range c.UnknownIDs {
		related[id] = true
	}
	for _, id := range cr.EvidenceLinks {
		for _, u := range ix.byEvidence[id] {
			related[u] = true
		}
	}
	var open []string
	for id := range related {
		u, held := ix.byID[id]
		if !held {
			cr.Limitations = append(cr.Limitations, "The residual unknown "+id+" named by the claim is not held by this session.")
			continue
		}
		if u.Status != "resolved" {
			open = append(open, id)
		}
	}
	sort.Strings(open)
	cr.UnknownIDs = append(cr.UnknownIDs, open...)
	switch {
	case len(cr.Limitations) > 0:
		cr.Status, cr.Reason = Unknown, "limitation"
		probe(op, "Re-run "+op+" so the comparison carries no limitation ("+cr.Limitations[0]+"), then verify again.", "")
	case observed == "changed" || observed == "added" || observed == "removed" || observed == "contradiction":
		cr.Status, cr.Reason = Fail, observed
	case observed == "truncated":
		cr.Status, cr.Reason = Unknown, "truncated"
		probe(op, "The comparison was truncated; re-run "+op+" with larger limits or over fewer inputs so it is complete.", "")
	case observed == "unknown":
		cr.Status, cr.Reason = Unknown, "unresolved-comparison"
		probe(op, "The comparison could not decide dimension "+c.Dimension+"; collect comparable Evidence for both sides and re-run "+op+".", "")
	case len(open) > 0:
		cr.Status, cr.Reason = Unknown, "open-unknown"
	default:
		cr.Status, cr.Reason = Pass, "unchanged"
	}
	if cr.Status == Unknown {
		for _, id := range open {
			u := ix.byID[id]
			probe("verify_unknown_resolution", "Resolve residual unknown "+id+" ("+u.Question+") with qualifying Evidence.", id)
			for _, p := range u.RecommendedProbes {
				probe(p.Operation, p.Rationale, id)
			}
		}
	}
	return cr, probes
}

// comparisonView is what verification reads of a comparison's
// normalized_result, decoded once per comparison.
type comparisonView struct {
	Status           *string         `json:"status"`
	Verdict          *string         `json:"verdict"`
	Limitations      []string        `json:"limitations"`
	LeftEvidenceID   string          `json:"left_evidence_id"`
	RightEvidenceID  string          `json:"right_evidence_id"`
	LeftEvidenceIDs  []string        `json:"left_evidence_ids"`
	RightEvidenceIDs []string        `json:"right_evidence_ids"`
	Dimensions       json.RawMessage `json:"dimensions"`
	// compare_application_versions reports counts instead of statuses.
	Coverage json.RawMessage `json:"coverage"`
	Summary  json.RawMessage `json:"summary"`
	Left     json.RawMessage `json:"left"`
	Right    json.RawMessage `json:"right"`
	// compare_functions reports dimensions per function pair in a page.
	Changes json.RawMessage `json:"changes"`

	dims map[string]dimensionView
}

// applicationKinds maps structural-application dimensions to the item kinds
// compare_application_versions counts.
func applicationKinds() map[string][]string {
	return map[string][]string{
		"windows": {"browser-window"}, "ipc_channels": {"ipc-channel"}, "exposed_apis": {"exposed-api"},
		"modules": {"module", "bundled-module"}, "endpoints": {"endpoint"}, "findings": {"finding"},
	}
}

// deriveFromCounts fills statuses for a comparison that reports per-status
// counts (summary.statuses, summary.by_kind) and a coverage: contradiction
// outranks change, change outranks incompleteness, and a dimension with no
// facts on either side is unknown — absence is not equivalence.
func (v *comparisonView) deriveFromCounts() {
	var summary struct {
		Statuses map[string]int            `json:"statuses"`
		ByKind   map[string]map[string]int `json:"by_kind"`
	}
	if v.Status != nil || json.Unmarshal(v.Summary, &summary) != nil || summary.Statuses == nil {
		return
	}
	var coverage string
	_ = json.Unmarshal(v.Coverage, &coverage)
	complete := coverage == "complete"
	classify := func(counts map[string]int) (string, []string) {
		total := 0
		for _, n := range counts {
			total += n
		}
		switch {
		case counts["contradiction"] > 0:
			return "contradiction", nil
		case counts["changed"]+counts["added"]+counts["removed"] > 0:
			return "changed", nil
		case !complete:
			return "truncated", nil
		case counts["unknown"] > 0:
			return "unknown", nil
		case total == 0:
			return "unknown", []string{"Neither side has facts of this kind, so the comparison cannot show them unchanged."}
		}
		return "unchanged", nil
	}
	overall, lim := classify(summary.Statuses)
	v.Status = &overall
	v.Limitations = append(v.Limitations, lim...)
	for dim, kinds := range applicationKinds() {
		counts := map[string]int{}
		for _, k := range kinds {
			for st, n := range summary.ByKind[k] {
				counts[st] += n
			}
		}
		st, l := classify(counts)
		v.dims[dim] = dimensionView{Status: &st, Limitations: l}
	}
}

type dimensionView struct {
	Name        string   `json:"name"`
	Dimension   string   `json:"dimension"`
	Status      *string  `json:"status"`
	Verdict     *string  `json:"verdict"`
	Limitations []string `json:"limitations"`
}

// viewOf decodes a comparison result leniently: a field of the wrong shape
// reads as absent, which makes the claim unknown, never pass.
func viewOf(raw json.RawMessage) *comparisonView {
	v := &comparisonView{dims: map[string]dimensionView{}}
	if json.Unmarshal(raw, v) != nil {
		var partial struct {
			Status *string `json:"status"`
		}
		_ = json.Unmarshal(raw, &partial)
		*v = comparisonView{Status: partial.Status, dims: map[string]dimensionView{}}
		v.Limitations = []string{"The comparison result does not have the expected shape."}
		return v
	}
	var byName map[string]dimensionView
	if json.Unmarshal(v.Dimensions, &byName) == nil && byName != nil {
		v.dims = byName
	} else {
		var list []dimensionView
		if json.Unmarshal(v.Dimensions, &list) == nil {
			for _, d := range list {
				n := d.Name
				if n == "" {
					n = d.Dimension
				}
				if _, dup := v.dims[n]; !dup && n != "" {
					v.dims[n] = d
				}
			}
		}
	}
	v.deriveFromCounts()
	v.deriveFromPairs()
	return v
}

// deriveFromPairs fills dimension statuses of a comparison that reports
// them per function pair (compare_functions' changes page): the worst pair
// status of each dimension, where a function on one side only changes every
// dimension. A page that is not the whole list leaves the dimensions
// truncated.
func (v *comparisonView) deriveFromPairs() {
	var page abi.Page[struct {
		Status     string          `json:"status"`
		Dimensions []dimensionView `json:"dimensions"`
	}]
	if len(v.dims) > 0 || len(v.Changes) == 0 || json.Unmarshal(v.Changes, &page) != nil || page.Items == nil {
		return
	}
	rank := map[string]int{"unchanged": 0, "unknown": 1, "truncated": 2, "removed": 3, "added": 3, "changed": 3, "contradiction": 4}
	worst := map[string]string{}
	limits := map[string][]string{}
	for _, it := range page.Items {
		if it.Status == "added" || it.Status == "removed" {
			for _, d := range Dimensions(KindStructuralFunction)[1:] {
				worst[d] = "changed"
			}
			continue
		}
		for _, d := range it.Dimensions {
			name := d.Dimension
			if name == "" {
				name = d.Name
			}
			st := "unknown"
			if d.Status != nil {
				st = *d.Status
			}
			if _, known := rank[st]; !known {
				st = "unknown"
			}
			if cur, ok := worst[name]; !ok || rank[st] > rank[cur] {
				worst[name] = st
			}
			limits[name] = append(limits[name], d.Limitations...)
		}
	}
	whole := page.Offset == 0 && page.NextOffset == nil && page.Total == len(page.Items)
	for name, st := range worst {
		if !whole && rank[st] < rank["removed"] {
			st = "truncated"
		}
		v.dims[name] = dimensionView{Status: &st, Limitations: limits[name]}
	}
}

// status reads one dimension: the result's own status for overall,
// otherwise dimensions as an object keyed by name or an array of
// {name|dimension, status}.
func (v *comparisonView) status(dim string) (status string, limitations []string, found bool) {
	if dim == DimensionOverall {
		if v.Status == nil {
			return fromVerdict(v.Verdict)
		}
		return *v.Status, nil, true
	}
	d, ok := v.dims[dim]
	if !ok {
		return "", nil, false
	}
	if d.Status == nil {
		s, _, found := fromVerdict(d.Verdict)
		return s, d.Limitations, found
	}
	return *d.Status, d.Limitations, true
}

// fromVerdict reads compare_process_captures' verdicts: equivalent or equal
// is unchanged, divergent or different is changed; any other verdict is
// passed through and so becomes unknown.
func fromVerdict(v *string) (string, []string, bool) {
	if v == nil {
		return "", nil, false
	}
	switch *v {
	case "equivalent", "equal":
		return "unchanged", nil, true
	case "divergent", "different":
		return "changed", nil, true
	}
	return *v, nil, true
}

// sides reads the comparison's input Evidence: left/right_evidence_id(s)
// in the result, else exactly two evidence_links.
func (v *comparisonView) sides(links []string, params json.RawMessage) (left, right []string) {
	read := func(one string, many []string) []string {
		var ids []string
		if isEvidenceID(one) {
			ids = append(ids, one)
		}
		for _, id := range many {
			if isEvidenceID(id) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	var ls, rs struct {
		EvidenceID string `json:"evidence_id"`
	}
	_ = json.Unmarshal(v.Left, &ls)
	_ = json.Unmarshal(v.Right, &rs)
	left = read(v.LeftEvidenceID, append(v.LeftEvidenceIDs, ls.EvidenceID))
	right = read(v.RightEvidenceID, append(v.RightEvidenceIDs, rs.EvidenceID))
	if len(left) == 0 && len(right) == 0 {
		var p struct {
			Left  json.RawMessage `json:"left"`
			Right json.RawMessage `json:"right"`
		}
		_ = json.Unmarshal(params, &p)
		left, right = read("", referenced(p.Left)), read("", referenced(p.Right))
	}
	if len(left) == 0 && len(right) == 0 && len(links) == 2 {
		left, right = []string{links[0]}, []string{links[1]}
	}
	return uniqueSorted(left), uniqueSorted(right)
}

// referenced reads Evidence ids from a request side: an id, a list of ids,
// a retained-evidence reference or a list of references.
func referenced(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var ref struct {
		EvidenceID string `json:"evidence_id"`
	}
	if json.Unmarshal(raw, &ref) == nil && ref.EvidenceID != "" {
		return []string{ref.EvidenceID}
	}
	var many []json.RawMessage
	if json.Unmarshal(raw, &many) != nil {
		return nil
	}
	var out []string
	for _, m := range many {
		out = append(out, referenced(m)...)
	}
	return out
}

// environmentLimitations enforces that controlled-replay observations on
// both sides ran in the same environment.
func environmentLimitations(left, right []string, inputs map[string]Record) []string {
	var out []string
	var envs []string
	replay := false
	for _, id := range append(append([]string{}, left...), right...) {
		r, ok := inputs[id]
		if !ok {
			out = append(out, "Input Evidence "+id+" is not retained, so its authority and environment cannot be compared.")
			continue
		}
		if r.Authority == "controlled-replay" {
			replay = true
		}
		envs = append(envs, envKey(r.Environment))
	}
	if replay && len(envs) > 1 {
		for _, e := range envs[1:] {
			if e != envs[0] {
				out = append(out, "The controlled-replay observations ran in different environments; a behavioural claim needs matching environments.")
				break
			}
		}
	}
	return out
}

func envKey(e *Environment) string {
	if e == nil {
		return "null"
	}
	return strings.Join([]string{e.ID, e.Platform, e.Architecture, e.Isolation}, "\x00")
}

func uniqueSorted(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
