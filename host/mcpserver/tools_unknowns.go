package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"rea/host/operation"
	"rea/host/unknowns"
)

// unknownTools are the residual-unknown registry: open questions kept
// explicit next to the Evidence, so absence of Evidence is never read as an
// answer. Revisions live in the session ledger and travel in bundles.
func (s *Server) unknownTools() []*Tool {
	ids := func(d string) Schema {
		return array(d, str("ev_ followed by 64 lowercase hex digits."), unknowns.MaxEvidenceIDs)
	}
	probe := object("", map[string]Schema{
		"operation": str("A rea tool or operation name."),
		"rationale": str("Why it would settle the question."),
	}, "operation", "rationale")
	relationship := object("", map[string]Schema{
		"type":       enum("depends-on (must stay acyclic), related-to or contradicts.", unknowns.RelationshipTypes()...),
		"unknown_id": str("The related unknown (unk_…)."),
	}, "type", "unknown_id")
	resolution := Schema{"type": []string{"object", "null"}, "description": "Required exactly when status is resolved: {disposition verified|withdrawn|out-of-scope, rationale, evidence_ids}. " +
		"verified needs at least one evidence id that is supporting, retained, not a registry mutation, and meets required_confidence, required_authority and required_environment.",
		"properties": map[string]Schema{
			"disposition":  enum("verified, withdrawn or out-of-scope.", unknowns.Dispositions()...),
			"rationale":    str("Why the question is settled."),
			"evidence_ids": ids("Evidence that settles it (verified needs ≥ 1)."),
		}, "additionalProperties": false, "required": []string{"disposition", "rationale"}}
	environment := Schema{"type": []string{"object", "null"}, "description": "Where qualifying Evidence must have been observed; a null or omitted field accepts any value.",
		"properties": map[string]Schema{
			"id": {"type": []string{"string", "null"}}, "platform": {"type": []string{"string", "null"}},
			"architecture": {"type": []string{"string", "null"}}, "isolation": {"type": []string{"string", "null"}, "description": "none, process, container or virtual-machine."},
		}, "additionalProperties": false}
	mutable := map[string]Schema{
		"status":                     enum("open (default), investigating, blocked, contradicted (needs contradicting Evidence) or resolved (needs resolution).", unknowns.Statuses()...),
		"severity":                   enum("low, medium (default), high or critical.", unknowns.Severities()...),
		"supporting_evidence_ids":    ids("Retained Evidence that supports an answer (disjoint from contradicting)."),
		"contradicting_evidence_ids": ids("Retained Evidence that contradicts the working answer."),
		"required_authority":         Schema{"type": []string{"string", "null"}, "description": "Authority qualifying Evidence must have: shipped-artifact, controlled-replay, historical-reference, external-service, analyst-inference; null for any."},
		"required_confidence":        enum("Weakest confidence that qualifies: inferred < derived < observed (default).", "inferred", "derived", "observed"),
		"required_environment":       environment,
		"recommended_probes":         array("Operations that would settle the question.", probe, unknowns.MaxProbes),
		"relationships":              array("Links to other unknowns held by this session.", relationship, unknowns.MaxRelationships),
		"resolution":                 resolution,
	}
	recordProps := map[string]Schema{
		"question":     str("The open question (≤ 1,000 characters; whitespace is collapsed)."),
		"domain":       str("Area of the question, e.g. ipc, filesystem, packaging (≤ 100 characters)."),
		"scope_digest": Schema{"type": []string{"string", "null"}, "description": "sha256 of the target the question is about; omitted: the open target's sha256, or null when none is open."},
	}
	for k, v := range mutable {
		recordProps[k] = v
	}
	unknownOut := Schema{"type": "object", "description": "One residual-unknown revision (registry_version 1)."}
	mutationOut := result("The new revision and the mutation Evidence recorded with it.", map[string]Schema{
		"action": typed("string"), "unknown": unknownOut, "mutation_evidence_id": typed("string"),
	})
	exampleID := "unk_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	return []*Tool{
		{
			Name:   "record_unknown",
			Title:  "Record a residual unknown",
			Family: "session",
			Description: "Record an open question about the target so it stays explicit instead of being read as an answer. The unknown's id is " +
				"derived from domain, question and scope, so recording the same question twice is refused (update it instead). Referenced Evidence " +
				"and related unknowns must be retained by this session; depends-on links must stay acyclic. Writes revision 1 and a " +
				"rea.residual-unknown-mutation/v1 Evidence record; both travel in exported bundles.",
			Effects:        Effects{MutatesSession: true},
			Input:          object("", recordProps, "domain", "question"),
			Output:         mutationOut,
			Examples:       []map[string]any{{"question": "Which handler answers the save-file IPC channel in v2?", "domain": "ipc", "severity": "high"}},
			OneSidedReason: "the registry lives in an MCP session's ledger; the CLI reads unknowns from exported bundles with `rea unknowns`",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var p unknowns.Proposal
				if err := c.Decode(&p); err != nil {
					return nil, err
				}
				if !hasKey(c.Arguments, "scope_digest") {
					if t := c.Session.Target(); t != nil {
						sha := t.SHA256
						p.ScopeDigest = &sha
					}
				}
				return unknowns.New(c.Session.Ledger).Record(ctx, p)
			},
		},
		{
			Name:   "update_unknown",
			Title:  "Update a residual unknown",
			Family: "session",
			Description: "Write the next revision of an unknown, compare-and-swap on expected_revision: when the unknown has moved on, the call " +
				"fails with revision_conflict and nothing changes — read it again with list_unknowns and retry. changes replaces the named fields " +
				"(lists whole; null clears a nullable field). Resolving as verified needs qualifying supporting Evidence (check with " +
				"verify_unknown_resolution first). Writes a mutation Evidence record.",
			Effects: Effects{MutatesSession: true},
			Input: object("", map[string]Schema{
				"unknown_id":        str("The unknown to change (unk_…)."),
				"expected_revision": integer("The revision you read; a stale value is refused with revision_conflict.", 1, 1<<53-1),
				"changes":           object("Fields to change.", mutable),
			}, "unknown_id", "expected_revision", "changes"),
			Output:         mutationOut,
			Examples:       []map[string]any{{"unknown_id": exampleID, "expected_revision": 1, "changes": map[string]any{"status": "investigating"}}},
			OneSidedReason: "the registry lives in an MCP session's ledger; there is no CLI session to change",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					UnknownID        string                     `json:"unknown_id"`
					ExpectedRevision int64                      `json:"expected_revision"`
					Changes          map[string]json.RawMessage `json:"changes"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return unknowns.New(c.Session.Ledger).Update(ctx, in.UnknownID, in.ExpectedRevision, in.Changes)
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
				return unknowns.New(c.Session.Ledger).List(f)
			},
		},
		{
			Spec: spec(operation.VerifyUnknownResolution()),
			Output: result("Qualification of each candidate.", map[string]Schema{
				"unknown_id": typed("string"), "revision": typed("integer"), "status": typed("string"), "disposition": nullable("string"),
				"qualified": typed("boolean"), "qualifying_evidence_ids": typed("array"), "candidates": typed("array"),
				"requirements": typed("object"), "verdict": typed("string"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				var in struct {
					UnknownID   string   `json:"unknown_id"`
					EvidenceIDs []string `json:"evidence_ids"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return unknowns.New(c.Session.Ledger).VerifyResolution(in.UnknownID, in.EvidenceIDs)
			},
		},
	}
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
