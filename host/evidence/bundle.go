package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"rea/abi"
)

// BundleVersion is the only bundle version rea reads and writes.
const BundleVersion = 2

// Unknown is one revision of a residual unknown carried by a bundle. Until
// the residual-unknown registry exists it is kept as an opaque canonical
// object; only unknown_id and revision are read, for order and dedup.
type Unknown struct {
	UnknownID string
	Revision  int64
	// JSON is the canonical object.
	JSON json.RawMessage
}

type unknownKey struct {
	id  string
	rev int64
}

func (u Unknown) key() unknownKey { return unknownKey{u.UnknownID, u.Revision} }

// MarshalJSON writes the canonical object.
func (u Unknown) MarshalJSON() ([]byte, error) { return u.JSON, nil }

// ParseUnknown reads one unknown revision: a JSON object with a non-empty
// string unknown_id and an integer revision ≥ 1. Everything else is left to
// an UnknownValidator.
func ParseUnknown(data []byte) (Unknown, error) {
	c, err := canonicalJSON(data)
	if err != nil {
		return Unknown{}, invalid(fieldPath{}, ReasonInvalidFormat, "a JSON object", "%v", err)
	}
	return parseUnknown(c, fieldPath{})
}

func parseUnknown(canonical []byte, p fieldPath) (Unknown, error) {
	f, err := objectFields(canonical, p)
	if err != nil {
		return Unknown{}, err
	}
	d := decoder{}
	if _, ok := f["unknown_id"]; !ok {
		return Unknown{}, invalid(p.key("unknown_id"), ReasonMissing, "a string", "required field \"unknown_id\" is missing")
	}
	if _, ok := f["revision"]; !ok {
		return Unknown{}, invalid(p.key("revision"), ReasonMissing, "an integer ≥ 1", "required field \"revision\" is missing")
	}
	u := Unknown{JSON: canonical}
	u.UnknownID = d.str(f["unknown_id"], p.key("unknown_id"))
	u.Revision = d.integer(f["revision"], p.key("revision"), maxSafeInteger)
	if d.err != nil {
		return Unknown{}, d.err
	}
	if u.UnknownID == "" {
		return Unknown{}, invalid(p.key("unknown_id"), ReasonMinimum, "a non-empty string", "the value is empty")
	}
	if u.Revision < 1 {
		return Unknown{}, invalid(p.key("revision"), ReasonMinimum, "an integer ≥ 1", "got %d", u.Revision)
	}
	return u, nil
}

func sortUnknowns(us []Unknown) {
	sort.Slice(us, func(i, j int) bool {
		if c := compareUTF16(us[i].UnknownID, us[j].UnknownID); c != 0 {
			return c < 0
		}
		return us[i].Revision < us[j].Revision
	})
}

// UnknownValidator is where the residual-unknown registry plugs in its rules
// (revision chains, evidence references, depends-on cycles, verified
// resolutions). ParseBundle calls it with the bundle's unknowns, sorted, and
// a lookup of the bundle's records. A nil validator accepts any well-formed
// unknowns.
type UnknownValidator interface {
	ValidateUnknowns(unknowns []Unknown, record func(evidenceID string) (Record, bool)) error
}

// Scenario lists a controlled-replay observation in a bundle manifest.
type Scenario struct {
	EvidenceID string    `json:"evidence_id"`
	Operation  string    `json:"operation"`
	Authority  Authority `json:"authority"`
}

// Capture lists a process-capture observation in a bundle manifest.
type Capture struct {
	EvidenceID    string `json:"evidence_id"`
	PredicateType string `json:"predicate_type"`
}

// Bundle is a portable, canonical set of Evidence records with a manifest
// derived from them. Order carries no meaning: every list is sorted.
type Bundle struct {
	Artifacts    []SubjectIdentity
	Providers    []Provider
	Environments []Environment
	Scenarios    []Scenario
	Captures     []Capture
	Unknowns     []Unknown
	Records      []Record
}

// NewBundle builds a bundle from sealed records and unknowns. Duplicate
// record ids are rejected, as are two different unknowns with the same id and
// revision.
func NewBundle(records []Record, unknowns []Unknown) (Bundle, error) {
	rs := append([]Record{}, records...)
	for _, r := range rs {
		if r.canonical == nil {
			return Bundle{}, abi.Errorf(abi.CodeInvalidRequest, "Record %q is not sealed; build it with evidence.New, evidence.Seal or evidence.Parse.", r.EvidenceID)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].EvidenceID < rs[j].EvidenceID })
	for i := 1; i < len(rs); i++ {
		if rs[i].EvidenceID == rs[i-1].EvidenceID {
			return Bundle{}, duplicateRecord(rs[i].EvidenceID)
		}
	}
	us := append([]Unknown{}, unknowns...)
	sortUnknowns(us)
	for i := 1; i < len(us); i++ {
		if us[i].key() == us[i-1].key() {
			return Bundle{}, duplicateUnknown(us[i])
		}
	}
	return bundleOf(rs, us), nil
}

func duplicateRecord(id string) *abi.Error {
	return abi.Errorf(abi.CodeEvidenceIntegrity, "The bundle holds Evidence %s more than once; a bundle lists each record once. Re-export it from rea.", id).
		WithDetail("evidence_id", id).WithDetail("reason", "duplicate")
}

func duplicateUnknown(u Unknown) *abi.Error {
	return abi.Errorf(abi.CodeEvidenceIntegrity, "The bundle holds residual unknown %s revision %d more than once. Re-export it from rea.", u.UnknownID, u.Revision).
		WithDetail("unknown_id", u.UnknownID).WithDetail("revision", u.Revision).WithDetail("reason", "duplicate")
}

// bundleOf derives the manifest from records sorted by id.
func bundleOf(records []Record, unknowns []Unknown) Bundle {
	b := Bundle{
		Artifacts: []SubjectIdentity{}, Providers: []Provider{}, Environments: []Environment{},
		Scenarios: []Scenario{}, Captures: []Capture{}, Unknowns: unknowns, Records: records,
	}
	if b.Unknowns == nil {
		b.Unknowns = []Unknown{}
	}
	artifacts := map[string]SubjectIdentity{}
	providers := map[string]Provider{}
	environments := map[string]Environment{}
	for _, r := range records {
		if r.Subject != nil {
			id := r.Subject.Identity()
			artifacts[string(bytesOf(id.canon()))] = id
		}
		providers[string(bytesOf(r.Provider.canon()))] = r.Provider
		if r.Environment != nil {
			environments[string(bytesOf(r.Environment.canon()))] = *r.Environment
		}
		if r.Authority == AuthorityControlledReplay {
			b.Scenarios = append(b.Scenarios, Scenario{EvidenceID: r.EvidenceID, Operation: r.Operation, Authority: r.Authority})
		}
		if strings.HasPrefix(r.PredicateType, CapturePredicatePrefix) {
			b.Captures = append(b.Captures, Capture{EvidenceID: r.EvidenceID, PredicateType: r.PredicateType})
		}
	}
	for _, k := range sortedKeys(artifacts) {
		b.Artifacts = append(b.Artifacts, artifacts[k])
	}
	for _, k := range sortedKeys(providers) {
		b.Providers = append(b.Providers, providers[k])
	}
	for _, k := range sortedKeys(environments) {
		b.Environments = append(b.Environments, environments[k])
	}
	return b
}

// sortedKeys orders manifest entries by their canonical JSON text in UTF-16
// code-unit order, the order RFC 8785 uses for keys.
func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
	return keys
}

// manifest returns the canonical manifest sections.
func (b Bundle) manifest() map[string]canon {
	artifacts := make(arr, len(b.Artifacts))
	for i, a := range b.Artifacts {
		artifacts[i] = a.canon()
	}
	providers := make(arr, len(b.Providers))
	for i, p := range b.Providers {
		providers[i] = p.canon()
	}
	environments := make(arr, len(b.Environments))
	for i := range b.Environments {
		environments[i] = b.Environments[i].canon()
	}
	scenarios := make(arr, len(b.Scenarios))
	for i, s := range b.Scenarios {
		scenarios[i] = obj{{"evidence_id", cstr(s.EvidenceID)}, {"operation", cstr(s.Operation)}, {"authority", cstr(string(s.Authority))}}
	}
	captures := make(arr, len(b.Captures))
	for i, c := range b.Captures {
		captures[i] = obj{{"evidence_id", cstr(c.EvidenceID)}, {"predicate_type", cstr(c.PredicateType)}}
	}
	return map[string]canon{
		"artifacts": artifacts, "providers": providers, "environments": environments,
		"scenarios": scenarios, "captures": captures,
	}
}

func (b Bundle) canon() obj {
	o := obj{{"bundle_version", cint(BundleVersion)}}
	for k, v := range b.manifest() {
		o = append(o, member{k, v})
	}
	unknowns := make(arr, len(b.Unknowns))
	for i, u := range b.Unknowns {
		unknowns[i] = raw(u.JSON)
	}
	records := make(arr, len(b.Records))
	for i, r := range b.Records {
		records[i] = raw(r.canonical)
	}
	return append(o, member{"unknowns", unknowns}, member{"records", records})
}

// WriteTo streams the bundle's RFC 8785 form to w, splicing each record's
// remembered canonical bytes.
func (b Bundle) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	err := b.canon().emit(cw)
	return cw.n, err
}

// MarshalJSON returns the canonical bundle.
func (b Bundle) MarshalJSON() ([]byte, error) { return bytesOf(b.canon()), nil }

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func bundleKeys() []string {
	return []string{"bundle_version", "artifacts", "providers", "environments", "scenarios", "captures", "unknowns", "records"}
}

// ParseBundle reads an untrusted bundle. Every record goes through Parse's
// checks (its id is recomputed), duplicate records or unknown revisions are
// rejected, and the manifest is recomputed from the records and must match
// exactly (evidence_integrity_mismatch naming the section otherwise).
// Records and unknowns may come in any order; the result is sorted. The
// validator, when not nil, checks the unknowns. Cancellation is observed
// between records.
func ParseBundle(ctx context.Context, data []byte, v UnknownValidator) (Bundle, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	notJSON := func(err error) error {
		return invalid(fieldPath{}, ReasonInvalidFormat, "a JSON object", "the Evidence bundle is not valid JSON: %v", err)
	}
	if tok, err := dec.Token(); err != nil {
		return Bundle{}, notJSON(err)
	} else if tok != json.Delim('{') {
		return Bundle{}, invalid(fieldPath{}, ReasonInvalidType, "a JSON object", "the Evidence bundle must be an object")
	}
	sections := map[string]json.RawMessage{}
	var records []Record
	var unknowns []Unknown
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Bundle{}, notJSON(err)
		}
		key, _ := tok.(string)
		if seen[key] {
			return Bundle{}, invalid(fieldPath{key}, ReasonInvalidFormat, "each key once", "the key %q appears twice", key)
		}
		seen[key] = true
		p := fieldPath{key}
		switch key {
		case "records":
			if records, err = parseBundleRecords(ctx, dec, p); err != nil {
				return Bundle{}, err
			}
		case "unknowns":
			if unknowns, err = parseBundleUnknowns(dec, p); err != nil {
				return Bundle{}, err
			}
		default:
			if !oneOf(key, bundleKeys()) {
				return Bundle{}, invalid(p, ReasonUnknown, "", "unknown field %q; remove it", key)
			}
			var section json.RawMessage
			if err := dec.Decode(&section); err != nil {
				return Bundle{}, notJSON(err)
			}
			sections[key] = section
		}
	}
	if _, err := dec.Token(); err != nil { // closing brace
		return Bundle{}, notJSON(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Bundle{}, invalid(fieldPath{}, ReasonInvalidFormat, "one JSON object", "unexpected data after the bundle object")
	}
	for _, k := range bundleKeys() {
		if !seen[k] {
			return Bundle{}, invalid(fieldPath{k}, ReasonMissing, "", "required field %q is missing", k)
		}
	}
	version, _ := canonicalJSON(sections["bundle_version"])
	if n, ok := intValue(version); !ok || n != BundleVersion {
		if ok && n == 1 {
			return Bundle{}, invalid(fieldPath{"bundle_version"}, ReasonInvalidValue, "2",
				"Evidence bundle version 1 is not accepted; export the session again with this rea to get a version 2 bundle")
		}
		return Bundle{}, invalid(fieldPath{"bundle_version"}, ReasonInvalidValue, "2", "unsupported bundle_version %s", truncate(sections["bundle_version"], 40))
	}
	b, err := NewBundle(records, unknowns)
	if err != nil {
		return Bundle{}, err
	}
	for name, want := range b.manifest() {
		got, err := canonicalJSON(sections[name])
		if err != nil {
			return Bundle{}, invalid(fieldPath{name}, ReasonInvalidFormat, "an array", "%v", err)
		}
		if !bytes.Equal(got, bytesOf(want)) {
			return Bundle{}, abi.Errorf(abi.CodeEvidenceIntegrity,
				"The bundle's %s manifest does not match its records (it must list exactly what the records imply, sorted); the bundle was edited or produced by a faulty exporter. Re-export it from rea.", name).
				WithDetail("field", name).WithDetail("reason", "non-canonical-manifest")
		}
	}
	if v != nil {
		byID := make(map[string]Record, len(b.Records))
		for _, r := range b.Records {
			byID[r.EvidenceID] = r
		}
		if err := v.ValidateUnknowns(b.Unknowns, func(id string) (Record, bool) { r, ok := byID[id]; return r, ok }); err != nil {
			return Bundle{}, fmt.Errorf("bundle unknowns: %w", err)
		}
	}
	return b, nil
}

func openArray(dec *json.Decoder, p fieldPath) error {
	tok, err := dec.Token()
	if err != nil {
		return invalid(p, ReasonInvalidFormat, "an array", "%v", err)
	}
	if tok != json.Delim('[') {
		return invalid(p, ReasonInvalidType, "an array", "got %v", tok)
	}
	return nil
}

func parseBundleRecords(ctx context.Context, dec *json.Decoder, p fieldPath) ([]Record, error) {
	if err := openArray(dec, p); err != nil {
		return nil, err
	}
	var out []Record
	for i := 0; dec.More(); i++ {
		if err := ctx.Err(); err != nil {
			return nil, cancelled("Parsing the Evidence bundle")
		}
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return nil, invalid(p.index(i), ReasonInvalidFormat, "an Evidence record", "%v", err)
		}
		c, err := canonicalJSON(item)
		if err != nil {
			return nil, invalid(p.index(i), ReasonInvalidFormat, "an Evidence record", "%v", err)
		}
		r, err := parseCanonical(c, p.index(i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if _, err := dec.Token(); err != nil {
		return nil, invalid(p, ReasonInvalidFormat, "an array", "%v", err)
	}
	return out, nil
}

func parseBundleUnknowns(dec *json.Decoder, p fieldPath) ([]Unknown, error) {
	if err := openArray(dec, p); err != nil {
		return nil, err
	}
	var out []Unknown
	for i := 0; dec.More(); i++ {
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return nil, invalid(p.index(i), ReasonInvalidFormat, "a residual unknown object", "%v", err)
		}
		c, err := canonicalJSON(item)
		if err != nil {
			return nil, invalid(p.index(i), ReasonInvalidFormat, "a residual unknown object", "%v", err)
		}
		u, err := parseUnknown(c, p.index(i))
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	if _, err := dec.Token(); err != nil {
		return nil, invalid(p, ReasonInvalidFormat, "an array", "%v", err)
	}
	return out, nil
}

func cancelled(what string) *abi.Error {
	return abi.Errorf(abi.CodeCancelled, "%s was cancelled; nothing was changed.", what)
}
