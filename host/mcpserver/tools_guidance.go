package mcpserver

import (
	"context"

	"rea/guidance/index"
	"rea/host/app"
	"rea/host/operation"
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
			Spec: spec(operation.SearchGuidance()),
			Output: result("One page of guidance matches.", map[string]Schema{
				"bundle_digest": typed("string"), "query": typed("string"), "terms": {"type": "array", "items": typed("string")},
				"ignored_generic_words": {"type": "array", "items": typed("string")}, "generic_words_version": typed("integer"),
				"note": typed("string"), "total_matches": typed("integer"), "offset": typed("integer"), "limit": typed("integer"),
				"next_offset": typed("integer", "null"), "length_unit": typed("string"), "matches": {"type": "array", "items": match},
			}),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req index.SearchParams
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.SearchGuidance(ctx, req, c.Progress)
			},
		},
		{
			Spec: spec(operation.ReadGuidanceSection()),
			Output: result("One complete guidance section.", map[string]Schema{
				"bundle_digest": typed("string"), "locator": typed("string"), "path": typed("string"), "heading": typed("string"),
				"heading_path": {"type": "array", "items": typed("string")}, "level": typed("integer"), "content": typed("string"),
				"content_length": typed("integer"), "length_unit": typed("string"), "subsections": {"type": "array", "items": sectionRef},
			}),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req index.ReadParams
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.ReadGuidance(ctx, req, c.Progress)
			},
		},
		{
			Spec: spec(operation.GuidedWorkflows()),
			Output: withID(Schema{"type": "object", "description": "list: {action, workflows}; render: {action, workflow_id, title, arguments, text}.",
				"properties": map[string]Schema{
					"action":      enum("", "list", "render"),
					"workflows":   {"type": "array", "items": Schema{"type": "object", "properties": map[string]Schema{"workflow_id": typed("string"), "title": typed("string"), "description": typed("string"), "arguments": {"type": "array", "items": argument}, "tools": {"type": "array", "items": typed("string")}}}},
					"workflow_id": typed("string"), "title": typed("string"),
					"arguments": {"type": "object", "additionalProperties": Schema{"type": "string"}}, "text": typed("string"),
				}, "required": []string{"action"}}),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.GuidedWorkflowsRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				res, err := app.GuidedWorkflows(req, s.workflowScope(), renderContext(c.Session))
				if err != nil {
					return nil, err
				}
				return withDeprecations(res, res.Deprecations), nil
			},
		},
	}
}
