package operation

// The packaged guidance: search and read it, and render the guided
// workflows. They need no target or provider and record nothing. Each has
// a command of its own (guidance search, guidance read, guided-workflows).

// Guidance lists the declared guidance operations.
func Guidance() []Spec {
	return []Spec{SearchGuidance(), ReadGuidanceSection(), GuidedWorkflows()}
}

// Bounds of a guidance search (guidance/index; a test holds them to it).
const (
	guidanceMaxQueryBytes = 4096
	guidanceDefaultLimit  = 20
)

// SearchGuidance finds guidance sections by analyst question.
func SearchGuidance() Spec {
	return Spec{
		Name:   "search_guidance",
		Title:  "Search rea's guidance",
		Family: "guidance",
		Description: "Find sections of rea's packaged guidance (the investigation skill and its references) by analyst question. " +
			"Every non-generic query word must occur in a section or its subsections; generic-only queries match nothing. " +
			"Matches are deterministically paged (at most 20), section matches first, each with a locator for read_guidance_section, " +
			"its match_scope and content_length. Results are documentation: a no-match says nothing about what rea can analyse.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "query", Type: String, Required: true, MaxLength: guidanceMaxQueryBytes, Description: "The analyst question, e.g. \"exact JavaScript module\"."},
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "Index of the first match to return (default 0).", Flag: &Flag{Name: "offset"}},
			{Name: "limit", Type: Integer, Min: 1, Max: guidanceDefaultLimit, Default: guidanceDefaultLimit, Description: "Matches per page, 1-20 (default 20).",
				Flag: &Flag{Name: "limit"}},
		},
		Examples: []map[string]any{{"query": "exact JavaScript module"}, {"query": "record-and-continue integrity", "limit": 5}},
		CLI: &Command{Name: "guidance search", Args: []Arg{{Name: "QUERY", Param: "query"}}, Synopsis: "QUERY",
			Short: "Search rea's packaged guidance by question"},
	}
}

// ReadGuidanceSection returns one complete guidance section.
func ReadGuidanceSection() Spec {
	return Spec{
		Name:   "read_guidance_section",
		Title:  "Read a guidance section",
		Family: "guidance",
		Description: "Return the complete guidance section a search_guidance locator names, including all its subsections, " +
			"with its direct subsections' locators and sizes. A locator from another guidance bundle is reported stale " +
			"(details.reason stale_locator) and returns no content: search again.",
		Effects:  Effects{Idempotent: true},
		Params:   []Param{{Name: "locator", Type: String, Required: true, Description: "A locator returned by search_guidance (g1.<hex>.<hex>)."}},
		Examples: []map[string]any{{"locator": "g1.00000000000000000000000000000000.00000000000000000000000000000000"}},
		CLI: &Command{Name: "guidance read", Args: []Arg{{Name: "LOCATOR", Param: "locator"}}, Synopsis: "LOCATOR",
			Short: "Print the complete guidance section a search locator names"},
	}
}

// GuidedWorkflows lists or renders the guided MCP prompts.
func GuidedWorkflows() Spec {
	return Spec{
		Name:   "guided_workflows",
		Title:  "List or render a guided workflow",
		Family: "guidance",
		Description: "The guided MCP prompts for clients without prompt support. action \"list\" (accepts nothing else) returns each " +
			"workflow's id, description and arguments; action \"render\" with workflow_id and string arguments returns that workflow's text, " +
			"the same text prompts/get returns. Rendering is guidance only: it inspects no target, starts no analysis and changes no session state.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "action", Type: String, Enum: []string{"list", "render"}, Default: "list", Description: "list (default) or render.",
				Flag: &Flag{Name: "action", Help: "list or render"}},
			{Name: "workflow_id", Type: String, Description: "Workflow to render (action render), e.g. investigate_feature.",
				Flag: &Flag{Name: "workflow-id", Help: "workflow to render (with --action render)"}},
			// The CLI takes the arguments as one JSON object (--arguments-json).
			{Name: "arguments", Type: Map, Description: "String arguments of the workflow (action render), e.g. {\"feature\": \"offline search\"}."},
		},
		Examples: []map[string]any{{"action": "list"}, {"action": "render", "workflow_id": "investigate_feature", "arguments": map[string]any{"feature": "offline search"}}},
		CLIFlags: []Param{{Name: "arguments_json", Type: String, Flag: &Flag{Name: "arguments-json",
			Help: `workflow arguments as a JSON object of strings, e.g. '{"feature":"offline search"}'`}}},
		CLI: &Command{Name: "guided-workflows", Synopsis: "[--action render --workflow-id ID --arguments-json JSON]",
			Short: "List the guided investigation workflows, or render one as text"},
	}
}
