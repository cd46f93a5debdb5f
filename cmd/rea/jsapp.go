package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
	"rea/jsengine/report"
	"rea/jsengine/report/sarif"
)

// exitPartial is the status of a completed run with partial coverage; the
// report's gate owns the CI statuses and the commands share them.
const exitPartial = report.ExitPartial

func (c *cli) analyzeJavaScriptApplicationCommand() *cobra.Command {
	var req app.AnalyzeApplicationRequest
	var sarifPath, reportPath, failOn, detail string
	var failOnPartial bool
	var showSource bool
	cmd := &cobra.Command{
		Long: `Analyse an Electron or JavaScript application without executing it: a directory,
an .asar archive, or an installed layout (X.app/Contents/Resources/app.asar,
resources/app.asar, resources/app). rea inventories the bytes (integrity
checked), then parses every JavaScript/TypeScript file in the sandbox and
reports windows and their webPreferences, preload scripts, contextBridge
APIs, IPC channels and handlers, imports, bundles and security findings at
their original file:line:column.

Output: --format text (a readable report), json (the Evidence record) or
sarif (SARIF 2.1.0 for code-scanning UIs; --sarif FILE writes it beside
another format) or html (one self-contained page: the security boundary as a
graph of windows, preloads, bridge APIs, IPC channels and handlers, the
findings with their code, and what was not analysed; it loads nothing and
runs no code from the app; --report FILE writes it beside another format). --detail summary prints the summary view instead of the
complete record.

Exit status: 0 complete; 1 failure; 2 completed with partial coverage (a
limit was reached; a line on stderr names it) unless --fail-on-partial=false;
3 when --fail-on low|medium|high is set and findings at or above that
severity exist.`,
		Example: `  rea analyze-javascript-application ./MyApp.app
  rea analyze-javascript-application resources/app.asar --format json > evidence.json
  rea analyze-javascript-application ./app --format sarif --fail-on high > findings.sarif
  rea analyze ./app --format html > report.html`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if c.shippedElectron != nil {
				req.ShippedElectron = c.shippedElectron
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			gate := report.Gate{FailOn: failOn, FailOnPartial: failOnPartial}
			if err := gate.Validate(); err != nil {
				return invalidFlag("fail-on", err.Error())
			}
			if detail != "complete" && detail != "summary" {
				return invalidFlag("detail", fmt.Sprintf("%q is not complete or summary", detail))
			}
			res, err := a.AnalyzeJavaScriptApplication(c.ctx, req, c.progressPrinter("analyze"))
			c.endProgress()
			if err != nil {
				return err
			}
			// A result served from the cache decodes its analysis only
			// for the outputs that read it (the JSON record and the gate
			// do not).
			if sarifPath != "" {
				analysis, err := res.Analysis()
				if err != nil {
					return err
				}
				if err := writeSARIF(sarifPath, analysis); err != nil {
					return err
				}
			}
			if reportPath != "" {
				if err := writeHTMLReport(reportPath, res); err != nil {
					return err
				}
			}
			switch {
			case c.format == "html":
				analysis, err := res.Analysis()
				if err != nil {
					return err
				}
				if err := app.RenderAnalysisHTML(c.stdout, res.Evidence.EvidenceID, analysis); err != nil {
					return err
				}
			case c.format == "sarif":
				analysis, err := res.Analysis()
				if err != nil {
					return err
				}
				if err := c.printJSON(sarif.FromResult(&analysis.Application)); err != nil {
					return err
				}
			case detail == "summary":
				view, err := a.InspectAnalysisView(res.Evidence, app.AnalysisViewRequest{View: "summary"})
				if err != nil {
					return err
				}
				if c.format == "json" {
					if err := c.printJSON(view); err != nil {
						return err
					}
				} else if err := c.printApplication(res); err != nil {
					return err
				}
			case c.format == "json":
				if err := c.printJSON(res.Evidence); err != nil {
					return err
				}
			default:
				if showSource {
					c.findingSource = findingSources(c, a, req, res)
				}
				if err := c.printApplication(res); err != nil {
					return err
				}
			}
			verdict := gate.Judge(res.Outcome.Findings, res.Outcome.Coverage)
			if verdict.AtOrAbove > 0 {
				fmt.Fprintf(c.stderr, "findings: %d at or above %s\n", verdict.AtOrAbove, failOn)
			}
			if verdict.Partial {
				fmt.Fprintf(c.stderr, "coverage: partial — %s\n", res.Outcome.PartialReason)
			}
			c.exitCode = verdict.ExitCode
			return nil
		},
	}
	return fromSpec(cmd, operation.AnalyzeJavaScriptApplication(), targets{
		"format": &req.Format, "detail": &detail, "integrity_policy": &req.IntegrityPolicy, "max_integrity_mismatches": &req.MaxIntegrityMismatches,
		"max_text_files": &req.MaxTextFiles, "max_total_text_bytes": &req.MaxTotalTextBytes, "max_text_file_bytes": &req.MaxTextFileBytes,
		"max_ast_nodes": &req.MaxASTNodes, "max_findings": &req.MaxFindings, "max_modules": &req.MaxModules,
		"max_entries": &req.MaxEntries, "max_total_bytes": &req.Limits.MaxTotalBytes, "max_entry_bytes": &req.MaxEntryBytes,
		"max_compression_ratio": &req.MaxCompressionRatio, "max_depth": &req.Limits.MaxDepth, "max_path_bytes": &req.MaxPathBytes,
		"cli.sarif": &sarifPath, "cli.report": &reportPath, "cli.fail_on": &failOn, "cli.fail_on_partial": &failOnPartial, "cli.show_source": &showSource,
	})
}

func (c *cli) printApplication(res *app.AnalyzeApplicationResult) error {
	a, err := res.Analysis()
	if err != nil {
		return err
	}
	r := a.Application
	w := c.stdout
	name, ver, electron := "", "", ""
	if r.Package != nil {
		b, _ := json.Marshal(r.Package)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		name, _ = p["name"].(string)
		ver, _ = p["version"].(string)
		electron, _ = p["electron_version"].(string)
	}
	title := strings.TrimSpace(name + " " + ver)
	if title == "" {
		title = "(package.json names no package)"
	}
	if electron == "" {
		electron = "version not declared"
	}
	fmt.Fprintf(w, "%s (%s, root %s) electron %s\n", title, a.Format, a.ApplicationRoot, electron)
	fmt.Fprintf(w, "evidence %s\n", res.Evidence.EvidenceID)
	s := r.Summary
	fmt.Fprintf(w, "windows %d (explicit webPreferences %d), preloads %d, contextBridge APIs %d (%d members)\n",
		s.BrowserWindows, s.ExplicitWebPreferences, s.PreloadEntrypoints, s.ContextBridgeAPIs, s.ExposedAPIMembers)
	fmt.Fprintf(w, "ipc operations %d: %d literal channels, %d dynamic; %d main handlers, %d renderer sends (%d paired)\n",
		s.IPC.Operations, s.IPC.LiteralChannels, s.IPC.DynamicChannelOperations, s.IPC.MainHandlers, s.IPC.RendererTransmissions, s.IPC.PairedRendererTransmissions)
	st := r.Statistics
	var unparsed []string
	for _, m := range r.Modules {
		if m.ParseError != "" {
			unparsed = append(unparsed, m.Path+": "+m.ParseError)
		}
	}
	var listed []string
	if len(unparsed) > 0 {
		listed = append(listed, fmt.Sprintf("not parsed %d", len(unparsed)))
	}
	if len(a.Limitations) > 0 {
		listed = append(listed, fmt.Sprintf("limitations %d", len(a.Limitations)))
	}
	notes := ""
	if len(listed) > 0 {
		notes = "; " + strings.Join(listed, ", ") + " (listed at the end)"
	}
	fmt.Fprintf(w, "files parsed %d (%d normalised), modules %d, parse failures %d, coverage %s%s\n",
		st.ParsedJavaScriptFiles, st.NormalisedFiles, st.Modules, st.ParseFailures, a.Coverage, notes)

	for _, win := range r.Windows {
		fmt.Fprintf(w, "\nwindow %s at %s:%d:%d (options %s)\n", win.Kind, win.Location.File, win.Location.Line, win.Location.Column, win.Coverage)
		keys := make([]string, 0, len(win.WebPreferences))
		for k := range win.WebPreferences {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := win.WebPreferences[k]
			fmt.Fprintf(w, "  %-28s %-8v %s\n", k, v.Value, v.State)
			for _, alt := range v.Alternatives {
				fmt.Fprintf(w, "    %-26s %-8v if %s\n", "", alt.Value, alt.Condition)
			}
		}
		for _, u := range win.Unknowns {
			fmt.Fprintf(w, "  unknown: %s\n", u)
		}
		if win.Preload != nil {
			target := win.Preload.Module
			if target == "" {
				target = win.Preload.Expression
			}
			fmt.Fprintf(w, "  preload %s (%s)\n", target, win.Preload.State)
			for _, alt := range win.Preload.Alternatives {
				t := alt.Module
				if t == "" {
					t = alt.Expression
				}
				fmt.Fprintf(w, "    preload %s if %s\n", t, alt.Condition)
			}
		}
		for _, l := range win.Loads {
			remote := ""
			if l.Remote {
				remote = " remote"
			}
			cond := ""
			if l.Condition != "" {
				cond = " if " + l.Condition
			}
			fmt.Fprintf(w, "  %s %s (%s%s)%s\n", l.Method, l.Target, l.State, remote, cond)
		}
	}
	for _, api := range r.ContextBridge {
		fmt.Fprintf(w, "\ncontextBridge %q (%s world) in %s: %s\n", api.Key, api.World, api.Module, strings.Join(api.Members, ", "))
		for _, raw := range api.RawIPCRenderer {
			fmt.Fprintf(w, "  exposes ipcRenderer itself at %s\n", raw)
		}
	}
	if len(r.IPC) > 0 {
		fmt.Fprintf(w, "\n%-9s %-12s %-22s %-28s %-10s %s\n", "side", "role", "api", "channel", "pairing", "location")
		for _, op := range r.IPC {
			ch := op.Channel
			if ch == "" {
				ch = "(" + op.ChannelState + ")"
			}
			fmt.Fprintf(w, "%-9s %-12s %-22s %-28s %-10s %s:%d\n", op.Side, op.Role, op.API, ch, op.Pairing, op.Location.File, op.Location.Line)
		}
	}
	findings := append([]report.Finding(nil), r.Findings...)
	sort.SliceStable(findings, func(i, j int) bool {
		return abi.SeverityRank(findings[i].Severity) > abi.SeverityRank(findings[j].Severity)
	})
	fmt.Fprintf(w, "\nfindings %d:\n", len(findings))
	// Columns as wide as their widest shown value, so messages line up.
	ruleWidth, locWidth := 0, 0
	location := func(f report.Finding) string {
		return fmt.Sprintf("%s:%d:%d", f.Location.File, f.Location.Line, f.Location.Column)
	}
	for _, f := range findings[:min(shown, len(findings))] {
		ruleWidth, locWidth = max(ruleWidth, len(f.RuleID)), max(locWidth, len(location(f)))
	}
	for i, f := range findings {
		if i == shown {
			fmt.Fprintf(w, "  … %d more (--format json for all)\n", len(findings)-shown)
			break
		}
		msg := f.Message
		if f.Suppressed != nil {
			msg = "(suppressed by " + f.Suppressed.Kind + ": " + f.Suppressed.Reason + ") " + msg
		}
		fmt.Fprintf(w, "  %-6s %-*s %-*s  %s\n", f.Severity, ruleWidth, f.RuleID, locWidth, location(f), msg)
		c.printFindingSource(w, f)
	}
	// What the analysis could not cover is part of the report, not only of
	// the JSON: a file that failed to parse is a blind spot.
	printRows(w, "not parsed", unparsed)
	printRows(w, "limitations", a.Limitations)
	return nil
}

// shown bounds each list of the text report; --format json has them all.
const shown = 30

// printRows prints a titled list of at most shown rows, or nothing when it
// is empty.
func printRows(w io.Writer, title string, rows []string) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s %d:\n", title, len(rows))
	for i, r := range rows {
		if i == shown {
			fmt.Fprintf(w, "  … %d more (--format json for all)\n", len(rows)-shown)
			return
		}
		fmt.Fprintf(w, "  %s\n", r)
	}
}

// writeSARIF writes the SARIF log to a file.
func writeSARIF(path string, a *app.ApplicationAnalysis) error {
	b, err := json.MarshalIndent(sarif.FromResult(&a.Application), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "cannot write SARIF to %q: %v", path, err).WithDetail("flag", "--sarif")
	}
	return nil
}

// writeHTMLReport writes the HTML report to a file.
func writeHTMLReport(path string, res *app.AnalyzeApplicationResult) error {
	analysis, err := res.Analysis()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := app.RenderAnalysisHTML(&b, res.Evidence.EvidenceID, analysis); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "cannot write the HTML report to %q: %v", path, err).WithDetail("flag", "--report")
	}
	return nil
}
