package unknowns

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"rea/abi"
	"rea/host/evidence"
)

// Lookup finds a retained Evidence record by id.
type Lookup func(evidenceID string) (evidence.Record, bool)

// Reasons a record does not qualify to verify a resolution.
const (
	ReasonMissing            = "missing"
	ReasonNotSupporting      = "not-supporting"
	ReasonMutationRecord     = "mutation-record"
	ReasonConfidenceTooWeak  = "confidence-below-required"
	ReasonAuthorityMismatch  = "authority-mismatch"
	ReasonEnvironmentMissing = "environment-missing"
	ReasonEnvironmentDiffers = "environment-mismatch"
)

// Qualification says whether one Evidence record settles an unknown and,
// when it does not, every reason why.
type Qualification struct {
	EvidenceID string   `json:"evidence_id"`
	Qualifies  bool     `json:"qualifies"`
	Reasons    []string `json:"reasons"`
}

// Qualify checks one candidate against the unknown's requirements: it must
// be retained, listed as supporting Evidence, not a registry mutation record,
// at least as confident as required_confidence (inferred < derived <
// observed), of exactly the required_authority when one is set, and observed
// in an environment matching every non-null field of required_environment.
func Qualify(u Unknown, id string, lookup Lookup) Qualification {
	q := Qualification{EvidenceID: id, Reasons: []string{}}
	if !oneOf(id, u.SupportingEvidenceIDs) {
		q.Reasons = append(q.Reasons, ReasonNotSupporting)
	}
	r, ok := lookup(id)
	if !ok {
		q.Reasons = append(q.Reasons, ReasonMissing)
		return q
	}
	if r.PredicateType == MutationPredicate {
		q.Reasons = append(q.Reasons, ReasonMutationRecord)
	}
	if confidenceRank(r.Confidence) < confidenceRank(u.RequiredConfidence) {
		q.Reasons = append(q.Reasons, ReasonConfidenceTooWeak)
	}
	if u.RequiredAuthority != nil && r.Authority != *u.RequiredAuthority {
		q.Reasons = append(q.Reasons, ReasonAuthorityMismatch)
	}
	if e := u.RequiredEnvironment; e != nil && (e.ID != nil || e.Platform != nil || e.Architecture != nil || e.Isolation != nil) {
		if r.Environment == nil {
			q.Reasons = append(q.Reasons, ReasonEnvironmentMissing)
		} else {
			for _, f := range []struct {
				name string
				want *string
				got  string
			}{{"id", e.ID, r.Environment.ID}, {"platform", e.Platform, r.Environment.Platform},
				{"architecture", e.Architecture, r.Environment.Architecture}, {"isolation", e.Isolation, r.Environment.Isolation}} {
				if f.want != nil && *f.want != f.got {
					q.Reasons = append(q.Reasons, ReasonEnvironmentDiffers+":"+f.name)
				}
			}
		}
	}
	q.Qualifies = len(q.Reasons) == 0
	return q
}

// verifiedQualifies checks a verified resolution: at least one of its
// Evidence ids qualifies.
func verifiedQualifies(u Unknown, lookup Lookup) (bool, []Qualification) {
	if u.Resolution == nil || u.Resolution.Disposition != DispositionVerified {
		return true, nil
	}
	qs := make([]Qualification, 0, len(u.Resolution.EvidenceIDs))
	ok := false
	for _, id := range u.Resolution.EvidenceIDs {
		q := Qualify(u, id, lookup)
		ok = ok || q.Qualifies
		qs = append(qs, q)
	}
	return ok, qs
}

func unqualified(u Unknown, qs []Qualification) *abi.Error {
	return abi.Errorf(abi.CodeInvalidRequest,
		"Residual unknown %s cannot be resolved as verified: none of resolution.evidence_ids is retained supporting Evidence (not a registry mutation) meeting required_confidence %s%s. "+
			"Add qualifying Evidence to supporting_evidence_ids and name it in the resolution, or resolve as withdrawn or out-of-scope.",
		u.UnknownID, u.RequiredConfidence, authorityClause(u)).
		WithDetail("unknown_id", u.UnknownID).
		WithDetail("reason", "unqualified-verified-resolution").
		WithDetail("qualifications", qs)
}

func authorityClause(u Unknown) string {
	var parts []string
	if u.RequiredAuthority != nil {
		parts = append(parts, "required_authority "+string(*u.RequiredAuthority))
	}
	if u.RequiredEnvironment != nil {
		parts = append(parts, "required_environment")
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, " and ")
}

// evidenceRefs lists every Evidence id the revision names as an observation
// (not its mutation records), with the field that names it.
func (u Unknown) evidenceRefs() []ref {
	var out []ref
	for i, id := range u.SupportingEvidenceIDs {
		out = append(out, ref{[]any{"supporting_evidence_ids", i}, id})
	}
	for i, id := range u.ContradictingEvidenceIDs {
		out = append(out, ref{[]any{"contradicting_evidence_ids", i}, id})
	}
	if u.Resolution != nil {
		for i, id := range u.Resolution.EvidenceIDs {
			out = append(out, ref{[]any{"resolution", "evidence_ids", i}, id})
		}
	}
	return out
}

type ref struct {
	path []any
	id   string
}

func missingEvidence(u Unknown, r ref) *abi.Error {
	return abi.Errorf(abi.CodeUnavailable,
		"Evidence %s named at %s of residual unknown %s is not retained by this session. Record or import it first, or remove the reference.",
		r.id, pathString(r.path), u.UnknownID).
		WithDetail("evidence_id", r.id).WithDetail("unknown_id", u.UnknownID).
		WithDetail("field", pathString(r.path)).WithDetail("reason", "missing")
}

func missingFromBundle(u Unknown, r ref) *abi.Error {
	return abi.Errorf(abi.CodeEvidenceIntegrity,
		"The bundle does not hold Evidence %s named at %s of residual unknown %s revision %d; it was cut or edited. Re-export the complete session from rea.",
		r.id, pathString(r.path), u.UnknownID, u.Revision).
		WithDetail("evidence_id", r.id).WithDetail("unknown_id", u.UnknownID).WithDetail("revision", u.Revision).
		WithDetail("field", pathString(r.path)).WithDetail("reason", "missing-evidence")
}

// MutationResult is the normalized_result of a mutation Evidence record. Its
// state_digest binds it to exactly the revision it produced.
type MutationResult struct {
	RegistryVersion        int     `json:"registry_version"`
	Action                 string  `json:"action"`
	UnknownID              string  `json:"unknown_id"`
	Revision               int64   `json:"revision"`
	PreviousRevisionDigest *string `json:"previous_revision_digest"`
	StateDigest            string  `json:"state_digest"`
}

// checkMutationRecords proves each mutation record exists, is a registry
// mutation and was written for this very revision.
func checkMutationRecords(u Unknown, lookup Lookup) *abi.Error {
	for i, id := range u.MutationEvidenceIDs {
		r, ok := lookup(id)
		if !ok {
			return missingFromBundle(u, ref{[]any{"mutation_evidence_ids", i}, id})
		}
		state, err := u.StateDigest()
		if err != nil {
			return internal(err)
		}
		var m MutationResult
		bad := r.PredicateType != MutationPredicate || json.Unmarshal(r.NormalizedResult, &m) != nil ||
			m.UnknownID != u.UnknownID || m.Revision != u.Revision || m.StateDigest != state
		if bad {
			return abi.Errorf(abi.CodeEvidenceIntegrity,
				"Evidence %s is not the mutation record of residual unknown %s revision %d (predicate, unknown, revision or state digest differ); the history was edited. Re-export it from rea.",
				id, u.UnknownID, u.Revision).
				WithDetail("evidence_id", id).WithDetail("unknown_id", u.UnknownID).
				WithDetail("revision", u.Revision).WithDetail("reason", "mutation-mismatch")
		}
	}
	return nil
}

// dependsOnCycle returns one depends-on cycle among heads (as the list of
// unknown ids, first repeated last), or nil. Edges to unknowns outside heads
// are ignored here; their absence is reported separately.
func dependsOnCycle(heads map[string]Unknown) []string {
	const (
		white = iota
		grey
		black
	)
	colour := map[string]int{}
	var stack []string
	var found []string
	var visit func(id string) bool
	visit = func(id string) bool {
		colour[id] = grey
		stack = append(stack, id)
		for _, r := range heads[id].Relationships {
			if r.Type != RelationDependsOn {
				continue
			}
			if _, ok := heads[r.UnknownID]; !ok {
				continue
			}
			switch colour[r.UnknownID] {
			case grey:
				for i, s := range stack {
					if s == r.UnknownID {
						found = append(append([]string{}, stack[i:]...), r.UnknownID)
					}
				}
				return true
			case white:
				if visit(r.UnknownID) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		colour[id] = black
		return false
	}
	ids := make([]string, 0, len(heads))
	for id := range heads {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if colour[id] == white && visit(id) {
			return found
		}
	}
	return nil
}

func cycleError(cycle []string) *abi.Error {
	return abi.Errorf(abi.CodeInvalidRequest,
		"The depends-on relationships would form a cycle (%s); an unknown cannot depend on itself through others. Use related-to for a mutual link.",
		strings.Join(cycle, " → ")).
		WithDetail("reason", "depends-on-cycle").WithDetail("cycle", cycle)
}

func missingRelated(u Unknown, i int) *abi.Error {
	id := u.Relationships[i].UnknownID
	return abi.Errorf(abi.CodeUnavailable,
		"Residual unknown %s relates to %s, which is not held alongside it (in this session or bundle). Record that unknown first or remove the relationship.", u.UnknownID, id).
		WithDetail("unknown_id", u.UnknownID).WithDetail("related_unknown_id", id).
		WithDetail("field", fmt.Sprintf("relationships[%d].unknown_id", i)).WithDetail("reason", "missing-related-unknown")
}

// internal is err as the *abi.Error the rules return; canonical's errors
// already are one.
func internal(err error) *abi.Error {
	var ae *abi.Error
	if errors.As(err, &ae) {
		return ae
	}
	return abi.Errorf(abi.CodeInternal, "%v", err)
}
