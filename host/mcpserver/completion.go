package mcpserver

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi/textfold"
	"rea/host/app"
	"rea/host/capture"
	"rea/providers"
)

// Completion bounds.
const (
	// MaxCompletionValues is the MCP limit on values in one reply.
	MaxCompletionValues = 100
	// maxCompletionCandidates bounds how many candidates one request scans.
	maxCompletionCandidates = 10_000
	// maxCompletionValueChars drops longer candidates: no argument accepts them.
	maxCompletionValueChars = app.MaxWorkflowArgumentChars
)

// complete answers completion/complete for guided-prompt arguments from
// live session state. It never starts analysis or a provider, keeps no
// cache, and answers an empty list when a source is unavailable rather
// than an unverified identifier.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	if p.Ref == nil || p.Ref.Type != "ref/prompt" {
		typ := ""
		if p.Ref != nil {
			typ = p.Ref.Type
		}
		return nil, invalidParams("invalid completion reference", []app.FieldIssue{{Path: []any{"ref", "type"}, Reason: "invalid_value",
			Message: "ref.type: rea completes guided-prompt arguments only (ref/prompt), got " + quote(typ)}})
	}
	w, ok := app.FindWorkflow(p.Ref.Name, s.workflowScope())
	if !ok {
		return nil, invalidParams("unknown prompt "+quote(p.Ref.Name), []app.FieldIssue{{Path: []any{"ref", "name"}, Reason: "not_found",
			Message: "ref.name: no prompt " + quote(p.Ref.Name) + " in this server's scope; list them with prompts/list"}})
	}
	a, ok := w.Argument(p.Argument.Name)
	if !ok {
		names := make([]string, len(w.Arguments))
		for i, x := range w.Arguments {
			names[i] = x.Name
		}
		return nil, invalidParams("unknown prompt argument", []app.FieldIssue{{Path: []any{"argument", "name"}, Reason: "unknown_argument",
			Message: "argument.name: " + w.ID + " has no argument " + quote(p.Argument.Name) + " (accepted: " + strings.Join(names, ", ") + ")"}})
	}
	var candidates []string
	if req.Session != nil && ctx.Err() == nil {
		candidates = s.completionSource(s.session(req.Session), a.Completion)
	}
	values, total := matchCompletions(candidates, p.Argument.Value)
	if ctx.Err() != nil {
		values, total = []string{}, 0 // a cancelled completion's late result is not offered
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > len(values)}}, nil
}

// completionSource lists the session's current values of one family.
func (s *Server) completionSource(sess *Session, family string) []string {
	switch family {
	case app.CompleteEvidence:
		var ids []string
		for _, r := range sess.Ledger.Records() {
			ids = append(ids, r.EvidenceID)
		}
		return ids
	case app.CompleteCapture:
		var ids []string
		for _, r := range sess.Ledger.Records() {
			if r.Operation == capture.Operation && r.PredicateType == capture.PredicateType && json.Valid(r.NormalizedResult) && isObject(r.NormalizedResult) {
				ids = append(ids, r.EvidenceID)
			}
		}
		return ids
	case app.CompleteManifest, app.CompleteOccurrence:
		var out []string
		for _, r := range sess.Ledger.Records() {
			if r.Operation != "inspect_artifact" {
				continue
			}
			inv, ok := inventoryIDs(r.NormalizedResult)
			if !ok {
				continue // not a schema-valid inventory: offer nothing from it
			}
			if family == app.CompleteManifest {
				out = append(out, inv.ManifestID)
			} else {
				for _, o := range inv.Occurrences.Items {
					out = append(out, o.OccurrenceID)
				}
			}
		}
		return out
	case app.CompleteProvider:
		return s.providerCandidates()
	case app.CompleteUnknown:
		return openUnknownHeads(sess)
	case app.CompleteProcedure:
		return procedureCandidates(sess)
	case app.CompleteDocument:
		return documentCandidates(sess)
	}
	return nil
}

// procedureRow is one list_procedures item as completion reads it.
type procedureRow struct {
	Address string   `json:"address"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// procedureCandidates derives procedure suggestions from the retained
// list_procedures pages of the active target, never by running analysis.
// Only a complete inventory (its pages cover every row) yields anything:
// every address, and each name (aliases included) that belongs to exactly
// one address across all rows.
func procedureCandidates(sess *Session) []string {
	t := sess.Target()
	if t == nil || t.SHA256 == "" {
		return nil
	}
	rows := map[int]procedureRow{}
	total := -1
	for _, r := range sess.Ledger.Records() {
		if r.Operation != "list_procedures" || r.Subject == nil || r.Subject.Digest.SHA256 != t.SHA256 {
			continue
		}
		var res struct {
			Procedures struct {
				Total  *int           `json:"total"`
				Offset int            `json:"offset"`
				Items  []procedureRow `json:"items"`
			} `json:"procedures"`
		}
		if err := json.Unmarshal(r.NormalizedResult, &res); err != nil || res.Procedures.Total == nil {
			continue // not a schema-valid page
		}
		if total >= 0 && total != *res.Procedures.Total {
			return nil // pages of different inventories: no verified identifier
		}
		total = *res.Procedures.Total
		for i, row := range res.Procedures.Items {
			if row.Address == "" || res.Procedures.Offset+i >= total {
				return nil
			}
			rows[res.Procedures.Offset+i] = row
		}
	}
	if total < 0 || len(rows) != total {
		return nil
	}
	addressesOf := map[string]map[string]bool{}
	var out []string
	for _, row := range rows {
		out = append(out, row.Address)
		for _, n := range append([]string{row.Name}, row.Aliases...) {
			if n == "" {
				continue
			}
			if addressesOf[n] == nil {
				addressesOf[n] = map[string]bool{}
			}
			addressesOf[n][row.Address] = true
		}
	}
	for n, addrs := range addressesOf {
		if len(addrs) == 1 {
			out = append(out, n)
		}
	}
	return out
}

func isObject(b json.RawMessage) bool {
	t := strings.TrimSpace(string(b))
	return strings.HasPrefix(t, "{")
}

// inventoryIdentifiers are the ids an inspect_artifact result offers.
type inventoryIdentifiers struct {
	ManifestID  string `json:"manifest_id"`
	Occurrences struct {
		Items []struct {
			OccurrenceID string `json:"occurrence_id"`
		} `json:"items"`
	} `json:"occurrences"`
}

// inventoryIDs reads the identifiers of an inspect_artifact result,
// requiring the shape the artifact service writes.
func inventoryIDs(raw json.RawMessage) (*inventoryIdentifiers, bool) {
	var inv inventoryIdentifiers
	if err := json.Unmarshal(raw, &inv); err != nil || inv.ManifestID == "" || inv.Occurrences.Items == nil {
		return nil, false
	}
	for _, o := range inv.Occurrences.Items {
		if o.OccurrenceID == "" {
			return nil, false
		}
	}
	return &inv, true
}

// providerCandidates is "auto" plus the sorted deep candidate ids, found
// without launching anything; a discovery error offers nothing.
func (s *Server) providerCandidates() []string {
	cfg := providers.Config{}
	for _, m := range s.app.ListModules().Modules {
		if m.Name == "native" {
			cfg.NativeLiteVersion = "sha256:" + m.SHA256
		}
	}
	reg, err := providers.Discover(cfg)
	if err != nil {
		return nil
	}
	out := []string{providers.Auto}
	for _, c := range reg.Candidates() {
		out = append(out, c.ID)
	}
	return out
}

// openUnknownHeads are the latest revisions of unknowns not resolved.
func openUnknownHeads(sess *Session) []string {
	type head struct {
		rev    int64
		status string
	}
	heads := map[string]head{}
	for _, u := range sess.Ledger.Unknowns() {
		var v struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(u.JSON, &v)
		if h, ok := heads[u.UnknownID]; !ok || u.Revision > h.rev {
			heads[u.UnknownID] = head{u.Revision, v.Status}
		}
	}
	var out []string
	for id, h := range heads {
		if h.status != "resolved" {
			out = append(out, id)
		}
	}
	return out
}

// foldKey is the form completion matches on: NFKC, then full case folding,
// as guidance search matches words.
func foldKey(s string) string { return textfold.Fold(s) }

// matchCompletions keeps the candidates whose normalised, case-folded form
// starts with the normalised, case-folded prefix, in their original
// spelling, de-duplicated and sorted by code point. It returns at most
// MaxCompletionValues of them and the count of every match.
func matchCompletions(candidates []string, prefix string) ([]string, int) {
	if len(candidates) > maxCompletionCandidates {
		candidates = candidates[:maxCompletionCandidates]
	}
	want := foldKey(prefix)
	seen := map[string]bool{}
	matches := []string{}
	for _, c := range candidates {
		if seen[c] || len([]rune(c)) > maxCompletionValueChars {
			continue
		}
		seen[c] = true
		if strings.HasPrefix(foldKey(c), want) {
			matches = append(matches, c)
		}
	}
	sort.Strings(matches) // byte order of UTF-8 is code-point order
	total := len(matches)
	if total > MaxCompletionValues {
		matches = matches[:MaxCompletionValues]
	}
	return matches, total
}
