package evidence

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Detail values of a bundle request.
const (
	DetailComplete = "complete"
	DetailSummary  = "summary"
)

// RetentionCompleteRecord says a summarised record is stored complete.
const RetentionCompleteRecord = "complete-record"

// Query is the shared part of get_evidence_bundle and
// inspect-evidence-bundle: which detail, and which records.
type Query struct {
	// Detail is "" (complete canonical bundle), "complete" or "summary".
	Detail string `json:"detail,omitempty"`
	// Filters narrow a summary; they are only valid with Detail "summary".
	Filters *Filters `json:"filters,omitempty"`
}

// Filters select records by exact match; every set field must match.
type Filters struct {
	EvidenceID string `json:"evidence_id,omitempty"`
	Operation  string `json:"operation,omitempty"`
	// TargetSHA256 matches subject.digest.sha256.
	TargetSHA256 string `json:"target_sha256,omitempty"`
	// AnalysisProfileDigest matches analysis_profile.digest.
	AnalysisProfileDigest string `json:"analysis_profile_digest,omitempty"`
	// ProcedureAddress matches the procedure address a record's
	// normalized_result carries (see ProcedureAddress), compared as a number
	// when both sides read as hex ("0x401000" = "401000" = "0X0000401000").
	ProcedureAddress string `json:"procedure_address,omitempty"`
}

// ParseQuery reads detail and filters from a request object. Other keys of
// the object are rejected unless listed in also (e.g. "path" for the CLI).
// Filters with a detail other than "summary" are an invalid_request naming
// the filters field.
func ParseQuery(params json.RawMessage, also ...string) (Query, error) {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || isNull(params) {
		return Query{}, nil
	}
	c, err := canonicalJSON(params)
	if err != nil {
		return Query{}, invalid(fieldPath{}, ReasonInvalidFormat, "a JSON object", "%v", err)
	}
	f, aerr := objectFields(c, fieldPath{})
	if aerr != nil {
		return Query{}, aerr
	}
	for _, k := range sortedKeys(f) {
		if k != "detail" && k != "filters" && !oneOf(k, also) {
			return Query{}, invalid(fieldPath{k}, ReasonUnknown, "", "unknown field %q; remove it", k)
		}
	}
	d := decoder{}
	var q Query
	if v, ok := f["detail"]; ok {
		q.Detail = d.str(v, fieldPath{"detail"})
	}
	if v, ok := f["filters"]; ok {
		p := fieldPath{"filters"}
		ff, ferr := objectFields(v, p)
		if ferr != nil {
			return Query{}, ferr
		}
		q.Filters = &Filters{}
		keys := make([]string, 0, len(ff))
		for k := range ff {
			keys = append(keys, k)
		}
		sort.Strings(keys) // report the first problem in key order
		for _, k := range keys {
			s := d.str(ff[k], p.key(k))
			if d.err == nil && s == "" {
				d.fail(invalid(p.key(k), ReasonMinimum, "a non-empty string", "an empty filter is not a filter; remove it or give a value"))
			}
			switch k {
			case "evidence_id":
				q.Filters.EvidenceID = s
			case "operation":
				q.Filters.Operation = s
			case "target_sha256":
				q.Filters.TargetSHA256 = s
			case "analysis_profile_digest":
				q.Filters.AnalysisProfileDigest = s
			case "procedure_address":
				q.Filters.ProcedureAddress = s
			default:
				d.fail(invalid(p.key(k), ReasonUnknown, "evidence_id, operation, target_sha256, analysis_profile_digest or procedure_address", "unknown filter %q", k))
			}
		}
	}
	if d.err != nil {
		return Query{}, d.err
	}
	if err := q.Validate(); err != nil {
		return Query{}, err
	}
	return q, nil
}

// Validate checks detail, the filters' formats, and that filters come only
// with summary detail.
func (q Query) Validate() error {
	if q.Detail != "" && q.Detail != DetailComplete && q.Detail != DetailSummary {
		return invalid(fieldPath{"detail"}, ReasonInvalidValue, `"summary" or "complete" (or omitted)`, "unknown detail %q", q.Detail)
	}
	if q.Filters == nil {
		return nil
	}
	if q.Detail != DetailSummary {
		return invalid(fieldPath{"filters"}, ReasonInvalidValue, `detail: "summary"`,
			`filters apply only to the summary projection; add detail: "summary" or remove filters`)
	}
	f := q.Filters
	p := fieldPath{"filters"}
	if f.EvidenceID != "" && !IsEvidenceID(f.EvidenceID) {
		return invalid(p.key("evidence_id"), ReasonInvalidFormat, "ev_ followed by 64 lowercase hex digits", "%q is not an evidence id", f.EvidenceID)
	}
	if f.TargetSHA256 != "" && !isSHA256Hex(f.TargetSHA256) {
		return invalid(p.key("target_sha256"), ReasonInvalidFormat, "64 lowercase hex digits", "%q is not a sha256 digest", f.TargetSHA256)
	}
	if f.AnalysisProfileDigest != "" && !isSHA256Hex(f.AnalysisProfileDigest) {
		return invalid(p.key("analysis_profile_digest"), ReasonInvalidFormat, "64 lowercase hex digits", "%q is not a sha256 digest", f.AnalysisProfileDigest)
	}
	return nil
}

// Project answers q over b: the bundle itself for omitted or "complete"
// detail, its Summary for "summary" detail (filtered by q.Filters). Both
// marshal to the JSON the tool returns.
func (b Bundle) Project(q Query) (any, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if q.Detail != DetailSummary {
		return b, nil
	}
	var f Filters
	if q.Filters != nil {
		f = *q.Filters
	}
	return b.Summarize(f), nil
}

// Match reports whether r satisfies every set filter.
func (f Filters) Match(r Record) bool {
	if f.EvidenceID != "" && r.EvidenceID != f.EvidenceID {
		return false
	}
	if f.Operation != "" && r.Operation != f.Operation {
		return false
	}
	if f.TargetSHA256 != "" && (r.Subject == nil || r.Subject.Digest.SHA256 != f.TargetSHA256) {
		return false
	}
	if f.AnalysisProfileDigest != "" && (r.AnalysisProfile == nil || r.AnalysisProfile.Digest != f.AnalysisProfileDigest) {
		return false
	}
	if f.ProcedureAddress != "" {
		addr, ok := ProcedureAddress(r)
		if !ok || !sameAddress(addr, f.ProcedureAddress) {
			return false
		}
	}
	return true
}

// SummarySubject is the subject identity shown in a summary (no local path).
type SummarySubject struct {
	Name         string  `json:"name"`
	Digest       Digest  `json:"digest"`
	Format       string  `json:"format"`
	Architecture *string `json:"architecture"`
}

// SummaryRecord describes one retained record without its payloads.
type SummaryRecord struct {
	EvidenceID            string          `json:"evidence_id"`
	Operation             string          `json:"operation"`
	PredicateType         string          `json:"predicate_type"`
	Subject               *SummarySubject `json:"subject"`
	Provider              Provider        `json:"provider"`
	AnalysisProfileDigest *string         `json:"analysis_profile_digest"`
	Confidence            Confidence      `json:"confidence"`
	Authority             Authority       `json:"authority"`
	Retention             string          `json:"retention"`
	// ProcedureAddress is the procedure address found in normalized_result,
	// or null.
	ProcedureAddress *string `json:"procedure_address"`
	// NativeDossier is an analyze_function record's value-flow metadata,
	// absent for other operations.
	NativeDossier *NativeDossierSummary `json:"native_dossier,omitempty"`
}

// Summary is the detail:"summary" projection of a bundle.
type Summary struct {
	BundleVersion int    `json:"bundle_version"`
	Detail        string `json:"detail"`
	// TotalRecords counts every record before filtering.
	TotalRecords int             `json:"total_records"`
	Records      []SummaryRecord `json:"records"`
}

// Summarize projects every record that matches f, in evidence_id order.
func (b Bundle) Summarize(f Filters) Summary {
	s := Summary{BundleVersion: BundleVersion, Detail: DetailSummary, TotalRecords: len(b.Records), Records: []SummaryRecord{}}
	for _, r := range b.Records {
		if f.Match(r) {
			s.Records = append(s.Records, summarize(r))
		}
	}
	return s
}

func summarize(r Record) SummaryRecord {
	sr := SummaryRecord{
		EvidenceID: r.EvidenceID, Operation: r.Operation, PredicateType: r.PredicateType,
		Provider: r.Provider, Confidence: r.Confidence, Authority: r.Authority, Retention: RetentionCompleteRecord,
	}
	if r.Subject != nil {
		sr.Subject = &SummarySubject{Name: r.Subject.Name, Digest: r.Subject.Digest, Format: r.Subject.Format}
		if r.Subject.Architecture != "" {
			a := r.Subject.Architecture
			sr.Subject.Architecture = &a
		}
	}
	if r.AnalysisProfile != nil {
		d := r.AnalysisProfile.Digest
		sr.AnalysisProfileDigest = &d
	}
	if a, ok := ProcedureAddress(r); ok {
		sr.ProcedureAddress = &a
	}
	sr.NativeDossier = nativeDossier(r)
	return sr
}

// ProcedureAddress finds the procedure a record is about in its
// normalized_result. It looks, in this order, at the top-level fields
// procedure_address, function_address and entry_address, then at the
// objects procedure and function for address, entry_address or entry. A
// string value is returned as written; an integer is rendered as 0x-hex. The
// first match wins. Records about no single procedure have none.
func ProcedureAddress(r Record) (string, bool) {
	if len(r.NormalizedResult) == 0 || r.NormalizedResult[0] != '{' {
		return "", false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(r.NormalizedResult, &top) != nil {
		return "", false
	}
	for _, k := range []string{"procedure_address", "function_address", "entry_address"} {
		if a, ok := addressValue(top[k]); ok {
			return a, true
		}
	}
	for _, container := range []string{"procedure", "function"} {
		v := top[container]
		if len(v) == 0 || v[0] != '{' {
			continue
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(v, &inner) != nil {
			continue
		}
		for _, k := range []string{"address", "entry_address", "entry"} {
			if a, ok := addressValue(inner[k]); ok {
				return a, true
			}
		}
	}
	return "", false
}

func addressValue(v json.RawMessage) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil || s == "" {
			return "", false
		}
		return s, true
	}
	if n, err := strconv.ParseUint(string(v), 10, 64); err == nil {
		return "0x" + strconv.FormatUint(n, 16), true
	}
	return "", false
}

// sameAddress compares two addresses numerically when both read as hex
// (optional 0x), else as exact text.
func sameAddress(a, b string) bool {
	na, oka := hexAddress(a)
	nb, okb := hexAddress(b)
	if oka && okb {
		return na == nb
	}
	return a == b
}

func hexAddress(s string) (uint64, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 16, 64)
	return n, err == nil
}
