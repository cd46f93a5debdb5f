package mcpserver

import (
	"rea/host/app"
)

// plannedToolFamilies are tools the guided workflows suggest that are still
// being built, with the family each is expected to join. A built tool's
// catalog family always wins over this table, and a test fails while an
// entry here is already in the catalog, so entries leave as tools land.
// Without an entry, a tool the catalog lacks is out of every family scope.
func plannedToolFamilies() map[string]string {
	return map[string]string{}
}

// toolFamilies maps every tool of the complete catalog (before scoping) and
// every planned tool to its family.
func (s *Server) toolFamilies() map[string]string {
	out := plannedToolFamilies()
	for _, t := range s.allTools() {
		out[t.Name] = t.Family
	}
	return out
}

// workflowScope admits a tool when its family is selected by
// REA_MCP_TOOL_FAMILIES; nil (everything) when no scope was chosen.
func (s *Server) workflowScope() app.WorkflowScope {
	if len(s.opts.Families) == 0 {
		return nil
	}
	selected := map[string]bool{}
	for _, f := range s.opts.Families {
		selected[f] = true
	}
	families := s.toolFamilies()
	return func(tool string) bool {
		f, ok := families[tool]
		return ok && selected[f]
	}
}

// renderContext reads which operations have retained Evidence in the
// session, the only session fact a rendering uses.
func renderContext(sess *Session) app.RenderContext {
	rc := app.RenderContext{RetainedOperations: map[string]bool{}}
	if sess == nil {
		return rc
	}
	for _, r := range sess.Ledger.Records() {
		rc.RetainedOperations[r.Operation] = true
	}
	return rc
}

// Workflows returns the guided workflows this server advertises (those
// whose every suggested tool is in its family scope), for `rea mcp doctor`
// and the identity digest.
func (s *Server) Workflows() []*app.Workflow {
	return app.ScopedWorkflows(s.workflowScope())
}
