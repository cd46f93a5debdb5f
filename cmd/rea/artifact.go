package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"rea/analysis/artifact/inventory"
	"rea/host/app"
)

// artifactCommands are inspect-artifact and extract-artifact.
func (c *cli) artifactCommands() []*cobra.Command {
	return []*cobra.Command{c.inspectArtifactCommand(), c.extractArtifactCommand()}
}

// artifactFlags binds the flags both artifact commands share.
func artifactFlags(fs *pflag.FlagSet, r *app.ArtifactRequest) {
	fs.StringVar(&r.Format, "archive-format", "auto", "container format: auto, asar, zip, tar, tar.gz, deb or directory")
	fs.StringVar(&r.IntegrityPolicy, "integrity-policy", app.IntegrityFail,
		"on a declared-versus-observed hash mismatch: fail, or record-and-continue (record the contradiction, keep verified siblings)")
	fs.IntVar(&r.MaxIntegrityMismatches, "max-integrity-mismatches", app.DefaultMaxIntegrityMismatches, "most contradictions record-and-continue keeps (≤ 100)")
	inventoryLimitFlags(fs, &r.Limits)
}

// inventoryLimitFlags binds the limits on what a container may declare;
// the artifact commands and analyze-javascript-application share them.
func inventoryLimitFlags(fs *pflag.FlagSet, r *inventory.Limits) {
	fs.IntVar(&r.MaxEntries, "max-entries", 0, "most entries a container may declare (default 10000)")
	fs.Int64Var(&r.MaxTotalBytes, "max-total-bytes", 0, "most bytes all entries may declare together (default 1 GiB)")
	fs.Int64Var(&r.MaxEntryBytes, "max-entry-bytes", 0, "most bytes one entry may declare (default 256 MiB)")
	fs.IntVar(&r.MaxCompressionRatio, "max-compression-ratio", 0, "largest expansion of a compressed entry (default 1000)")
	fs.IntVar(&r.MaxDepth, "max-depth", 0, "deepest path and container nesting (default 20)")
	fs.IntVar(&r.MaxPathBytes, "max-path-bytes", 0, "longest entry path in bytes (default 4096)")
}

func (c *cli) inspectArtifactCommand() *cobra.Command {
	var req app.InspectArtifactRequest
	cmd := &cobra.Command{
		Use:   "inspect-artifact PATH",
		Short: "Inventory an ASAR, zip, tar, tar.gz or directory as a content-addressed graph with verified hashes",
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
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.InspectArtifact(cmd.Context(), req, c.progressPrinter("inspect-artifact"))
			c.endProgress()
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(res.Evidence)
			}
			c.printInventory(res)
			return nil
		},
	}
	fs := cmd.Flags()
	artifactFlags(fs, &req.ArtifactRequest)
	fs.IntVar(&req.OccurrenceOffset, "occurrence-offset", 0, "first occurrence of the page")
	fs.IntVar(&req.OccurrenceLimit, "occurrence-limit", app.DefaultPageLimit, "occurrences per page (≤ 500)")
	fs.IntVar(&req.NodeOffset, "node-offset", 0, "first node of the page")
	fs.IntVar(&req.NodeLimit, "node-limit", app.DefaultPageLimit, "nodes per page (≤ 500)")
	fs.IntVar(&req.EdgeOffset, "edge-offset", 0, "first edge of the page")
	fs.IntVar(&req.EdgeLimit, "edge-limit", app.DefaultPageLimit, "edges per page (≤ 500)")
	return cmd
}

func (c *cli) extractArtifactCommand() *cobra.Command {
	var req app.ExtractArtifactRequest
	cmd := &cobra.Command{
		Use:   "extract-artifact PATH",
		Short: "Write selected files of an ASAR, zip, tar, tar.gz or directory into a fresh directory",
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
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.ExtractArtifact(cmd.Context(), req, c.progressPrinter("extract-artifact"))
			c.endProgress()
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(res)
			}
			c.printExtraction(res)
			return nil
		},
	}
	fs := cmd.Flags()
	artifactFlags(fs, &req.ArtifactRequest)
	fs.StringArrayVar(&req.Paths, "path", nil, "glob of logical paths to extract, e.g. 'lib/**/*.js' (repeatable)")
	fs.StringArrayVar(&req.OccurrenceIDs, "occurrence", nil, "occurrence id to extract (repeatable, ≤ 500)")
	fs.StringVar(&req.OutputDir, "output", "", "directory to create and write into (must not exist; default: a fresh temporary directory)")
	return cmd
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

func (c *cli) printInventory(res *app.InspectArtifactResult) {
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
}

func (c *cli) printExtraction(res *app.ExtractArtifactResult) {
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
}
