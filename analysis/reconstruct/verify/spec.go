// Package verify evaluates a finite reconstruction specification claim by
// claim against retained comparison Evidence. A claim passes only when its
// declared comparison is complete, unchanged and free of open related
// unknowns; anything missing or limited makes it unknown, never pass. Pass
// therefore means "this declared claim has complete comparable Evidence",
// not that the reconstruction is equivalent to the original.
//
// The package is pure: the host resolves the Evidence and the unknown heads
// and hands them in; the reconstruct wasm module wraps it.
package verify

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"rea/abi"
	"rea/abi/canonical"
)

// SchemaVersion is the only specification version accepted.
const SchemaVersion = 1

// Limits of a specification and of a page.
const (
	MaxClaims        = 100
	MaxName          = 200
	MaxStatement     = 1000
	MaxClaimID       = 100
	MaxClaimUnknowns = 100
	MaxLimit         = 100
	MaxProbes        = 2000
)

// Claim kinds.
const (
	KindBehavioral            = "behavioral"
	KindStructuralFunction    = "structural-function"
	KindStructuralArtifact    = "structural-artifact"
	KindStructuralApplication = "structural-application"
)

// DimensionOverall is the comparison's own status.
const DimensionOverall = "overall"

// kindContract is what a claim kind reads: the comparison operation that
// must have produced the Evidence, and the dimensions a claim may name.
type kindContract struct {
	operation  string
	dimensions []string
}

func contracts() map[string]kindContract {
	return map[string]kindContract{
		KindBehavioral: {"compare_process_captures",
			[]string{"overall", "terminal", "interaction", "exit", "filesystem", "protocol", "process", "shim"}},
		KindStructuralFunction: {"compare_functions",
			[]string{"overall", "identity", "pseudocode", "assembly", "comments", "calls", "references", "strings_names", "cfg"}},
		KindStructuralArtifact: {"compare_artifacts", []string{"overall"}},
		KindStructuralApplication: {"compare_application_versions",
			[]string{"overall", "windows", "ipc_channels", "exposed_apis", "modules", "endpoints", "findings"}},
	}
}

// Kinds lists the claim kinds in documentation order.
func Kinds() []string {
	return []string{KindBehavioral, KindStructuralFunction, KindStructuralArtifact, KindStructuralApplication}
}

// Dimensions lists the dimensions a claim kind may name.
func Dimensions(kind string) []string { return append([]string{}, contracts()[kind].dimensions...) }

// Operation is the comparison operation a claim kind reads.
func Operation(kind string) string { return contracts()[kind].operation }

// Specification is a finite, typed set of claims about a reconstruction.
type Specification struct {
	SchemaVersion int     `json:"schema_version"`
	Name          string  `json:"name"`
	Claims        []Claim `json:"claims"`
}

// Claim says that one dimension of one comparison shows no difference.
type Claim struct {
	ClaimID string `json:"claim_id"`
	Kind    string `json:"kind"`
	// EvidenceID names the retained comparison Evidence.
	EvidenceID string `json:"evidence_id"`
	// Dimension defaults to overall.
	Dimension string `json:"dimension,omitempty"`
	// Statement is the human sentence the claim stands for.
	Statement string `json:"statement,omitempty"`
	// UnknownIDs are residual unknowns the claim depends on; open ones make
	// it unknown.
	UnknownIDs []string `json:"unknown_ids,omitempty"`
}

// ParseSpecification reads a specification strictly and checks it: schema
// version, name, 1–100 claims with unique claim ids and unique
// kind:evidence:dimension, known kinds and dimensions, well-formed ids.
func ParseSpecification(data []byte) (Specification, error) {
	var s Specification
	if err := strictDecode(data, &s); err != nil {
		return Specification{}, invalid([]any{"specification"}, "invalid_format", "%v", err)
	}
	return s, s.Validate()
}

// Validate checks the specification's own rules and fills default
// dimensions.
func (s *Specification) Validate() error {
	p := []any{"specification"}
	if s.SchemaVersion != SchemaVersion {
		return invalid(append(p, "schema_version"), "invalid_value", "schema_version must be %d", SchemaVersion)
	}
	if strings.TrimSpace(s.Name) == "" || utf8.RuneCountInString(s.Name) > MaxName {
		return invalid(append(p, "name"), "invalid_value", "name must be 1–%d characters", MaxName)
	}
	if len(s.Claims) < 1 || len(s.Claims) > MaxClaims {
		return invalid(append(p, "claims"), "maximum", "a specification has 1–%d claims, got %d", MaxClaims, len(s.Claims))
	}
	ids := map[string]bool{}
	keys := map[string]bool{}
	for i := range s.Claims {
		c := &s.Claims[i]
		cp := append(append([]any{}, p...), "claims", i)
		if c.Dimension == "" {
			c.Dimension = DimensionOverall
		}
		if strings.TrimSpace(c.ClaimID) == "" || utf8.RuneCountInString(c.ClaimID) > MaxClaimID {
			return invalid(append(cp, "claim_id"), "invalid_value", "claim_id must be 1–%d characters", MaxClaimID)
		}
		if ids[c.ClaimID] {
			return invalid(append(cp, "claim_id"), "invalid_value", "claim_id %q is used twice; claim ids are unique", c.ClaimID)
		}
		ids[c.ClaimID] = true
		k, ok := contracts()[c.Kind]
		if !ok {
			return invalid(append(cp, "kind"), "invalid_value", "kind %q is not one of %s", c.Kind, strings.Join(Kinds(), ", "))
		}
		if !isEvidenceID(c.EvidenceID) {
			return invalid(append(cp, "evidence_id"), "invalid_format", "%q is not ev_ followed by 64 lowercase hex digits", c.EvidenceID)
		}
		if !contains(k.dimensions, c.Dimension) {
			return invalid(append(cp, "dimension"), "invalid_value", "a %s claim names one of the dimensions %s, not %q", c.Kind, strings.Join(k.dimensions, ", "), c.Dimension)
		}
		key := c.Kind + ":" + c.EvidenceID + ":" + c.Dimension
		if keys[key] {
			return invalid(append(cp, "dimension"), "invalid_value", "two claims check %s; each kind:evidence:dimension is claimed once", key)
		}
		keys[key] = true
		if utf8.RuneCountInString(c.Statement) > MaxStatement {
			return invalid(append(cp, "statement"), "maximum", "statement is at most %d characters", MaxStatement)
		}
		if len(c.UnknownIDs) > MaxClaimUnknowns {
			return invalid(append(cp, "unknown_ids"), "maximum", "at most %d unknown ids", MaxClaimUnknowns)
		}
		for j, u := range c.UnknownIDs {
			if !strings.HasPrefix(u, "unk_") || !isHex64(u[4:]) {
				return invalid(append(cp, "unknown_ids", j), "invalid_format", "%q is not unk_ followed by 64 lowercase hex digits", u)
			}
		}
	}
	return nil
}

// Digest is sha256(JCS(specification)) with default dimensions filled, so
// omitting "overall" and spelling it give the same digest.
func (s Specification) Digest() (string, error) { return canonical.Digest(s) }

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

type issue struct {
	Path    []any  `json:"path"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

func invalid(path []any, reason, format string, args ...any) *abi.Error {
	msg := fmt.Sprintf(format, args...)
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", pathString(path), msg).
		WithDetail("issues", []issue{{Path: path, Reason: reason, Message: msg}})
}

func pathString(p []any) string {
	var b strings.Builder
	for i, part := range p {
		if n, ok := part.(int); ok {
			fmt.Fprintf(&b, "[%d]", n)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprint(&b, part)
	}
	return b.String()
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func isEvidenceID(s string) bool { return strings.HasPrefix(s, "ev_") && isHex64(s[3:]) }

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
