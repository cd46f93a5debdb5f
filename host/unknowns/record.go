package unknowns

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"rea/abi"
	"rea/abi/canonical"
	"rea/host/evidence"
)

// RegistryVersion is the only residual-unknown record version rea reads and
// writes.
const RegistryVersion = 1

// MutationPredicate is the predicate of the Evidence record every registry
// mutation writes.
const MutationPredicate = "rea.residual-unknown-mutation/v1"

// IDPrefix starts every unknown id.
const IDPrefix = "unk_"

// Limits of one record, REA's.
const (
	MaxQuestion        = 1000
	MaxDomain          = 100
	MaxEvidenceIDs     = 100
	MaxProbes          = 20
	MaxRelationships   = 100
	MaxRationale       = 2000
	MaxProbeOperation  = 100
	MaxProbeRationale  = 1000
	MaxMutationRecords = 100
)

// Status is where an unknown stands.
type Status string

// Statuses.
const (
	StatusOpen          Status = "open"
	StatusInvestigating Status = "investigating"
	StatusBlocked       Status = "blocked"
	StatusContradicted  Status = "contradicted"
	StatusResolved      Status = "resolved"
)

// Statuses lists every status in the order rea documents them.
func Statuses() []string {
	return []string{"open", "investigating", "blocked", "contradicted", "resolved"}
}

// Severity says how much an open unknown matters.
type Severity string

// Severities, weakest first.
const (
	SeverityLow      Severity = "low"
	SeverityMedium   Severity = "medium"
	SeverityHigh     Severity = "high"
	SeverityCritical Severity = "critical"
)

// Severities lists every severity, weakest first.
func Severities() []string { return []string{"low", "medium", "high", "critical"} }

// Relationship types.
const (
	RelationDependsOn   = "depends-on"
	RelationRelatedTo   = "related-to"
	RelationContradicts = "contradicts"
)

// RelationshipTypes lists every relationship type.
func RelationshipTypes() []string {
	return []string{RelationDependsOn, RelationRelatedTo, RelationContradicts}
}

// Dispositions of a resolution.
const (
	DispositionVerified   = "verified"
	DispositionWithdrawn  = "withdrawn"
	DispositionOutOfScope = "out-of-scope"
)

// Dispositions lists every resolution disposition.
func Dispositions() []string {
	return []string{DispositionVerified, DispositionWithdrawn, DispositionOutOfScope}
}

// Probe is an operation that would move an unknown towards resolution.
type Probe struct {
	Operation string `json:"operation"`
	Rationale string `json:"rationale"`
}

// Relationship ties an unknown to another one.
type Relationship struct {
	Type      string `json:"type"`
	UnknownID string `json:"unknown_id"`
}

// Resolution closes an unknown. A verified resolution needs qualifying
// supporting Evidence (see Qualification).
type Resolution struct {
	Disposition string   `json:"disposition"`
	Rationale   string   `json:"rationale"`
	EvidenceIDs []string `json:"evidence_ids"`
}

// RequiredEnvironment constrains where qualifying Evidence was observed; a
// nil field accepts any value.
type RequiredEnvironment struct {
	ID           *string `json:"id"`
	Platform     *string `json:"platform"`
	Architecture *string `json:"architecture"`
	Isolation    *string `json:"isolation"`
}

// Unknown is one revision of a residual unknown: an open question kept
// explicit so that absence of Evidence is never read as an answer. Every
// revision names its predecessor's digest, so a history cannot be edited
// without breaking the chain.
type Unknown struct {
	RegistryVersion          int                  `json:"registry_version"`
	UnknownID                string               `json:"unknown_id"`
	Revision                 int64                `json:"revision"`
	PreviousRevisionDigest   *string              `json:"previous_revision_digest"`
	RevisionDigest           string               `json:"revision_digest"`
	ScopeDigest              *string              `json:"scope_digest"`
	Question                 string               `json:"question"`
	Status                   Status               `json:"status"`
	Severity                 Severity             `json:"severity"`
	Domain                   string               `json:"domain"`
	SupportingEvidenceIDs    []string             `json:"supporting_evidence_ids"`
	ContradictingEvidenceIDs []string             `json:"contradicting_evidence_ids"`
	RequiredAuthority        *evidence.Authority  `json:"required_authority"`
	RequiredConfidence       evidence.Confidence  `json:"required_confidence"`
	RequiredEnvironment      *RequiredEnvironment `json:"required_environment"`
	RecommendedProbes        []Probe              `json:"recommended_probes"`
	Relationships            []Relationship       `json:"relationships"`
	Resolution               *Resolution          `json:"resolution"`
	MutationEvidenceIDs      []string             `json:"mutation_evidence_ids"`
}

// fieldNames are the record's keys; every one is required.
func fieldNames() []string {
	return []string{"registry_version", "unknown_id", "revision", "previous_revision_digest", "revision_digest",
		"scope_digest", "question", "status", "severity", "domain", "supporting_evidence_ids",
		"contradicting_evidence_ids", "required_authority", "required_confidence", "required_environment",
		"recommended_probes", "relationships", "resolution", "mutation_evidence_ids"}
}

// NormalizeQuestion collapses every run of whitespace to one space and trims
// the ends, so the same question spelled with other spacing has one id.
func NormalizeQuestion(q string) string { return strings.Join(strings.Fields(q), " ") }

// DeriveID returns "unk_" + sha256(JCS{domain, question, scope_digest}) with
// the question whitespace-collapsed.
func DeriveID(domain, question string, scopeDigest *string) (string, error) {
	var scope any
	if scopeDigest != nil {
		scope = *scopeDigest
	}
	d, err := canonical.Digest(map[string]any{"domain": domain, "question": NormalizeQuestion(question), "scope_digest": scope})
	if err != nil {
		return "", err
	}
	return IDPrefix + d, nil
}

// IsUnknownID reports whether s has the form unk_<64 lowercase hex>.
func IsUnknownID(s string) bool {
	return strings.HasPrefix(s, IDPrefix) && isSHA256Hex(s[len(IDPrefix):])
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Canonical returns the record's RFC 8785 bytes.
func (u Unknown) Canonical() ([]byte, error) { return canonical.JSON(u) }

// ComputeRevisionDigest is sha256(JCS(record without revision_digest)).
func (u Unknown) ComputeRevisionDigest() (string, error) {
	return u.digestWithout("revision_digest")
}

// StateDigest binds a mutation record to the revision it produced: the
// digest of the record without revision_digest and mutation_evidence_ids
// (which are derived from the mutation record itself).
func (u Unknown) StateDigest() (string, error) {
	return u.digestWithout("revision_digest", "mutation_evidence_ids")
}

// digestWithout is the canonical digest of the record without the named
// members.
func (u Unknown) digestWithout(members ...string) (string, error) {
	m, err := asMap(u)
	if err != nil {
		return "", err
	}
	for _, k := range members {
		delete(m, k)
	}
	return canonical.Digest(m)
}

// asMap is the record's members in canonical form.
func asMap(u Unknown) (map[string]json.RawMessage, error) {
	c, err := u.Canonical()
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(c, &m); err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "residual unknown %s: canonical form does not decode: %v", u.UnknownID, err)
	}
	return m, nil
}

// Seal fills revision_digest.
func (u *Unknown) Seal() error {
	d, err := u.ComputeRevisionDigest()
	u.RevisionDigest = d
	return err
}

// Evidence converts the revision to the bundle's opaque form.
func (u Unknown) Evidence() (evidence.Unknown, error) {
	c, err := u.Canonical()
	return evidence.Unknown{UnknownID: u.UnknownID, Revision: u.Revision, JSON: c}, err
}

// Open reports whether the unknown still asks its question.
func (u Unknown) Open() bool { return u.Status != StatusResolved }

// Parse reads one untrusted revision strictly (every field present, no
// unknown fields) and checks its own rules: limits, formats, the derived
// unknown_id and revision_digest, and the status rules. References to
// Evidence or other unknowns are checked by the registry and the bundle
// validator, which can see them.
func Parse(data []byte) (Unknown, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Unknown{}, issue(nil, evidence.ReasonInvalidFormat, "a residual unknown object: %v", err)
	}
	if fields == nil {
		return Unknown{}, issue(nil, evidence.ReasonInvalidType, "a residual unknown must be a JSON object")
	}
	for _, k := range fieldNames() {
		if _, ok := fields[k]; !ok {
			return Unknown{}, issue([]any{k}, evidence.ReasonMissing, "required field %q is missing", k)
		}
	}
	for k := range fields { // encoding/json matches keys case-insensitively; rea does not
		if !oneOf(k, fieldNames()) {
			return Unknown{}, issue([]any{k}, evidence.ReasonUnknown, "unknown field %q; remove it", k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var u Unknown
	if err := dec.Decode(&u); err != nil {
		return Unknown{}, issue(nil, evidence.ReasonInvalidFormat, "a residual unknown object: %v", err)
	}
	for k, v := range fields {
		if isNull(v) && !nullable(k) {
			return Unknown{}, issue([]any{k}, evidence.ReasonInvalidType, "%q must not be null", k)
		}
	}
	if err := u.Validate(); err != nil {
		return Unknown{}, err
	}
	want, err := DeriveID(u.Domain, u.Question, u.ScopeDigest)
	if err != nil {
		return Unknown{}, err
	}
	if u.UnknownID != want {
		return Unknown{}, abi.Errorf(abi.CodeEvidenceIntegrity,
			"Residual unknown %s does not match its domain, question and scope (expected %s); it was edited. Re-export it from rea.", u.UnknownID, want).
			WithDetail("unknown_id", u.UnknownID).WithDetail("reason", "id-mismatch")
	}
	if want, err = u.ComputeRevisionDigest(); err != nil {
		return Unknown{}, err
	}
	if u.RevisionDigest != want {
		return Unknown{}, abi.Errorf(abi.CodeEvidenceIntegrity,
			"Residual unknown %s revision %d has revision_digest %s but its content hashes to %s; it was edited. Re-export it from rea.",
			u.UnknownID, u.Revision, u.RevisionDigest, want).
			WithDetail("unknown_id", u.UnknownID).WithDetail("revision", u.Revision).WithDetail("reason", "digest-mismatch")
	}
	return u, nil
}

func nullable(field string) bool {
	switch field {
	case "previous_revision_digest", "scope_digest", "required_authority", "required_environment", "resolution":
		return true
	}
	return false
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// issue builds an invalid_request error with one field diagnostic.
func issue(path []any, reason, format string, args ...any) *abi.Error {
	if path == nil {
		path = []any{}
	}
	msg := fmt.Sprintf(format, args...)
	where := "the residual unknown"
	if len(path) > 0 {
		where = pathString(path)
	}
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", where, msg).
		WithDetail("issues", []evidence.Issue{{Path: path, Reason: reason, Message: msg}})
}

func pathString(p []any) string {
	var b strings.Builder
	for i, part := range p {
		switch v := part.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", v)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

func oneOf(v string, allowed []string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// Validate checks the rules one revision must satisfy on its own (REA's
// record rules): formats and limits, the revision chain shape, resolved ⇔
// resolution, contradicted needs contradicting Evidence, a verified
// resolution names Evidence, disjoint and unique Evidence lists, no
// self-relationship.
func (u Unknown) Validate() *abi.Error {
	if u.RegistryVersion != RegistryVersion {
		return issue([]any{"registry_version"}, evidence.ReasonInvalidValue, "registry_version must be %d, got %d", RegistryVersion, u.RegistryVersion)
	}
	if !IsUnknownID(u.UnknownID) {
		return issue([]any{"unknown_id"}, evidence.ReasonInvalidFormat, "%q is not unk_ followed by 64 lowercase hex digits", u.UnknownID)
	}
	if u.Revision < 1 {
		return issue([]any{"revision"}, evidence.ReasonMinimum, "revision must be ≥ 1, got %d", u.Revision)
	}
	if (u.Revision == 1) != (u.PreviousRevisionDigest == nil) {
		return issue([]any{"previous_revision_digest"}, evidence.ReasonInvalidValue, "previous_revision_digest is null exactly at revision 1")
	}
	if u.PreviousRevisionDigest != nil && !isSHA256Hex(*u.PreviousRevisionDigest) {
		return issue([]any{"previous_revision_digest"}, evidence.ReasonInvalidFormat, "expected 64 lowercase hex digits")
	}
	if u.ScopeDigest != nil && !isSHA256Hex(*u.ScopeDigest) {
		return issue([]any{"scope_digest"}, evidence.ReasonInvalidFormat, "scope_digest is a target sha256 (64 lowercase hex digits) or null")
	}
	if err := text([]any{"question"}, u.Question, MaxQuestion); err != nil {
		return err
	}
	if NormalizeQuestion(u.Question) != u.Question {
		return issue([]any{"question"}, evidence.ReasonInvalidFormat, "the question is stored whitespace-collapsed")
	}
	if err := text([]any{"domain"}, u.Domain, MaxDomain); err != nil {
		return err
	}
	if !oneOf(string(u.Status), Statuses()) {
		return issue([]any{"status"}, evidence.ReasonInvalidValue, "status %q is not one of %s", u.Status, strings.Join(Statuses(), ", "))
	}
	if !oneOf(string(u.Severity), Severities()) {
		return issue([]any{"severity"}, evidence.ReasonInvalidValue, "severity %q is not one of %s", u.Severity, strings.Join(Severities(), ", "))
	}
	if err := idList([]any{"supporting_evidence_ids"}, u.SupportingEvidenceIDs, 0, MaxEvidenceIDs); err != nil {
		return err
	}
	if err := idList([]any{"contradicting_evidence_ids"}, u.ContradictingEvidenceIDs, 0, MaxEvidenceIDs); err != nil {
		return err
	}
	for i, id := range u.ContradictingEvidenceIDs {
		if oneOf(id, u.SupportingEvidenceIDs) {
			return issue([]any{"contradicting_evidence_ids", i}, evidence.ReasonInvalidValue,
				"%s is listed as both supporting and contradicting; an observation supports or contradicts, not both", id)
		}
	}
	if u.RequiredAuthority != nil && !oneOf(string(*u.RequiredAuthority), authorities()) {
		return issue([]any{"required_authority"}, evidence.ReasonInvalidValue, "required_authority %q is not one of %s", *u.RequiredAuthority, strings.Join(authorities(), ", "))
	}
	if confidenceRank(u.RequiredConfidence) == 0 {
		return issue([]any{"required_confidence"}, evidence.ReasonInvalidValue, "required_confidence %q is not one of inferred, derived, observed", u.RequiredConfidence)
	}
	if e := u.RequiredEnvironment; e != nil && e.Isolation != nil && !oneOf(*e.Isolation, []string{"none", "process", "container", "virtual-machine"}) {
		return issue([]any{"required_environment", "isolation"}, evidence.ReasonInvalidValue, "isolation %q is not one of none, process, container, virtual-machine", *e.Isolation)
	}
	if len(u.RecommendedProbes) > MaxProbes {
		return issue([]any{"recommended_probes"}, evidence.ReasonMaximum, "at most %d recommended probes, got %d", MaxProbes, len(u.RecommendedProbes))
	}
	for i, p := range u.RecommendedProbes {
		if err := text([]any{"recommended_probes", i, "operation"}, p.Operation, MaxProbeOperation); err != nil {
			return err
		}
		if err := text([]any{"recommended_probes", i, "rationale"}, p.Rationale, MaxProbeRationale); err != nil {
			return err
		}
	}
	if len(u.Relationships) > MaxRelationships {
		return issue([]any{"relationships"}, evidence.ReasonMaximum, "at most %d relationships, got %d", MaxRelationships, len(u.Relationships))
	}
	seen := map[Relationship]bool{}
	for i, r := range u.Relationships {
		p := []any{"relationships", i}
		if !oneOf(r.Type, RelationshipTypes()) {
			return issue(append(p, "type"), evidence.ReasonInvalidValue, "relationship type %q is not one of %s", r.Type, strings.Join(RelationshipTypes(), ", "))
		}
		if !IsUnknownID(r.UnknownID) {
			return issue(append(p, "unknown_id"), evidence.ReasonInvalidFormat, "%q is not an unknown id", r.UnknownID)
		}
		if r.UnknownID == u.UnknownID {
			return issue(append(p, "unknown_id"), evidence.ReasonInvalidValue, "an unknown cannot relate to itself")
		}
		if seen[r] {
			return issue(p, evidence.ReasonInvalidValue, "relationship %s %s is listed twice", r.Type, r.UnknownID)
		}
		seen[r] = true
	}
	if (u.Status == StatusResolved) != (u.Resolution != nil) {
		if u.Resolution == nil {
			return issue([]any{"resolution"}, evidence.ReasonMissing, "status resolved needs a resolution {disposition, rationale, evidence_ids}")
		}
		return issue([]any{"resolution"}, evidence.ReasonInvalidValue, "only a resolved unknown carries a resolution; set status resolved or resolution null")
	}
	if u.Status == StatusContradicted && len(u.ContradictingEvidenceIDs) == 0 {
		return issue([]any{"contradicting_evidence_ids"}, evidence.ReasonMinimum, "status contradicted needs at least one contradicting Evidence id")
	}
	if r := u.Resolution; r != nil {
		if !oneOf(r.Disposition, Dispositions()) {
			return issue([]any{"resolution", "disposition"}, evidence.ReasonInvalidValue, "disposition %q is not one of %s", r.Disposition, strings.Join(Dispositions(), ", "))
		}
		if err := text([]any{"resolution", "rationale"}, r.Rationale, MaxRationale); err != nil {
			return err
		}
		min := 0
		if r.Disposition == DispositionVerified {
			min = 1
		}
		if err := idList([]any{"resolution", "evidence_ids"}, r.EvidenceIDs, min, MaxEvidenceIDs); err != nil {
			return err
		}
	}
	if err := idList([]any{"mutation_evidence_ids"}, u.MutationEvidenceIDs, 1, MaxMutationRecords); err != nil {
		return err
	}
	if u.RevisionDigest != "" && !isSHA256Hex(u.RevisionDigest) {
		return issue([]any{"revision_digest"}, evidence.ReasonInvalidFormat, "expected 64 lowercase hex digits")
	}
	return nil
}

func text(path []any, s string, max int) *abi.Error {
	if strings.TrimSpace(s) == "" {
		return issue(path, evidence.ReasonMinimum, "must not be empty")
	}
	if !utf8.ValidString(s) {
		return issue(path, evidence.ReasonInvalidFormat, "must be valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return issue(path, evidence.ReasonMaximum, "at most %d characters, got %d", max, n)
	}
	return nil
}

func idList(path []any, ids []string, min, max int) *abi.Error {
	if ids == nil {
		return issue(path, evidence.ReasonInvalidType, "must be an array")
	}
	if len(ids) < min {
		return issue(path, evidence.ReasonMinimum, "needs at least %d Evidence id(s)", min)
	}
	if len(ids) > max {
		return issue(path, evidence.ReasonMaximum, "at most %d Evidence ids, got %d", max, len(ids))
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if !evidence.IsEvidenceID(id) {
			return issue(append(path, i), evidence.ReasonInvalidFormat, "%q is not ev_ followed by 64 lowercase hex digits", id)
		}
		if seen[id] {
			return issue(append(path, i), evidence.ReasonInvalidValue, "%s is listed twice", id)
		}
		seen[id] = true
	}
	return nil
}

func authorities() []string {
	return []string{"shipped-artifact", "controlled-replay", "historical-reference", "external-service", "analyst-inference"}
}

// confidenceRank orders confidences inferred < derived < observed; 0 is not
// a confidence.
func confidenceRank(c evidence.Confidence) int {
	switch c {
	case evidence.ConfidenceInferred:
		return 1
	case evidence.ConfidenceDerived:
		return 2
	case evidence.ConfidenceObserved:
		return 3
	}
	return 0
}

// normalize sorts the set-valued lists so equal states have equal digests.
func (u *Unknown) normalize() {
	sort.Strings(u.SupportingEvidenceIDs)
	sort.Strings(u.ContradictingEvidenceIDs)
	sort.Strings(u.MutationEvidenceIDs)
	sort.Slice(u.Relationships, func(i, j int) bool {
		a, b := u.Relationships[i], u.Relationships[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.UnknownID < b.UnknownID
	})
	if u.Resolution != nil {
		sort.Strings(u.Resolution.EvidenceIDs)
	}
}
