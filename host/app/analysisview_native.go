package app

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"rea/abi"
	"rea/host/evidence"
)

// Views of native Evidence: inspect_binary_layout and analyze_function
// records, read without starting a provider. A view pages what the record
// holds; where the record itself holds only a window of a collection (the
// layout's symbol page, a dossier's collection pages) the view says so in
// recorded {total, offset, count} and coverage partial, never complete.

// layoutCollections are the pageable lists of a layout record.
func layoutCollections() []string {
	return []string{"exports", "imports", "mitigations", "needed_libraries", "sections", "segments", "symbols"}
}

// nativeFacets are the analyze_function facets view native selects.
func nativeFacets() []string {
	return []string{"assembly", "basic_blocks", "callees", "callers", "comments", "native_api", "procedure", "pseudocode",
		"referenced_names", "referenced_strings", "references", "unresolved_calls", "value_flow"}
}

// nativeFacetCollection maps a row facet to the dossier field holding it.
var nativeFacetCollection = map[string]string{
	"assembly": "assembly", "basic_blocks": "basic_blocks", "callers": "callers", "callees": "callees", "references": "references",
	"referenced_strings": "referenced_strings", "referenced_names": "referenced_names",
}

// recordedPage is a collection as a record holds it: a page of a larger
// list, or (for a plain array) all of it.
type recordedPage struct {
	Items  []json.RawMessage
	Total  int
	Offset int
}

func readPage(raw json.RawMessage) (recordedPage, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return recordedPage{}, false
	}
	if raw[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return recordedPage{}, false
		}
		return recordedPage{Items: items, Total: len(items)}, true
	}
	var p struct {
		Total  *int              `json:"total"`
		Offset int               `json:"offset"`
		Items  []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Total == nil {
		return recordedPage{}, false
	}
	return recordedPage{Items: p.Items, Total: *p.Total, Offset: p.Offset}, true
}

// window pages the recorded items and says how much of the collection
// the record covers.
func (rp recordedPage) window(collection string, offset, limit int) map[string]any {
	page := abi.PageOf(rp.Items, offset, limit)
	ids := make([]string, len(page.Items))
	for i := range page.Items {
		ids[i] = nodeID(collection, rp.Offset+offset+i)
	}
	coverage := "complete"
	if len(rp.Items) < rp.Total {
		coverage = "partial"
	}
	return map[string]any{"page": page, "node_ids": ids, "coverage": coverage,
		"recorded": map[string]any{"total": rp.Total, "offset": rp.Offset, "count": len(rp.Items)}}
}

// nodeID names one row of a native collection by its position in the
// complete collection: stable for one record, exact where names repeat.
func nodeID(collection string, index int) string { return collection + "#" + strconv.Itoa(index) }

// inspectNativeView projects a view of layout or dossier Evidence.
func inspectNativeView(src evidence.Record, req AnalysisViewRequest) (map[string]any, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(src.NormalizedResult, &doc); err != nil || doc == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "source Evidence does not hold a %s result", src.Operation).WithDetail("field", "source")
	}
	result := map[string]any{"parent_evidence_id": src.EvidenceID, "source_operation": src.Operation, "view": req.View}
	if src.Operation == "inspect_binary_layout" {
		return layoutView(doc, req, result)
	}
	return dossierView(doc, req, result)
}

func layoutView(doc map[string]json.RawMessage, req AnalysisViewRequest, result map[string]any) (map[string]any, error) {
	collection := func(name string) (recordedPage, error) {
		if !hasString(layoutCollections(), name) {
			return recordedPage{}, abi.Errorf(abi.CodeInvalidRequest, "collection %q is not one of %s", name, strings.Join(layoutCollections(), ", ")).
				WithDetail("field", "collection")
		}
		rp, _ := readPage(doc[name])
		return rp, nil
	}
	switch req.View {
	case "summary":
		counts := map[string]int{}
		for _, c := range layoutCollections() {
			rp, _ := collection(c)
			counts[c] = rp.Total
		}
		var mits []struct {
			Name, Status, Value string
		}
		_ = json.Unmarshal(doc["mitigations"], &mits)
		statuses := map[string]string{}
		for _, m := range mits {
			statuses[m.Name] = m.Status
			if m.Value != "" {
				statuses[m.Name] += " (" + m.Value + ")"
			}
		}
		for _, k := range []string{"format", "architecture", "bits", "byte_order", "type", "entry", "image_base", "interpreter", "file_size", "limitations"} {
			result[k] = raw(doc[k])
		}
		result["collections"] = counts
		result["symbol_counts"] = raw(doc["symbol_counts"])
		result["mitigations"] = statuses
		result["next"] = "Call inspect_analysis_view with view \"facet\" (facet mitigations or linkage), view \"page\" and a collection (" +
			strings.Join(layoutCollections(), ", ") + "; limit defaults to 64), or view \"item\" with a selector (a name) or node_id."
	case "facet":
		switch req.Facet {
		case "mitigations":
			result["facet"] = "mitigations"
			result["mitigations"] = raw(doc["mitigations"])
		case "linkage":
			result["facet"] = "linkage"
			for _, k := range []string{"interpreter", "needed_libraries", "rpath", "runpath", "relocations"} {
				result[k] = raw(doc[k])
			}
			imp, _ := collection("imports")
			exp, _ := collection("exports")
			result["import_count"], result["export_count"] = imp.Total, exp.Total
		default:
			return nil, abi.Errorf(abi.CodeInvalidRequest, "a layout facet is mitigations or linkage, not %q", req.Facet).WithDetail("field", "facet")
		}
	case "page":
		rp, err := collection(req.Collection)
		if err != nil {
			return nil, err
		}
		result["collection"] = req.Collection
		for k, v := range rp.window(req.Collection, req.Offset, req.Limit) {
			result[k] = v
		}
	case "item":
		rp, err := collection(req.Collection)
		if err != nil {
			return nil, err
		}
		if err := nativeItem(rp, req, result); err != nil {
			return nil, err
		}
	default:
		return nil, abi.Errorf(abi.CodeInvalidRequest, "view %q is not one of summary, facet, page, item for layout Evidence", req.View).WithDetail("field", "view")
	}
	return result, nil
}

// nativeItem selects one row by node_id or by a name (or address) selector;
// an ambiguous selector returns the first and every candidate's node_id.
func nativeItem(rp recordedPage, req AnalysisViewRequest, result map[string]any) error {
	result["collection"] = req.Collection
	if req.NodeID != "" {
		result["node_id"] = req.NodeID
		want, ok := strings.CutPrefix(req.NodeID, req.Collection+"#")
		i, err := strconv.Atoi(want)
		if !ok || err != nil || i < 0 {
			return abi.Errorf(abi.CodeInvalidRequest, "node_id %q is not a %s node id (%s#N)", req.NodeID, req.Collection, req.Collection).WithDetail("field", "node_id")
		}
		k := i - rp.Offset
		if k < 0 || k >= len(rp.Items) {
			result["item"], result["matches"] = nil, 0
			result["reason"] = "the record does not hold that row (it holds " + strconv.Itoa(len(rp.Items)) + " of " + strconv.Itoa(rp.Total) + ")"
			return nil
		}
		result["item"], result["matches"] = rp.Items[k], 1
		return nil
	}
	if req.Selector == "" {
		return abi.Errorf(abi.CodeInvalidRequest, "view item needs a selector (a name or address) or a node_id").WithDetail("field", "selector")
	}
	result["selector"] = req.Selector
	var ids []string
	var first json.RawMessage
	for i, it := range rp.Items {
		if nativeItemMatches(it, req.Selector) {
			if first == nil {
				first = it
			}
			ids = append(ids, nodeID(req.Collection, rp.Offset+i))
		}
	}
	result["matches"] = len(ids)
	result["item"] = nil
	if first != nil {
		result["item"], result["node_id"] = first, ids[0]
	}
	if len(ids) > 1 {
		result["candidates"] = ids
	}
	if len(rp.Items) < rp.Total {
		result["coverage"] = "partial"
		result["reason"] = "the record holds " + strconv.Itoa(len(rp.Items)) + " of " + strconv.Itoa(rp.Total) + " rows; a row outside them is not found here"
	}
	return nil
}

// nativeItemMatches compares a row's name-like fields (or a plain string
// row) with the selector, and an address field numerically.
func nativeItemMatches(item json.RawMessage, sel string) bool {
	var s string
	if json.Unmarshal(item, &s) == nil {
		return s == sel
	}
	var m map[string]any
	if json.Unmarshal(item, &m) != nil {
		return false
	}
	for _, k := range []string{"name", "library", "caller_name", "callee_name", "value"} {
		if v, ok := m[k].(string); ok && v == sel {
			return true
		}
	}
	for _, k := range []string{"address", "start"} {
		if v, ok := m[k].(string); ok && sameHex(v, sel) {
			return true
		}
	}
	return false
}

func sameHex(a, b string) bool {
	pa, err1 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(a), "0x"), 16, 64)
	pb, err2 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(b), "0x"), 16, 64)
	return err1 == nil && err2 == nil && strings.HasPrefix(strings.ToLower(b), "0x") && pa == pb
}

func dossierView(doc map[string]json.RawMessage, req AnalysisViewRequest, result map[string]any) (map[string]any, error) {
	facetStatus := func(name string) any {
		var f struct {
			Status string `json:"status"`
			Reason string `json:"reason"`
		}
		if json.Unmarshal(doc[name], &f) != nil || f.Status == "" {
			return map[string]any{"status": "unavailable", "reason": "the record holds no " + name + " facet"}
		}
		return raw(doc[name])
	}
	switch req.View {
	case "summary":
		counts := map[string]any{}
		for facet, field := range nativeFacetCollection {
			if rp, ok := readPage(doc[field]); ok {
				counts[facet] = map[string]any{"total": rp.Total, "recorded": len(rp.Items)}
			}
		}
		result["procedure"] = raw(doc["procedure"])
		result["target"] = raw(doc["target"])
		result["collections"] = counts
		result["unresolved_calls"] = len(unresolvedCalls(doc))
		result["pseudocode"] = facetStatus("pseudocode")
		result["value_flow"] = facetStatus("value_flow")
		result["undecodable_bytes"] = raw(doc["undecodable_bytes"])
		result["limitations"] = raw(doc["limitations"])
		result["next"] = "Call inspect_analysis_view with view \"native\" and a facet (" + strings.Join(nativeFacets(), ", ") +
			"); offset and limit default to 0 and 64."
	case "native", "page":
		facet := req.Facet
		if facet == "" {
			facet = req.Collection
		}
		if !hasString(nativeFacets(), facet) {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "facet %q is not one of %s", facet, strings.Join(nativeFacets(), ", ")).WithDetail("field", "facet")
		}
		result["view"], result["facet"] = "native", facet
		switch facet {
		case "procedure":
			result["procedure"] = raw(doc["procedure"])
		case "pseudocode":
			pseudocodeView(doc, req, result)
		case "value_flow":
			result["value_flow"] = facetStatus("value_flow")
		case "comments", "native_api":
			if len(doc[facet]) > 0 {
				result[facet] = raw(doc[facet])
			} else {
				result[facet] = map[string]any{"status": "unavailable", "reason": "native-lite records no " + facet + " for a function (no decompiler or analyst database)"}
			}
		case "unresolved_calls":
			calls := unresolvedCalls(doc)
			rp, _ := readPage(doc["assembly"])
			w := recordedPage{Items: calls, Total: len(calls)}.window(facet, req.Offset, req.Limit)
			w["coverage"] = "complete"
			if len(rp.Items) < rp.Total {
				w["coverage"] = "partial"
				w["reason"] = "found in the recorded assembly page only (" + strconv.Itoa(len(rp.Items)) + " of " + strconv.Itoa(rp.Total) + " instructions)"
			}
			for k, v := range w {
				result[k] = v
			}
		default:
			rp, ok := readPage(doc[nativeFacetCollection[facet]])
			if !ok {
				result[facet] = map[string]any{"status": "unavailable", "reason": "the record holds no " + facet}
				break
			}
			for k, v := range rp.window(facet, req.Offset, req.Limit) {
				result[k] = v
			}
		}
	case "item":
		field, ok := nativeFacetCollection[req.Collection]
		if !ok {
			keys := make([]string, 0, len(nativeFacetCollection))
			for k := range nativeFacetCollection {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return nil, abi.Errorf(abi.CodeInvalidRequest, "collection %q is not one of %s", req.Collection, strings.Join(keys, ", ")).WithDetail("field", "collection")
		}
		rp, _ := readPage(doc[field])
		if err := nativeItem(rp, req, result); err != nil {
			return nil, err
		}
	default:
		return nil, abi.Errorf(abi.CodeInvalidRequest, "view %q is not one of summary, native, page, item for analyze_function Evidence", req.View).WithDetail("field", "view")
	}
	return result, nil
}

// unresolvedCalls are the recorded instructions that call through a
// register or memory (no static target).
func unresolvedCalls(doc map[string]json.RawMessage) []json.RawMessage {
	rp, _ := readPage(doc["assembly"])
	out := []json.RawMessage{}
	for _, it := range rp.Items {
		var ins struct {
			Flow   string  `json:"flow"`
			Target *string `json:"target"`
		}
		if json.Unmarshal(it, &ins) == nil && (ins.Flow == "indirect-call" || (ins.Flow == "call" && ins.Target == nil)) {
			out = append(out, it)
		}
	}
	return out
}

// pseudocodeView pages recorded pseudocode text in UTF-16 code units,
// never splitting a surrogate pair; an unavailable facet is returned as it
// is.
func pseudocodeView(doc map[string]json.RawMessage, req AnalysisViewRequest, result map[string]any) {
	var f map[string]json.RawMessage
	_ = json.Unmarshal(doc["pseudocode"], &f)
	var text string
	if f == nil || json.Unmarshal(f["text"], &text) != nil {
		if f == nil {
			result["pseudocode"] = map[string]any{"status": "unavailable", "reason": "the record holds no pseudocode facet"}
		} else {
			result["pseudocode"] = raw(doc["pseudocode"])
		}
		return
	}
	units := utf16.Encode([]rune(text))
	start, end := min(req.Offset, len(units)), min(req.Offset+req.Limit, len(units))
	if start > 0 && start < len(units) && utf16.IsSurrogate(rune(units[start])) && units[start] >= 0xdc00 {
		start-- // begin at the pair's first half
	}
	if end < len(units) && end > start && units[end-1] >= 0xd800 && units[end-1] < 0xdc00 {
		end-- // do not end between the halves
	}
	var next any
	if end < len(units) {
		next = end
	}
	result["pseudocode"] = map[string]any{"status": "available", "text": string(utf16.Decode(units[start:end])), "offset": start,
		"limit": req.Limit, "total_code_units": len(units), "next_offset": next}
}

// raw keeps a recorded value as it is (null when absent).
func raw(v json.RawMessage) any {
	if len(v) == 0 {
		return nil
	}
	return v
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
