package unknowns

import (
	"fmt"

	"rea/abi"
	"rea/host/evidence"
)

// Validator is the bundle's UnknownValidator: pass it to
// evidence.ParseBundle or evidence.ReadBundleFile so a bundle's residual
// unknowns are imported only with a valid history. It rejects a revision
// that does not parse or whose id or digest does not match its content, a
// history that does not start at revision 1 or has a gap, a broken
// previous_revision_digest chain, a change of identity inside a history,
// Evidence references (observations or mutation records) missing from the
// bundle, a mutation record that was not written for its revision, a
// relationship to an unknown the bundle does not hold, a depends-on cycle
// among the heads, and a verified resolution without qualifying Evidence.
type Validator struct{}

var _ evidence.UnknownValidator = Validator{}

// ValidateUnknowns implements evidence.UnknownValidator. us is sorted by
// unknown_id then revision.
func (Validator) ValidateUnknowns(us []evidence.Unknown, record func(string) (evidence.Record, bool)) error {
	lookup := Lookup(record)
	histories := map[string][]Unknown{}
	var order []string
	for i, eu := range us {
		u, err := Parse(eu.JSON)
		if err != nil {
			return fmt.Errorf("unknowns[%d]: %w", i, err)
		}
		h := histories[u.UnknownID]
		if len(h) == 0 {
			order = append(order, u.UnknownID)
		}
		want := int64(len(h) + 1)
		if u.Revision != want {
			return chainError(u, "gap", fmt.Sprintf("its history has no revision %d before revision %d", want, u.Revision))
		}
		if len(h) > 0 {
			prev := h[len(h)-1]
			if u.PreviousRevisionDigest == nil || *u.PreviousRevisionDigest != prev.RevisionDigest {
				return chainError(u, "broken-chain", fmt.Sprintf("previous_revision_digest does not name revision %d's digest %s", prev.Revision, prev.RevisionDigest))
			}
		}
		if err := checkMutationRecords(u, lookup); err != nil {
			return err
		}
		for _, rf := range u.evidenceRefs() {
			if _, ok := lookup(rf.id); !ok {
				return missingFromBundle(u, rf)
			}
		}
		if ok, qs := verifiedQualifies(u, lookup); !ok {
			return unqualified(u, qs)
		}
		histories[u.UnknownID] = append(h, u)
	}
	heads := make(map[string]Unknown, len(histories))
	for _, id := range order {
		h := histories[id]
		heads[id] = h[len(h)-1]
	}
	for _, id := range order {
		for _, u := range histories[id] {
			for i, rel := range u.Relationships {
				if _, ok := heads[rel.UnknownID]; !ok {
					return missingRelated(u, i)
				}
			}
		}
	}
	if cycle := dependsOnCycle(heads); cycle != nil {
		return cycleError(cycle)
	}
	return nil
}

func chainError(u Unknown, reason, what string) *abi.Error {
	return abi.Errorf(abi.CodeEvidenceIntegrity,
		"Residual unknown %s revision %d does not continue its history: %s. The bundle was edited or cut; re-export it from rea.",
		u.UnknownID, u.Revision, what).
		WithDetail("unknown_id", u.UnknownID).WithDetail("revision", u.Revision).WithDetail("reason", reason)
}
