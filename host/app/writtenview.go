package app

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"rea/abi"
	"rea/host/evidence"
)

// The operations that write files (unpack_javascript_bundle,
// extract_source_map_sources, extract_artifact) record every file they
// wrote; a bundle of 1,780 modules is 1.3 MB of Evidence. Their default
// answer is a summary of that Evidence — counts, the first byte-bounded
// page of the main list and the exact next calls — and inspect_analysis_view
// pages the rest from the retained record, so nothing is lost and no
// answer outgrows an agent's context.

// Detail values of the writing operations: summary is the MCP default,
// complete the whole Evidence record.
const (
	DetailSummary  = "summary"
	DetailComplete = "complete"
)

// writtenKind is how one writing operation lays out its Evidence.
type writtenKind struct {
	// nested: the lists sit under normalized_result.result (the source
	// operations' SourceResult), not at its top.
	nested bool
	// primary is the list the summary pages (modules, sources, files).
	primary     string
	collections []string
}

func writtenKindOf(operation string) (writtenKind, bool) {
	switch operation {
	case "unpack_javascript_bundle":
		return writtenKind{nested: true, primary: "modules", collections: []string{"modules", "files"}}, true
	case "extract_source_map_sources":
		return writtenKind{nested: true, primary: "sources", collections: []string{"sources", "maps", "files"}}, true
	case "extract_artifact":
		return writtenKind{primary: "files", collections: []string{"files", "directories", "skipped", "integrity_contradictions"}}, true
	}
	return writtenKind{}, false
}

// CheckWrittenPage validates a writing operation's detail and summary page
// limit before it runs (so a bad request writes nothing) and returns them
// with their defaults: summary and DefaultViewLimit.
func CheckWrittenPage(detail string, limit int) (string, int, error) {
	switch detail {
	case "":
		detail = DetailSummary
	case DetailSummary, DetailComplete:
	default:
		return "", 0, abi.Errorf(abi.CodeInvalidRequest, "detail %q is not summary or complete", detail).WithDetail("field", "detail")
	}
	if limit == 0 {
		limit = DefaultViewLimit
	}
	if limit < 1 || limit > MaxViewLimit {
		return "", 0, abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d", MaxViewLimit).WithDetail("field", "limit")
	}
	return detail, limit, nil
}

// writtenDoc is a writing operation's Evidence, its lists by name.
type writtenDoc struct {
	kind  writtenKind
	top   map[string]json.RawMessage
	lists map[string]json.RawMessage
}

func readWritten(src evidence.Record, kind writtenKind) (writtenDoc, error) {
	d := writtenDoc{kind: kind}
	if err := json.Unmarshal(src.NormalizedResult, &d.top); err != nil || d.top == nil {
		return d, abi.Errorf(abi.CodeInvalidRequest, "source Evidence does not hold a %s result", src.Operation).WithDetail("field", "source")
	}
	d.lists = d.top
	if kind.nested {
		if err := json.Unmarshal(d.top["result"], &d.lists); err != nil || d.lists == nil {
			return d, abi.Errorf(abi.CodeInvalidRequest, "source Evidence does not hold a %s result", src.Operation).WithDetail("field", "source")
		}
	}
	return d, nil
}

// list is one collection's items (empty, never an error, when absent).
func (d writtenDoc) list(name string) ([]json.RawMessage, error) {
	known := false
	for _, c := range d.kind.collections {
		known = known || c == name
	}
	if !known {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "collection %q is not one of %s", name, strings.Join(d.kind.collections, ", ")).WithDetail("field", "collection")
	}
	var items []json.RawMessage
	if raw := d.lists[name]; len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "source Evidence's %s is not a list", name).WithDetail("field", "source")
		}
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, nil
}

// writtenView is inspect_analysis_view over a writing operation's Evidence:
// summary, a page of one collection (the main one when none is named) or
// one item by selector.
func writtenView(src evidence.Record, kind writtenKind, req AnalysisViewRequest) (map[string]any, error) {
	d, err := readWritten(src, kind)
	if err != nil {
		return nil, err
	}
	if req.Collection == "" {
		req.Collection = kind.primary
	}
	result := map[string]any{"parent_evidence_id": src.EvidenceID, "view": req.View, "operation": src.Operation}
	switch req.View {
	case "summary":
		return writtenSummary(src, d, req.Offset, req.Limit, result)
	case "page":
		items, err := d.list(req.Collection)
		if err != nil {
			return nil, err
		}
		result["collection"] = req.Collection
		result["page"] = abi.PageOf(items, req.Offset, req.Limit)
	case "item":
		if req.Selector == "" {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "view item needs a selector (a module key, file path, source or logical path)").WithDetail("field", "selector")
		}
		items, err := d.list(req.Collection)
		if err != nil {
			return nil, err
		}
		var matches []json.RawMessage
		for _, it := range items {
			if writtenItemMatches(it, req.Selector) {
				matches = append(matches, it)
			}
		}
		result["collection"], result["selector"], result["matches"] = req.Collection, req.Selector, len(matches)
		result["item"] = nil
		if len(matches) > 0 {
			result["item"] = matches[0]
		}
	default:
		return nil, abi.Errorf(abi.CodeInvalidRequest, "view %q is not one of summary, page, item for %s Evidence", req.View, src.Operation).WithDetail("field", "view")
	}
	return result, nil
}

// writtenItemMatches: a string field that names the item equals sel (a
// plain string item, e.g. a directory or map, is its own name).
func writtenItemMatches(item json.RawMessage, sel string) bool {
	var s string
	if json.Unmarshal(item, &s) == nil {
		return s == sel
	}
	var m map[string]any
	if json.Unmarshal(item, &m) != nil {
		return false
	}
	for _, k := range []string{"key", "file", "path", "source", "logical_path", "occurrence_id"} {
		if v, ok := m[k].(string); ok && v == sel {
			return true
		}
	}
	return false
}

// unpackManifest is the file unpack writes beside the modules
// (jssource.ManifestName, which runs in the module).
const unpackManifest = "manifest.json"

// maxSummaryLimitations bounds the limitations a summary quotes; the rest
// are counted (the complete Evidence holds them all).
const maxSummaryLimitations = 20

// writtenSummary is the counts of every collection, the totals of what was
// written, skipped or rejected (by reason), the first page of the main
// collection and the calls that read on.
func writtenSummary(src evidence.Record, d writtenDoc, offset, limit int, result map[string]any) (map[string]any, error) {
	counts := map[string]int{}
	lists := map[string][]json.RawMessage{}
	for _, c := range d.kind.collections {
		items, err := d.list(c)
		if err != nil {
			return nil, err
		}
		counts[c], lists[c] = len(items), items
	}
	result["collections"] = counts
	result["totals"] = writtenTotals(src.Operation, lists)
	for _, k := range []string{"bundle", "kind", "sha256"} {
		if v, ok := d.lists[k]; ok {
			result[k] = v
		}
	}
	for _, k := range []string{"application_root", "root_artifact_sha256", "extraction_id", "manifest_id", "integrity_policy"} {
		if v, ok := d.top[k]; ok {
			result[k] = v
		}
	}
	var lim []string
	if raw := d.lists["limitations"]; len(raw) > 0 {
		_ = json.Unmarshal(raw, &lim)
	}
	result["limitations_total"] = len(lim)
	result["limitations"] = append([]string{}, lim[:min(len(lim), maxSummaryLimitations)]...)
	page := abi.PageOf(lists[d.kind.primary], offset, limit)
	result["collection"] = d.kind.primary
	result["page"] = page
	result["next_calls"] = writtenNextCalls(src.EvidenceID, d.kind, counts, page.NextOffset, limit)
	return result, nil
}

// writtenTotals are the operation's own counts: externals and unresolved
// requires of an unpack, rejected sources by reason, skipped entries by
// reason, bytes written.
func writtenTotals(operation string, lists map[string][]json.RawMessage) map[string]any {
	type item struct {
		Bytes    int64  `json:"bytes"`
		Size     int64  `json:"size"`
		External string `json:"external"`
		Requires []struct {
			To string `json:"to"`
		} `json:"requires"`
		File     string `json:"file"`
		Rejected string `json:"rejected"`
		Reason   string `json:"reason"`
	}
	each := func(name string, f func(item)) {
		for _, raw := range lists[name] {
			var it item
			_ = json.Unmarshal(raw, &it)
			f(it)
		}
	}
	var bytes int64
	each("files", func(it item) { bytes += it.Bytes + it.Size })
	t := map[string]any{"files_written": len(lists["files"]), "bytes_written": bytes}
	switch operation {
	case "unpack_javascript_bundle":
		externals, requires, unresolved := 0, 0, 0
		each("modules", func(it item) {
			if it.External != "" {
				externals++
			}
			requires += len(it.Requires)
			for _, r := range it.Requires {
				if r.To == "" {
					unresolved++
				}
			}
		})
		t["modules_written"], t["externals"], t["requires"] = len(lists["modules"]), externals, requires
		// A require of a key the bundle does not define stays as shipped.
		t["unresolved_requires"] = unresolved
	case "extract_source_map_sources":
		written, byReason := 0, map[string]int{}
		each("sources", func(it item) {
			if it.Rejected != "" {
				byReason[it.Rejected]++
			} else if it.File != "" {
				written++
			}
		})
		t["sources_written"], t["sources_rejected"], t["rejected_by_reason"] = written, len(lists["sources"])-written, byReason
	case "extract_artifact":
		byReason := map[string]int{}
		each("skipped", func(it item) { byReason[reasonClass(it.Reason)]++ })
		t["skipped"], t["skipped_by_reason"] = len(lists["skipped"]), byReason
		t["integrity_contradictions"] = len(lists["integrity_contradictions"])
	}
	return t
}

// reasonClass is a reason without its particulars ("link to x: …" is
// "link to"), so reasons count in a few classes, not one per entry.
func reasonClass(reason string) string {
	if head, _, ok := strings.Cut(reason, ":"); ok {
		reason = head
	}
	if strings.HasPrefix(reason, "link to ") {
		return "link"
	}
	return reason
}

// writtenNextCalls: the next page of the main collection, a page of each
// other collection that has items, one item of the main one.
func writtenNextCalls(source string, kind writtenKind, counts map[string]int, next *int, limit int) []map[string]any {
	ref := evidence.ReferenceTo(source)
	var calls []map[string]any
	if next != nil {
		calls = append(calls, map[string]any{"tool": "inspect_analysis_view",
			"arguments": map[string]any{"source": ref, "view": "page", "collection": kind.primary, "offset": *next, "limit": limit},
			"reads":     "the next page of " + kind.primary + " (repeat with each page's next_offset until it is null)"})
	}
	for _, c := range kind.collections {
		if c == kind.primary || counts[c] == 0 {
			continue
		}
		calls = append(calls, map[string]any{"tool": "inspect_analysis_view",
			"arguments": map[string]any{"source": ref, "view": "page", "collection": c, "offset": 0, "limit": limit}, "reads": c})
	}
	return calls
}

// WrittenSummary is the default answer of a writing operation: the
// summary view of its complete Evidence (which the caller retains), with
// where the files are — the output directory, and for an unpack the
// manifest.json that lists every module — and the calls that read them.
// inputPath is the input as the request named it.
func WrittenSummary(src evidence.Record, outputDir, inputPath string, limit int) (evidence.Record, error) {
	kind, ok := writtenKindOf(src.Operation)
	if !ok {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "%s is not an operation that writes files", src.Operation)
	}
	_, limit, err := CheckWrittenPage(DetailSummary, limit)
	if err != nil {
		return evidence.Record{}, err
	}
	req := AnalysisViewRequest{View: "summary", Collection: kind.primary, Limit: limit}
	d, err := readWritten(src, kind)
	if err != nil {
		return evidence.Record{}, err
	}
	result, err := writtenSummary(src, d, 0, limit, map[string]any{"parent_evidence_id": src.EvidenceID, "view": "summary", "operation": src.Operation})
	if err != nil {
		return evidence.Record{}, err
	}
	result["output_dir"] = outputDir
	calls, _ := result["next_calls"].([]map[string]any)
	page := result["page"].(abi.Page[json.RawMessage])
	first := func(field string) string {
		if len(page.Items) == 0 {
			return ""
		}
		var m map[string]any
		_ = json.Unmarshal(page.Items[0], &m)
		s, _ := m[field].(string)
		return s
	}
	switch src.Operation {
	case "unpack_javascript_bundle":
		manifest := filepath.Join(outputDir, unpackManifest)
		result["manifest_path"] = manifest
		result["next"] = "manifest.json (manifest_path) lists every module with its file, shipped span and requires; the complete Evidence is retained " +
			"(parent_evidence_id): page it with inspect_analysis_view from next_offset. Read a module at its shipped position with read_javascript_source " +
			"(module bundled:<bundle>#<key>), or analyse output_dir as an application."
		var bundle string
		_ = json.Unmarshal(d.lists["bundle"], &bundle)
		if key := first("key"); key != "" && bundle != "" {
			calls = append(calls, map[string]any{"tool": "read_javascript_source",
				"arguments": map[string]any{"input_path": inputPath, "module": "bundled:" + bundle + "#" + key},
				"reads":     "one module in the shipped bundle, pretty-printed with shipped positions (replace the key with any page item's key)"})
		}
		if file := first("file"); file != "" {
			calls = append(calls, map[string]any{"tool": "read_javascript_source", "arguments": map[string]any{"input_path": outputDir, "path": file},
				"reads": "one unpacked module file (replace the file with any page item's file)"})
		}
		calls = append(calls, map[string]any{"tool": "analyze_javascript_application", "arguments": map[string]any{"input_path": outputDir, "detail": "summary"},
			"reads": "the unpacked modules analysed as files"})
	case "extract_source_map_sources":
		result["next"] = "Every source, written or rejected with its reason, is in the retained Evidence (parent_evidence_id): page it with inspect_analysis_view " +
			"from next_offset; the written files are under output_dir."
		if file := first("file"); file != "" {
			calls = append(calls, map[string]any{"tool": "read_javascript_source", "arguments": map[string]any{"input_path": outputDir, "path": file},
				"reads": "one extracted original source (replace the file with any written page item's file)"})
		}
	case "extract_artifact":
		result["next"] = "Every file written (path, digest, size), directory and skipped entry is in the retained Evidence (parent_evidence_id): page it with " +
			"inspect_analysis_view from next_offset; the files are under output_dir."
		calls = append(calls, map[string]any{"tool": "inspect_artifact", "arguments": map[string]any{"input_path": outputDir}, "reads": "the extracted tree inventoried"})
	}
	result["next_calls"] = calls
	return sealViewWith(src, req, result, src.Limitations)
}
