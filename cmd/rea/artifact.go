package main

import (
	"fmt"
	"maps"
	"strings"

	"github.com/spf13/cobra"

	"rea/host/app"
	"rea/host/operation"
)

// artifactCommands are inspect-artifact and extract-artifact.
func (c *cli) artifactCommands() []*cobra.Command {
	return []*cobra.Command{c.inspectArtifactCommand(), c.extractArtifactCommand()}
}

// artifactTargets binds the flags the artifact commands share (the
// operation specs' artifact input) to the request, plus more.
func artifactTargets(r *app.ArtifactRequest, more targets) targets {
	t := targets{"format": &r.Format, "integrity_policy": &r.IntegrityPolicy, "max_integrity_mismatches": &r.MaxIntegrityMismatches,
		"max_entries": &r.MaxEntries, "max_total_bytes": &r.MaxTotalBytes, "max_entry_bytes": &r.MaxEntryBytes,
		"max_compression_ratio": &r.MaxCompressionRatio, "max_depth": &r.MaxDepth, "max_path_bytes": &r.MaxPathBytes}
	maps.Copy(t, more)
	return t
}

func (c *cli) inspectArtifactCommand() *cobra.Command {
	var req app.InspectArtifactRequest
	cmd := &cobra.Command{
		Long: `inspect-artifact lists every entry of a container without executing or
extracting anything. The container's structure is parsed in the sandbox; rea
hashes each file's bytes and checks them, every 4 MiB block included, against
the integrity the container declares. A mismatch fails the command unless
--integrity-policy record-and-continue is given.

Unpacked ASAR entries are read from <archive>.asar.unpacked/. Archives found
inside a directory input are expanded. Links are recorded, never followed.

The result is an Evidence record (operation inspect_artifact) whose graph is
paged: --occurrence-offset/--occurrence-limit and the node and edge
equivalents (default 100, at most 500 per page).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			return runCommand(c, func(a *app.App) (*app.InspectArtifactResult, error) {
				return a.InspectArtifact(cmd.Context(), req, c.progressPrinter("inspect-artifact"))
			}, func(res *app.InspectArtifactResult) any { return res.Evidence }, c.printInventory)
		},
	}
	return fromSpec(cmd, operation.InspectArtifact(), artifactTargets(&req.ArtifactRequest, targets{
		"occurrences.offset": &req.Occurrences.Offset, "occurrences.limit": &req.Occurrences.Limit, "nodes.offset": &req.Nodes.Offset,
		"nodes.limit": &req.Nodes.Limit, "edges.offset": &req.Edges.Offset, "edges.limit": &req.Edges.Limit,
	}))
}

func (c *cli) extractArtifactCommand() *cobra.Command {
	var req app.ExtractArtifactRequest
	var out writtenOutput
	cmd := &cobra.Command{
		Long: `extract-artifact materialises regular files of a container into a directory
that did not exist before: --output DIR (which must not exist) or a fresh
temporary directory chosen by rea. It never overwrites a file, never writes
outside that directory and never creates links (they are listed as skipped).
Only bytes that were hashed during inventory are written, under the same
--integrity-policy as inspect-artifact; with record-and-continue the observed
bytes are written and the contradictions returned.

Select with --path GLOB (path.Match syntax per segment and ** for any number
of segments, over logical paths; a directory selects what it holds; members
of an archive inside a directory input are named ARCHIVE!/PATH) or --occurrence ID from inspect-artifact. With neither,
every file is extracted. An unpacked ASAR entry whose companion file is
missing fails as unavailable with its logical path.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			if err := out.check(); err != nil {
				return err
			}
			summary := false
			return runCommand(c, func(a *app.App) (*app.ExtractArtifactResult, error) {
				res, err := a.ExtractArtifact(cmd.Context(), req, c.progressPrinter("extract-artifact"))
				if err != nil {
					return nil, err
				}
				view, err := out.summarise(res.Evidence, res.OutputDir, req.InputPath)
				if view != nil {
					res.Evidence, summary = *view, true
				}
				return res, err
			}, itself, func(res *app.ExtractArtifactResult) error {
				if summary {
					return printWrittenSummary(c.stdout, res.Evidence)
				}
				return c.printExtraction(res)
			})
		},
	}
	return fromSpec(cmd, operation.ExtractArtifact(), artifactTargets(&req.ArtifactRequest, targets{
		"paths": &req.Paths, "occurrence_ids": &req.OccurrenceIDs, "cli.output_dir": &req.OutputDir,
		"detail": &out.detail, "limit": &out.limit,
	}))
}

// endProgress clears a progress line left on a terminal.
func (c *cli) endProgress() {
	if c.progressPrinter("") != nil {
		fmt.Fprint(c.stderr, "\r\033[K")
	}
}

func short(sum *string) string {
	if sum == nil {
		return strings.Repeat("-", 12)
	}
	return (*sum)[:12]
}

func (c *cli) printInventory(res *app.InspectArtifactResult) error {
	inv := res.Inventory
	w := c.stdout
	n := inv.Counts
	fmt.Fprintf(w, "%s  %s  %s\n", inv.Format, inv.RootArtifactID, res.Evidence.Subject.LocalPath)
	fmt.Fprintf(w, "evidence %s  manifest %s\n", res.Evidence.EvidenceID, inv.ManifestID)
	fmt.Fprintf(w, "%d files, %d directories, %d links in %d containers; %d bytes declared\n",
		n.Files, n.Directories, n.Links, n.Containers, n.DeclaredBytes)
	fmt.Fprintf(w, "hashes: %d verified, %d mismatched, %d unavailable; coverage %s\n", n.Verified, n.Mismatched, n.Unavailable, inv.Coverage)
	fmt.Fprintln(w)
	for _, o := range inv.Occurrences.Items {
		status := o.HashStatus
		if status == "" {
			status = o.EntryKind
		}
		flags := ""
		if o.Executable {
			flags += " executable"
		}
		if o.Unpacked {
			flags += " unpacked"
		}
		if o.EntryKind == "link" {
			flags += " -> " + o.LinkTarget
			if o.LinkAbsolute {
				flags += " (absolute)"
			}
			if o.LinkEscapes {
				flags += " (escapes)"
			}
		}
		fmt.Fprintf(w, "%-11s %s %10d  %s%s\n", status, short(o.ObservedSHA256), o.Size, o.LogicalPath, flags)
	}
	if next := inv.Occurrences.NextOffset; next != nil {
		fmt.Fprintf(w, "… %d of %d occurrences shown; next page: --occurrence-offset %d\n", len(inv.Occurrences.Items), inv.Occurrences.Total, *next)
	}
	for _, ic := range inv.IntegrityContradictions {
		fmt.Fprintf(w, "\nintegrity contradiction %s: %s declares %s, observed %s\n", ic.ContradictionID, ic.LogicalPath, ic.DeclaredSHA256, ic.ObservedSHA256)
	}
	if len(inv.Limitations) > 0 {
		fmt.Fprintln(w, "\nlimitations:")
		for _, l := range inv.Limitations {
			fmt.Fprintf(w, "  - %s\n", l)
		}
	}
	return nil
}

func (c *cli) printExtraction(res *app.ExtractArtifactResult) error {
	w := c.stdout
	ex := res.Extraction
	for _, f := range ex.Files {
		fmt.Fprintf(w, "%-11s %s %10d  %s\n", f.HashStatus, f.SHA256[:12], f.Size, f.Path)
	}
	for _, s := range ex.Skipped {
		fmt.Fprintf(w, "skipped     %s: %s\n", s.LogicalPath, s.Reason)
	}
	for _, ic := range ex.IntegrityContradictions {
		fmt.Fprintf(w, "integrity contradiction %s: %s declares %s, wrote observed %s\n", ic.ContradictionID, ic.LogicalPath, ic.DeclaredSHA256, ic.ObservedSHA256)
	}
	fmt.Fprintf(w, "wrote %d files to %s\n", len(ex.Files), res.OutputDir)
	fmt.Fprintf(w, "evidence %s  extraction %s\n", res.Evidence.EvidenceID, ex.ExtractionID)
	return nil
}
