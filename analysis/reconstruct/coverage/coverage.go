// Package coverage evaluates a reconstruction coverage workspace: for every
// boundary, whether each surface of the original is owned, inventoried and
// verified by fresh, repeated, comparable results of sufficient authority.
// It fails closed: contradictions, failed results and owners that do not
// exist make a boundary fail; stale, weak, truncated, skipped, unsupported or
// unresolved results make it unknown; missing ownership or an incomplete
// inventory make it partial; only the rest passes.
package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/abi"
)

// SchemaVersion is the only workspace version accepted.
const SchemaVersion = 1

// Limits of a workspace.
const (
	MaxBoundaries = 100
	MaxSurfaces   = 1000
	MaxVerifiers  = 1000
	MaxResults    = 100
)

// Statuses of a surface or boundary, from best to worst.
const (
	Pass    = "pass"
	Partial = "partial"
	Unknown = "unknown"
	Fail    = "fail"
)

func rank(s string) int {
	switch s {
	case Pass:
		return 0
	case Partial:
		return 1
	case Unknown:
		return 2
	}
	return 3
}

// Authorities orders proof authority: unit < integration < protocol <
// renderer < packaged-process, native-abi, live-observation and external
// (equal, the strongest).
func Authorities() []string {
	return []string{"unit", "integration", "protocol", "renderer", "packaged-process", "native-abi", "live-observation", "external"}
}

func authorityRank(a string) int {
	switch a {
	case "unit":
		return 1
	case "integration":
		return 2
	case "protocol":
		return 3
	case "renderer":
		return 4
	case "packaged-process", "native-abi", "live-observation", "external":
		return 5
	}
	return 0
}

// Result statuses a verifier run can report.
func ResultStatuses() []string {
	return []string{"pass", "fail", "unknown", "unsupported", "truncated", "skipped"}
}

// Workspace is the coverage state to evaluate.
type Workspace struct {
	SchemaVersion int        `json:"schema_version"`
	WorkspaceID   string     `json:"workspace_id"`
	Boundaries    []Boundary `json:"boundaries"`
}

// Boundary is one part of the original the reconstruction must cover.
type Boundary struct {
	BoundaryID        string          `json:"boundary_id"`
	InventoryComplete bool            `json:"inventory_complete"`
	Owners            []string        `json:"owners"`
	Surfaces          []Surface       `json:"surfaces"`
	Verifiers         []Verifier      `json:"verifiers"`
	Contradictions    []Contradiction `json:"contradictions"`
}

// Surface is one observable behaviour; OwnerID names the owner that
// reimplements it, or null.
type Surface struct {
	SurfaceID string  `json:"surface_id"`
	OwnerID   *string `json:"owner_id"`
}

// Verifier is a contract that checks surfaces, and its results.
type Verifier struct {
	VerifierID          string   `json:"verifier_id"`
	SurfaceIDs          []string `json:"surface_ids"`
	Authority           string   `json:"authority"`
	RequiredAuthority   string   `json:"required_authority"`
	MaxAgeMS            int64    `json:"max_age_ms"`
	MinimumRepeats      int      `json:"minimum_repeats"`
	NormalizationDigest string   `json:"normalization_digest"`
	Results             []Run    `json:"results"`
}

// Run is one verifier result.
type Run struct {
	Status              string `json:"status"`
	AgeMS               int64  `json:"age_ms"`
	NormalizationDigest string `json:"normalization_digest"`
}

// Contradiction records Evidence that the reconstruction disagrees with the
// original on a surface.
type Contradiction struct {
	SurfaceID   string   `json:"surface_id"`
	EvidenceIDs []string `json:"evidence_ids"`
	Note        string   `json:"note"`
}

// Request is what the module receives.
type Request struct {
	Workspace  json.RawMessage `json:"workspace"`
	BoundaryID string          `json:"boundary_id,omitempty"`
}

// Diagnostic explains one reason a surface is not pass.
type Diagnostic struct {
	Code       string `json:"code"`
	Status     string `json:"status"`
	SurfaceID  string `json:"surface_id,omitempty"`
	VerifierID string `json:"verifier_id,omitempty"`
	Message    string `json:"message"`
}

// SurfaceResult is one surface's status.
type SurfaceResult struct {
	SurfaceID   string       `json:"surface_id"`
	Status      string       `json:"status"`
	VerifiedBy  []string     `json:"verified_by"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// BoundaryResult is one boundary's status: its worst surface (or partial
// with no surfaces at all).
type BoundaryResult struct {
	BoundaryID  string          `json:"boundary_id"`
	Status      string          `json:"status"`
	Counts      map[string]int  `json:"counts"`
	Surfaces    []SurfaceResult `json:"surfaces"`
	Diagnostics []Diagnostic    `json:"diagnostics"`
}

// Result is the coverage report.
type Result struct {
	SchemaVersion int              `json:"schema_version"`
	WorkspaceID   string           `json:"workspace_id"`
	Status        string           `json:"status"`
	Boundaries    []BoundaryResult `json:"boundaries"`
}

// Evaluate reads and evaluates a workspace (one boundary when boundaryID is
// set).
func Evaluate(req Request) (Result, error) {
	var w Workspace
	dec := json.NewDecoder(bytes.NewReader(req.Workspace))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Result{}, invalid("workspace", "invalid coverage workspace: %v", err)
	}
	if err := w.validate(); err != nil {
		return Result{}, err
	}
	res := Result{SchemaVersion: SchemaVersion, WorkspaceID: w.WorkspaceID, Status: Pass, Boundaries: []BoundaryResult{}}
	found := false
	for _, b := range w.Boundaries {
		if req.BoundaryID != "" && b.BoundaryID != req.BoundaryID {
			continue
		}
		found = true
		br := evaluateBoundary(b)
		if rank(br.Status) > rank(res.Status) {
			res.Status = br.Status
		}
		res.Boundaries = append(res.Boundaries, br)
	}
	if req.BoundaryID != "" && !found {
		return Result{}, abi.Errorf(abi.CodeInvalidRequest, "boundary %q is not in workspace %s; name one of its boundary_id values", req.BoundaryID, w.WorkspaceID).
			WithDetail("field", "boundary_id")
	}
	return res, nil
}

func (w Workspace) validate() error {
	if w.SchemaVersion != SchemaVersion {
		return invalid("workspace.schema_version", "schema_version must be %d", SchemaVersion)
	}
	if !strings.HasPrefix(w.WorkspaceID, "rcw_") || len(w.WorkspaceID) > 100 {
		return invalid("workspace.workspace_id", "workspace_id is rcw_ followed by up to 96 characters")
	}
	if len(w.Boundaries) < 1 || len(w.Boundaries) > MaxBoundaries {
		return invalid("workspace.boundaries", "a workspace has 1–%d boundaries", MaxBoundaries)
	}
	ids := map[string]bool{}
	for i, b := range w.Boundaries {
		p := fmt.Sprintf("workspace.boundaries[%d]", i)
		if b.BoundaryID == "" || ids[b.BoundaryID] {
			return invalid(p+".boundary_id", "boundary ids are non-empty and unique")
		}
		ids[b.BoundaryID] = true
		if len(b.Surfaces) > MaxSurfaces || len(b.Verifiers) > MaxVerifiers {
			return invalid(p, "at most %d surfaces and %d verifiers per boundary", MaxSurfaces, MaxVerifiers)
		}
		surfaces := map[string]bool{}
		for j, s := range b.Surfaces {
			if s.SurfaceID == "" || surfaces[s.SurfaceID] {
				return invalid(fmt.Sprintf("%s.surfaces[%d].surface_id", p, j), "surface ids are non-empty and unique")
			}
			surfaces[s.SurfaceID] = true
		}
		for j, v := range b.Verifiers {
			vp := fmt.Sprintf("%s.verifiers[%d]", p, j)
			if v.VerifierID == "" {
				return invalid(vp+".verifier_id", "a verifier needs an id")
			}
			if authorityRank(v.Authority) == 0 || authorityRank(v.RequiredAuthority) == 0 {
				return invalid(vp+".authority", "authority and required_authority are one of %s", strings.Join(Authorities(), ", "))
			}
			if v.MinimumRepeats < 1 || v.MaxAgeMS < 1 {
				return invalid(vp, "minimum_repeats and max_age_ms are ≥ 1")
			}
			if len(v.Results) > MaxResults {
				return invalid(vp+".results", "at most %d results", MaxResults)
			}
			for k, r := range v.Results {
				if !contains(ResultStatuses(), r.Status) {
					return invalid(fmt.Sprintf("%s.results[%d].status", vp, k), "status is one of %s", strings.Join(ResultStatuses(), ", "))
				}
			}
			for k, s := range v.SurfaceIDs {
				if !surfaces[s] {
					return invalid(fmt.Sprintf("%s.surface_ids[%d]", vp, k), "surface %q is not declared in this boundary", s)
				}
			}
		}
		for j, c := range b.Contradictions {
			if !surfaces[c.SurfaceID] {
				return invalid(fmt.Sprintf("%s.contradictions[%d].surface_id", p, j), "surface %q is not declared in this boundary", c.SurfaceID)
			}
		}
	}
	return nil
}

func evaluateBoundary(b Boundary) BoundaryResult {
	br := BoundaryResult{BoundaryID: b.BoundaryID, Status: Pass, Counts: map[string]int{Pass: 0, Partial: 0, Unknown: 0, Fail: 0},
		Surfaces: []SurfaceResult{}, Diagnostics: []Diagnostic{}}
	worsen := func(s string) {
		if rank(s) > rank(br.Status) {
			br.Status = s
		}
	}
	if !b.InventoryComplete {
		br.Diagnostics = append(br.Diagnostics, Diagnostic{Code: "missing-inventory", Status: Partial,
			Message: "The boundary's surface inventory is not complete; surfaces not listed are not covered."})
		worsen(Partial)
	}
	if len(b.Surfaces) == 0 {
		br.Diagnostics = append(br.Diagnostics, Diagnostic{Code: "no-surfaces", Status: Partial, Message: "The boundary lists no surfaces."})
		worsen(Partial)
	}
	owners := map[string]bool{}
	for _, o := range b.Owners {
		owners[o] = true
	}
	for _, s := range b.Surfaces {
		sr := evaluateSurface(s, b, owners)
		br.Counts[sr.Status]++
		worsen(sr.Status)
		br.Surfaces = append(br.Surfaces, sr)
	}
	return br
}

func evaluateSurface(s Surface, b Boundary, owners map[string]bool) SurfaceResult {
	sr := SurfaceResult{SurfaceID: s.SurfaceID, Status: Pass, VerifiedBy: []string{}, Diagnostics: []Diagnostic{}}
	diag := func(code, status, verifier, format string, args ...any) {
		sr.Diagnostics = append(sr.Diagnostics, Diagnostic{Code: code, Status: status, SurfaceID: s.SurfaceID, VerifierID: verifier, Message: fmt.Sprintf(format, args...)})
		if rank(status) > rank(sr.Status) {
			sr.Status = status
		}
	}
	switch {
	case s.OwnerID == nil:
		diag("missing-ownership", Partial, "", "No owner reimplements surface %s.", s.SurfaceID)
	case !owners[*s.OwnerID]:
		diag("missing-owner", Fail, "", "Surface %s names owner %q, which the boundary does not declare.", s.SurfaceID, *s.OwnerID)
	}
	for _, c := range b.Contradictions {
		if c.SurfaceID == s.SurfaceID {
			diag("contradiction", Fail, "", "Contradicting Evidence %v: %s", c.EvidenceIDs, c.Note)
		}
	}
	covered := false
	for _, v := range b.Verifiers {
		if !contains(v.SurfaceIDs, s.SurfaceID) {
			continue
		}
		covered = true
		if authorityRank(v.Authority) < authorityRank(v.RequiredAuthority) {
			diag("weak-authority", Unknown, v.VerifierID, "Verifier %s has %s authority; %s is required.", v.VerifierID, v.Authority, v.RequiredAuthority)
			continue
		}
		passes := 0
		for _, r := range v.Results {
			switch {
			case r.Status == "fail":
				diag("failed", Fail, v.VerifierID, "Verifier %s reported a failure.", v.VerifierID)
			case r.Status != "pass":
				diag(r.Status, Unknown, v.VerifierID, "Verifier %s reported %s.", v.VerifierID, r.Status)
			case r.AgeMS > v.MaxAgeMS:
				diag("stale", Unknown, v.VerifierID, "A passing result of %s is %d ms old; at most %d ms is accepted.", v.VerifierID, r.AgeMS, v.MaxAgeMS)
			case r.NormalizationDigest != v.NormalizationDigest:
				diag("normalization-mismatch", Unknown, v.VerifierID, "A passing result of %s used another normalization (%s, contract %s).", v.VerifierID, r.NormalizationDigest, v.NormalizationDigest)
			default:
				passes++
			}
		}
		if passes < v.MinimumRepeats {
			diag("insufficient-repeats", Unknown, v.VerifierID, "Verifier %s has %d comparable passing results; %d are required.", v.VerifierID, passes, v.MinimumRepeats)
		} else {
			sr.VerifiedBy = append(sr.VerifiedBy, v.VerifierID)
		}
	}
	if !covered {
		diag("missing-verifier", Unknown, "", "No verifier enumerates surface %s.", s.SurfaceID)
	}
	sort.Strings(sr.VerifiedBy)
	return sr
}

func invalid(field, format string, args ...any) *abi.Error {
	msg := fmt.Sprintf(format, args...)
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", field, msg).WithDetail("field", field)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
