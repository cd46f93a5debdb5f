package evidence

import (
	"bytes"
	"encoding/json"
	"sort"
	"unicode/utf8"

	"rea/abi"
)

// ProfileSchemaVersion is the analysis_profile object version.
const ProfileSchemaVersion = 1

// Bounds on analysis_profile.parameters, so a profile stays a small,
// comparable description of how a provider was configured rather than a
// second payload.
const (
	MaxProfileParameterBytes = 64 << 10 // canonical bytes
	MaxProfileDepth          = 16       // nested objects/arrays, the root container counts as 1
	MaxProfileNodes          = 4096     // every value, containers included
	MaxProfileStringBytes    = 16 << 10 // UTF-8 bytes of any string, keys included
)

// AnalysisProfile records the provider configuration an observation ran
// under. Its digest is sha256(JCS(profile without digest)) in lowercase hex;
// both a profile and its absence (null) enter the record's identity.
type AnalysisProfile struct {
	SchemaVersion int
	// Provider must equal the record's provider and carry a non-empty version.
	Provider                     Provider
	ProviderProfileSchemaVersion int
	// Parameters is a canonical JSON object within the Max* bounds.
	Parameters json.RawMessage
	Digest     string
}

// NewAnalysisProfile builds a profile and computes its digest. Nil
// parameters are the empty object.
func NewAnalysisProfile(provider Provider, providerProfileSchemaVersion int, parameters any) (AnalysisProfile, error) {
	p := fieldPath{"analysis_profile"}
	if parameters == nil {
		parameters = json.RawMessage("{}")
	}
	params, err := canonicalValue(parameters)
	if err != nil {
		return AnalysisProfile{}, invalid(p.key("parameters"), ReasonInvalidFormat, "JSON object", "%v", err)
	}
	ap := AnalysisProfile{
		SchemaVersion:                ProfileSchemaVersion,
		Provider:                     provider,
		ProviderProfileSchemaVersion: providerProfileSchemaVersion,
		Parameters:                   params,
	}
	ap.Digest = ap.computeDigest()
	if err := ap.validate(p, provider); err != nil {
		return AnalysisProfile{}, err
	}
	return ap, nil
}

func (a *AnalysisProfile) withoutDigest() obj {
	return obj{
		{"schema_version", cint(int64(a.SchemaVersion))},
		{"provider", a.Provider.canon()},
		{"provider_profile_schema_version", cint(int64(a.ProviderProfileSchemaVersion))},
		{"parameters", raw(a.Parameters)},
	}
}

func (a *AnalysisProfile) computeDigest() string { return digestOf(a.withoutDigest()) }

func (a *AnalysisProfile) canon() canon {
	if a == nil {
		return jsonNull
	}
	return append(a.withoutDigest(), member{"digest", cstr(a.Digest)})
}

// MarshalJSON writes the canonical profile object.
func (a AnalysisProfile) MarshalJSON() ([]byte, error) { return bytesOf(a.canon()), nil }

// validate checks the profile against its bounds, its digest and the
// record's provider. Parameters must already be canonical.
func (a *AnalysisProfile) validate(p fieldPath, recordProvider Provider) *abi.Error {
	if a.SchemaVersion != ProfileSchemaVersion {
		return invalid(p.key("schema_version"), ReasonInvalidValue, "1", "unsupported analysis profile schema_version %d", a.SchemaVersion)
	}
	if err := validateProvider(a.Provider, p.key("provider"), true); err != nil {
		return err
	}
	if !sameProvider(a.Provider, recordProvider) {
		return invalid(p.key("provider"), ReasonInvalidValue, "the Evidence provider",
			"the profile's provider differs from the record's provider; build the profile from the provider that produced the observation")
	}
	if a.ProviderProfileSchemaVersion < 1 {
		return invalid(p.key("provider_profile_schema_version"), ReasonMinimum, "an integer ≥ 1", "got %d", a.ProviderProfileSchemaVersion)
	}
	if err := checkProfileParameters(a.Parameters, p.key("parameters")); err != nil {
		return err
	}
	if !isSHA256Hex(a.Digest) {
		return invalid(p.key("digest"), ReasonInvalidFormat, "64 lowercase hex digits", "%q is not a sha256 digest", a.Digest)
	}
	if computed := a.computeDigest(); computed != a.Digest {
		return abi.Errorf(abi.CodeEvidenceIntegrity,
			"The analysis profile digest %s does not match its content (computed %s); the profile was altered after it was built. Re-run the producing operation to get an intact record.",
			a.Digest, computed).
			WithDetail("field", p.key("digest").String()).
			WithDetail("declared_digest", a.Digest).
			WithDetail("computed_digest", computed)
	}
	return nil
}

func sameProvider(a, b Provider) bool {
	if a.ID != b.ID || a.Name != b.Name || (a.Version == nil) != (b.Version == nil) {
		return false
	}
	return a.Version == nil || *a.Version == *b.Version
}

// checkProfileParameters enforces the size, depth, node and string bounds.
func checkProfileParameters(params json.RawMessage, p fieldPath) *abi.Error {
	if len(params) == 0 || params[0] != '{' {
		return invalid(p, ReasonInvalidType, "a JSON object", "profile parameters must be an object")
	}
	if len(params) > MaxProfileParameterBytes {
		return invalid(p, ReasonMaximum, "at most 65536 canonical bytes", "the parameters take %d canonical bytes", len(params))
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return invalid(p, ReasonInvalidFormat, "a JSON object", "%v", err)
	}
	nodes := 0
	return walkProfileValue(v, 0, &nodes, p)
}

func walkProfileValue(v any, depth int, nodes *int, p fieldPath) *abi.Error {
	*nodes++
	if *nodes > MaxProfileNodes {
		return invalid(p, ReasonMaximum, "at most 4096 values", "the parameters hold more than %d values", MaxProfileNodes)
	}
	switch t := v.(type) {
	case string:
		return checkProfileString(t, p)
	case map[string]any:
		if depth+1 > MaxProfileDepth {
			return invalid(p, ReasonMaximum, "nesting depth at most 16", "the parameters nest deeper than %d", MaxProfileDepth)
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // deterministic: the first violation in key order is reported
		for _, k := range keys {
			if err := checkProfileString(k, p.key(k)); err != nil {
				return err
			}
			if err := walkProfileValue(t[k], depth+1, nodes, p.key(k)); err != nil {
				return err
			}
		}
	case []any:
		if depth+1 > MaxProfileDepth {
			return invalid(p, ReasonMaximum, "nesting depth at most 16", "the parameters nest deeper than %d", MaxProfileDepth)
		}
		for i, child := range t {
			if err := walkProfileValue(child, depth+1, nodes, p.index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkProfileString(s string, p fieldPath) *abi.Error {
	if len(s) > MaxProfileStringBytes {
		return invalid(p, ReasonMaximum, "strings of at most 16384 bytes", "a string of %d bytes", len(s))
	}
	if !utf8.ValidString(s) {
		return invalid(p, ReasonInvalidFormat, "UTF-8 text", "a string is not valid UTF-8")
	}
	return nil
}
