// Package obligations builds a reconstruction obligation ledger: every
// behaviour of the observed application a reconstruction must reproduce,
// with who owns it, which cases prove it and whether a verifier of
// comparable authority has passed. Static facts only create candidates;
// an obligation closes (verified) only with a unique owner, its parser type
// when one is required, a fixture for every required case kind, and a
// passing verifier that enumerates it with the layer's proof authority.
// Pages are deterministic and repeat the ledger id, closure digest and the
// complete summaries.
package obligations

import (
	"fmt"
	"sort"
	"strings"

	"rea/abi"
	"rea/abi/canonical"
)

// Statuses of an obligation.
const (
	Unowned       = "unowned"
	Characterized = "characterized"
	Implemented   = "implemented"
	Verified      = "verified"
	Contradicted  = "contradicted"
	Blocked       = "blocked"
	OutOfScope    = "out-of-scope"
	Unknown       = "unknown"
)

// Statuses lists every obligation status.
func Statuses() []string {
	return []string{Unowned, Characterized, Implemented, Verified, Contradicted, Blocked, OutOfScope, Unknown}
}

// Layers lists where an obligation lives.
func Layers() []string {
	return []string{"cli", "protocol", "electron", "persistence", "process", "runtime", "packaging", "native-abi", "application", "other"}
}

// CaseKinds lists the fixture kinds an obligation may require.
func CaseKinds() []string {
	return []string{"positive", "negative", "malformed", "cancellation", "teardown"}
}

// Authorities orders proof authority: unit < integration < protocol <
// renderer < packaged-process = native-abi = live-observation = external.
func Authorities() []string {
	return []string{"unit", "integration", "protocol", "renderer", "packaged-process", "native-abi", "live-observation", "external"}
}

func authorityRank(a string) int {
	for i, x := range []string{"unit", "integration", "protocol", "renderer"} {
		if a == x {
			return i + 1
		}
	}
	switch a {
	case "packaged-process", "native-abi", "live-observation", "external":
		return 5
	}
	return 0
}

// requiredAuthority is the weakest proof that closes an obligation of a layer.
func requiredAuthority(layer string) string {
	switch layer {
	case "protocol":
		return "protocol"
	case "electron":
		return "renderer"
	case "process", "packaging":
		return "packaged-process"
	case "native-abi":
		return "native-abi"
	case "other":
		return "unit"
	}
	return "integration"
}

// Limits.
const (
	DefaultMaxObligations = 1000
	MaxObligations        = 10000
	DefaultPageLimit      = 100
	MaxPageLimit          = 500
)

// Source is the part of application Evidence that yields candidates.
type Source struct {
	EvidenceID  string `json:"evidence_id"`
	Application struct {
		Windows []struct {
			ID     string `json:"id"`
			Module string `json:"module"`
		} `json:"browser_windows"`
		ContextBridge []struct {
			Module  string   `json:"module"`
			Key     string   `json:"key"`
			Members []string `json:"members"`
		} `json:"context_bridge_apis"`
		IPC []struct {
			Module       string `json:"module"`
			Side         string `json:"side"`
			Channel      string `json:"channel"`
			ChannelState string `json:"channel_state"`
		} `json:"ipc"`
	} `json:"application"`
}

// Reviewed is an analyst's decision about one obligation: it refines a
// candidate or adds one, always citing source Evidence.
type Reviewed struct {
	ObligationID       string   `json:"obligation_id"`
	Layer              string   `json:"layer"`
	Statement          string   `json:"statement"`
	SourceEvidenceIDs  []string `json:"source_evidence_ids"`
	RequiredCases      []string `json:"required_cases"`
	RequiresParserType bool     `json:"requires_parser_type"`
	// Disposition is "", blocked or out-of-scope.
	Disposition string `json:"disposition,omitempty"`
	Rationale   string `json:"rationale,omitempty"`
}

// Manifest binds obligations to the reconstruction.
type Manifest struct {
	SchemaVersion  int             `json:"schema_version"`
	Bindings       []Binding       `json:"bindings"`
	Contradictions []Contradiction `json:"contradictions"`
}

// Binding says who owns an obligation and how it is proven.
type Binding struct {
	ObligationID string            `json:"obligation_id"`
	Owner        string            `json:"owner"`
	ParserType   string            `json:"parser_type,omitempty"`
	Cases        map[string]string `json:"cases"`
	Verifiers    []Verifier        `json:"verifiers"`
}

// Verifier is a check that ran against the reconstruction.
type Verifier struct {
	VerifierID string   `json:"verifier_id"`
	Authority  string   `json:"authority"`
	Result     string   `json:"result"`
	Enumerates []string `json:"enumerates"`
}

// Contradiction is Evidence that the reconstruction differs.
type Contradiction struct {
	ObligationID string   `json:"obligation_id"`
	EvidenceIDs  []string `json:"evidence_ids"`
	Note         string   `json:"note"`
}

// Request is what the module receives.
type Request struct {
	Sources             []Source   `json:"sources"`
	ReviewedObligations []Reviewed `json:"reviewed_obligations"`
	Manifest            Manifest   `json:"manifest"`
	Limits              struct {
		MaxObligations int `json:"max_obligations"`
	} `json:"limits"`
	Page struct {
		Offset int `json:"offset"`
		Limit  int `json:"limit"`
	} `json:"page"`
}

// Diagnostic explains why an obligation is not closed.
type Diagnostic struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Obligation is one row of the ledger.
type Obligation struct {
	ObligationID      string       `json:"obligation_id"`
	Layer             string       `json:"layer"`
	Statement         string       `json:"statement"`
	Origin            string       `json:"origin"` // static-candidate | reviewed
	SourceEvidenceIDs []string     `json:"source_evidence_ids"`
	RequiredCases     []string     `json:"required_cases"`
	RequiredAuthority string       `json:"required_authority"`
	Owner             *string      `json:"owner"`
	Status            string       `json:"status"`
	VerifiedBy        []string     `json:"verified_by"`
	Diagnostics       []Diagnostic `json:"diagnostics"`
}

// Summary counts the whole ledger.
type Summary struct {
	Total       int            `json:"total"`
	ByStatus    map[string]int `json:"by_status"`
	ByLayer     map[string]int `json:"by_layer"`
	Diagnostics map[string]int `json:"diagnostics"`
	Omitted     int            `json:"omitted_obligations"`
}

// Ledger is one page of the obligation ledger.
type Ledger struct {
	SchemaVersion int          `json:"schema_version"`
	LedgerID      string       `json:"ledger_id"`
	ClosureDigest string       `json:"closure_digest"`
	Status        string       `json:"status"` // closed | open | contradicted | unknown
	Summary       Summary      `json:"summary"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
	Obligations   []Obligation `json:"obligations"`
	Page          Page         `json:"page"`
}

// Page locates the returned obligations.
type Page struct {
	Offset     int  `json:"offset"`
	Limit      int  `json:"limit"`
	Returned   int  `json:"returned"`
	NextOffset *int `json:"next_offset"`
}

func invalid(field, format string, args ...any) *abi.Error {
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", field, fmt.Sprintf(format, args...)).WithDetail("field", field)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Build assembles the ledger and returns the requested page.
func Build(req Request) (Ledger, error) {
	if err := validate(&req); err != nil {
		return Ledger{}, err
	}
	page := req.Page
	req.Page.Offset, req.Page.Limit = 0, 0
	ledgerDigest, err := canonical.Digest(req)
	if err != nil {
		return Ledger{}, err
	}
	out := Ledger{SchemaVersion: 1, LedgerID: "rol_" + ledgerDigest, Diagnostics: []Diagnostic{}, Obligations: []Obligation{},
		Summary: Summary{ByStatus: map[string]int{}, ByLayer: map[string]int{}, Diagnostics: map[string]int{}}}
	for _, s := range Statuses() {
		out.Summary.ByStatus[s] = 0
	}
	if len(req.Sources) == 0 {
		out.Status = Unknown
		out.Diagnostics = append(out.Diagnostics, Diagnostic{"empty-evidence", "No application Evidence was given, so no obligation can be derived; the ledger is unknown, not empty of work."})
		if out.ClosureDigest, err = canonical.Digest([]Obligation{}); err != nil {
			return Ledger{}, err
		}
		out.Page = Page{Offset: page.Offset, Limit: page.Limit}
		return out, nil
	}
	all := candidates(req.Sources)
	sourceIDs := map[string]bool{}
	for _, s := range req.Sources {
		sourceIDs[s.EvidenceID] = true
	}
	seenReviewed := map[string]bool{}
	for _, r := range req.ReviewedObligations {
		o, exists := all[r.ObligationID]
		if seenReviewed[r.ObligationID] {
			o.diag("duplicate-definition", "The obligation is reviewed more than once; keep one definition.")
			continue
		}
		seenReviewed[r.ObligationID] = true
		if !exists {
			o = &row{Obligation: Obligation{ObligationID: r.ObligationID, SourceEvidenceIDs: []string{}}}
			all[r.ObligationID] = o
		}
		o.Origin = "reviewed"
		o.Layer, o.Statement = r.Layer, r.Statement
		if len(r.RequiredCases) > 0 {
			o.RequiredCases = append([]string{}, r.RequiredCases...)
		}
		for _, id := range r.SourceEvidenceIDs {
			if !sourceIDs[id] {
				o.diag("missing-source-evidence", "Source Evidence "+id+" is not among the ledger's application Evidence.")
			} else if !contains(o.SourceEvidenceIDs, id) {
				o.SourceEvidenceIDs = append(o.SourceEvidenceIDs, id)
			}
		}
		if len(o.SourceEvidenceIDs) == 0 {
			o.diag("missing-source-evidence", "The obligation cites no application Evidence of this ledger.")
		}
		o.requiresParser = r.RequiresParserType
		o.disposition = r.Disposition
	}
	ids := make([]string, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	max := req.Limits.MaxObligations
	if len(ids) > max {
		out.Summary.Omitted = len(ids) - max
		out.Diagnostics = append(out.Diagnostics, Diagnostic{"truncated", fmt.Sprintf("%d obligations exceed max_obligations; the ledger is unknown until it is rebuilt with a larger limit.", out.Summary.Omitted)})
		ids = ids[:max]
	}
	bindings := map[string][]Binding{}
	for _, b := range req.Manifest.Bindings {
		bindings[b.ObligationID] = append(bindings[b.ObligationID], b)
		if _, ok := all[b.ObligationID]; !ok {
			out.Diagnostics = append(out.Diagnostics, Diagnostic{"unknown-binding", "The manifest binds " + b.ObligationID + ", which is not an obligation of this ledger."})
		}
	}
	contradictions := map[string][]Contradiction{}
	for _, c := range req.Manifest.Contradictions {
		contradictions[c.ObligationID] = append(contradictions[c.ObligationID], c)
	}
	rows := make([]Obligation, 0, len(ids))
	for _, id := range ids {
		o := all[id]
		o.settle(bindings[id], contradictions[id])
		rows = append(rows, o.Obligation)
		out.Summary.ByStatus[o.Status]++
		out.Summary.ByLayer[o.Layer]++
		for _, d := range o.Diagnostics {
			out.Summary.Diagnostics[d.Code]++
		}
	}
	out.Summary.Total = len(rows)
	for _, d := range out.Diagnostics {
		out.Summary.Diagnostics[d.Code]++
	}
	type closure struct {
		ID, Status string
		VerifiedBy []string
	}
	cl := make([]closure, len(rows))
	for i, o := range rows {
		cl[i] = closure{o.ObligationID, o.Status, o.VerifiedBy}
	}
	if out.ClosureDigest, err = canonical.Digest(cl); err != nil {
		return Ledger{}, err
	}
	switch {
	case out.Summary.ByStatus[Contradicted] > 0:
		out.Status = Contradicted
	case out.Summary.ByStatus[Unknown] > 0 || out.Summary.Omitted > 0:
		out.Status = Unknown
	case out.Summary.ByStatus[Verified]+out.Summary.ByStatus[OutOfScope] == len(rows):
		out.Status = "closed"
	default:
		out.Status = "open"
	}
	out.Page = Page{Offset: page.Offset, Limit: page.Limit}
	if window, next := abi.Window(rows, page.Offset, page.Limit); window != nil {
		out.Obligations, out.Page.NextOffset = window, next
	}
	out.Page.Returned = len(out.Obligations)
	return out, nil
}

func validate(req *Request) error {
	if req.Manifest.SchemaVersion != 1 {
		return invalid("manifest.schema_version", "must be 1")
	}
	if req.Limits.MaxObligations == 0 {
		req.Limits.MaxObligations = DefaultMaxObligations
	}
	if req.Limits.MaxObligations < 1 || req.Limits.MaxObligations > MaxObligations {
		return invalid("limits.max_obligations", "must be 1–%d", MaxObligations)
	}
	if req.Page.Limit == 0 {
		req.Page.Limit = DefaultPageLimit
	}
	if req.Page.Offset < 0 || req.Page.Limit < 1 || req.Page.Limit > MaxPageLimit {
		return invalid("page", "offset ≥ 0 and limit 1–%d", MaxPageLimit)
	}
	for i, r := range req.ReviewedObligations {
		p := fmt.Sprintf("reviewed_obligations[%d]", i)
		if strings.TrimSpace(r.ObligationID) == "" {
			return invalid(p+".obligation_id", "is required")
		}
		if !contains(Layers(), r.Layer) {
			return invalid(p+".layer", "must be one of %s", strings.Join(Layers(), ", "))
		}
		for _, c := range r.RequiredCases {
			if !contains(CaseKinds(), c) {
				return invalid(p+".required_cases", "case kinds are %s", strings.Join(CaseKinds(), ", "))
			}
		}
		if r.Disposition != "" && r.Disposition != Blocked && r.Disposition != OutOfScope {
			return invalid(p+".disposition", "is blocked, out-of-scope or omitted")
		}
		if r.Disposition != "" && strings.TrimSpace(r.Rationale) == "" {
			return invalid(p+".rationale", "a %s disposition needs a rationale", r.Disposition)
		}
	}
	for i, b := range req.Manifest.Bindings {
		p := fmt.Sprintf("manifest.bindings[%d]", i)
		if strings.TrimSpace(b.Owner) == "" {
			return invalid(p+".owner", "is required")
		}
		for k := range b.Cases {
			if !contains(CaseKinds(), k) {
				return invalid(p+".cases", "case kinds are %s", strings.Join(CaseKinds(), ", "))
			}
		}
		for j, v := range b.Verifiers {
			if authorityRank(v.Authority) == 0 {
				return invalid(fmt.Sprintf("%s.verifiers[%d].authority", p, j), "must be one of %s", strings.Join(Authorities(), ", "))
			}
			if !contains([]string{"pass", "fail", "unknown"}, v.Result) {
				return invalid(fmt.Sprintf("%s.verifiers[%d].result", p, j), "must be pass, fail or unknown")
			}
		}
	}
	return nil
}

// row is an obligation under construction.
type row struct {
	Obligation
	requiresParser bool
	disposition    string
}

func (o *row) diag(code, msg string) { o.Diagnostics = append(o.Diagnostics, Diagnostic{code, msg}) }

// candidates turns static facts into unowned obligations.
func candidates(sources []Source) map[string]*row {
	out := map[string]*row{}
	add := func(id, layer, statement, ev string, cases []string, parser bool) *row {
		o, ok := out[id]
		if !ok {
			o = &row{Obligation: Obligation{ObligationID: id, Layer: layer, Statement: statement, Origin: "static-candidate",
				SourceEvidenceIDs: []string{}, RequiredCases: cases}, requiresParser: parser}
			out[id] = o
		}
		if !contains(o.SourceEvidenceIDs, ev) {
			o.SourceEvidenceIDs = append(o.SourceEvidenceIDs, ev)
		}
		return o
	}
	for _, s := range sources {
		for _, ipc := range s.Application.IPC {
			switch ipc.ChannelState {
			case "literal", "constant", "inferred":
				add("ipc:"+ipc.Channel, "protocol", "IPC channel "+ipc.Channel+" behaves as observed", s.EvidenceID,
					[]string{"positive", "negative", "malformed"}, true)
			default:
				o := add("ipc-dynamic:"+ipc.Module, "protocol", "IPC with a channel computed at run time in "+ipc.Module, s.EvidenceID,
					[]string{"positive", "negative"}, true)
				if len(o.Diagnostics) == 0 {
					o.diag("dynamic-channel", "The channel is computed at run time; static analysis cannot enumerate it. Review it as a named obligation.")
				}
			}
		}
		for _, api := range s.Application.ContextBridge {
			for _, m := range api.Members {
				add("api:"+api.Key+"."+m, "electron", "Exposed API "+api.Key+"."+m+" behaves as observed", s.EvidenceID,
					[]string{"positive", "negative"}, false)
			}
		}
		for _, w := range s.Application.Windows {
			add("window:"+w.Module+"#"+w.ID, "electron", "Window "+w.ID+" in "+w.Module+" opens with the observed options", s.EvidenceID,
				[]string{"positive", "teardown"}, false)
		}
	}
	return out
}

// settle decides the obligation's status from its bindings.
func (o *row) settle(bs []Binding, cs []Contradiction) {
	o.RequiredAuthority = requiredAuthority(o.Layer)
	o.VerifiedBy = []string{}
	sort.Strings(o.SourceEvidenceIDs)
	if o.Diagnostics == nil {
		o.Diagnostics = []Diagnostic{}
	}
	unresolved := false
	for _, d := range o.Diagnostics {
		if d.Code == "duplicate-definition" || d.Code == "missing-source-evidence" || d.Code == "dynamic-channel" {
			unresolved = true
		}
	}
	switch o.disposition {
	case OutOfScope:
		o.Status = OutOfScope
		return
	case Blocked:
		o.Status = Blocked
		return
	}
	for _, c := range cs {
		o.diag("contradiction", fmt.Sprintf("Contradicting Evidence %v: %s", c.EvidenceIDs, c.Note))
	}
	owners := map[string]bool{}
	for _, b := range bs {
		owners[b.Owner] = true
	}
	switch {
	case len(owners) == 0:
		o.diag("missing-owner", "No binding names an owner for this obligation.")
	case len(owners) > 1:
		o.diag("ambiguous-owner", fmt.Sprintf("%d bindings name different owners; one owner closes an obligation.", len(owners)))
		unresolved = true
	}
	var b Binding
	if len(bs) > 0 {
		b = bs[0]
		owner := b.Owner
		if len(owners) == 1 {
			o.Owner = &owner
		}
	}
	complete := len(owners) == 1
	if o.requiresParser && b.ParserType == "" {
		o.diag("missing-parser-type", "The obligation parses input; its binding names no parser_type.")
		complete = false
	}
	for _, k := range o.RequiredCases {
		if b.Cases[k] == "" {
			code := "missing-case"
			if k == "positive" {
				code = "missing-original-case"
			}
			o.diag(code, "No "+k+" case fixture.")
			complete = false
		}
	}
	failed := false
	for _, v := range b.Verifiers {
		switch {
		case !contains(v.Enumerates, o.ObligationID):
			o.diag("verifier-does-not-enumerate", "Verifier "+v.VerifierID+" does not list this obligation, so its result does not prove it.")
		case authorityRank(v.Authority) < authorityRank(o.RequiredAuthority):
			o.diag("weak-"+o.Layer+"-authority", "Verifier "+v.VerifierID+" has "+v.Authority+" authority; "+o.RequiredAuthority+" is required for the "+o.Layer+" layer.")
		case v.Result == "fail":
			o.diag("failing-verifier", "Verifier "+v.VerifierID+" failed.")
			failed = true
		case v.Result == "unknown":
			o.diag("unresolved-verifier", "Verifier "+v.VerifierID+" could not decide.")
			unresolved = true
		default:
			o.VerifiedBy = append(o.VerifiedBy, v.VerifierID)
		}
	}
	if len(b.Verifiers) == 0 && len(owners) == 1 {
		o.diag("missing-verifier", "No verifier ran against this obligation.")
	}
	sort.Strings(o.VerifiedBy)
	switch {
	case len(cs) > 0 || failed:
		o.Status = Contradicted
	case unresolved:
		o.Status = Unknown
	case len(owners) == 0:
		o.Status = Unowned
	case !complete:
		o.Status = Characterized
	case len(o.VerifiedBy) == 0:
		o.Status = Implemented
	default:
		o.Status = Verified
	}
}
