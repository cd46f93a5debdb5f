package app

import "rea/host/evidence"

// summaryNextCalls are the exact calls that read on from a summary: one
// page of each collection that has items (findings first), then the
// application-level follow-ups, each with its arguments filled in, so an
// agent can copy one rather than compose it.
func summaryNextCalls(source string, counts map[string]int) []map[string]any {
	ref := evidence.ReferenceTo(source)
	var calls []map[string]any
	order := []string{"findings"}
	for _, c := range viewCollections() {
		if c != "findings" {
			order = append(order, c)
		}
	}
	for _, c := range order {
		if counts[c] == 0 {
			continue
		}
		calls = append(calls, map[string]any{"tool": "inspect_analysis_view",
			"arguments": map[string]any{"source": ref, "view": "page", "collection": c, "limit": DefaultViewLimit},
			"reads":     c})
	}
	calls = append(calls,
		map[string]any{"tool": "render_application_report", "arguments": map[string]any{"application": ref}, "reads": "the security-boundary report"},
		map[string]any{"tool": "trace_application_feature", "arguments": map[string]any{"application": ref,
			"seed": map[string]any{"kind": "channel", "value": "CHANNEL", "match": "contains"}}, "reads": "one feature from a seed (replace CHANNEL)"})
	return calls
}
