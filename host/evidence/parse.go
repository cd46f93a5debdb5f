package evidence

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"rea/abi"
)

// Parse reads one Evidence v2 record from untrusted JSON. It canonicalises
// the input once, rejects unknown or missing fields, wrong types and values
// outside the enums (invalid_request naming the field), rejects Evidence v1
// with a message saying how to get v2, and recomputes the id: a record whose
// declared evidence_id does not match its content is reported as tampered
// (evidence_integrity_mismatch with declared and computed ids).
func Parse(data []byte) (Record, error) {
	canonical, err := canonicalJSON(data)
	if err != nil {
		return Record{}, invalid(fieldPath{}, ReasonInvalidFormat, "one JSON object", "the Evidence record is not valid JSON: %v", err)
	}
	return parseCanonical(canonical, fieldPath{})
}

// parseCanonical parses a record from bytes that are already RFC 8785
// canonical (as every sub-value of a canonical document is). p locates the
// record inside a larger document for error paths.
func parseCanonical(canonical []byte, p fieldPath) (Record, error) {
	fields, err := objectFields(canonical, p)
	if err != nil {
		return Record{}, err
	}
	r, rerr := recordFromFields(fields, p)
	if rerr != nil {
		return Record{}, rerr
	}
	r.canonical = canonical
	return r, nil
}

// recordFromFields reads, validates and checks the id of a record split
// into its top-level members (whose values are canonical).
func recordFromFields(fields map[string]json.RawMessage, p fieldPath) (Record, error) {
	// Version first, so a v1 record gets the actionable message rather than
	// a complaint about its fields.
	if v, ok := fields["schema_version"]; ok {
		n, ok := intValue(v)
		if !ok || n != SchemaVersion {
			var got any = string(v)
			if ok {
				got = int(n)
			}
			return Record{}, schemaVersionError(p.key("schema_version"), got)
		}
	}
	if err := requireExactly(fields, p, recordKeys()); err != nil {
		return Record{}, err
	}
	d := decoder{}
	r := Record{SchemaVersion: SchemaVersion}
	r.EvidenceID = d.str(fields["evidence_id"], p.key("evidence_id"))
	r.Subject = d.subject(fields["subject"], p.key("subject"))
	r.Provider = d.provider(fields["provider"], p.key("provider"))
	r.AnalysisProfile = d.profile(fields["analysis_profile"], p.key("analysis_profile"))
	r.PredicateType = d.str(fields["predicate_type"], p.key("predicate_type"))
	r.Operation = d.str(fields["operation"], p.key("operation"))
	r.Parameters = d.object(fields["parameters"], p.key("parameters"))
	r.RawResult = fields["raw_result"]
	r.NormalizedResult = fields["normalized_result"]
	r.Confidence = Confidence(d.str(fields["confidence"], p.key("confidence")))
	r.Authority = Authority(d.str(fields["authority"], p.key("authority")))
	r.Environment = d.environment(fields["environment"], p.key("environment"))
	r.Limitations = d.strings(fields["limitations"], p.key("limitations"))
	r.Locations = d.locations(fields["locations"], p.key("locations"))
	r.EvidenceLinks = d.strings(fields["evidence_links"], p.key("evidence_links"))
	if d.err != nil {
		return Record{}, d.err
	}
	if err := validateRecord(&r); err != nil {
		return Record{}, rebase(err, p)
	}
	computed := r.computeID()
	if computed != r.EvidenceID {
		return Record{}, abi.Errorf(abi.CodeEvidenceIntegrity,
			"Evidence %s was altered: its content hashes to %s. Discard this copy and use the record as its producer returned it, or re-run the producing operation.",
			r.EvidenceID, computed).
			WithDetail("field", p.key("evidence_id").String()).
			WithDetail("declared_evidence_id", r.EvidenceID).
			WithDetail("computed_evidence_id", computed)
	}
	return r, nil
}

func recordKeys() []string {
	return []string{"schema_version", "evidence_id", "subject", "provider", "analysis_profile", "predicate_type",
		"operation", "parameters", "raw_result", "normalized_result", "confidence", "authority", "environment",
		"limitations", "locations", "evidence_links"}
}

// rebase prefixes the field path of a validation error found on a record
// nested inside a larger document.
func rebase(err *abi.Error, p fieldPath) error {
	if len(p) == 0 || err.Code != abi.CodeInvalidRequest {
		return err
	}
	issues, ok := err.Details["issues"].([]Issue)
	if !ok || len(issues) != 1 {
		return err
	}
	full := append(fieldPath{}, p...)
	full = append(full, issues[0].Path...)
	return invalid(full, issues[0].Reason, issues[0].Expected, "%s", issues[0].Message)
}

// objectFields splits a canonical JSON object into its members.
func objectFields(data []byte, p fieldPath) (map[string]json.RawMessage, *abi.Error) {
	if len(data) == 0 || data[0] != '{' {
		return nil, invalid(p, ReasonInvalidType, "an object", "got %s", jsonKind(data))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, invalid(p, ReasonInvalidFormat, "an object", "%v", err)
	}
	return fields, nil
}

// requireExactly rejects unknown and missing keys, reporting the first in
// sorted order so errors are deterministic.
func requireExactly(fields map[string]json.RawMessage, p fieldPath, keys []string) *abi.Error {
	allowed := make(map[string]bool, len(keys))
	for _, k := range keys {
		allowed[k] = true
	}
	var unknown []string
	for k := range fields {
		if !allowed[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return invalid(p.key(unknown[0]), ReasonUnknown, "", "unknown field %q; remove it", unknown[0])
	}
	missing := []string{}
	for _, k := range keys {
		if _, ok := fields[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return invalid(p.key(missing[0]), ReasonMissing, "", "required field %q is missing", missing[0])
	}
	return nil
}

func jsonKind(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func isNull(v []byte) bool { return bytes.Equal(v, []byte("null")) }

// intValue reads a canonical JSON integer (RFC 8785 writes integers below
// 1e21 without fraction or exponent).
func intValue(v []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

// decoder reads typed values, keeping the first error.
type decoder struct{ err *abi.Error }

func (d *decoder) fail(err *abi.Error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) str(v []byte, p fieldPath) string {
	if d.err != nil {
		return ""
	}
	if len(v) == 0 || v[0] != '"' {
		d.fail(invalid(p, ReasonInvalidType, "a string", "got %s", jsonKind(v)))
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		d.fail(invalid(p, ReasonInvalidFormat, "a string", "%v", err))
	}
	return s
}

func (d *decoder) strOrNull(v []byte, p fieldPath) *string {
	if d.err != nil || isNull(v) {
		return nil
	}
	s := d.str(v, p)
	return &s
}

func (d *decoder) integer(v []byte, p fieldPath, max int64) int64 {
	if d.err != nil {
		return 0
	}
	n, ok := intValue(v)
	if !ok {
		d.fail(invalid(p, ReasonInvalidType, "an integer", "got %s", string(truncate(v, 40))))
		return 0
	}
	if n < 0 {
		d.fail(invalid(p, ReasonMinimum, "an integer ≥ 0", "got %d", n))
		return 0
	}
	if n > max {
		d.fail(invalid(p, ReasonMaximum, "at most "+strconv.FormatInt(max, 10), "got %d", n))
		return 0
	}
	return n
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return append(append([]byte{}, b[:n]...), "…"...)
	}
	return b
}

func (d *decoder) object(v []byte, p fieldPath) json.RawMessage {
	if d.err != nil {
		return nil
	}
	if len(v) == 0 || v[0] != '{' {
		d.fail(invalid(p, ReasonInvalidType, "an object", "got %s", jsonKind(v)))
		return nil
	}
	return v
}

func (d *decoder) fields(v []byte, p fieldPath, keys []string) map[string]json.RawMessage {
	if d.err != nil {
		return nil
	}
	f, err := objectFields(v, p)
	if err != nil {
		d.fail(err)
		return nil
	}
	if err := requireExactly(f, p, keys); err != nil {
		d.fail(err)
		return nil
	}
	return f
}

func (d *decoder) array(v []byte, p fieldPath) []json.RawMessage {
	if d.err != nil {
		return nil
	}
	if len(v) == 0 || v[0] != '[' {
		d.fail(invalid(p, ReasonInvalidType, "an array", "got %s", jsonKind(v)))
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		d.fail(invalid(p, ReasonInvalidFormat, "an array", "%v", err))
	}
	return items
}

func (d *decoder) strings(v []byte, p fieldPath) []string {
	items := d.array(v, p)
	out := make([]string, 0, len(items))
	for i, it := range items {
		out = append(out, d.str(it, p.index(i)))
	}
	return out
}

func (d *decoder) provider(v []byte, p fieldPath) Provider {
	f := d.fields(v, p, []string{"id", "name", "version"})
	if f == nil {
		return Provider{}
	}
	return Provider{ID: d.str(f["id"], p.key("id")), Name: d.str(f["name"], p.key("name")), Version: d.strOrNull(f["version"], p.key("version"))}
}

func (d *decoder) subject(v []byte, p fieldPath) *Subject {
	if d.err != nil || isNull(v) {
		return nil
	}
	f := d.fields(v, p, []string{"name", "digest", "format", "architecture", "local_path"})
	if f == nil {
		return nil
	}
	dg := d.fields(f["digest"], p.key("digest"), []string{"sha256"})
	if dg == nil {
		return nil
	}
	s := &Subject{
		Name:      d.str(f["name"], p.key("name")),
		Digest:    Digest{SHA256: d.str(dg["sha256"], p.key("digest").key("sha256"))},
		Format:    d.str(f["format"], p.key("format")),
		LocalPath: d.str(f["local_path"], p.key("local_path")),
	}
	if a := d.strOrNull(f["architecture"], p.key("architecture")); a != nil {
		if *a == "" {
			d.fail(invalid(p.key("architecture"), ReasonInvalidValue, listOf(architectures())+" or null", "the architecture is empty"))
		}
		s.Architecture = *a
	}
	return s
}

func (d *decoder) environment(v []byte, p fieldPath) *Environment {
	if d.err != nil || isNull(v) {
		return nil
	}
	f := d.fields(v, p, []string{"id", "platform", "architecture", "isolation"})
	if f == nil {
		return nil
	}
	return &Environment{
		ID:           d.str(f["id"], p.key("id")),
		Platform:     d.str(f["platform"], p.key("platform")),
		Architecture: d.str(f["architecture"], p.key("architecture")),
		Isolation:    d.str(f["isolation"], p.key("isolation")),
	}
}

func (d *decoder) profile(v []byte, p fieldPath) *AnalysisProfile {
	if d.err != nil || isNull(v) {
		return nil
	}
	f := d.fields(v, p, []string{"schema_version", "provider", "provider_profile_schema_version", "parameters", "digest"})
	if f == nil {
		return nil
	}
	return &AnalysisProfile{
		SchemaVersion:                int(d.integer(f["schema_version"], p.key("schema_version"), maxSafeInteger)),
		Provider:                     d.provider(f["provider"], p.key("provider")),
		ProviderProfileSchemaVersion: int(d.integer(f["provider_profile_schema_version"], p.key("provider_profile_schema_version"), maxSafeInteger)),
		Parameters:                   d.object(f["parameters"], p.key("parameters")),
		Digest:                       d.str(f["digest"], p.key("digest")),
	}
}

func (d *decoder) locations(v []byte, p fieldPath) []Location {
	items := d.array(v, p)
	out := make([]Location, 0, len(items))
	for i, it := range items {
		out = append(out, d.location(it, p.index(i)))
	}
	return out
}

func (d *decoder) location(v []byte, p fieldPath) Location {
	if d.err != nil {
		return Location{}
	}
	f, err := objectFields(v, p)
	if err != nil {
		d.fail(err)
		return Location{}
	}
	if _, ok := f["kind"]; !ok {
		d.fail(invalid(p.key("kind"), ReasonMissing, listOf(locationKinds()), "required field \"kind\" is missing"))
		return Location{}
	}
	kind := d.str(f["kind"], p.key("kind"))
	l := Location{Kind: kind}
	switch kind {
	case LocationAddress:
		if f = d.fields(v, p, []string{"kind", "address"}); f != nil {
			l.Address = d.str(f["address"], p.key("address"))
		}
	case LocationAddressRange:
		if f = d.fields(v, p, []string{"kind", "start", "end"}); f != nil {
			l.Start, l.End = d.str(f["start"], p.key("start")), d.str(f["end"], p.key("end"))
		}
	case LocationArtifactPath:
		if f = d.fields(v, p, []string{"kind", "path"}); f != nil {
			l.Path = d.str(f["path"], p.key("path"))
		}
	case LocationFileOffset:
		if f = d.fields(v, p, []string{"kind", "offset"}); f != nil {
			l.Offset = uint64(d.integer(f["offset"], p.key("offset"), maxSafeInteger))
		}
	case LocationFileOffsetRange:
		if f = d.fields(v, p, []string{"kind", "start", "end"}); f != nil {
			l.StartOffset = uint64(d.integer(f["start"], p.key("start"), maxSafeInteger))
			l.EndOffset = uint64(d.integer(f["end"], p.key("end"), maxSafeInteger))
		}
	default:
		d.fail(invalid(p.key("kind"), ReasonInvalidValue, listOf(locationKinds()), "unknown location kind %q", kind))
	}
	return l
}
