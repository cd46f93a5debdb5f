package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
	"rea/jsengine/report"
)

// sourceCommands read an application's code.
func (c *cli) sourceCommands() []*cobra.Command {
	return []*cobra.Command{c.readJavaScriptSourceCommand(), c.searchApplicationTextCommand(), c.unpackJavaScriptBundleCommand(), c.extractSourceMapSourcesCommand()}
}

func sourceInputTargets(in *app.SourceInput, more targets) targets {
	t := targets{"format": &in.Format,
		"max_entries": &in.MaxEntries, "max_total_bytes": &in.MaxTotalBytes, "max_entry_bytes": &in.MaxEntryBytes,
		"max_compression_ratio": &in.MaxCompressionRatio, "max_depth": &in.MaxDepth, "max_path_bytes": &in.MaxPathBytes}
	for k, v := range more {
		t[k] = v
	}
	return t
}

func (c *cli) readJavaScriptSourceCommand() *cobra.Command {
	var req app.ReadSourceRequest
	var ref string
	offset := -1
	cmd := &cobra.Command{
		Long: `Read a page of an application's source: around a fact's location (--source-ref
with the source_ref JSON analyze-javascript-application prints on every window,
IPC operation, bridge API and finding, or --path with --line and --column), a
shipped line range (--start-line, --end-line) or a bundled module (--module
bundled:BUNDLE#KEY). Minified code is pretty-printed by esbuild; each line
shows where its code starts in the shipped file (line:column) and, through a
shipped source map, in the original source.`,
		Example: `  rea read-javascript-source ./app --path dist/main.js --line 1 --column 48211
  rea read-javascript-source ./app --source-ref '{"path":"lib/main.js","line":6176,"column":31}'
  rea read-javascript-source ./app --module 'bundled:dist/main.js#./src/ipc.js' --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			if ref != "" {
				var r sourcewire.SourceRef
				if err := json.Unmarshal([]byte(ref), &r); err != nil {
					return abi.Errorf(abi.CodeInvalidRequest, "--source-ref is not a source_ref object: %v", err).WithDetail("field", "source_ref")
				}
				req.SourceRef = &r
			}
			if cmd.Flags().Changed("offset") {
				req.Offset = &offset
			}
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				return a.ReadJavaScriptSource(cmd.Context(), req, c.progressPrinter("read"))
			}, itself, c.printSourcePage)
		},
	}
	r := &req.ReadRequest
	return fromSpec(cmd, operation.ReadJavaScriptSource(), sourceInputTargets(&req.SourceInput, targets{
		"path": &r.Path, "module": &r.Module, "line": &r.Line, "column": &r.Column, "column_unit": &r.ColumnUnit,
		"start_line": &r.StartLine, "end_line": &r.EndLine, "view": &r.View, "context_lines": &r.ContextLines, "offset": &offset,
		"limit": &r.Limit, "max_bytes": &r.MaxBytes, "max_file_bytes": &r.MaxFileBytes, "include_original": &r.IncludeOriginal,
		"cli.source_ref": &ref,
	}))
}

// sourceResult decodes the module result of a source operation's Evidence.
func sourceResult(rec evidence.Record, into any) error {
	var r app.SourceResult
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "source Evidence does not decode: %v", err)
	}
	if err := json.Unmarshal(r.Result, into); err != nil {
		return abi.Errorf(abi.CodeInternal, "source result does not decode: %v", err)
	}
	return nil
}

func (c *cli) printSourcePage(rec evidence.Record) error {
	var r sourcewire.ReadResult
	if err := sourceResult(rec, &r); err != nil {
		return err
	}
	w := c.stdout
	what := r.View
	if r.Minified {
		what += ", minified"
	}
	if r.Module != nil {
		what += "; module " + r.Module.Key
	}
	last := r.Offset + len(r.Lines)
	fmt.Fprintf(w, "%s (%s) lines %d–%d of %d", r.Path, what, r.Offset+1, last, r.TotalLines)
	if r.FocusLine > 0 {
		fmt.Fprintf(w, ", focus at line %d", r.FocusLine)
	}
	fmt.Fprintf(w, "\nevidence %s\n", rec.EvidenceID)
	writeSourceLines(w, r.Lines, r.FocusLine)
	if r.NextOffset != nil {
		fmt.Fprintf(w, "more: --offset %d\n", *r.NextOffset)
	}
	if o := r.OriginalSource; o != nil {
		fmt.Fprintf(w, "original %s (from %s):\n", o.File, o.From)
		for _, l := range o.Lines {
			fmt.Fprintf(w, "%6d  %s\n", l.Number, l.Text)
		}
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

// writeSourceLines prints lines with their number and shipped position.
func writeSourceLines(w interface{ Write([]byte) (int, error) }, lines []sourcewire.Line, focus int) {
	for _, l := range lines {
		mark := " "
		if l.Number == focus {
			mark = ">"
		}
		at := ""
		if l.Shipped != nil {
			at = fmt.Sprintf("%d:%d", l.Shipped.Line, l.Shipped.Column)
		}
		fmt.Fprintf(w, "%s%6d %12s │ %s\n", mark, l.Number, at, l.Text)
	}
}

func (c *cli) searchApplicationTextCommand() *cobra.Command {
	var req app.SearchTextRequest
	cmd := &cobra.Command{
		Long: `Search an application's text files for a literal (default, case-insensitive)
or an RE2 regular expression (--regex). A hit inside a bundle names the
bundled module it lies in; each hit shows the shipped position, the original
position through a shipped source map and a source_ref to read the code.`,
		Example: `  rea search-application-text ./app --query desktop-capturer-get-sources
  rea search-application-text ./app.asar --query 'ipcMain\.handle\("([^"]+)"' --regex --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			return runCommand(c, func(a *app.App) (evidence.Record, error) {
				return a.SearchApplicationText(cmd.Context(), req, c.progressPrinter("search"))
			}, itself, c.printSearch)
		},
	}
	r := &req.SearchRequest
	return fromSpec(cmd, operation.SearchApplicationText(), sourceInputTargets(&req.SourceInput, targets{
		"query": &r.Query, "regex": &r.Regex, "case_sensitive": &r.CaseSensitive, "paths": &r.Paths, "offset": &r.Offset, "limit": &r.Limit,
		"snippet_bytes": &r.SnippetBytes, "max_file_bytes": &r.MaxFileBytes, "max_hits": &r.MaxHits,
	}))
}

func (c *cli) printSearch(rec evidence.Record) error {
	var r sourcewire.SearchResult
	if err := sourceResult(rec, &r); err != nil {
		return err
	}
	w := c.stdout
	fmt.Fprintf(w, "%d hits in %d files (%d bytes searched, coverage %s)", r.TotalHits, r.FilesScanned, r.BytesScanned, r.Coverage)
	if len(r.Hits) > 0 {
		fmt.Fprintf(w, "; %d–%d shown", r.Offset+1, r.Offset+len(r.Hits))
	}
	fmt.Fprintf(w, "\nevidence %s\n", rec.EvidenceID)
	for _, h := range r.Hits {
		where := fmt.Sprintf("%s:%d:%d", h.Path, h.Shipped.Line, h.Shipped.Column)
		if h.Module != nil {
			where += " [module " + h.Module.Key + "]"
		}
		if h.Original != nil {
			where += fmt.Sprintf(" (original %s:%d:%d)", h.Original.File, h.Original.Line, h.Original.Column)
		}
		fmt.Fprintf(w, "%s\n    %s\n", where, strings.TrimSpace(h.Snippet))
	}
	if r.NextOffset != nil {
		fmt.Fprintf(w, "more: --offset %d\n", *r.NextOffset)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, l := range r.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	return nil
}

// writtenJSON prints the output directory and the Evidence: the complete
// record, or with --detail summary its summary view.
func writtenJSON(view **evidence.Record) func(res *app.WrittenResult) any {
	return func(res *app.WrittenResult) any {
		if *view != nil {
			return map[string]any{"output_dir": res.OutputDir, "files": res.Files, "evidence": **view}
		}
		return map[string]any{"output_dir": res.OutputDir, "files": res.Files, "evidence": res.Evidence}
	}
}

func (c *cli) unpackJavaScriptBundleCommand() *cobra.Command {
	var req app.UnpackBundleRequest
	var out writtenOutput
	cmd := &cobra.Command{
		Long: `Write a bundle's modules as one file each under a new directory (--output
DIR, which must not exist, or a fresh temporary one), their requires of one
another rewritten to relative paths, with manifest.json. Analyse the
directory afterwards to read the modules as files.`,
		Example: `  rea unpack-javascript-bundle ./app --path dist/main.js --output ./unpacked
  rea analyze-javascript-application ./unpacked`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			if err := out.check(); err != nil {
				return err
			}
			var view *evidence.Record
			return runCommand(c, func(a *app.App) (*app.WrittenResult, error) {
				res, err := a.UnpackJavaScriptBundle(cmd.Context(), req, c.progressPrinter("unpack"))
				if err == nil {
					view, err = out.summarise(res.Evidence, res.OutputDir, req.InputPath)
				}
				return res, err
			}, writtenJSON(&view), func(res *app.WrittenResult) error {
				if view != nil {
					return printWrittenSummary(c.stdout, *view)
				}
				var r sourcewire.UnpackResult
				if err := sourceResult(res.Evidence, &r); err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "%s (%s): %d modules\nevidence %s\n", r.Bundle, r.Kind, len(r.Modules), res.Evidence.EvidenceID)
				for _, m := range r.Modules {
					fmt.Fprintf(c.stdout, "  %-40s %s\n", m.Key, m.File)
				}
				for _, l := range r.Limitations {
					fmt.Fprintf(c.stdout, "note: %s\n", l)
				}
				fmt.Fprintf(c.stdout, "wrote %d files to %s\n", res.Files, res.OutputDir)
				return nil
			})
		},
	}
	r := &req.UnpackRequest
	return fromSpec(cmd, operation.UnpackJavaScriptBundle(), sourceInputTargets(&req.SourceInput, targets{
		"path": &r.Path, "max_file_bytes": &r.MaxFileBytes, "max_output_bytes": &r.MaxOutputBytes, "max_output_files": &r.MaxOutputFiles,
		"cli.output_dir": &req.OutputDir, "detail": &out.detail, "limit": &out.limit,
	}))
}

func (c *cli) extractSourceMapSourcesCommand() *cobra.Command {
	var req app.ExtractSourcesRequest
	var out writtenOutput
	cmd := &cobra.Command{
		Long: `Write the sourcesContent of an application's source maps as files under a new
directory (--output DIR, which must not exist, or a fresh temporary one). A
source whose path is absolute, a URL, leaves the directory or is claimed
twice with other content is listed as rejected and never written.`,
		Example: `  rea extract-source-map-sources ./app --output ./original
  rea extract-source-map-sources ./app --path dist/main.js.map --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.Format == "auto" {
				req.Format = ""
			}
			if err := out.check(); err != nil {
				return err
			}
			var view *evidence.Record
			return runCommand(c, func(a *app.App) (*app.WrittenResult, error) {
				res, err := a.ExtractSourceMapSources(cmd.Context(), req, c.progressPrinter("extract"))
				if err == nil {
					view, err = out.summarise(res.Evidence, res.OutputDir, req.InputPath)
				}
				return res, err
			}, writtenJSON(&view), func(res *app.WrittenResult) error {
				if view != nil {
					return printWrittenSummary(c.stdout, *view)
				}
				var r sourcewire.ExtractResult
				if err := sourceResult(res.Evidence, &r); err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "%d maps, %d sources\nevidence %s\n", len(r.Maps), len(r.Sources), res.Evidence.EvidenceID)
				for _, s := range r.Sources {
					if s.Rejected != "" {
						fmt.Fprintf(c.stdout, "  rejected %s: %s\n", s.Source, s.Rejected)
					} else {
						fmt.Fprintf(c.stdout, "  %s\n", s.File)
					}
				}
				for _, l := range r.Limitations {
					fmt.Fprintf(c.stdout, "note: %s\n", l)
				}
				fmt.Fprintf(c.stdout, "wrote %d files to %s\n", res.Files, res.OutputDir)
				return nil
			})
		},
	}
	r := &req.ExtractRequest
	return fromSpec(cmd, operation.ExtractSourceMapSources(), sourceInputTargets(&req.SourceInput, targets{
		"path": &r.Path, "max_file_bytes": &r.MaxFileBytes, "max_output_bytes": &r.MaxOutputBytes, "max_output_files": &r.MaxOutputFiles,
		"cli.output_dir": &req.OutputDir, "detail": &out.detail, "limit": &out.limit,
	}))
}

// showSourceLines is how many lines --show-source prints per finding.
const showSourceLines = 6

// findingSources reads the code at the findings the text report shows; a
// failure leaves the report without code (and says so on stderr).
func findingSources(c *cli, a *app.App, req app.AnalyzeApplicationRequest, res *app.AnalyzeApplicationResult) map[sourcewire.SourceRef][]sourcewire.Line {
	var refs []sourcewire.SourceRef
	for _, f := range res.Outcome.Findings {
		if f.SourceRef != nil {
			refs = append(refs, *f.SourceRef)
		}
	}
	in := app.SourceInput{InputPath: req.InputPath, Format: req.Format, Limits: req.Limits}
	out, err := a.ReadSourceRefs(c.ctx, in, refs, showSourceLines)
	if err != nil {
		fmt.Fprintf(c.stderr, "--show-source: %v\n", err)
	}
	return out
}

// printFindingSource prints the code at a finding, when it was read.
func (c *cli) printFindingSource(w io.Writer, f report.Finding) {
	if f.SourceRef == nil || c.findingSource == nil {
		return
	}
	for _, l := range c.findingSource[*f.SourceRef] {
		at := ""
		if l.Shipped != nil {
			at = fmt.Sprintf("%d:%d", l.Shipped.Line, l.Shipped.Column)
		}
		text, _ := strings.CutSuffix(l.Text, "\r")
		if len(text) > 160 {
			text = text[:160] + "…"
		}
		fmt.Fprintf(w, "         %12s │ %s\n", at, text)
	}
}
