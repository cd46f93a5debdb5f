package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"rea/abi"
	"rea/host/evidence"
)

// AnalysisViewRequest selects a view of completed analysis Evidence.
type AnalysisViewRequest struct {
	// View is summary (default), page or item.
	View string `json:"view,omitempty"`
	// Collection names the list a page or item comes from, e.g. modules,
	// findings, browser_windows, ipc.
	Collection string `json:"collection,omitempty"`
	Offset     int    `json:"offset,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	// Selector picks one item: a module/file path, a finding rule id, an
	// IPC channel; with several matches the first in order is returned and
	// the count reported.
	Selector string `json:"selector,omitempty"`
	// Facet picks a layout facet (mitigations, linkage) with view facet,
	// or a function facet (assembly, callers, pseudocode…) with view
	// native.
	Facet string `json:"facet,omitempty"`
	// NodeID selects one item exactly where a selector is ambiguous or
	// unavailable.
	NodeID string `json:"node_id,omitempty"`
}

// Analysis view defaults.
const (
	DefaultViewLimit = 64
	MaxViewLimit     = 1000
)

// viewCollections are the pageable lists of an application analysis.
func viewCollections() []string {
	return []string{"browser_windows", "bundles", "context_bridge_apis", "entrypoints", "findings", "html_documents",
		"integrity_contradictions", "ipc", "module_graph", "modules", "observations", "source_maps"}
}

// InspectAnalysisView projects a view of analyze_javascript_application
// Evidence without repeating the analysis. The view is new Evidence
// (confidence derived) linked to its source by parent_evidence_id.
func (a *App) InspectAnalysisView(src evidence.Record, req AnalysisViewRequest) (evidence.Record, error) {
	native := src.Operation == "inspect_binary_layout" || src.Operation == "analyze_function"
	written, writes := writtenKindOf(src.Operation)
	if src.Operation != "analyze_javascript_application" && !native && !writes {
		return evidence.Record{}, abi.Errorf(abi.CodeCapabilityUnavailable,
			"inspect_analysis_view reads analyze_javascript_application, inspect_binary_layout, analyze_function, unpack_javascript_bundle, "+
				"extract_source_map_sources and extract_artifact Evidence; %s is %s",
			src.EvidenceID, src.Operation).WithDetail("field", "source")
	}
	if req.View == "" {
		req.View = "summary"
	}
	if req.Limit == 0 {
		req.Limit = DefaultViewLimit
	}
	if req.Limit < 1 || req.Limit > MaxViewLimit {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d", MaxViewLimit).WithDetail("field", "limit")
	}
	if req.Offset < 0 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "offset must not be negative").WithDetail("field", "offset")
	}
	if writes {
		result, err := writtenView(src, written, req)
		if err != nil {
			return evidence.Record{}, err
		}
		return sealView(src, req, result)
	}
	if native {
		result, err := inspectNativeView(src, req)
		if err != nil {
			return evidence.Record{}, err
		}
		return sealView(src, req, result)
	}
	var doc struct {
		Application             map[string]json.RawMessage `json:"application"`
		IntegrityContradictions json.RawMessage            `json:"integrity_contradictions"`
		Coverage                string                     `json:"coverage"`
		Format                  string                     `json:"format"`
		ApplicationRoot         string                     `json:"application_root"`
		Limitations             []string                   `json:"limitations"`
	}
	if err := json.Unmarshal(src.NormalizedResult, &doc); err != nil || doc.Application == nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "source Evidence does not hold an application analysis").WithDetail("field", "source")
	}
	collection := func(name string) ([]json.RawMessage, error) {
		raw := doc.Application[name]
		if name == "integrity_contradictions" {
			raw = doc.IntegrityContradictions
		}
		known := false
		for _, c := range viewCollections() {
			known = known || c == name
		}
		if !known {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "collection %q is not one of %s", name, strings.Join(viewCollections(), ", ")).WithDetail("field", "collection")
		}
		var items []json.RawMessage
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &items); err != nil {
				return nil, err
			}
		}
		return items, nil
	}
	result := map[string]any{"parent_evidence_id": src.EvidenceID, "view": req.View}
	switch req.View {
	case "summary":
		counts := map[string]int{}
		for _, c := range viewCollections() {
			items, _ := collection(c)
			counts[c] = len(items)
		}
		findings, _ := collection("findings")
		top := topFindings(findings, 20)
		result["format"] = doc.Format
		result["application_root"] = doc.ApplicationRoot
		result["package"] = doc.Application["package"]
		result["summary"] = doc.Application["summary"]
		result["statistics"] = doc.Application["statistics"]
		result["coverage"] = doc.Coverage
		result["limitations"] = doc.Limitations
		result["collections"] = counts
		result["top_findings"] = top
		result["next"] = "Call inspect_analysis_view with view: \"page\" and a collection (e.g. findings, ipc, modules) to read items; page size defaults to 64."
		result["next_calls"] = summaryNextCalls(src.EvidenceID, counts)
	case "page":
		items, err := collection(req.Collection)
		if err != nil {
			return evidence.Record{}, err
		}
		page := abi.PageOf(items, req.Offset, req.Limit)
		result["collection"] = req.Collection
		result["page"] = page
	case "item":
		if req.Selector == "" && req.NodeID == "" {
			return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "view item needs a selector (a path, rule id or channel) or a node_id").WithDetail("field", "selector")
		}
		items, err := collection(req.Collection)
		if err != nil {
			return evidence.Record{}, err
		}
		var matches []json.RawMessage
		for _, it := range items {
			if itemMatches(it, req.Selector) || (req.NodeID != "" && itemHasNodeID(it, req.NodeID)) {
				matches = append(matches, it)
			}
		}
		result["collection"] = req.Collection
		result["selector"] = req.Selector
		result["matches"] = len(matches)
		if len(matches) > 0 {
			result["item"] = matches[0]
		} else {
			result["item"] = nil
		}
	default:
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "view %q is not one of summary, page, item", req.View).WithDetail("field", "view")
	}
	return sealView(src, req, result)
}

// sealView adds the digest of the selected facts and records the view as
// derived Evidence linked to its source.
func sealView(src evidence.Record, req AnalysisViewRequest, result map[string]any) (evidence.Record, error) {
	return sealViewWith(src, req, result, nil)
}

// sealViewWith is sealView with record-level limitations: a view that
// stands in for its source as the default answer keeps the source's, so
// a partial write never reads complete from the record alone.
func sealViewWith(src evidence.Record, req AnalysisViewRequest, result map[string]any, limitations []string) (evidence.Record, error) {
	facts, _ := json.Marshal(result)
	sum := sha256.Sum256(facts)
	result["selection_digest"] = hex.EncodeToString(sum[:])
	var subject *evidence.Subject
	if src.Subject != nil {
		s := *src.Subject
		subject = &s
	}
	return evidence.New(evidence.Draft{
		Subject:          subject,
		Provider:         evidence.Provider{ID: "rea.analysis-view", Name: "rea analysis view"},
		Operation:        "inspect_analysis_view",
		Parameters:       req,
		NormalizedResult: result,
		Limitations:      limitations,
		Confidence:       evidence.ConfidenceDerived,
		EvidenceLinks:    []string{src.EvidenceID},
	})
}

// itemHasNodeID is true when the item's node_id (or id) is exactly id.
func itemHasNodeID(item json.RawMessage, id string) bool {
	var m struct {
		NodeID string `json:"node_id"`
		ID     string `json:"id"`
	}
	return json.Unmarshal(item, &m) == nil && (m.NodeID == id || (m.NodeID == "" && m.ID == id))
}

// itemMatches is true when a string field the selector names is equal to
// it (file, path, rule_id, channel, name) or its location file is.
func itemMatches(item json.RawMessage, sel string) bool {
	var m map[string]any
	if json.Unmarshal(item, &m) != nil {
		return false
	}
	for _, k := range []string{"path", "file", "rule_id", "channel", "name", "api_key", "specifier", "src", "url"} {
		if v, ok := m[k].(string); ok && v == sel {
			return true
		}
	}
	if loc, ok := m["location"].(map[string]any); ok {
		if f, _ := loc["file"].(string); f == sel {
			return true
		}
	}
	return false
}

// topFindings keeps the n most severe findings, stable within severity.
func topFindings(findings []json.RawMessage, n int) []json.RawMessage {
	type f struct {
		raw  json.RawMessage
		rank int
	}
	fs := make([]f, 0, len(findings))
	for _, raw := range findings {
		var m struct {
			Severity string `json:"severity"`
		}
		_ = json.Unmarshal(raw, &m)
		fs = append(fs, f{raw, abi.SeverityRank(m.Severity)})
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].rank > fs[j].rank })
	out := []json.RawMessage{}
	for i := 0; i < len(fs) && i < n; i++ {
		out = append(out, fs[i].raw)
	}
	return out
}
