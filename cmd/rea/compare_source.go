package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/analysis/compare/source"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

func (c *cli) importReferenceSourceCommand() *cobra.Command {
	var req app.ImportReferenceSourceRequest
	cmd := &cobra.Command{
		Long: `Read a reference source tree — a checkout of the original sources, or an
ASAR, zip or tar of one — through the same sandboxed scan as
inspect-artifact, hash every file and record the JavaScript and TypeScript
files with their source digests as HistoricalSourceGraph/v1 Evidence
(operation import_reference_source). Nothing in the tree is executed.`,
		Example: `  rea import-reference-source ./app-src --format json > reference.json
  rea compare-source-to-bundle reference.json app.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				return a.ImportReferenceSource(c.ctx, req, c.progressPrinter("import"))
			}, itself, c.printReferenceSource)
		},
	}
	return fromSpec(cmd, operation.ImportReferenceSource(), artifactTargets(&req.ArtifactRequest, nil))
}

func (c *cli) printReferenceSource(rec evidence.Record) error {
	var g source.Reference
	if err := json.Unmarshal(rec.NormalizedResult, &g); err != nil {
		return abi.Errorf(abi.CodeInternal, "reference source graph does not decode: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "reference %s (%s): %d source files, %d other files left out; coverage %s\n", g.SourceGraphID, g.Format, len(g.Files), g.SkippedFiles, g.Coverage)
	fmt.Fprintf(w, "evidence %s\n", rec.EvidenceID)
	for _, f := range g.Files {
		fmt.Fprintf(w, "  %s  %s\n", f.SHA256[:12], f.Path)
	}
	for _, l := range g.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

// referenceEvidence reads the reference side: an Evidence file, or a source
// tree, which is imported first.
func (c *cli) referenceEvidence(a *app.App, arg string) (evidence.Record, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "reference: cannot read %q: %v", arg, err).WithDetail("field", "reference")
	}
	if !st.IsDir() && strings.HasSuffix(strings.ToLower(arg), ".json") {
		return c.applicationEvidence(a, arg, "reference")
	}
	rec, err := a.ImportReferenceSource(c.ctx, app.ImportReferenceSourceRequest{ArtifactRequest: app.ArtifactRequest{InputPath: arg}}, c.progressPrinter("import reference"))
	c.endProgress()
	return rec, err
}

func (c *cli) compareSourceToBundleCommand() *cobra.Command {
	var req app.CompareSourceRequest
	cmd := &cobra.Command{
		Long: `Match every file of a reference source tree against an analysed
application and print a changelog per file: unchanged, modified, removed,
split, merged (into a bundle), duplicated or unknown. Signals, strongest
first: exact source digest, source-map original path (maps are read from
the analysed directory; their sourcesContent decides unchanged or modified),
module paths a bundler recorded, exact path, path suffix, basename.

REFERENCE is an Evidence file (rea import-reference-source DIR --format
json) or the source tree itself. APP is an Evidence file (rea
analyze-javascript-application APP --format json), or an application
directory or .asar, analysed first.`,
		Example: `  rea compare-source-to-bundle ./app-src ./app
  rea compare-source-to-bundle reference.json app.json --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				ref, err := c.referenceEvidence(a, args[0])
				if err != nil {
					return evidence.Record{}, err
				}
				application, err := c.applicationEvidence(a, args[1], "application")
				if err != nil {
					return evidence.Record{}, err
				}
				return a.CompareSourceToBundle(c.ctx, ref, application, req, c.progressPrinter("compare"))
			}, itself, c.printSourceComparison)
		},
	}
	return fromSpec(cmd, operation.CompareSourceToBundle(), targets{"max_candidates": &req.MaxCandidates})
}

func (c *cli) printSourceComparison(rec evidence.Record) error {
	var r source.Result
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "source comparison does not decode: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "compare-source-to-bundle %s → %s\n", r.ReferenceEvidenceID, r.ApplicationEvidenceID)
	fmt.Fprintf(w, "evidence %s\n", rec.EvidenceID)
	var counts []string
	for _, s := range []string{source.StatusUnchanged, source.StatusModified, source.StatusMerged, source.StatusSplit, source.StatusDuplicated, source.StatusRemoved, source.StatusUnknown} {
		counts = append(counts, fmt.Sprintf("%d %s", r.Summary[s], s))
	}
	fmt.Fprintf(w, "%s\n\n", strings.Join(counts, ", "))
	for _, f := range r.Files {
		var where []string
		for _, t := range f.Targets {
			if t.Key != "" {
				where = append(where, t.Path+"#"+t.Key)
			} else {
				where = append(where, t.Path)
			}
		}
		line := fmt.Sprintf("%-10s %s", f.Status, f.Path)
		if len(where) > 0 {
			line += " → " + strings.Join(where, ", ")
		}
		if f.MatchedBy != "" {
			line += "  [" + f.MatchedBy + "]"
		}
		if f.Reason != "" && f.Status != source.StatusUnchanged {
			line += "  — " + f.Reason
		}
		fmt.Fprintln(w, line)
	}
	if len(r.UnmatchedModules) > 0 {
		fmt.Fprintf(w, "\napplication modules with no reference file: %s\n", strings.Join(r.UnmatchedModules, ", "))
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}
