package evidence

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"rea/abi"
)

// SchemaVersion is the only Evidence record version rea reads and writes.
const SchemaVersion = 2

// DefaultPredicateType is the predicate of an ordinary analysis observation.
const DefaultPredicateType = "rea.analysis/v2"

// CapturePredicatePrefix marks process-capture observations; bundles list
// them under captures.
const CapturePredicatePrefix = "rea.process-capture/"

// NoSubjectLimitation is recorded automatically when an observation has no
// artifact identity, so a reader never mistakes it for one about known bytes.
const NoSubjectLimitation = "Artifact identity is unavailable for this observation."

// IDPrefix starts every evidence_id.
const IDPrefix = "ev_"

// Confidence says how directly the result was observed.
type Confidence string

// Confidence values, strongest first.
const (
	ConfidenceObserved Confidence = "observed"
	ConfidenceDerived  Confidence = "derived"
	ConfidenceInferred Confidence = "inferred"
)

// Authority says what kind of source the observation speaks for.
type Authority string

// Authority values.
const (
	AuthorityShippedArtifact     Authority = "shipped-artifact"
	AuthorityControlledReplay    Authority = "controlled-replay"
	AuthorityHistoricalReference Authority = "historical-reference"
	AuthorityExternalService     Authority = "external-service"
	AuthorityAnalystInference    Authority = "analyst-inference"
)

// Location kinds.
const (
	LocationAddress         = "address"
	LocationAddressRange    = "address-range"
	LocationArtifactPath    = "artifact-path"
	LocationFileOffset      = "file-offset"
	LocationFileOffsetRange = "file-offset-range"
)

// maxSafeInteger is the largest integer every JSON reader (and RFC 8785's
// IEEE-754 numbers) represents exactly.
const maxSafeInteger = 1<<53 - 1

func subjectFormats() []string {
	return []string{"hopper", "analysis-database", "mach-o", "elf", "pe", "zip", "ipa", "apk", "msix",
		"appx", "asar", "dmg", "pkg", "plist", "javascript", "source-map", "directory", "file", "unknown",
		"mach-o-universal", "javascript-bundle", "entitlements"}
}

func architectures() []string { return []string{"x86", "x86_64", "arm", "arm64"} }

func confidences() []string { return []string{"observed", "derived", "inferred"} }

func authorities() []string {
	return []string{"shipped-artifact", "controlled-replay", "historical-reference", "external-service", "analyst-inference"}
}

func isolations() []string { return []string{"none", "process", "container", "virtual-machine"} }

func locationKinds() []string {
	return []string{LocationAddress, LocationAddressRange, LocationArtifactPath, LocationFileOffset, LocationFileOffsetRange}
}

func oneOf(v string, allowed []string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

func listOf(allowed []string) string { return "one of " + strings.Join(allowed, ", ") }

// Digest names artifact bytes.
type Digest struct {
	// SHA256 is 64 lowercase hex digits.
	SHA256 string `json:"sha256"`
}

// Subject is the artifact an observation is about. Name and LocalPath are
// for people; only Digest, Format and Architecture enter identity.
type Subject struct {
	Name   string `json:"name"`
	Digest Digest `json:"digest"`
	// Format is one of the subject formats (elf, asar, javascript, …).
	Format string `json:"format"`
	// Architecture is x86, x86_64, arm, arm64, or "" for none (JSON null).
	Architecture string `json:"architecture"`
	LocalPath    string `json:"local_path"`
}

// Provider identifies what produced an observation.
type Provider struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Version is nil when the provider reports none (JSON null).
	Version *string `json:"version"`
}

// Environment is where a controlled observation ran.
type Environment struct {
	ID           string `json:"id"`
	Platform     string `json:"platform"`
	Architecture string `json:"architecture"`
	// Isolation is none, process, container or virtual-machine.
	Isolation string `json:"isolation"`
}

// Location points into the subject. Which fields apply depends on Kind:
// address uses Address; address-range uses Start and End (address text);
// artifact-path uses Path; file-offset uses Offset; file-offset-range uses
// StartOffset and EndOffset.
type Location struct {
	Kind        string
	Address     string
	Start, End  string
	Path        string
	Offset      uint64
	StartOffset uint64
	EndOffset   uint64
}

// AddressLocation points at one address (e.g. "0x401000").
func AddressLocation(address string) Location {
	return Location{Kind: LocationAddress, Address: address}
}

// AddressRangeLocation points at [start, end) in address text.
func AddressRangeLocation(start, end string) Location {
	return Location{Kind: LocationAddressRange, Start: start, End: end}
}

// ArtifactPathLocation points at a path inside the artifact.
func ArtifactPathLocation(path string) Location {
	return Location{Kind: LocationArtifactPath, Path: path}
}

// FileOffsetLocation points at one byte offset of the artifact file.
func FileOffsetLocation(offset uint64) Location {
	return Location{Kind: LocationFileOffset, Offset: offset}
}

// FileOffsetRangeLocation points at [start, end) byte offsets.
func FileOffsetRangeLocation(start, end uint64) Location {
	return Location{Kind: LocationFileOffsetRange, StartOffset: start, EndOffset: end}
}

// Record is one Evidence v2 record. Build it with New, Seal or Parse; those
// also remember its canonical bytes.
type Record struct {
	SchemaVersion   int
	EvidenceID      string
	Subject         *Subject
	Provider        Provider
	AnalysisProfile *AnalysisProfile
	PredicateType   string
	Operation       string
	// Parameters is the canonical request object.
	Parameters json.RawMessage
	// RawResult is the provider's own representation, or JSON null.
	RawResult json.RawMessage
	// NormalizedResult is the operation result; read this.
	NormalizedResult json.RawMessage
	Confidence       Confidence
	Authority        Authority
	Environment      *Environment
	Limitations      []string
	Locations        []Location
	EvidenceLinks    []string

	canonical []byte
}

// Canonical returns the record's RFC 8785 bytes, or nil for a record that
// was not built by New, Seal or Parse. Do not modify the returned slice.
func (r Record) Canonical() []byte { return r.canonical }

// MarshalJSON writes the canonical form remembered at sealing, or assembles
// it for an unsealed record.
func (r Record) MarshalJSON() ([]byte, error) {
	if r.canonical != nil {
		return r.canonical, nil
	}
	if err := validateRecord(&r); err != nil {
		return nil, err
	}
	return bytesOf(r.full()), nil
}

// UnmarshalJSON parses strictly, exactly as Parse does.
func (r *Record) UnmarshalJSON(data []byte) error {
	parsed, err := Parse(data)
	if err != nil {
		return err
	}
	*r = parsed
	return nil
}

// SubjectIdentity is the part of a subject that enters identity and bundle
// manifests.
type SubjectIdentity struct {
	Digest       Digest `json:"digest"`
	Format       string `json:"format"`
	Architecture string `json:"architecture"` // "" is JSON null
}

// Identity returns the subject reduced to digest, format and architecture.
func (s Subject) Identity() SubjectIdentity {
	return SubjectIdentity{Digest: s.Digest, Format: s.Format, Architecture: s.Architecture}
}

func (s SubjectIdentity) canon() canon {
	return obj{
		{"digest", obj{{"sha256", cstr(s.Digest.SHA256)}}},
		{"format", cstr(s.Format)},
		{"architecture", archCanon(s.Architecture)},
	}
}

// MarshalJSON writes architecture "" as null.
func (s SubjectIdentity) MarshalJSON() ([]byte, error) { return bytesOf(s.canon()), nil }

func archCanon(a string) canon {
	if a == "" {
		return jsonNull
	}
	return cstr(a)
}

func (s *Subject) canon() canon {
	if s == nil {
		return jsonNull
	}
	return obj{
		{"name", cstr(s.Name)},
		{"digest", obj{{"sha256", cstr(s.Digest.SHA256)}}},
		{"format", cstr(s.Format)},
		{"architecture", archCanon(s.Architecture)},
		{"local_path", cstr(s.LocalPath)},
	}
}

// MarshalJSON writes architecture "" as null.
func (s Subject) MarshalJSON() ([]byte, error) { return bytesOf(s.canon()), nil }

func (p Provider) canon() canon {
	return obj{{"id", cstr(p.ID)}, {"name", cstr(p.Name)}, {"version", cstrOrNull(p.Version)}}
}

// MarshalJSON writes the canonical form.
func (p Provider) MarshalJSON() ([]byte, error) { return bytesOf(p.canon()), nil }

func (e *Environment) canon() canon {
	if e == nil {
		return jsonNull
	}
	return obj{{"id", cstr(e.ID)}, {"platform", cstr(e.Platform)}, {"architecture", cstr(e.Architecture)}, {"isolation", cstr(e.Isolation)}}
}

func (l Location) canon() canon {
	switch l.Kind {
	case LocationAddress:
		return obj{{"kind", cstr(l.Kind)}, {"address", cstr(l.Address)}}
	case LocationAddressRange:
		return obj{{"kind", cstr(l.Kind)}, {"start", cstr(l.Start)}, {"end", cstr(l.End)}}
	case LocationArtifactPath:
		return obj{{"kind", cstr(l.Kind)}, {"path", cstr(l.Path)}}
	case LocationFileOffset:
		return obj{{"kind", cstr(l.Kind)}, {"offset", cint(int64(l.Offset))}}
	default: // file-offset-range; validation rejects other kinds first
		return obj{{"kind", cstr(l.Kind)}, {"start", cint(int64(l.StartOffset))}, {"end", cint(int64(l.EndOffset))}}
	}
}

// MarshalJSON writes the kind-specific object.
func (l Location) MarshalJSON() ([]byte, error) {
	if err := validateLocation(l, fieldPath{"location"}); err != nil {
		return nil, err
	}
	return bytesOf(l.canon()), nil
}

// body is every field except evidence_id and subject, shared by the
// identity projection and the full record.
func (r *Record) body() obj {
	locs := make(arr, len(r.Locations))
	for i, l := range r.Locations {
		locs[i] = l.canon()
	}
	return obj{
		{"schema_version", cint(int64(r.SchemaVersion))},
		{"provider", r.Provider.canon()},
		{"analysis_profile", r.AnalysisProfile.canon()},
		{"predicate_type", cstr(r.PredicateType)},
		{"operation", cstr(r.Operation)},
		{"parameters", raw(r.Parameters)},
		{"raw_result", raw(r.RawResult)},
		{"normalized_result", raw(r.NormalizedResult)},
		{"confidence", cstr(string(r.Confidence))},
		{"authority", cstr(string(r.Authority))},
		{"environment", r.Environment.canon()},
		{"limitations", cstrings(r.Limitations)},
		{"locations", locs},
		{"evidence_links", cstrings(r.EvidenceLinks)},
	}
}

// projection is what evidence_id hashes: no id, subject reduced to identity.
func (r *Record) projection() canon {
	var subject canon = jsonNull
	if r.Subject != nil {
		subject = r.Subject.Identity().canon()
	}
	return append(r.body(), member{"subject", subject})
}

// full is the complete record.
func (r *Record) full() canon {
	return append(r.body(), member{"subject", r.Subject.canon()}, member{"evidence_id", cstr(r.EvidenceID)})
}

// computeID derives evidence_id. Payloads must already be canonical.
func (r *Record) computeID() string { return IDPrefix + digestOf(r.projection()) }

// IsEvidenceID reports whether s has the form ev_<64 lowercase hex>.
func IsEvidenceID(s string) bool {
	return len(s) == len(IDPrefix)+64 && strings.HasPrefix(s, IDPrefix) && isLowerHex(s[len(IDPrefix):])
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isSHA256Hex(s string) bool { return len(s) == 64 && isLowerHex(s) }

// validateRecord checks every rule that does not depend on how the record
// was encoded. Payloads are assumed canonical JSON already.
func validateRecord(r *Record) *abi.Error {
	p := fieldPath{}
	if r.SchemaVersion != SchemaVersion {
		return schemaVersionError(p.key("schema_version"), r.SchemaVersion)
	}
	if r.Subject != nil {
		if err := validateSubject(*r.Subject, p.key("subject")); err != nil {
			return err
		}
	}
	if err := validateProvider(r.Provider, p.key("provider"), false); err != nil {
		return err
	}
	if r.AnalysisProfile != nil {
		if err := r.AnalysisProfile.validate(p.key("analysis_profile"), r.Provider); err != nil {
			return err
		}
	}
	if err := nonEmpty(r.PredicateType, p.key("predicate_type")); err != nil {
		return err
	}
	if err := nonEmpty(r.Operation, p.key("operation")); err != nil {
		return err
	}
	if len(r.Parameters) == 0 || r.Parameters[0] != '{' {
		return invalid(p.key("parameters"), ReasonInvalidType, "a JSON object", "parameters must be the canonical request object")
	}
	if len(r.RawResult) == 0 {
		return invalid(p.key("raw_result"), ReasonMissing, "JSON value or null", "raw_result is missing")
	}
	if len(r.NormalizedResult) == 0 {
		return invalid(p.key("normalized_result"), ReasonMissing, "JSON value", "normalized_result is missing")
	}
	if !oneOf(string(r.Confidence), confidences()) {
		return invalid(p.key("confidence"), ReasonInvalidValue, listOf(confidences()), "unknown confidence %q", r.Confidence)
	}
	if !oneOf(string(r.Authority), authorities()) {
		return invalid(p.key("authority"), ReasonInvalidValue, listOf(authorities()), "unknown authority %q", r.Authority)
	}
	if r.Environment != nil {
		if err := validateEnvironment(*r.Environment, p.key("environment")); err != nil {
			return err
		}
	}
	for i, l := range r.Limitations {
		if err := validString(l, p.key("limitations").index(i)); err != nil {
			return err
		}
	}
	for i, l := range r.Locations {
		if err := validateLocation(l, p.key("locations").index(i)); err != nil {
			return err
		}
	}
	for i, id := range r.EvidenceLinks {
		if !IsEvidenceID(id) {
			return invalid(p.key("evidence_links").index(i), ReasonInvalidFormat, "ev_ followed by 64 lowercase hex digits", "%q is not an evidence id", id)
		}
	}
	if r.EvidenceID != "" && !IsEvidenceID(r.EvidenceID) {
		return invalid(p.key("evidence_id"), ReasonInvalidFormat, "ev_ followed by 64 lowercase hex digits", "%q is not an evidence id", r.EvidenceID)
	}
	return nil
}

func schemaVersionError(p fieldPath, got any) *abi.Error {
	if n, ok := got.(int); ok && n == 1 {
		return invalid(p, ReasonInvalidValue, "2",
			"Evidence v1 records are not accepted; re-run the operation that produced it with this rea to get an Evidence v2 record")
	}
	return invalid(p, ReasonInvalidValue, "2", "unsupported Evidence schema_version %v; this rea reads Evidence v2 only", got)
}

func validString(s string, p fieldPath) *abi.Error {
	if !utf8.ValidString(s) {
		return invalid(p, ReasonInvalidFormat, "UTF-8 text", "the string is not valid UTF-8")
	}
	return nil
}

func nonEmpty(s string, p fieldPath) *abi.Error {
	if s == "" {
		return invalid(p, ReasonMinimum, "a non-empty string", "the value is empty")
	}
	return validString(s, p)
}

func validateSubject(s Subject, p fieldPath) *abi.Error {
	if err := nonEmpty(s.Name, p.key("name")); err != nil {
		return err
	}
	if !isSHA256Hex(s.Digest.SHA256) {
		return invalid(p.key("digest").key("sha256"), ReasonInvalidFormat, "64 lowercase hex digits", "%q is not a sha256 digest", s.Digest.SHA256)
	}
	if !oneOf(s.Format, subjectFormats()) {
		return invalid(p.key("format"), ReasonInvalidValue, listOf(subjectFormats()), "unknown subject format %q", s.Format)
	}
	if s.Architecture != "" && !oneOf(s.Architecture, architectures()) {
		return invalid(p.key("architecture"), ReasonInvalidValue, listOf(architectures())+" or null", "unknown architecture %q", s.Architecture)
	}
	return validString(s.LocalPath, p.key("local_path"))
}

func validateProvider(pr Provider, p fieldPath, versionRequired bool) *abi.Error {
	if err := nonEmpty(pr.ID, p.key("id")); err != nil {
		return err
	}
	if err := nonEmpty(pr.Name, p.key("name")); err != nil {
		return err
	}
	if pr.Version == nil {
		if versionRequired {
			return invalid(p.key("version"), ReasonInvalidType, "a non-empty string", "an analysis profile needs a provider version")
		}
		return nil
	}
	if versionRequired {
		return nonEmpty(*pr.Version, p.key("version"))
	}
	return validString(*pr.Version, p.key("version"))
}

func validateEnvironment(e Environment, p fieldPath) *abi.Error {
	for _, f := range []struct {
		name, value string
	}{{"id", e.ID}, {"platform", e.Platform}, {"architecture", e.Architecture}} {
		if err := nonEmpty(f.value, p.key(f.name)); err != nil {
			return err
		}
	}
	if !oneOf(e.Isolation, isolations()) {
		return invalid(p.key("isolation"), ReasonInvalidValue, listOf(isolations()), "unknown isolation %q", e.Isolation)
	}
	return nil
}

func validateLocation(l Location, p fieldPath) *abi.Error {
	switch l.Kind {
	case LocationAddress:
		return nonEmpty(l.Address, p.key("address"))
	case LocationAddressRange:
		if err := nonEmpty(l.Start, p.key("start")); err != nil {
			return err
		}
		return nonEmpty(l.End, p.key("end"))
	case LocationArtifactPath:
		return nonEmpty(l.Path, p.key("path"))
	case LocationFileOffset:
		if l.Offset > maxSafeInteger {
			return invalid(p.key("offset"), ReasonMaximum, "at most 2^53-1", "offset %d cannot be represented exactly in JSON", l.Offset)
		}
		return nil
	case LocationFileOffsetRange:
		if l.StartOffset > maxSafeInteger {
			return invalid(p.key("start"), ReasonMaximum, "at most 2^53-1", "offset %d cannot be represented exactly in JSON", l.StartOffset)
		}
		if l.EndOffset > maxSafeInteger {
			return invalid(p.key("end"), ReasonMaximum, "at most 2^53-1", "offset %d cannot be represented exactly in JSON", l.EndOffset)
		}
		return nil
	default:
		return invalid(p.key("kind"), ReasonInvalidValue, listOf(locationKinds()), "unknown location kind %q", l.Kind)
	}
}
