package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"rea/host/evidence"
	"rea/host/operation"
	"rea/host/unknowns"
)

// unknownTools are the residual-unknown registry: open questions kept
// explicit next to the Evidence, so absence of Evidence is never read as an
// answer. Revisions live in the session ledger and travel in bundles.
func (s *Server) unknownTools() []*Tool {
	unknownOut := Schema{"type": "object", "description": "One residual-unknown revision (registry_version 1). Evidence is named by " +
		"{kind, evidence_id} references in supporting_evidence, contradicting_evidence, mutation_evidence and resolution.evidence; the bare-id " +
		"arrays beside them (*_evidence_ids, resolution.evidence_ids) are deprecated and go away in the next release. revision_digest covers " +
		"the registry_version 1 fields, which leave the references out."}
	mutationOut := result("The new revision and the mutation Evidence recorded with it.", map[string]Schema{
		"action": typed("string"), "unknown": unknownOut, "mutation_evidence_id": typed("string"),
	})
	return []*Tool{
		{
			Spec:   spec(operation.RecordUnknown()),
			Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var p unknowns.Proposal
				if err := c.lowered(operation.RecordUnknown()).Decode(&p); err != nil {
					return nil, err
				}
				if !hasKey(c.Arguments, "scope_digest") {
					if t := c.Session.Target(); t != nil {
						sha := t.SHA256
						p.ScopeDigest = &sha
					}
				}
				res, err := unknowns.New(c.Session.Ledger).Record(ctx, p)
				return withReferences(res, raised(operation.RecordUnknown(), err))
			},
		},
		{
			Spec:   spec(operation.UpdateUnknown()),
			Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					UnknownID        string                     `json:"unknown_id"`
					ExpectedRevision int64                      `json:"expected_revision"`
					Changes          map[string]json.RawMessage `json:"changes"`
				}
				if err := c.lowered(operation.UpdateUnknown()).Decode(&in); err != nil {
					return nil, err
				}
				res, err := unknowns.New(c.Session.Ledger).Update(ctx, in.UnknownID, in.ExpectedRevision, in.Changes)
				return withReferences(res, raised(operation.UpdateUnknown(), err))
			},
		},
		{
			Spec: spec(operation.ListUnknowns()),
			Output: result("One page of unknowns.", map[string]Schema{
				"total": typed("integer"), "offset": typed("integer"), "limit": typed("integer"), "next_offset": nullable("integer"),
				"by_status": typed("object"), "unknowns": typed("array"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				var f unknowns.Filter
				if err := c.Decode(&f); err != nil {
					return nil, err
				}
				return withReferences(unknowns.New(c.Session.Ledger).List(f))
			},
		},
		{
			Spec: spec(operation.VerifyUnknownResolution()),
			Output: result("Qualification of each candidate.", map[string]Schema{
				"unknown_id": typed("string"), "revision": typed("integer"), "status": typed("string"), "disposition": nullable("string"),
				"qualified": typed("boolean"), "qualifying_evidence": typed("array"),
				"qualifying_evidence_ids": {"type": "array", "description": "Deprecated, goes away in the next release: the ids of qualifying_evidence."}, "candidates": typed("array"),
				"requirements": typed("object"), "verdict": typed("string"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				var in struct {
					UnknownID   string   `json:"unknown_id"`
					EvidenceIDs []string `json:"evidence_ids"`
				}
				if err := c.lowered(operation.VerifyUnknownResolution()).Decode(&in); err != nil {
					return nil, err
				}
				res, err := unknowns.New(c.Session.Ledger).VerifyResolution(in.UnknownID, in.EvidenceIDs)
				return withReferences(res, raised(operation.VerifyUnknownResolution(), err))
			},
		},
	}
}

// withReferences is a registry result as the client reads it: the stored
// records (registry_version 1, whose digests cover the seed's bare-id
// arrays) with the same ids as retained references beside each array
// (supporting_evidence beside supporting_evidence_ids, …; the old names
// are deprecations of the result for one release). A revision digest is
// computed over the record's own fields, which leave the references out.
func withReferences[T any](res T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	b, mErr := json.Marshal(res)
	if mErr != nil {
		return nil, mErr
	}
	return json.RawMessage(evidence.WithReferences(b)), nil
}

// hasKey reports whether the arguments object names key (even as null).
func hasKey(args json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(args), &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}
