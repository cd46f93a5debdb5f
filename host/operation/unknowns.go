package operation

import "rea/host/unknowns"

// The residual-unknown registry's reading operations; record_unknown and
// update_unknown change the session and have no CLI, and are not declared
// here yet.

// Unknowns lists the declared unknown operations.
func Unknowns() []Spec {
	return []Spec{ListUnknowns(), VerifyUnknownResolution()}
}

// ListUnknowns pages the current (or every) revision of the unknowns.
func ListUnknowns() Spec {
	return Spec{
		Name:   "list_unknowns",
		Title:  "List residual unknowns",
		Family: "session",
		Description: "List this session's residual unknowns — the current revision of each (or every revision with include_history) — " +
			"filtered by exact unknown_id, status, severity, domain or scope_digest, in unknown_id order, paged by offset/limit " +
			"(default 50, at most 100). by_status counts every match.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "unknown_id", Type: String, Description: "Exact unknown id.", Flag: &Flag{Name: "unknown-id"}},
			{Name: "status", Type: Array, Description: "Any of these statuses.", MaxItems: 5, Items: &Param{Type: String, Enum: unknowns.Statuses()},
				Flag: &Flag{Name: "status", Help: "status to include (repeatable): open, investigating, blocked, contradicted, resolved"}},
			{Name: "severity", Type: Array, Description: "Any of these severities.", MaxItems: 4, Items: &Param{Type: String, Enum: unknowns.Severities()},
				Flag: &Flag{Name: "severity", Help: "severity to include (repeatable): low, medium, high, critical"}},
			{Name: "domain", Type: String, Description: "Exact domain.", Flag: &Flag{Name: "domain"}},
			{Name: "scope_digest", Type: String, Description: "Exact scope (target sha256).", Flag: &Flag{Name: "scope-digest"}},
			{Name: "include_history", Type: Boolean, Default: false, Description: "List every revision instead of current heads (default false).",
				Flag: &Flag{Name: "history"}},
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First item (default 0).", Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: unknowns.MaxLimit, Default: unknowns.DefaultLimit, Description: "Items per page (default 50).",
				Flag: &Flag{Name: "limit", Help: "items per page (default 50, at most 100)"}},
		},
		Examples: []map[string]any{{"status": []string{"open", "investigating", "blocked"}}},
		CLI: &Command{Name: "unknowns list", Synopsis: "--bundle BUNDLE.json",
			Short: "List current unknowns (or every revision with --history), filtered and paged"},
	}
}

// VerifyUnknownResolution checks candidates against an unknown's
// requirements.
func VerifyUnknownResolution() Spec {
	return Spec{
		Name:   "verify_unknown_resolution",
		Title:  "Check whether Evidence settles an unknown",
		Family: "session",
		Description: "Check the current revision of an unknown against its requirements without changing anything: for each candidate " +
			"(evidence_ids, else the resolution's Evidence, else the supporting Evidence) whether it is retained supporting Evidence, not a " +
			"registry mutation, at least required_confidence (inferred < derived < observed), of required_authority and from " +
			"required_environment — with every failed reason. verdict is verified, qualifying-evidence-available or unverified.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "unknown_id", Type: String, Required: true, Description: "The unknown to check (unk_…)."},
			{Name: "evidence_ids", Type: Array, Description: "Candidates to check instead of the unknown's own Evidence.", MaxItems: unknowns.MaxEvidenceIDs,
				Items: &Param{Type: String, Description: "ev_ followed by 64 lowercase hex digits."},
				Flag:  &Flag{Name: "evidence-id", Help: "candidate Evidence to check (repeatable; default the unknown's own)"}},
		},
		Examples: []map[string]any{{"unknown_id": "unk_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}},
		CLI: &Command{Name: "unknowns verify", Args: []Arg{{Name: "UNKNOWN_ID", Param: "unknown_id"}}, Synopsis: "UNKNOWN_ID --bundle BUNDLE.json",
			Short: "Check whether retained Evidence qualifies to resolve an unknown"},
	}
}
