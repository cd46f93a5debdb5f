package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/analysis/compare/graph"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

// compareCommands are the application workflows over analysis Evidence.
func (c *cli) compareCommands() []*cobra.Command {
	return []*cobra.Command{c.traceApplicationFeatureCommand(), c.compareApplicationVersionsCommand(), c.compareArtifactsCommand(),
		c.importReferenceSourceCommand(), c.compareSourceToBundleCommand(), c.compareJavaScriptExportShapesCommand()}
}

// applicationSides builds the App and resolves both positional arguments
// (Evidence files, or applications analysed first) as left and right.
func (c *cli) applicationSides(args []string) (*app.App, evidence.Record, evidence.Record, error) {
	a, err := c.application()
	if err != nil {
		return nil, evidence.Record{}, evidence.Record{}, err
	}
	left, err := c.applicationEvidence(a, args[0], "left")
	if err != nil {
		return nil, evidence.Record{}, evidence.Record{}, err
	}
	right, err := c.applicationEvidence(a, args[1], "right")
	if err != nil {
		return nil, evidence.Record{}, evidence.Record{}, err
	}
	return a, left, right, nil
}

// applicationEvidence reads analysis Evidence from a file (as printed by
// `rea analyze-javascript-application --format json`), or analyses the
// application first when arg is a directory or an .asar archive.
func (c *cli) applicationEvidence(a *app.App, arg, field string) (evidence.Record, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "%s: cannot read %q: %v", field, arg, err).WithDetail("field", field)
	}
	if st.IsDir() || strings.HasSuffix(strings.ToLower(arg), ".asar") {
		// The same request as `rea analyze-javascript-application` with its
		// default flags, so both paths give the same Evidence.
		res, err := a.AnalyzeJavaScriptApplication(c.ctx, app.AnalyzeApplicationRequest{InputPath: arg, Format: "auto", IntegrityPolicy: "fail"}, c.progressPrinter("analyze "+field))
		c.endProgress()
		var ae *abi.Error
		if errors.As(err, &ae) && ae.Code == abi.CodeResourceConstraint {
			// This command analyses with the default limits; the analysis
			// command takes others.
			return evidence.Record{}, &abi.Error{Code: ae.Code, Details: ae.Details, Message: fmt.Sprintf(
				"%s: %s; analyse it with the limits it needs (rea analyze-javascript-application %s --max-… --format json > %s.json) and pass that Evidence file instead",
				field, ae.Message, arg, field)}
		}
		if err != nil {
			return evidence.Record{}, err
		}
		return res.Evidence, nil
	}
	return readEvidenceFile(arg, field)
}

func (c *cli) traceApplicationFeatureCommand() *cobra.Command {
	var seed graph.Seed
	var req app.TraceFeatureRequest
	cmd := &cobra.Command{
		Long: `Walk the application graph of analyze-javascript-application Evidence from a
typed seed: forward (what it reaches), backward (what reaches it) or both.
Prints the bounded subgraph's paths with the authorities along them, native
handoffs (addon path, requested exports, next tools) and coverage. The input
is an Evidence file (rea analyze-javascript-application APP --format json),
or an application directory or .asar, which is analysed first.

Seed kinds: node-id, route, string, api, channel, module, native-export.
Match is exact (default; contains for string seeds) or contains.`,
		Example: `  rea trace-application-feature v2.json --seed-kind channel --seed settings:save
  rea trace-application-feature ./app --seed-kind module --seed preload.js --direction backward
  rea trace-application-feature v2.json --seed-kind string --seed sync.example.com --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Seeds = []graph.Seed{seed}
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				src, err := c.applicationEvidence(a, args[0], "application")
				if err != nil {
					return evidence.Record{}, err
				}
				return a.TraceApplicationFeature(c.ctx, src, req, c.progressPrinter("trace"))
			}, itself, c.printTrace)
		},
	}
	return fromSpec(cmd, operation.TraceApplicationFeature(), targets{
		"seed.kind": &seed.Kind, "seed.value": &seed.Value, "seed.match": &seed.Match, "seed.case_sensitive": &seed.CaseSensitive,
		"direction": &req.Direction, "limits.max_seed_matches": &req.Limits.MaxSeedMatches, "limits.max_depth": &req.Limits.MaxDepth,
		"limits.max_nodes": &req.Limits.MaxNodes, "limits.max_edges": &req.Limits.MaxEdges, "limits.max_paths": &req.Limits.MaxPaths,
	})
}

func (c *cli) compareApplicationVersionsCommand() *cobra.Command {
	var req app.CompareVersionsRequest
	cmd := &cobra.Command{
		Long: `Compare two analyses of an application (older LEFT, newer RIGHT) and print a
changelog: new windows and changed webPreferences, new or removed IPC
channels and exposed APIs, new endpoints, new and removed findings, then
every changed, added, removed, unknown or contradictory fact. Matching is
unique-only and tiered (node identity, content digest, module source
digest, source-map identity, structural fingerprint), never by module
ordinal, minified name or fuzzy text; added or removed is claimed only when
the other side's coverage is complete.

Each side is an Evidence file (rea analyze-javascript-application APP
--format json), or an application directory or .asar, analysed first.`,
		Example: `  rea compare-application-versions v1.json v2.json
  rea compare-application-versions ./app-1.0 ./app-2.0 --format json > comparison.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCommand(c, func(*app.App) (evidence.Record, error) {
				a, left, right, err := c.applicationSides(args)
				if err != nil {
					return evidence.Record{}, err
				}
				return a.CompareApplicationVersions(c.ctx, left, right, req, c.progressPrinter("compare"))
			}, itself, c.printComparison)
		},
	}
	return fromSpec(cmd, operation.CompareApplicationVersions(), targets{
		"limits.max_comparison_items": &req.Limits.MaxComparisonItems, "limits.max_candidate_nodes": &req.Limits.MaxCandidateNodes,
		"limits.max_graph_nodes": &req.Limits.MaxGraphNodes, "limits.max_graph_edges": &req.Limits.MaxGraphEdges,
		"include_unchanged": &req.IncludeUnchanged,
	})
}

func (c *cli) printTrace(rec evidence.Record) error {
	var r graph.TraceResult
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "trace result does not decode: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "trace %s over %s\n", r.TraceID, r.SourceEvidenceID)
	fmt.Fprintf(w, "evidence %s\n", rec.EvidenceID)
	for i, s := range r.Seeds {
		n := 0
		for _, m := range r.SeedMatches {
			if m.Seed == i {
				n++
			}
		}
		fmt.Fprintf(w, "seed %s %s %q: %d match(es)\n", s.Kind, s.Match, s.Value, n)
	}
	for _, m := range r.SeedMatches {
		fmt.Fprintf(w, "  %s (%s, by %s)\n", m.NodeID, m.Kind, m.Field)
	}
	fmt.Fprintf(w, "direction %s: %d nodes, %d edges, %d paths; coverage %s\n", r.Direction, r.Summary.Nodes, r.Summary.Edges, r.Summary.Paths, r.Coverage.Status)
	labels := map[string]string{}
	for _, n := range r.Nodes {
		labels[n.ID] = n.Label
	}
	if len(r.Paths) > 0 {
		fmt.Fprintln(w, "\npaths:")
	}
	for _, p := range r.Paths {
		steps := make([]string, len(p.Nodes))
		for i, id := range p.Nodes {
			steps[i] = id
		}
		mark := ""
		if p.ContainsInference {
			mark = " (contains inference)"
		}
		fmt.Fprintf(w, "  %s%s\n    [%s]\n", strings.Join(steps, " → "), mark, strings.Join(p.Authorities, ", "))
	}
	for _, h := range r.NativeHandoffs {
		fmt.Fprintf(w, "\nnative handoff %s: exports %s; next: %s\n", h.Path, strings.Join(h.RequestedExports, ", "), strings.Join(h.RecommendedTools, ", "))
	}
	if r.Coverage.Status == "truncated" {
		fmt.Fprintf(w, "\ntruncated by %s; omitted %v\n", strings.Join(r.Coverage.LimitsReached, ", "), r.Coverage.Omitted)
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

func (c *cli) printComparison(rec evidence.Record) error {
	var r graph.CompareResult
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "comparison result does not decode: %v", err)
	}
	w := c.stdout
	s := r.Summary
	fmt.Fprintf(w, "compare %s → %s\n", r.Left.EvidenceID, r.Right.EvidenceID)
	fmt.Fprintf(w, "evidence %s (coverage %s)\n\n", rec.EvidenceID, r.Coverage)
	for _, h := range s.Headline {
		fmt.Fprintf(w, "%s\n", h)
	}
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	var lines []string
	for _, nw := range s.NewWindows {
		lines = append(lines, fmt.Sprintf("+ %s  webPreferences %s", nw.Label, compactJSON(nw.WebPreferences)))
	}
	section("New windows", lines)
	lines = nil
	for _, cw := range s.ChangedWebPreferences {
		for _, ch := range cw.Changes {
			lines = append(lines, fmt.Sprintf("~ %s: %s %s → %s", cw.Label, strings.TrimPrefix(ch.Name, "webPreferences."), compactJSON(ch.Left), compactJSON(ch.Right)))
		}
	}
	section("Changed webPreferences", lines)
	plusMinus := func(added, removed []string) []string {
		var out []string
		for _, a := range added {
			out = append(out, "+ "+a)
		}
		for _, r := range removed {
			out = append(out, "- "+r)
		}
		return out
	}
	section("IPC channels", plusMinus(s.IPCChannelsAdded, s.IPCChannelsRemoved))
	section("Exposed APIs", plusMinus(s.ExposedAPIsAdded, s.ExposedAPIsRemoved))
	section("Endpoints", plusMinus(s.EndpointsAdded, nil))
	lines = nil
	for _, f := range s.FindingsAdded {
		lines = append(lines, fmt.Sprintf("+ %-6s %s %s: %s", f.Severity, f.RuleID, f.File, f.Message))
	}
	for _, f := range s.FindingsRemoved {
		lines = append(lines, fmt.Sprintf("- %-6s %s %s: %s", f.Severity, f.RuleID, f.File, f.Message))
	}
	section("Findings", lines)
	lines = nil
	for _, it := range r.Items {
		line := fmt.Sprintf("%-13s %-15s %s", it.Status, it.Kind, it.Label)
		if len(it.ChangedDimensions) > 0 {
			line += " (" + strings.Join(it.ChangedDimensions, ", ") + ")"
		}
		if it.MatchedBy != "" && it.Status != "unchanged" {
			line += " matched by " + it.MatchedBy
		}
		if len(it.Candidates) > 0 {
			line += fmt.Sprintf(" — %d candidates", len(it.Candidates)+it.CandidatesOmitted)
		}
		lines = append(lines, line)
	}
	section("Facts", lines)
	kinds := make([]string, 0, len(s.ByKind))
	for k := range s.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintln(w, "\nBy kind:")
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-15s %s\n", k, compactJSON(s.ByKind[k]))
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
