package operation

import "rea/host/unknowns"

// The residual-unknown registry: record_unknown and update_unknown change
// the session and have no CLI; the reading operations read a bundle there.

// Unknowns lists the declared unknown operations.
func Unknowns() []Spec {
	return []Spec{RecordUnknown(), UpdateUnknown(), ListUnknowns(), VerifyUnknownResolution()}
}

const exampleUnknownID = "unk_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// evidenceRefs is a list of retained Evidence references.
func evidenceRefs(name, description string) Param {
	return refList(name, description, unknowns.MaxEvidenceIDs)
}

// unknownAliases are the older names of the unknown fields (bare id
// arrays), under prefix ("" or "changes.").
func unknownAliases(prefix string) []Alias {
	return []Alias{
		{Old: prefix + "supporting_evidence_ids", New: prefix + "supporting_evidence", Refs: true},
		{Old: prefix + "contradicting_evidence_ids", New: prefix + "contradicting_evidence", Refs: true},
		{Old: prefix + "resolution.evidence_ids", New: prefix + "resolution.evidence", Refs: true},
	}
}

// unknownFields are the fields of an unknown a revision may set; record
// fills the defaults of those absent, update changes only those named.
func unknownFields(record bool) []Param {
	def := func(v string) any {
		if record {
			return v
		}
		return nil
	}
	nullableString := func(name, description string) Param {
		return Param{Name: name, Type: String, Nullable: true, Description: description}
	}
	return []Param{
		{Name: "status", Type: String, Enum: unknowns.Statuses(), Default: def("open"),
			Description: "open (default), investigating, blocked, contradicted (needs contradicting Evidence) or resolved (needs resolution)."},
		{Name: "severity", Type: String, Enum: unknowns.Severities(), Default: def("medium"), Description: "low, medium (default), high or critical."},
		evidenceRefs("supporting_evidence", "Retained Evidence that supports an answer (disjoint from contradicting)."),
		evidenceRefs("contradicting_evidence", "Retained Evidence that contradicts the working answer."),
		nullableString("required_authority", "Authority qualifying Evidence must have: shipped-artifact, controlled-replay, historical-reference, external-service, analyst-inference; null for any."),
		{Name: "required_confidence", Type: String, Enum: []string{"inferred", "derived", "observed"}, Default: def("observed"),
			Description: "Weakest confidence that qualifies: inferred < derived < observed (default)."},
		{Name: "required_environment", Type: Object, Nullable: true,
			Description: "Where qualifying Evidence must have been observed; a null or omitted field accepts any value.",
			Fields: []Param{nullableString("id", "The environment id the Evidence names (its environment.id)."),
				nullableString("platform", "Operating system, e.g. linux, darwin or windows."),
				nullableString("architecture", "CPU architecture, e.g. x86_64 or arm64."),
				nullableString("isolation", "none, process, container or virtual-machine.")}},
		{Name: "recommended_probes", Type: Array, Description: "Operations that would settle the question.", MaxItems: unknowns.MaxProbes,
			Items: &Param{Type: Object, Fields: []Param{
				{Name: "operation", Type: String, Required: true, Description: "A rea tool or operation name."},
				{Name: "rationale", Type: String, Required: true, Description: "Why it would settle the question."},
			}}},
		{Name: "relationships", Type: Array, Description: "Links to other unknowns held by this session.", MaxItems: unknowns.MaxRelationships,
			Items: &Param{Type: Object, Fields: []Param{
				{Name: "type", Type: String, Required: true, Enum: unknowns.RelationshipTypes(), Description: "depends-on (must stay acyclic), related-to or contradicts."},
				{Name: "unknown_id", Type: String, Required: true, Description: "The related unknown (unk_…)."},
			}}},
		{Name: "resolution", Type: Object, Nullable: true,
			Description: "Required exactly when status is resolved: {disposition verified|withdrawn|out-of-scope, rationale, evidence}. " +
				"verified needs at least one Evidence reference that is supporting, retained, not a registry mutation, and meets required_confidence, required_authority and required_environment.",
			Fields: []Param{
				{Name: "disposition", Type: String, Required: true, Enum: unknowns.Dispositions(), Description: "verified, withdrawn or out-of-scope."},
				{Name: "rationale", Type: String, Required: true, Description: "Why the question is settled."},
				evidenceRefs("evidence", "Evidence that settles it (verified needs ≥ 1)."),
			}},
	}
}

// RecordUnknown records revision 1 of a new unknown.
func RecordUnknown() Spec {
	return Spec{
		Name:   "record_unknown",
		Title:  "Record a residual unknown",
		Family: "session",
		Description: "Record an open question about the target so it stays explicit instead of being read as an answer. The unknown's id is " +
			"derived from domain, question and scope, so recording the same question twice is refused (update it instead). Referenced Evidence " +
			"and related unknowns must be retained by this session; depends-on links must stay acyclic. Writes revision 1 and a " +
			"rea.residual-unknown-mutation/v1 Evidence record; both travel in exported bundles.",
		Effects: Effects{MutatesSession: true},
		Params: append([]Param{
			{Name: "question", Type: String, Required: true, Description: "The open question (≤ 1,000 characters; whitespace is collapsed)."},
			{Name: "domain", Type: String, Required: true, Description: "Area of the question, e.g. ipc, filesystem, packaging (≤ 100 characters)."},
			{Name: "scope_digest", Type: String, Nullable: true,
				Description: "sha256 of the target the question is about; omitted: the open target's sha256, or null when none is open."},
		}, unknownFields(true)...),
		Aliases:        unknownAliases(""),
		Examples:       []map[string]any{{"question": "Which handler answers the save-file IPC channel in v2?", "domain": "ipc", "severity": "high"}},
		OneSidedReason: "the registry lives in an MCP session's ledger; the CLI reads unknowns from exported bundles with `rea unknowns`",
	}
}

// UpdateUnknown writes the next revision of an unknown.
func UpdateUnknown() Spec {
	return Spec{
		Name:   "update_unknown",
		Title:  "Update a residual unknown",
		Family: "session",
		Description: "Write the next revision of an unknown, compare-and-swap on expected_revision: when the unknown has moved on, the call " +
			"fails with revision_conflict and nothing changes — read it again with list_unknowns and retry. changes replaces the named fields " +
			"(lists whole; null clears a nullable field). Resolving as verified needs qualifying supporting Evidence (check with " +
			"verify_unknown_resolution first). Writes a mutation Evidence record.",
		Effects: Effects{MutatesSession: true},
		Params: []Param{
			{Name: "unknown_id", Type: String, Required: true, Description: "The unknown to change (unk_…)."},
			{Name: "expected_revision", Type: Integer, Required: true, Min: 1, Max: 1<<53 - 1,
				Description: "The revision you read; a stale value is refused with revision_conflict."},
			{Name: "changes", Type: Object, Required: true, Description: "Fields to change.", Fields: unknownFields(false)},
		},
		Aliases:        unknownAliases("changes."),
		Examples:       []map[string]any{{"unknown_id": exampleUnknownID, "expected_revision": 1, "changes": map[string]any{"status": "investigating"}}},
		OneSidedReason: "the registry lives in an MCP session's ledger; there is no CLI session to change",
	}
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
			"(evidence, else the resolution's Evidence, else the supporting Evidence) whether it is retained supporting Evidence, not a " +
			"registry mutation, at least required_confidence (inferred < derived < observed), of required_authority and from " +
			"required_environment — with every failed reason. verdict is verified, qualifying-evidence-available or unverified.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "unknown_id", Type: String, Required: true, Description: "The unknown to check (unk_…)."},
			evidenceRefs("evidence", "Candidates to check instead of the unknown's own Evidence."),
		},
		Aliases: []Alias{{Old: "evidence_ids", New: "evidence", Refs: true}},
		// A flag names one id; the CLI turns them into the references.
		CLIFlags: []Param{{Name: "evidence_id", Type: Array, Description: "Candidate Evidence to check.", MaxItems: unknowns.MaxEvidenceIDs,
			Items: &Param{Type: String, Description: "ev_ followed by 64 lowercase hex digits."},
			Flag:  &Flag{Name: "evidence-id", Help: "candidate Evidence to check (repeatable; default the unknown's own)"}}},
		Examples: []map[string]any{{"unknown_id": exampleUnknownID}},
		CLI: &Command{Name: "unknowns verify", Args: []Arg{{Name: "UNKNOWN_ID", Param: "unknown_id"}}, Synopsis: "UNKNOWN_ID --bundle BUNDLE.json",
			Short: "Check whether retained Evidence qualifies to resolve an unknown"},
	}
}
