package mcpserver

import (
	"context"

	"rea/guidance/index"
	"rea/host/app"
)

// guidanceTools search and read the packaged guidance bundle and render the
// guided workflows. They need no target or provider and record nothing.
func (s *Server) guidanceTools() []*Tool {
	subsection := Schema{"type": "object", "properties": map[string]Schema{
		"locator": typed("string"), "heading": typed("string"), "terms": {"type": "array", "items": typed("string")}}}
	match := Schema{"type": "object", "properties": map[string]Schema{
		"locator": typed("string"), "path": typed("string"), "heading": typed("string"),
		"heading_path": {"type": "array", "items": typed("string")}, "level": typed("integer"),
		"match_scope":    enum("section: every term in its own text; subsections: terms spread over subsections.", index.ScopeSection, index.ScopeSubsections),
		"own_text_terms": {"type": "array", "items": typed("string")},
		"subsections":    {"type": "array", "items": subsection}, "omitted_subsections": typed("integer"),
		"content_length": typed("integer"), "excerpt": typed("string"), "excerpt_start": typed("integer")}}
	sectionRef := Schema{"type": "object", "properties": map[string]Schema{
		"locator": typed("string"), "heading": typed("string"), "content_length": typed("integer")}}
	argument := Schema{"type": "object", "properties": map[string]Schema{
		"name": typed("string"), "description": typed("string"), "required": typed("boolean"), "completion": typed("string")}}
	return []*Tool{
		{
			Name:   "search_guidance",
			Title:  "Search rea's guidance",
			Family: "guidance",
			Description: "Find sections of rea's packaged guidance (the investigation skill and its references) by analyst question. " +
				"Every non-generic query word must occur in a section or its subsections; generic-only queries match nothing. " +
				"Matches are deterministically paged (at most 20), section matches first, each with a locator for read_guidance_section, " +
				"its match_scope and content_length. Results are documentation: a no-match says nothing about what rea can analyse.",
			Effects: Effects{Idempotent: true},
			Input: object("", map[string]Schema{
				"query":  withMaxLength(str("The analyst question, e.g. \"exact JavaScript module\"."), index.MaxQueryBytes),
				"offset": integer("Index of the first match to return (default 0).", 0, 1<<31),
				"limit":  integer("Matches per page, 1-20 (default 20).", 1, index.MaxLimit),
			}, "query"),
			Output: result("One page of guidance matches.", map[string]Schema{
				"bundle_digest": typed("string"), "query": typed("string"), "terms": {"type": "array", "items": typed("string")},
				"ignored_generic_words": {"type": "array", "items": typed("string")}, "generic_words_version": typed("integer"),
				"note": typed("string"), "total_matches": typed("integer"), "offset": typed("integer"), "limit": typed("integer"),
				"next_offset": typed("integer", "null"), "length_unit": typed("string"), "matches": {"type": "array", "items": match},
			}),
			Examples: []map[string]any{{"query": "exact JavaScript module"}, {"query": "record-and-continue integrity", "limit": 5}},
			CLI:      "guidance",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req index.SearchParams
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.SearchGuidance(ctx, req, c.Progress)
			},
		},
		{
			Name:   "read_guidance_section",
			Title:  "Read a guidance section",
			Family: "guidance",
			Description: "Return the complete guidance section a search_guidance locator names, including all its subsections, " +
				"with its direct subsections' locators and sizes. A locator from another guidance bundle is reported stale " +
				"(details.reason stale_locator) and returns no content: search again.",
			Effects: Effects{Idempotent: true},
			Input: object("", map[string]Schema{
				"locator": str("A locator returned by search_guidance (g1.<hex>.<hex>)."),
			}, "locator"),
			Output: result("One complete guidance section.", map[string]Schema{
				"bundle_digest": typed("string"), "locator": typed("string"), "path": typed("string"), "heading": typed("string"),
				"heading_path": {"type": "array", "items": typed("string")}, "level": typed("integer"), "content": typed("string"),
				"content_length": typed("integer"), "length_unit": typed("string"), "subsections": {"type": "array", "items": sectionRef},
			}),
			Examples: []map[string]any{{"locator": "g1.00000000000000000000000000000000.00000000000000000000000000000000"}},
			CLI:      "guidance --action read",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req index.ReadParams
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.ReadGuidance(ctx, req, c.Progress)
			},
		},
		{
			Name:   "guided_workflows",
			Title:  "List or render a guided workflow",
			Family: "guidance",
			Description: "The guided MCP prompts for clients without prompt support. action \"list\" (accepts nothing else) returns each " +
				"workflow's id, description and arguments; action \"render\" with workflow_id and string arguments returns that workflow's text, " +
				"the same text prompts/get returns. Rendering is guidance only: it inspects no target, starts no analysis and changes no session state.",
			Effects: Effects{Idempotent: true},
			Input: object("", map[string]Schema{
				"action":      enum("list (default) or render.", "list", "render"),
				"workflow_id": str("Workflow to render (action render), e.g. investigate_feature."),
				"arguments": {"type": "object", "description": "String arguments of the workflow (action render), e.g. {\"feature\": \"offline search\"}.",
					"additionalProperties": Schema{"type": "string"}},
			}),
			Output: withID(Schema{"type": "object", "description": "list: {action, workflows}; render: {action, workflow_id, title, arguments, text}.",
				"properties": map[string]Schema{
					"action":      enum("", "list", "render"),
					"workflows":   {"type": "array", "items": Schema{"type": "object", "properties": map[string]Schema{"workflow_id": typed("string"), "title": typed("string"), "description": typed("string"), "arguments": {"type": "array", "items": argument}, "tools": {"type": "array", "items": typed("string")}}}},
					"workflow_id": typed("string"), "title": typed("string"),
					"arguments": {"type": "object", "additionalProperties": Schema{"type": "string"}}, "text": typed("string"),
				}, "required": []string{"action"}}),
			Examples: []map[string]any{{"action": "list"}, {"action": "render", "workflow_id": "investigate_feature", "arguments": map[string]any{"feature": "offline search"}}},
			CLI:      "guided-workflows",
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.GuidedWorkflowsRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return app.GuidedWorkflows(req, s.workflowScope(), renderContext(c.Session))
			},
		},
	}
}

func withMaxLength(s Schema, n int) Schema {
	s["maxLength"] = n
	return s
}
