package unknowns

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"rea/abi"
	"rea/host/evidence"
)

// Provider is the Evidence provider of registry mutation records.
func Provider() evidence.Provider {
	v := "1"
	return evidence.Provider{ID: "rea.residual-unknowns", Name: "rea residual-unknown registry", Version: &v}
}

// Registry is the residual-unknown registry of one connection. It keeps no
// state of its own: every revision lives in the connection's Evidence
// ledger next to the mutation record that produced it, so exporting the
// ledger carries the histories, importing a bundle restores them and
// clearing the ledger (close_binary) clears the registry.
//
// Writes are compare-and-swap: a revision is published together with its
// mutation record by one atomic Ledger.Import, which refuses a different
// revision with the same number, so two racing updates cannot both win.
type Registry struct {
	ledger *evidence.Ledger
}

// New returns the registry over a connection's ledger.
func New(l *evidence.Ledger) *Registry { return &Registry{ledger: l} }

// histories parses every retained revision, grouped by unknown and ordered
// by revision.
func (r *Registry) histories() (map[string][]Unknown, error) {
	out := map[string][]Unknown{}
	for _, eu := range r.ledger.Unknowns() {
		u, err := Parse(eu.JSON)
		if err != nil {
			return nil, err
		}
		out[u.UnknownID] = append(out[u.UnknownID], u)
	}
	return out, nil
}

// Heads returns the latest revision of every unknown.
func (r *Registry) Heads() (map[string]Unknown, error) {
	hs, err := r.histories()
	if err != nil {
		return nil, err
	}
	heads := make(map[string]Unknown, len(hs))
	for id, h := range hs {
		heads[id] = h[len(h)-1]
	}
	return heads, nil
}

// Proposal is what record_unknown accepts. Zero values take the defaults:
// status open, severity medium, required_confidence observed, empty lists.
type Proposal struct {
	Question                 string               `json:"question"`
	Domain                   string               `json:"domain"`
	ScopeDigest              *string              `json:"scope_digest"`
	Status                   Status               `json:"status"`
	Severity                 Severity             `json:"severity"`
	SupportingEvidenceIDs    []string             `json:"supporting_evidence_ids"`
	ContradictingEvidenceIDs []string             `json:"contradicting_evidence_ids"`
	RequiredAuthority        *evidence.Authority  `json:"required_authority"`
	RequiredConfidence       evidence.Confidence  `json:"required_confidence"`
	RequiredEnvironment      *RequiredEnvironment `json:"required_environment"`
	RecommendedProbes        []Probe              `json:"recommended_probes"`
	Relationships            []Relationship       `json:"relationships"`
	Resolution               *Resolution          `json:"resolution"`
}

// Mutation is what a successful record or update returns.
type Mutation struct {
	Action             string  `json:"action"`
	Unknown            Unknown `json:"unknown"`
	MutationEvidenceID string  `json:"mutation_evidence_id"`
}

// Record creates revision 1 of a new unknown. An unknown with the same
// domain, question and scope already held is refused (update it instead).
func (r *Registry) Record(ctx context.Context, p Proposal) (Mutation, error) {
	u := Unknown{
		RegistryVersion: RegistryVersion, Revision: 1,
		ScopeDigest: p.ScopeDigest, Question: NormalizeQuestion(p.Question), Domain: p.Domain,
		Status: p.Status, Severity: p.Severity,
		SupportingEvidenceIDs: orEmpty(p.SupportingEvidenceIDs), ContradictingEvidenceIDs: orEmpty(p.ContradictingEvidenceIDs),
		RequiredAuthority: p.RequiredAuthority, RequiredConfidence: p.RequiredConfidence, RequiredEnvironment: p.RequiredEnvironment,
		RecommendedProbes: p.RecommendedProbes, Relationships: p.Relationships, Resolution: p.Resolution,
	}
	if u.Status == "" {
		u.Status = StatusOpen
	}
	if u.Severity == "" {
		u.Severity = SeverityMedium
	}
	if u.RequiredConfidence == "" {
		u.RequiredConfidence = evidence.ConfidenceObserved
	}
	if u.RecommendedProbes == nil {
		u.RecommendedProbes = []Probe{}
	}
	if u.Relationships == nil {
		u.Relationships = []Relationship{}
	}
	if u.Resolution != nil && u.Resolution.EvidenceIDs == nil {
		u.Resolution.EvidenceIDs = []string{}
	}
	if err := text([]any{"domain"}, p.Domain, MaxDomain); err != nil {
		return Mutation{}, err
	}
	if err := text([]any{"question"}, u.Question, MaxQuestion); err != nil {
		return Mutation{}, err
	}
	if u.ScopeDigest != nil && !isSHA256Hex(*u.ScopeDigest) {
		return Mutation{}, issue([]any{"scope_digest"}, evidence.ReasonInvalidFormat, "scope_digest is a target sha256 (64 lowercase hex digits) or null")
	}
	id, err := DeriveID(u.Domain, u.Question, u.ScopeDigest)
	if err != nil {
		return Mutation{}, err
	}
	u.UnknownID = id
	heads, err := r.Heads()
	if err != nil {
		return Mutation{}, err
	}
	if have, ok := heads[u.UnknownID]; ok {
		return Mutation{}, abi.Errorf(abi.CodeRevisionConflict,
			"Residual unknown %s (same domain, question and scope) already exists at revision %d; change it with update_unknown and expected_revision %d.",
			u.UnknownID, have.Revision, have.Revision).
			WithDetail("unknown_id", u.UnknownID).WithDetail("current_revision", have.Revision)
	}
	return r.commit(ctx, "record", nil, u, heads, map[string]any{"unknown_id": u.UnknownID})
}

// mutableFields are the fields update_unknown may change; domain, question
// and scope make the identity and never change.
func mutableFields() []string {
	return []string{"status", "severity", "supporting_evidence_ids", "contradicting_evidence_ids", "required_authority",
		"required_confidence", "required_environment", "recommended_probes", "relationships", "resolution"}
}

// Update writes the next revision of an unknown when expectedRevision is its
// current revision; otherwise it fails with revision_conflict and nothing
// changes. changes maps mutable field names to their new JSON values
// (lists are replaced whole; null clears a nullable field).
func (r *Registry) Update(ctx context.Context, id string, expectedRevision int64, changes map[string]json.RawMessage) (Mutation, error) {
	if !IsUnknownID(id) {
		return Mutation{}, issue([]any{"unknown_id"}, evidence.ReasonInvalidFormat, "%q is not unk_ followed by 64 lowercase hex digits", id)
	}
	if len(changes) == 0 {
		return Mutation{}, issue([]any{"changes"}, evidence.ReasonMinimum, "name at least one field to change: %v", mutableFields())
	}
	for k := range changes {
		if !oneOf(k, mutableFields()) {
			return Mutation{}, issue([]any{"changes", k}, evidence.ReasonUnknown, "%q cannot be changed; changeable fields are %v (domain, question and scope define the unknown)", k, mutableFields())
		}
	}
	heads, err := r.Heads()
	if err != nil {
		return Mutation{}, err
	}
	head, ok := heads[id]
	if !ok {
		return Mutation{}, abi.Errorf(abi.CodeUnavailable,
			"Residual unknown %s is not held by this session (never recorded here, cleared by close_binary, or held by another connection). List current unknowns with list_unknowns.", id).
			WithDetail("unknown_id", id).WithDetail("reason", "missing")
	}
	if head.Revision != expectedRevision {
		return Mutation{}, revisionConflict(id, expectedRevision, head.Revision)
	}
	fields, err := asMap(head)
	if err != nil {
		return Mutation{}, err
	}
	for k, v := range changes {
		fields[k] = v
	}
	b, _ := json.Marshal(fields)
	var next Unknown
	if err := json.Unmarshal(b, &next); err != nil {
		return Mutation{}, issue([]any{"changes"}, evidence.ReasonInvalidType, "%v", err)
	}
	for k, v := range changes {
		if isNull(v) && !nullable(k) {
			return Mutation{}, issue([]any{"changes", k}, evidence.ReasonInvalidType, "%q must not be null", k)
		}
	}
	if next.Resolution != nil && next.Resolution.EvidenceIDs == nil {
		next.Resolution.EvidenceIDs = []string{}
	}
	next.Revision = head.Revision + 1
	prev := head.RevisionDigest
	next.PreviousRevisionDigest = &prev
	return r.commit(ctx, "update", &head, next, heads, map[string]any{"unknown_id": id, "expected_revision": expectedRevision})
}

func revisionConflict(id string, expected, current int64) *abi.Error {
	return abi.Errorf(abi.CodeRevisionConflict,
		"Residual unknown %s is at revision %d, not the expected %d; nothing was changed. Read it again (list_unknowns) and retry with expected_revision %d.",
		id, current, expected, current).
		WithDetail("unknown_id", id).WithDetail("expected_revision", expected).WithDetail("current_revision", current)
}

// commit checks next against the session (retained Evidence, related
// unknowns, depends-on acyclicity, verified-resolution qualification),
// writes its mutation record and publishes both atomically.
func (r *Registry) commit(ctx context.Context, action string, prev *Unknown, next Unknown, heads map[string]Unknown, params map[string]any) (Mutation, error) {
	next.normalize()
	// Check the revision's own rules before anything else; the mutation
	// record does not exist yet, so a placeholder stands in for it.
	shape := next
	shape.MutationEvidenceIDs = []string{evidence.IDPrefix + strings.Repeat("0", 64)}
	if err := shape.Validate(); err != nil {
		return Mutation{}, err
	}
	next.MutationEvidenceIDs = []string{}
	lookup := Lookup(r.ledger.Lookup)
	for _, rf := range next.evidenceRefs() {
		if _, ok := lookup(rf.id); !ok {
			return Mutation{}, missingEvidence(next, rf)
		}
	}
	state, err := next.StateDigest()
	if err != nil {
		return Mutation{}, err
	}
	links := map[string]bool{}
	for _, rf := range next.evidenceRefs() {
		links[rf.id] = true
	}
	if prev != nil {
		for _, id := range prev.MutationEvidenceIDs {
			links[id] = true
		}
	}
	linkList := make([]string, 0, len(links))
	for id := range links {
		linkList = append(linkList, id)
	}
	sort.Strings(linkList)
	rec, err := evidence.New(evidence.Draft{
		Provider:      Provider(),
		PredicateType: MutationPredicate,
		Operation:     action + "_unknown",
		Parameters:    params,
		NormalizedResult: MutationResult{RegistryVersion: RegistryVersion, Action: action, UnknownID: next.UnknownID,
			Revision: next.Revision, PreviousRevisionDigest: next.PreviousRevisionDigest, StateDigest: state},
		Confidence:    evidence.ConfidenceObserved,
		Authority:     evidence.AuthorityAnalystInference,
		EvidenceLinks: linkList,
	})
	if err != nil {
		return Mutation{}, err
	}
	next.MutationEvidenceIDs = []string{rec.EvidenceID}
	if err := next.Seal(); err != nil {
		return Mutation{}, err
	}
	if err := next.Validate(); err != nil {
		return Mutation{}, err
	}
	for i, rel := range next.Relationships {
		if _, ok := heads[rel.UnknownID]; !ok {
			return Mutation{}, missingRelated(next, i)
		}
	}
	if ok, qs := verifiedQualifies(next, lookup); !ok {
		return Mutation{}, unqualified(next, qs)
	}
	withNext := make(map[string]Unknown, len(heads)+1)
	for id, h := range heads {
		withNext[id] = h
	}
	withNext[next.UnknownID] = next
	if cycle := dependsOnCycle(withNext); cycle != nil {
		return Mutation{}, cycleError(cycle)
	}
	if err := ctx.Err(); err != nil {
		return Mutation{}, abi.Errorf(abi.CodeCancelled, "The %s was cancelled before publishing; nothing was changed.", action+"_unknown")
	}
	eu, err := next.Evidence()
	if err != nil {
		return Mutation{}, err
	}
	b, err := evidence.NewBundle([]evidence.Record{rec}, []evidence.Unknown{eu})
	if err != nil {
		return Mutation{}, err
	}
	if _, err := r.ledger.Import(b); err != nil {
		return Mutation{}, err
	}
	return Mutation{Action: action, Unknown: next, MutationEvidenceID: rec.EvidenceID}, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
}

// Filter selects unknowns for List. Empty fields match everything.
type Filter struct {
	UnknownID   string     `json:"unknown_id,omitempty"`
	Statuses    []Status   `json:"status,omitempty"`
	Severities  []Severity `json:"severity,omitempty"`
	Domain      string     `json:"domain,omitempty"`
	ScopeDigest string     `json:"scope_digest,omitempty"`
	// History lists every revision instead of heads only.
	History bool `json:"include_history,omitempty"`
	Offset  int  `json:"offset,omitempty"`
	Limit   int  `json:"limit,omitempty"`
}

// Paging limits of List.
const (
	DefaultLimit = 50
	MaxLimit     = 100
)

// Page is one deterministic page of unknowns, ordered by unknown_id then
// revision, with counts over everything that matched.
type Page struct {
	Total      int            `json:"total"`
	Offset     int            `json:"offset"`
	Limit      int            `json:"limit"`
	NextOffset *int           `json:"next_offset"`
	ByStatus   map[string]int `json:"by_status"`
	Unknowns   []Unknown      `json:"unknowns"`
}

// List returns the matching unknowns, one page at a time.
func (r *Registry) List(f Filter) (Page, error) {
	if f.Offset < 0 {
		return Page{}, issue([]any{"offset"}, evidence.ReasonMinimum, "offset must be ≥ 0")
	}
	if f.Limit == 0 {
		f.Limit = DefaultLimit
	}
	if f.Limit < 1 || f.Limit > MaxLimit {
		return Page{}, issue([]any{"limit"}, evidence.ReasonMaximum, "limit must be between 1 and %d", MaxLimit)
	}
	hs, err := r.histories()
	if err != nil {
		return Page{}, err
	}
	ids := make([]string, 0, len(hs))
	for id := range hs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	match := func(u Unknown) bool {
		if f.UnknownID != "" && u.UnknownID != f.UnknownID {
			return false
		}
		if len(f.Statuses) > 0 && !oneOf(string(u.Status), statusStrings(f.Statuses)) {
			return false
		}
		if len(f.Severities) > 0 && !oneOf(string(u.Severity), severityStrings(f.Severities)) {
			return false
		}
		if f.Domain != "" && u.Domain != f.Domain {
			return false
		}
		if f.ScopeDigest != "" && (u.ScopeDigest == nil || *u.ScopeDigest != f.ScopeDigest) {
			return false
		}
		return true
	}
	var all []Unknown
	byStatus := map[string]int{}
	for _, id := range ids {
		h := hs[id]
		if !match(h[len(h)-1]) {
			continue
		}
		byStatus[string(h[len(h)-1].Status)]++
		if f.History {
			all = append(all, h...)
		} else {
			all = append(all, h[len(h)-1])
		}
	}
	p := Page{Total: len(all), Offset: f.Offset, Limit: f.Limit, ByStatus: byStatus, Unknowns: []Unknown{}}
	if page, next := abi.Window(all, f.Offset, f.Limit); page != nil {
		p.Unknowns, p.NextOffset = page, next
	}
	return p, nil
}

func statusStrings(s []Status) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

func severityStrings(s []Severity) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

// ResolutionCheck is the answer of verify_unknown_resolution.
type ResolutionCheck struct {
	UnknownID string `json:"unknown_id"`
	Revision  int64  `json:"revision"`
	Status    Status `json:"status"`
	// Disposition of the current resolution, or null.
	Disposition *string `json:"disposition"`
	// Qualified is true when at least one candidate qualifies.
	Qualified             bool            `json:"qualified"`
	QualifyingEvidenceIDs []string        `json:"qualifying_evidence_ids"`
	Candidates            []Qualification `json:"candidates"`
	Requirements          Requirements    `json:"requirements"`
	// Verdict: verified (a verified resolution with qualifying Evidence),
	// qualifying-evidence-available (not resolved as verified, but a
	// candidate qualifies), or unverified.
	Verdict string `json:"verdict"`
}

// Requirements repeats what qualifying Evidence must meet.
type Requirements struct {
	Authority   *evidence.Authority  `json:"required_authority"`
	Confidence  evidence.Confidence  `json:"required_confidence"`
	Environment *RequiredEnvironment `json:"required_environment"`
}

// VerifyResolution checks the head of an unknown against its requirements.
// Candidates are evidenceIDs when given, else the resolution's Evidence when
// resolved, else the supporting Evidence. Nothing is written.
func (r *Registry) VerifyResolution(id string, evidenceIDs []string) (ResolutionCheck, error) {
	heads, err := r.Heads()
	if err != nil {
		return ResolutionCheck{}, err
	}
	u, ok := heads[id]
	if !ok {
		return ResolutionCheck{}, abi.Errorf(abi.CodeUnavailable,
			"Residual unknown %s is not held by this session. List current unknowns with list_unknowns.", id).
			WithDetail("unknown_id", id).WithDetail("reason", "missing")
	}
	if err := idList([]any{"evidence_ids"}, orEmpty(evidenceIDs), 0, MaxEvidenceIDs); err != nil {
		return ResolutionCheck{}, err
	}
	cands := evidenceIDs
	if len(cands) == 0 {
		if u.Resolution != nil && len(u.Resolution.EvidenceIDs) > 0 {
			cands = u.Resolution.EvidenceIDs
		} else {
			cands = u.SupportingEvidenceIDs
		}
	}
	out := ResolutionCheck{UnknownID: id, Revision: u.Revision, Status: u.Status, Candidates: []Qualification{},
		QualifyingEvidenceIDs: []string{},
		Requirements:          Requirements{u.RequiredAuthority, u.RequiredConfidence, u.RequiredEnvironment}}
	if u.Resolution != nil {
		d := u.Resolution.Disposition
		out.Disposition = &d
	}
	for _, c := range cands {
		q := Qualify(u, c, r.ledger.Lookup)
		out.Candidates = append(out.Candidates, q)
		if q.Qualifies {
			out.Qualified = true
			out.QualifyingEvidenceIDs = append(out.QualifyingEvidenceIDs, c)
		}
	}
	switch {
	case out.Disposition != nil && *out.Disposition == DispositionVerified && out.Qualified:
		out.Verdict = "verified"
	case out.Qualified:
		out.Verdict = "qualifying-evidence-available"
	default:
		out.Verdict = "unverified"
	}
	return out, nil
}
