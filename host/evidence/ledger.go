package evidence

import (
	"bytes"
	"encoding/json"
	"sort"
	"sync"

	"rea/abi"
)

// Default ledger limits: what one MCP connection retains.
const (
	DefaultMaxRecords       = 10_000
	DefaultMaxBytes   int64 = 64 << 20
)

// Limits bound a ledger. Bytes count canonical record and unknown bytes.
type Limits struct {
	MaxRecords int
	MaxBytes   int64
}

// DefaultLimits are the per-connection limits of the MCP server and the CLI
// import budget.
func DefaultLimits() Limits { return Limits{MaxRecords: DefaultMaxRecords, MaxBytes: DefaultMaxBytes} }

// AddResult says whether Add stored a record or already had it.
type AddResult string

// Add results.
const (
	Added     AddResult = "added"
	Duplicate AddResult = "duplicate"
)

// Ledger retains the Evidence of one connection (and the residual unknowns
// that travel with it) so later calls can name a record by id instead of
// moving it again. Safe for concurrent use.
type Ledger struct {
	mu       sync.RWMutex
	limits   Limits
	records  map[string]Record
	unknowns map[unknownKey]Unknown
	bytes    int64
}

// NewLedger returns an empty ledger with the given limits; zero fields take
// the defaults.
func NewLedger(limits Limits) *Ledger {
	if limits.MaxRecords <= 0 {
		limits.MaxRecords = DefaultMaxRecords
	}
	if limits.MaxBytes <= 0 {
		limits.MaxBytes = DefaultMaxBytes
	}
	return &Ledger{limits: limits, records: map[string]Record{}, unknowns: map[unknownKey]Unknown{}}
}

// Limits returns the ledger's limits.
func (l *Ledger) Limits() Limits { return l.limits }

// Add retains a sealed record. A record whose id is already present is a
// duplicate and changes nothing; a record that would pass a limit is refused
// with a truncated error naming the limit.
func (l *Ledger) Add(r Record) (AddResult, error) {
	if r.canonical == nil {
		return "", abi.Errorf(abi.CodeInvalidRequest, "The record is not sealed; build it with evidence.New, evidence.Seal or evidence.Parse before adding it to the ledger.")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.records[r.EvidenceID]; ok {
		return Duplicate, nil
	}
	if err := l.admit(1, int64(len(r.canonical))); err != nil {
		return "", err
	}
	l.records[r.EvidenceID] = r
	l.bytes += int64(len(r.canonical))
	return Added, nil
}

// admit checks that n more records and b more bytes fit. Callers hold mu.
func (l *Ledger) admit(n int, b int64) *abi.Error {
	if len(l.records)+n > l.limits.MaxRecords {
		return abi.Errorf(abi.CodeTruncated,
			"The session Evidence ledger would exceed its limit of %d records. Export the session with export_evidence_bundle, then close_binary to start an empty ledger.",
			l.limits.MaxRecords).
			WithDetail("limit", "records").
			WithDetail("maximum", l.limits.MaxRecords).
			WithDetail("current", len(l.records)).
			WithDetail("requested", n)
	}
	if l.bytes+b > l.limits.MaxBytes {
		return abi.Errorf(abi.CodeTruncated,
			"The session Evidence ledger would exceed its limit of %d canonical bytes. Export the session with export_evidence_bundle, then close_binary to start an empty ledger.",
			l.limits.MaxBytes).
			WithDetail("limit", "bytes").
			WithDetail("maximum", l.limits.MaxBytes).
			WithDetail("current", l.bytes).
			WithDetail("requested", b)
	}
	return nil
}

// Lookup returns the retained record with that id.
func (l *Ledger) Lookup(id string) (Record, bool) {
	if l == nil {
		return Record{}, false
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	r, ok := l.records[id]
	return r, ok
}

// Len is the number of retained records.
func (l *Ledger) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.records)
}

// Bytes is the canonical size of everything retained.
func (l *Ledger) Bytes() int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.bytes
}

// Records returns the retained records sorted by evidence_id.
func (l *Ledger) Records() []Record {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.sortedRecords()
}

func (l *Ledger) sortedRecords() []Record {
	out := make([]Record, 0, len(l.records))
	for _, r := range l.records {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EvidenceID < out[j].EvidenceID })
	return out
}

// Unknowns returns the retained residual-unknown revisions, sorted by
// unknown_id then revision.
func (l *Ledger) Unknowns() []Unknown {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.sortedUnknowns()
}

func (l *Ledger) sortedUnknowns() []Unknown {
	out := make([]Unknown, 0, len(l.unknowns))
	for _, u := range l.unknowns {
		out = append(out, u)
	}
	sortUnknowns(out)
	return out
}

// Clear drops every record and unknown (close_binary).
func (l *Ledger) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = map[string]Record{}
	l.unknowns = map[unknownKey]Unknown{}
	l.bytes = 0
}

// Snapshot returns the ledger's content as a bundle.
func (l *Ledger) Snapshot() Bundle {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return bundleOf(l.sortedRecords(), l.sortedUnknowns())
}

// ImportResult counts what Import changed.
type ImportResult struct {
	Added             int `json:"added"`
	Duplicates        int `json:"duplicates"`
	UnknownsAdded     int `json:"unknowns_added"`
	UnknownDuplicates int `json:"unknown_duplicates"`
}

// Import merges a parsed bundle all or nothing: if the new records or bytes
// would pass a limit, or an unknown revision already retained differs from
// the bundle's, nothing is added.
func (l *Ledger) Import(b Bundle) (ImportResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var res ImportResult
	var newRecords []Record
	var newUnknowns []Unknown
	var added int64
	seen := map[string]bool{}
	for _, r := range b.Records {
		if r.canonical == nil {
			return ImportResult{}, abi.Errorf(abi.CodeInvalidRequest, "Bundle record %s is not sealed; parse bundles with evidence.ParseBundle before importing them.", r.EvidenceID)
		}
		if _, ok := l.records[r.EvidenceID]; ok || seen[r.EvidenceID] {
			res.Duplicates++
			continue
		}
		seen[r.EvidenceID] = true
		newRecords = append(newRecords, r)
		added += int64(len(r.canonical))
	}
	for _, u := range b.Unknowns {
		if have, ok := l.unknowns[u.key()]; ok {
			if !bytes.Equal(have.JSON, u.JSON) {
				return ImportResult{}, abi.Errorf(abi.CodeRevisionConflict,
					"Residual unknown %s revision %d in the bundle differs from the one this session already holds; nothing was imported. Close the session (close_binary) or import into a fresh connection.",
					u.UnknownID, u.Revision).
					WithDetail("unknown_id", u.UnknownID).
					WithDetail("revision", u.Revision)
			}
			res.UnknownDuplicates++
			continue
		}
		newUnknowns = append(newUnknowns, u)
		added += int64(len(u.JSON))
	}
	if err := l.admit(len(newRecords), added); err != nil {
		return ImportResult{}, err
	}
	for _, r := range newRecords {
		l.records[r.EvidenceID] = r
	}
	for _, u := range newUnknowns {
		l.unknowns[u.key()] = u
	}
	l.bytes += added
	res.Added = len(newRecords)
	res.UnknownsAdded = len(newUnknowns)
	return res, nil
}

// ReferenceKind is the kind of a retained-evidence reference.
const ReferenceKind = "retained-evidence"

// Reference is the form that names a record retained by this connection:
// {"kind":"retained-evidence","evidence_id":"ev_…"}.
type Reference struct {
	Kind       string `json:"kind"`
	EvidenceID string `json:"evidence_id"`
}

// ReferenceTo returns the reference naming id.
func ReferenceTo(id string) Reference { return Reference{Kind: ReferenceKind, EvidenceID: id} }

// Resolve reads producer Evidence given either inline (validated exactly as
// Parse does) or as a retained reference looked up in this ledger. A nil
// ledger retains nothing, so every reference is missing (the standalone CLI).
// A missing reference is an unavailable error carrying the exact id and
// details.reason "missing".
func (l *Ledger) Resolve(input json.RawMessage) (Record, error) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || input[0] != '{' {
		return Record{}, invalid(fieldPath{}, ReasonInvalidType, "an Evidence record or a retained-evidence reference", "got %s", jsonKind(input))
	}
	var probe struct {
		Kind *json.RawMessage `json:"kind"`
	}
	if err := json.Unmarshal(input, &probe); err != nil {
		return Record{}, invalid(fieldPath{}, ReasonInvalidFormat, "an Evidence record or a retained-evidence reference", "%v", err)
	}
	if probe.Kind == nil { // records have no kind field
		return Parse(input)
	}
	canonical, err := canonicalJSON(input)
	if err != nil {
		return Record{}, invalid(fieldPath{}, ReasonInvalidFormat, "a retained-evidence reference", "%v", err)
	}
	d := decoder{}
	f := d.fields(canonical, fieldPath{}, []string{"kind", "evidence_id"})
	kind := d.str(f["kind"], fieldPath{"kind"})
	id := d.str(f["evidence_id"], fieldPath{"evidence_id"})
	if d.err != nil {
		return Record{}, d.err
	}
	if kind != ReferenceKind {
		return Record{}, invalid(fieldPath{"kind"}, ReasonInvalidValue, `"retained-evidence"`, "unknown kind %q; pass complete inline Evidence or a retained-evidence reference", kind)
	}
	if !IsEvidenceID(id) {
		return Record{}, invalid(fieldPath{"evidence_id"}, ReasonInvalidFormat, "ev_ followed by 64 lowercase hex digits", "%q is not an evidence id", id)
	}
	if r, ok := l.Lookup(id); ok {
		return r, nil
	}
	return Record{}, abi.Errorf(abi.CodeUnavailable,
		"Evidence %s is not retained by this connection (never recorded here, cleared by close_binary, or retained by another connection). Pass the complete Evidence inline, re-run its producer, or import an exported bundle that holds it.",
		id).
		WithDetail("evidence_id", id).
		WithDetail("reason", "missing")
}
