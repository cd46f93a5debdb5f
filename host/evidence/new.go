package evidence

import (
	"encoding/json"

	"rea/abi"
)

// Draft is what a producer knows about one observation. New fills the
// defaults (predicate rea.analysis/v2, confidence observed, authority
// shipped-artifact, empty parameters/lists, raw_result null) and derives the
// id.
type Draft struct {
	// Subject is nil when the observation has no artifact identity; New then
	// records NoSubjectLimitation.
	Subject  *Subject
	Provider Provider
	// AnalysisProfile is nil for "no profile" (JSON null); build one with
	// NewAnalysisProfile.
	AnalysisProfile *AnalysisProfile
	PredicateType   string
	Operation       string
	// Parameters, RawResult and NormalizedResult take JSON text
	// (json.RawMessage or []byte) or any value encoding/json can marshal.
	Parameters       any
	RawResult        any
	NormalizedResult any
	Confidence       Confidence
	Authority        Authority
	Environment      *Environment
	Limitations      []string
	Locations        []Location
	EvidenceLinks    []string
}

// New validates a draft and seals it into a Record: each JSON payload is
// canonicalised once and the id is hashed once. Payload integers beyond
// ±2^53 are refused rather than silently rounded by RFC 8785's IEEE-754
// numbers; producers write such values (addresses) as strings.
func New(d Draft) (Record, error) { return build(d, true) }

// build seals a draft; fresh (New) adds NoSubjectLimitation to a record
// without subject and the references beside bare-id arrays (Seal keeps a
// record's limitations and result as they are so a valid record keeps its
// id).
func build(d Draft, fresh bool) (Record, error) {
	p := fieldPath{}
	payload := func(v any, name string) (json.RawMessage, error) {
		doc, err := jsonText(v)
		if err != nil {
			return nil, invalid(p.key(name), ReasonInvalidFormat, "JSON", "%v", err)
		}
		if lit, bad := unsafeInteger(doc); bad {
			return nil, invalid(p.key(name), ReasonInvalidValue, "integers within ±2^53, larger ones as strings",
				"the integer %s cannot be represented exactly in canonical JSON; encode it as a string (for an address, \"0x…\")", lit)
		}
		c, err := canonicalJSON(doc)
		if err != nil {
			return nil, invalid(p.key(name), ReasonInvalidFormat, "RFC 8785 canonicalisable JSON", "%v", err)
		}
		return c, nil
	}
	params := d.Parameters
	if params == nil {
		params = json.RawMessage("{}")
	}
	r := Record{
		SchemaVersion: SchemaVersion,
		Provider:      d.Provider,
		PredicateType: d.PredicateType,
		Operation:     d.Operation,
		Confidence:    d.Confidence,
		Authority:     d.Authority,
	}
	var err error
	if r.Parameters, err = payload(params, "parameters"); err != nil {
		return Record{}, err
	}
	if r.RawResult, err = payload(d.RawResult, "raw_result"); err != nil {
		return Record{}, err
	}
	normalized := d.NormalizedResult
	if fresh {
		// A new record names Evidence by reference beside the seed's
		// bare-id arrays (refs.go); Seal keeps a record's bytes, so an
		// older record keeps its id.
		doc, jerr := jsonText(normalized)
		if jerr == nil {
			normalized = json.RawMessage(WithReferences(doc))
		}
	}
	if r.NormalizedResult, err = payload(normalized, "normalized_result"); err != nil {
		return Record{}, err
	}
	if r.PredicateType == "" {
		r.PredicateType = DefaultPredicateType
	}
	if r.Confidence == "" {
		r.Confidence = ConfidenceObserved
	}
	if r.Authority == "" {
		r.Authority = AuthorityShippedArtifact
	}
	if d.Subject != nil {
		s := *d.Subject
		r.Subject = &s
	}
	if d.Environment != nil {
		e := *d.Environment
		r.Environment = &e
	}
	if d.AnalysisProfile != nil {
		ap := *d.AnalysisProfile
		c, cerr := canonicalValue(json.RawMessage(ap.Parameters))
		if cerr != nil {
			return Record{}, invalid(p.key("analysis_profile").key("parameters"), ReasonInvalidFormat, "RFC 8785 canonicalisable JSON", "%v", cerr)
		}
		ap.Parameters = c
		r.AnalysisProfile = &ap
	}
	r.Limitations = make([]string, 0, len(d.Limitations)+1)
	if fresh && r.Subject == nil && !contains(d.Limitations, NoSubjectLimitation) {
		r.Limitations = append(r.Limitations, NoSubjectLimitation)
	}
	r.Limitations = append(r.Limitations, d.Limitations...)
	r.Locations = append([]Location{}, d.Locations...)
	r.EvidenceLinks = append([]string{}, d.EvidenceLinks...)
	if err := seal(&r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// Seal re-derives a record's canonical form and id from its fields, after
// filling New's defaults for empty fields (but never adding limitations).
// Use it after editing a copy of a record; a valid record keeps its id.
func Seal(r Record) (Record, error) {
	return build(Draft{
		Subject:          r.Subject,
		Provider:         r.Provider,
		AnalysisProfile:  r.AnalysisProfile,
		PredicateType:    r.PredicateType,
		Operation:        r.Operation,
		Parameters:       rawOrNil(r.Parameters),
		RawResult:        rawOrNil(r.RawResult),
		NormalizedResult: rawOrNil(r.NormalizedResult),
		Confidence:       r.Confidence,
		Authority:        r.Authority,
		Environment:      r.Environment,
		Limitations:      r.Limitations,
		Locations:        r.Locations,
		EvidenceLinks:    r.EvidenceLinks,
	}, false)
}

func rawOrNil(m json.RawMessage) any {
	if m == nil {
		return nil
	}
	return m
}

// seal validates r (payloads already canonical), sets its id and remembers
// its canonical bytes.
func seal(r *Record) *abi.Error {
	r.EvidenceID = ""
	if err := validateRecord(r); err != nil {
		return err
	}
	r.EvidenceID = r.computeID()
	r.canonical = bytesOf(r.full())
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
