package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rea/guidance/index"
	"rea/host/app"
	"rea/host/operation"
)

// guidanceCommands are `rea guidance` (search and read the packaged
// guidance) and `rea guided-workflows` (the MCP prompts' text).
func (c *cli) guidanceCommands() []*cobra.Command {
	g := c.guidanceCommand()
	g.AddCommand(c.guidanceSearchCommand(), c.guidanceReadCommand())
	return []*cobra.Command{g, c.guidedWorkflowsCommand()}
}

// guidanceSearchCommand is search_guidance.
func (c *cli) guidanceSearchCommand() *cobra.Command {
	var offset, limit int
	cmd := &cobra.Command{
		Long: `guidance search finds sections of the packaged investigation skill and its
references, the same documents search_guidance serves over MCP. Every
non-generic word of the query must occur in a section or its subsections;
words such as "how", "the" or "use" are dropped, and a query of only such
words matches nothing. Pages hold at most 20 matches, section matches first.
A no-match says nothing about what rea can analyse.`,
		Example: `  rea guidance search "exact JavaScript module"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.searchGuidance(cmd, args[0], offset, limit)
		},
	}
	return fromSpec(cmd, operation.SearchGuidance(), targets{"offset": &offset, "limit": &limit})
}

// guidanceReadCommand is read_guidance_section.
func (c *cli) guidanceReadCommand() *cobra.Command {
	cmd := &cobra.Command{
		Long: `guidance read prints the complete section a guidance search locator names,
with its subsections. A locator from another rea version's guidance is
reported stale: search again.`,
		RunE: func(cmd *cobra.Command, args []string) error { return c.readGuidance(cmd, args[0]) },
	}
	return fromSpec(cmd, operation.ReadGuidanceSection(), nil)
}

func (c *cli) searchGuidance(cmd *cobra.Command, query string, offset, limit int) error {
	if strings.TrimSpace(query) == "" {
		return invalidFlag("query", "give the question to search for, e.g. rea guidance search \"exact JavaScript module\"")
	}
	a, err := c.application()
	if err != nil {
		return err
	}
	req := index.SearchParams{Query: query}
	if cmd.Flags().Changed("offset") {
		req.Offset = &offset
	}
	if cmd.Flags().Changed("limit") {
		req.Limit = &limit
	}
	res, err := a.SearchGuidance(cmd.Context(), req, nil)
	if err != nil {
		return err
	}
	if c.format == "json" {
		return c.printJSON(res)
	}
	c.printGuidanceMatches(res)
	return nil
}

func (c *cli) readGuidance(cmd *cobra.Command, locator string) error {
	a, err := c.application()
	if err != nil {
		return err
	}
	res, err := a.ReadGuidance(cmd.Context(), index.ReadParams{Locator: locator}, nil)
	if err != nil {
		return err
	}
	if c.format == "json" {
		return c.printJSON(res)
	}
	c.printGuidanceSection(res)
	return nil
}

func (c *cli) guidanceCommand() *cobra.Command {
	var action, query, locator string
	var offset, limit int
	cmd := &cobra.Command{
		Use:   "guidance --query TEXT | --action read --locator LOCATOR",
		Short: "Search rea's packaged guidance by question, and read a section by locator",
		Long: `guidance search QUERY and guidance read LOCATOR are the two operations; this
older form, with --action, --query and --locator, still works for one release.

guidance searches the packaged investigation skill and its references, the same
documents search_guidance serves over MCP. Every non-generic word of the query
must occur in a section or its subsections; words such as "how", "the" or "use"
are dropped, and a query of only such words matches nothing. Pages hold at most
20 matches, section matches first.

Pass a returned locator to --action read to print the complete section with its
subsections. A locator from another rea version's guidance is reported stale:
search again. A no-match says nothing about what rea can analyse.

Examples:
  rea guidance --query "exact JavaScript module"
  rea guidance --action read --locator g1.…`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch action {
			case "search":
				if locator != "" {
					return invalidFlag("locator", "--locator goes with --action read")
				}
				if strings.TrimSpace(query) == "" {
					return invalidFlag("query", "give the question to search for, e.g. --query \"exact JavaScript module\"")
				}
				return c.searchGuidance(cmd, query, offset, limit)
			case "read":
				if query != "" {
					return invalidFlag("query", "--query goes with --action search")
				}
				if locator == "" {
					return invalidFlag("locator", "give a locator from rea guidance --query, e.g. --locator g1.…")
				}
				return c.readGuidance(cmd, locator)
			}
			return invalidFlag("action", fmt.Sprintf("%q is not an action; use search or read", action))
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&action, "action", "search", "search or read")
	fs.StringVar(&query, "query", "", "the analyst question (search)")
	fs.StringVar(&locator, "locator", "", "a locator returned by a search (read)")
	fs.IntVar(&offset, "offset", 0, "first match of the page (search)")
	fs.IntVar(&limit, "limit", index.DefaultLimit, "matches per page, 1-20 (search)")
	return cmd
}

func (c *cli) printGuidanceMatches(res *index.SearchResult) {
	w := c.stdout
	if res.TotalMatches == 0 {
		fmt.Fprintf(w, "no matches (%s)\n", res.NoMatchReason)
		fmt.Fprintln(w, res.Note)
		return
	}
	end := res.Offset + len(res.Matches)
	noun := "matches"
	if res.TotalMatches == 1 {
		noun = "match"
	}
	fmt.Fprintf(w, "%d %s for %s; showing %d-%d\n\n", res.TotalMatches, noun, strings.Join(res.Terms, " "), res.Offset+1, end)
	for _, m := range res.Matches {
		fmt.Fprintf(w, "%s\n  %s › %s\n  %s match, %d characters to read\n", m.Locator, m.Path, strings.Join(m.HeadingPath, " › "), m.MatchScope, m.ContentLength)
		for _, sub := range m.Subsections {
			fmt.Fprintf(w, "    %s %s (%s)\n", sub.Locator, sub.Heading, strings.Join(sub.Terms, ", "))
		}
		if m.OmittedSubsections > 0 {
			fmt.Fprintf(w, "    … %d more subsections\n", m.OmittedSubsections)
		}
		excerpt := strings.Join(strings.Fields(m.Excerpt), " ")
		fmt.Fprintf(w, "  %s\n\n", excerpt)
	}
	if res.NextOffset != nil {
		fmt.Fprintf(w, "next page: --offset %d\n", *res.NextOffset)
	}
	fmt.Fprintln(w, "read one: rea guidance read LOCATOR")
}

func (c *cli) printGuidanceSection(res *index.ReadResult) {
	w := c.stdout
	fmt.Fprintf(w, "%s › %s\n\n", res.Path, strings.Join(res.HeadingPath, " › "))
	fmt.Fprintln(w, strings.TrimRight(res.Content, "\n"))
	if len(res.Subsections) > 0 {
		fmt.Fprintln(w, "\nsubsections:")
		for _, s := range res.Subsections {
			fmt.Fprintf(w, "  %s %s (%d characters)\n", s.Locator, s.Heading, s.ContentLength)
		}
	}
}

func (c *cli) guidedWorkflowsCommand() *cobra.Command {
	var action, workflowID, argumentsJSON string
	cmd := &cobra.Command{
		Long: `guided-workflows prints the six guided workflows that rea serves as MCP prompts,
with the same renderer: list them (the default), or render one with its string
arguments. Rendering returns guidance only; it inspects no target and starts no
analysis. Argument values are treated as untrusted selection data.

Examples:
  rea guided-workflows
  rea guided-workflows --action render --workflow-id investigate_feature --arguments-json '{"feature":"offline search"}'`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req := app.GuidedWorkflowsRequest{Action: action, WorkflowID: workflowID}
			if cmd.Flags().Changed("arguments-json") {
				args, err := parseArgumentsJSON(argumentsJSON)
				if err != nil {
					return err
				}
				req = req.WithArguments(args)
			}
			res, err := app.GuidedWorkflows(req, nil, app.RenderContext{})
			if err != nil {
				return err
			}
			c.deprecated(res.Deprecations)
			if c.format == "json" {
				return c.printJSON(res)
			}
			if res.Action == "render" {
				_, err := fmt.Fprint(c.stdout, res.Text)
				return err
			}
			for _, w := range *res.Workflows {
				fmt.Fprintf(c.stdout, "%s — %s\n", w.ID, w.Description)
				for _, a := range w.Arguments {
					need := "optional"
					if a.Required {
						need = "required"
					}
					fmt.Fprintf(c.stdout, "  %s (%s): %s\n", a.Name, need, a.Description)
				}
				fmt.Fprintln(c.stdout)
			}
			return nil
		},
	}
	return fromSpec(cmd, operation.GuidedWorkflows(), targets{"action": &action, "workflow_id": &workflowID, "cli.arguments_json": &argumentsJSON})
}

// parseArgumentsJSON reads --arguments-json: one JSON object; its values
// are checked by the shared service so errors name arguments.<name>.
func parseArgumentsJSON(s string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	var args map[string]json.RawMessage
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, invalidFlag("arguments-json", fmt.Sprintf("must be a JSON object of strings such as '{\"feature\":\"offline search\"}' (%v)", errOrNull(err)))
	}
	if dec.More() {
		return nil, invalidFlag("arguments-json", "must hold exactly one JSON object")
	}
	return args, nil
}

func errOrNull(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}
