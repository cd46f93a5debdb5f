package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/analysis/compare/artifacts"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

// inventoryEvidence reads one side of compare-artifacts: an Evidence file
// (one inspect_artifact record or a JSON array of pages of one scan), or a
// container or directory, which is inspected first, every page of it.
func (c *cli) inventoryEvidence(a *app.App, arg, field, policy string) ([]evidence.Record, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: cannot read %q: %v", field, arg, err).WithDetail("field", field)
	}
	if !st.IsDir() && strings.HasSuffix(strings.ToLower(arg), ".json") {
		return readEvidenceRecords(arg, field)
	}
	// Inspect once and take every page, so the side is read whole.
	recs, err := a.InspectArtifactPages(c.ctx, app.ArtifactRequest{InputPath: arg, IntegrityPolicy: policy}, app.MaxPageLimit, c.progressPrinter("inspect "+field))
	c.endProgress()
	return recs, err
}

func (c *cli) compareArtifactsCommand() *cobra.Command {
	var req app.CompareArtifactsRequest
	var policy string
	cmd := &cobra.Command{
		Long: `Compare two artifact inventories (older LEFT, newer RIGHT) per logical path
and print a changelog: added, removed, changed (with the dimensions content,
kind, format, size, executable, relations, availability, integrity), unknown
or contradiction. Entries of nested containers are named OUTER!/INNER.

Each side is an Evidence file (rea inspect-artifact PATH --format json, or a
JSON array of several pages of one scan), or a container or directory, which
is inspected first. Paths on pages not given are unknown, never equal; added
or removed is claimed only against a side read whole.`,
		Example: `  rea compare-artifacts app-1.0.asar app-2.0.asar
  rea compare-artifacts v1.json v2.json --format json > comparison.json
  rea compare-artifacts ./build-a ./build-b --include-unchanged`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				left, err := c.inventoryEvidence(a, args[0], "left", policy)
				if err != nil {
					return evidence.Record{}, err
				}
				right, err := c.inventoryEvidence(a, args[1], "right", policy)
				if err != nil {
					return evidence.Record{}, err
				}
				return a.CompareArtifacts(c.ctx, left, right, req, c.progressPrinter("compare"))
			}, itself, c.printArtifactComparison)
		},
	}
	return fromSpec(cmd, operation.CompareArtifacts(), targets{
		"offset": &req.Offset, "limit": &req.Limit, "include_unchanged": &req.IncludeUnchanged, "cli.integrity_policy": &policy,
	})
}

func (c *cli) printArtifactComparison(rec evidence.Record) error {
	var r artifacts.Result
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "artifact comparison does not decode: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "compare-artifacts %s → %s: %s\n", r.Left.ManifestID, r.Right.ManifestID, r.Status)
	fmt.Fprintf(w, "evidence %s\n", rec.EvidenceID)
	fmt.Fprintf(w, "%d unchanged, %d changed, %d added, %d removed, %d unknown, %d contradiction\n\n",
		r.Summary[artifacts.StatusUnchanged], r.Summary[artifacts.StatusChanged], r.Summary[artifacts.StatusAdded],
		r.Summary[artifacts.StatusRemoved], r.Summary[artifacts.StatusUnknown], r.Summary[artifacts.StatusContradiction])
	mark := map[string]string{artifacts.StatusAdded: "+", artifacts.StatusRemoved: "-", artifacts.StatusChanged: "~",
		artifacts.StatusUnknown: "?", artifacts.StatusContradiction: "!", artifacts.StatusUnchanged: "="}
	for _, ch := range r.Changes {
		line := fmt.Sprintf("%s %s", mark[ch.Kind], ch.LogicalPath)
		if len(ch.ChangedDimensions) > 0 {
			var parts []string
			for _, d := range ch.Dimensions {
				if d.Status == artifacts.StatusChanged {
					parts = append(parts, fmt.Sprintf("%s %v → %v", d.Name, shortDigest(d.Left), shortDigest(d.Right)))
				}
			}
			line += "  (" + strings.Join(parts, "; ") + ")"
		}
		if len(ch.UnknownDimensions) > 0 {
			line += "  unknown: " + strings.Join(ch.UnknownDimensions, ", ")
		}
		if ch.Reason != "" {
			line += "  — " + ch.Reason
		}
		fmt.Fprintln(w, line)
	}
	if r.NextOffset != nil {
		fmt.Fprintf(w, "… %d more; next page: --offset %d\n", r.Total-*r.NextOffset, *r.NextOffset)
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

// shortDigest abbreviates a digest for the changelog.
func shortDigest(v any) any {
	if s, ok := v.(string); ok && len(s) == 64 {
		return s[:12]
	}
	if v == nil {
		return "—"
	}
	return v
}
