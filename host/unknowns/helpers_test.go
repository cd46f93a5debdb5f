package unknowns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"rea/abi"
	"rea/host/evidence"
)

// observation seals a real Evidence record with the given confidence,
// authority and environment; n makes it distinct.
func observation(t testing.TB, n int, c evidence.Confidence, a evidence.Authority, env *evidence.Environment) evidence.Record {
	t.Helper()
	r, err := evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: "test.observer", Name: "test observer"},
		Operation:        "observe",
		Parameters:       map[string]any{"n": n},
		NormalizedResult: map[string]any{"observed": n},
		Confidence:       c,
		Authority:        a,
		Environment:      env,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func retain(t testing.TB, l *evidence.Ledger, rs ...evidence.Record) {
	t.Helper()
	for _, r := range rs {
		if _, err := l.Add(r); err != nil {
			t.Fatal(err)
		}
	}
}

func code(err error) string {
	var e *abi.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func detail(err error, key string) any {
	var e *abi.Error
	if errors.As(err, &e) {
		return e.Details[key]
	}
	return nil
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func mustRecord(t testing.TB, r *Registry, p Proposal) Unknown {
	t.Helper()
	m, err := r.Record(context.Background(), p)
	if err != nil {
		t.Fatalf("record %q: %v", p.Question, err)
	}
	return m.Unknown
}

// forge writes the next revision the way a faulty exporter could, with a
// matching mutation record, bypassing the registry's checks.
func forge(t testing.TB, prev *Unknown, next Unknown) (Unknown, evidence.Record) {
	t.Helper()
	if prev != nil {
		next.Revision = prev.Revision + 1
		d := prev.RevisionDigest
		next.PreviousRevisionDigest = &d
	}
	next.MutationEvidenceIDs = []string{}
	rec, err := evidence.New(evidence.Draft{
		Provider: Provider(), PredicateType: MutationPredicate, Operation: "update_unknown",
		NormalizedResult: MutationResult{RegistryVersion: 1, Action: "update", UnknownID: next.UnknownID, Revision: next.Revision,
			PreviousRevisionDigest: next.PreviousRevisionDigest, StateDigest: must(next.StateDigest())},
		Parameters: map[string]any{"forged": fmt.Sprint(next.Revision)},
	})
	if err != nil {
		t.Fatal(err)
	}
	next.MutationEvidenceIDs = []string{rec.EvidenceID}
	if err := next.Seal(); err != nil {
		panic(err)
	}
	return next, rec
}

// must is v of a call that cannot fail on the tests' own records.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
