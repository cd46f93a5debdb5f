package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"rea/abi"
	executable "rea/analysis/native/nativewire"
	query "rea/analysis/native/nativewire"
	"rea/host/app"
	"rea/host/operation"
)

// nativeCommands are the native-binary commands: layout and hardening,
// the provider registry, and the native-lite inventory tools.
func (c *cli) nativeCommands() []*cobra.Command {
	return []*cobra.Command{
		c.providersCommand(), c.layoutCommand(), c.analyzeCommand(), c.functionsCommand(), c.stringsCommand(), c.namesCommand(),
		c.segmentsCommand(), c.functionCommand(), c.disassembleCommand(), c.assemblyCommand(), c.callsCommand("callers"), c.callsCommand("callees"),
		c.xrefsCommand(), c.searchCommand(), c.searchProceduresCommand(), c.searchStringsCommand(),
		c.addressCommand("resolve"), c.addressCommand("file-offset"), c.addressCommand("read-bytes"),
		c.compareFunctionsCommand(),
	}
}

// nativeCommand completes a native command from its spec, binding each flag
// the spec declares to the NativeRequest field of the same name.
func nativeCommand(cmd *cobra.Command, sp operation.Spec, req *app.NativeRequest) *cobra.Command {
	fields := targets{"provider_id": &req.ProviderID, "architecture": &req.Architecture, "offset": &req.Offset, "limit": &req.Limit,
		"mode": &req.Mode, "case_sensitive": &req.CaseSensitive, "address": &req.Address, "length": &req.Length,
		"assembly.offset": &req.Assembly.Offset, "assembly.limit": &req.Assembly.Limit}
	to := targets{}
	for _, f := range sp.Flags() {
		to[f.Path] = fields[f.Path]
	}
	return fromSpec(cmd, sp, to)
}

// nativeFlags binds the flags of `rea search`, which runs two operations.
func nativeFlags(cmd *cobra.Command, req *app.NativeRequest, paged bool) {
	fs := cmd.Flags()
	fs.StringVar(&req.ProviderID, "provider", "", "analysis provider: auto or an id from `rea providers` (default: REA_ANALYSIS_PROVIDER, then auto)")
	fs.StringVar(&req.Architecture, "architecture", "", "slice of a universal Mach-O to read (x86_64, arm64, …; default the first)")
	if paged {
		fs.IntVar(&req.Offset, "offset", 0, "first item of the page")
		fs.IntVar(&req.Limit, "limit", 0, "items per page (default 100, at most 500; searches at most 100)")
	}
}

// runNative builds the app, calls one service and prints its Evidence
// (json) or the text rendering.
func runNative[T any](c *cli, cmd *cobra.Command, name string, call func(*app.App) (*app.NativeResult[T], error), text func(*T)) error {
	return runCommand(c, call, func(res *app.NativeResult[T]) any { return res.Evidence }, func(res *app.NativeResult[T]) error {
		text(res.Result)
		fmt.Fprintf(c.stdout, "\nevidence %s", res.Evidence.EvidenceID)
		if res.Binding != nil {
			fmt.Fprintf(c.stdout, "  provider %s (%s)", res.Binding.Provider, res.Binding.SelectionSource)
		}
		fmt.Fprintln(c.stdout)
		return nil
	})
}

func (c *cli) providersCommand() *cobra.Command {
	var selector string
	cmd := &cobra.Command{
		Use:   "providers",
		Short: "List deep analysis providers, their availability on this host and what auto selects",
		Long: `providers lists every deep analysis provider candidate sorted by id with its
availability code (available, not_configured, executable_missing,
runtime_missing, unsupported_host, …), discovered without launching anything,
and the binding a target-free request would get from --provider,
REA_ANALYSIS_PROVIDER or auto.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := c.application()
			if err != nil {
				return err
			}
			rep, err := a.Providers(selector)
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(rep)
			}
			for _, cand := range rep.Candidates {
				v := "-"
				if cand.Version != nil {
					v = *cand.Version
					if len(v) > 19 {
						v = v[:19] + "…"
					}
				}
				fmt.Fprintf(c.stdout, "%-12s %-12s %-22s %s\n", cand.ID, cand.Availability.Status, cand.Availability.Code, v)
				if !cand.Availability.Usable() {
					fmt.Fprintf(c.stdout, "             %s", cand.Availability.Reason)
					if cand.Availability.Remediation != "" {
						fmt.Fprintf(c.stdout, "; %s", cand.Availability.Remediation)
					}
					fmt.Fprintln(c.stdout)
				}
			}
			if rep.Selection != nil {
				fmt.Fprintf(c.stdout, "\nselected: %s (%s)\n", rep.Selection.Provider, rep.Selection.SelectionSource)
			} else {
				fmt.Fprintln(c.stdout, "\nselected: none (targets stay unbound; deep tools report unavailable)")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&selector, "provider", "", "selector to evaluate: auto or a provider id (default: REA_ANALYSIS_PROVIDER, then auto)")
	return cmd
}

func (c *cli) layoutCommand() *cobra.Command {
	var req app.NativeRequest
	var provider string
	cmd := &cobra.Command{
		Aliases: []string{"inspect-binary-layout"},
		Long: `layout parses the binary in the sandbox without running it and reports its
format, architecture, entry, sections and segments with permissions, symbol
tables (paged with --offset/--limit), imports, exports, needed libraries,
interpreter, relocations and static mitigations. Each mitigation is observed
(a structural marker proves it), inferred (an indirect sign such as an
imported __stack_chk_fail), absent or unknown, with its basis.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "layout", func(a *app.App) (*app.NativeResult[query.Layout], error) {
				return a.InspectBinaryLayout(cmd.Context(), req, c.progressPrinter("layout"))
			}, c.printLayout)
		},
	}
	nativeCommand(cmd, operation.InspectBinaryLayout(), &req)
	// The layout needs no provider; the flag it once took is accepted
	// and ignored for one release.
	cmd.Flags().StringVar(&provider, "provider", "", "ignored: the layout needs no provider")
	c.deprecate(cmd, "the layout needs no deep provider; the flag is ignored", "provider")
	return cmd
}

func (c *cli) printLayout(l *query.Layout) {
	w := c.stdout
	entry := "none"
	if l.Entry != nil {
		entry = l.Entry.String()
	}
	fmt.Fprintf(w, "%s %s %d-bit %s-endian %s, entry %s", l.Format, l.Architecture, l.Bits, l.ByteOrder, l.Type, entry)
	if len(l.Architectures) > 0 {
		fmt.Fprintf(w, " (slices: %s)", strings.Join(l.Architectures, ", "))
	}
	fmt.Fprintln(w)
	if l.Interpreter != "" {
		fmt.Fprintf(w, "interpreter %s\n", l.Interpreter)
	}
	fmt.Fprintln(w, "\nmitigations:")
	for _, m := range l.Mitigations {
		v := ""
		if m.Value != "" {
			v = " " + m.Value
		}
		fmt.Fprintf(w, "  %-16s %-9s%s — %s\n", m.Name, m.Status, v, m.Basis)
	}
	fmt.Fprintf(w, "\nsections (%d):\n", len(l.Sections))
	for _, s := range l.Sections {
		fmt.Fprintf(w, "  %-24s %s %18s %10d  off %d\n", s.Name, s.Permissions, s.Address, s.Size, s.FileOffset)
	}
	fmt.Fprintf(w, "\nsegments (%d):\n", len(l.Segments))
	for _, s := range l.Segments {
		fmt.Fprintf(w, "  %-14s %s %18s %10d  off %d\n", s.Name, s.Permissions, s.Address, s.MemorySize, s.FileOffset)
	}
	if len(l.Libraries) > 0 {
		fmt.Fprintf(w, "\nneeded libraries: %s\n", strings.Join(l.Libraries, ", "))
	}
	fmt.Fprintf(w, "imports %d, exports %d, relocations %d, symbols %v\n", len(l.Imports), len(l.Exports), l.Relocations.Count, l.SymbolCounts)
	for _, lim := range l.Limitations {
		fmt.Fprintf(w, "limitation: %s\n", lim)
	}
}

func (c *cli) analyzeCommand() *cobra.Command {
	var req app.NativeRequest
	// The application analysis behind analyze: its flags are analyze's too,
	// since `rea analyze APP` is the command users type.
	js := c.analyzeJavaScriptApplicationCommand()
	nativeOwn := map[string]bool{}
	cmd := &cobra.Command{
		Long: `analyze gives the first look at a native binary: format, exhaustive procedure,
string, name, call-edge and reference counts, a sample of segments and the
static mitigations, from the bound analysis provider (native-lite unless
--provider or REA_ANALYSIS_PROVIDER says otherwise).

A directory or .asar file is an application, not a binary: without
--provider it is handed to analyze-javascript-application.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			if req.ProviderID == "" && isApplication(args[0]) {
				return js.RunE(js, args)
			}
			if req.ProviderID == "" && app.LooksLikeInstaller(args[0]) {
				return c.analyzeInstaller(cmd, args[0])
			}
			var appOnly []string
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if js.Flags().Lookup(f.Name) != nil && !nativeOwn[f.Name] {
					appOnly = append(appOnly, "--"+f.Name)
				}
			})
			if len(appOnly) > 0 {
				return abi.Errorf(abi.CodeInvalidRequest, "%s applies to applications (a directory or .asar), and %s is a binary", strings.Join(appOnly, ", "), args[0]).WithDetail("field", "flags")
			}
			return runNative(c, cmd, "analyze", func(a *app.App) (*app.NativeResult[query.Overview], error) {
				return a.BinaryOverview(cmd.Context(), req, c.progressPrinter("analyze"))
			}, c.printOverview)
		},
	}
	nativeCommand(cmd, operation.BinaryOverview(), &req)
	cmd.Flags().VisitAll(func(f *pflag.Flag) { nativeOwn[f.Name] = true })
	js.Flags().VisitAll(func(f *pflag.Flag) {
		if cmd.Flags().Lookup(f.Name) == nil {
			g := *f // the same Value: parsing analyze's flags sets the application command's
			g.Usage = "(application) " + f.Usage
			g.Annotations = map[string][]string{wrapperAnnotation: {"analyze-javascript-application"}}
			cmd.Flags().AddFlag(&g)
		}
	})
	return cmd
}

func isApplication(p string) bool {
	if strings.EqualFold(filepath.Ext(p), ".asar") {
		return true
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (c *cli) printOverview(o *query.Overview) {
	w := c.stdout
	fmt.Fprintf(w, "%s %s %s, %d bytes\n", o.Target.Format, o.Target.Architecture, o.Target.Type, o.Target.FileSize)
	fmt.Fprintf(w, "procedures %d (functions %d, thunks %d, externals %d)\n", o.Procedures, o.Functions, o.Thunks, o.Externals)
	trunc := ""
	if o.StringsTruncated {
		trunc = " (truncated)"
	}
	fmt.Fprintf(w, "strings %d%s, names %d, call edges %d, references %d\n", o.Strings, trunc, o.Names, o.CallEdges, o.References)
	fmt.Fprintf(w, "instructions %d in %d code bytes\n", o.Instructions, o.CodeBytes)
	fmt.Fprintln(w, "\nsegments:")
	for _, s := range o.Segments.Items {
		fmt.Fprintf(w, "  %-14s %s %18s %10d\n", s.Name, s.Permissions, s.Address, s.MemorySize)
	}
	if o.Segments.NextOffset != nil {
		fmt.Fprintf(w, "  … %d of %d shown\n", len(o.Segments.Items), o.Segments.Total)
	}
	fmt.Fprintln(w, "\nmitigations:")
	for _, m := range o.Mitigations {
		fmt.Fprintf(w, "  %-16s %s %s\n", m.Name, m.Status, m.Value)
	}
	for _, l := range o.Limitations {
		fmt.Fprintf(w, "limitation: %s\n", l)
	}
}

func (c *cli) printProcedures(p *query.Procedures) {
	for _, pr := range p.Procedures.Items {
		flags := pr.Kind
		if pr.Target != "" {
			flags += " -> " + pr.Target
		}
		fmt.Fprintf(c.stdout, "%18s %8d  %-40s %s (%s)", pr.Address, pr.Size, pr.Name, flags, pr.Source)
		if pr.Demangled != "" {
			fmt.Fprintf(c.stdout, "  %s", pr.Demangled)
		}
		fmt.Fprintln(c.stdout)
	}
	c.pageLine(len(p.Procedures.Items), p.Procedures.Total, p.Procedures.NextOffset, "procedures")
}

func (c *cli) pageLine(shown, total int, next *int, what string) {
	fmt.Fprintf(c.stdout, "%d of %d %s", shown, total, what)
	if next != nil {
		fmt.Fprintf(c.stdout, "; next page: --offset %d", *next)
	}
	fmt.Fprintln(c.stdout)
}

func (c *cli) functionsCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		Aliases: []string{"procedures"},
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "functions", func(a *app.App) (*app.NativeResult[query.Procedures], error) {
				if req.Pattern != "" {
					return a.SearchProcedures(cmd.Context(), req, c.progressPrinter("functions"))
				}
				return a.ListProcedures(cmd.Context(), req, c.progressPrinter("functions"))
			}, c.printProcedures)
		},
	}
	nativeCommand(cmd, operation.ListProcedures(), &req)
	c.searchFlags(cmd, &req, "search-procedures")
	return cmd
}

// searchFlags are the older form of a search, `functions --pattern` and
// `strings --pattern`, kept for one release: they run the search
// operation, whose own command is named in the deprecation.
func (c *cli) searchFlags(cmd *cobra.Command, req *app.NativeRequest, instead string) {
	fs := cmd.Flags()
	fs.StringVar(&req.Pattern, "pattern", "", "keep only names or values matching this pattern")
	fs.StringVar(&req.Mode, "mode", "", "pattern mode: literal (default) or regex")
	fs.BoolVar(&req.CaseSensitive, "case-sensitive", false, "match case exactly")
	c.deprecate(cmd, "use `rea "+instead+" BINARY PATTERN`", "pattern", "mode", "case-sensitive")
}

// deprecate hides an older form's flags from the help and warns on
// standard error when one is used (cobra's own deprecation notice goes to
// standard output, where it would break --format json).
func (c *cli) deprecate(cmd *cobra.Command, instead string, names ...string) {
	for _, n := range names {
		_ = cmd.Flags().MarkHidden(n)
		cmd.Flags().Lookup(n).Annotations = map[string][]string{deprecatedAnnotation: {instead}}
	}
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		for _, n := range names {
			if cmd.Flags().Changed(n) {
				fmt.Fprintf(c.stderr, "rea: --%s is deprecated and goes away in the next release: %s\n", n, instead)
			}
		}
		return run(cmd, args)
	}
}

// searchProceduresCommand is search_procedures: procedure names matching a
// pattern.
func (c *cli) searchProceduresCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Pattern = args[0], args[1]
			return runNative(c, cmd, "search-procedures", func(a *app.App) (*app.NativeResult[query.Procedures], error) {
				return a.SearchProcedures(cmd.Context(), req, c.progressPrinter("search-procedures"))
			}, c.printProcedures)
		},
	}
	return nativeCommand(cmd, operation.SearchProcedures(), &req)
}

// searchStringsCommand is search_strings: string values matching a pattern.
func (c *cli) searchStringsCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Pattern = args[0], args[1]
			return runNative(c, cmd, "search-strings", func(a *app.App) (*app.NativeResult[query.Strings], error) {
				return a.SearchStrings(cmd.Context(), req, c.progressPrinter("search-strings"))
			}, c.printStrings)
		},
	}
	return nativeCommand(cmd, operation.SearchStrings(), &req)
}

func (c *cli) printStrings(s *query.Strings) {
	for _, e := range s.Strings.Items {
		v := e.Value
		if e.Truncated {
			v += "…"
		}
		fmt.Fprintf(c.stdout, "%18s %-20s %-8s %5d  %q\n", e.Address, e.Section, e.Encoding, e.Length, v)
	}
	c.pageLine(len(s.Strings.Items), s.Strings.Total, s.Strings.NextOffset, "strings")
}

func (c *cli) stringsCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "strings", func(a *app.App) (*app.NativeResult[query.Strings], error) {
				if req.Pattern != "" {
					return a.SearchStrings(cmd.Context(), req, c.progressPrinter("strings"))
				}
				return a.ListStrings(cmd.Context(), req, c.progressPrinter("strings"))
			}, c.printStrings)
		},
	}
	nativeCommand(cmd, operation.ListStrings(), &req)
	c.searchFlags(cmd, &req, "search-strings")
	return cmd
}

func (c *cli) namesCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "names", func(a *app.App) (*app.NativeResult[query.Names], error) {
				return a.ListNames(cmd.Context(), req, c.progressPrinter("names"))
			}, func(n *query.Names) {
				for _, e := range n.Names.Items {
					fmt.Fprintf(c.stdout, "%18s %-10s %-14s %s\n", e.Address, e.Kind, e.Source, e.Name)
				}
				c.pageLine(len(n.Names.Items), n.Names.Total, n.Names.NextOffset, "names")
			})
		},
	}
	return nativeCommand(cmd, operation.ListNames(), &req)
}

func (c *cli) segmentsCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "segments", func(a *app.App) (*app.NativeResult[query.Segments], error) {
				return a.ListSegments(cmd.Context(), req, c.progressPrinter("segments"))
			}, func(s *query.Segments) {
				for _, g := range s.Segments {
					fmt.Fprintf(c.stdout, "segment %-14s %s %18s..%s\n", g.Name, g.Permissions, g.Address, g.Address+executable.Addr(g.MemorySize))
				}
				for _, g := range s.Sections {
					fmt.Fprintf(c.stdout, "section %-24s %s %18s..%s\n", g.Name, g.Permissions, g.Address, g.End())
				}
			})
		},
	}
	return nativeCommand(cmd, operation.ListSegments(), &req)
}

func (c *cli) printInstructions(ins []executable.Instruction) {
	for _, i := range ins {
		fmt.Fprintf(c.stdout, "%18s  %-24s %s\n", i.Address, i.Bytes, i.Text)
	}
}

func (c *cli) functionCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		Long: `function analyses one procedure, named by exact name or entry address: a page
of assembly (--assembly-offset/--assembly-limit), the basic blocks of its
local control-flow graph, callers and callees, references, and the strings
and names it refers to, each with exact totals (--offset/--limit page them).
Pseudocode is reported unavailable: native-lite has no decompiler.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Procedure = args[0], args[1]
			return runNative(c, cmd, "function", func(a *app.App) (*app.NativeResult[query.Dossier], error) {
				return a.AnalyzeFunction(cmd.Context(), req, c.progressPrinter("function"))
			}, c.printDossier)
		},
	}
	return nativeCommand(cmd, operation.AnalyzeFunction(), &req)
}

func (c *cli) printDossier(d *query.Dossier) {
	w := c.stdout
	p := d.Procedure
	fmt.Fprintf(w, "%s at %s, %d bytes (%s), %s from %s\n", p.Name, p.Address, p.Size, p.SizeBasis, p.Kind, p.Source)
	fmt.Fprintf(w, "pseudocode: %s — %s\n", d.Pseudocode.Status, d.Pseudocode.Reason)
	fmt.Fprintf(w, "\nassembly (%d of %d instructions):\n", len(d.Assembly.Items), d.Assembly.Total)
	c.printInstructions(d.Assembly.Items)
	fmt.Fprintf(w, "\nbasic blocks (%d):\n", d.Blocks.Total)
	for _, b := range d.Blocks.Items {
		var succ []string
		for _, s := range b.Successors {
			succ = append(succ, s.String())
		}
		fmt.Fprintf(w, "  %s..%s %3d instructions, %s -> [%s]\n", b.Start, b.End, b.Instructions, b.Terminator, strings.Join(succ, " "))
	}
	fmt.Fprintf(w, "\ncallers (%d):\n", d.Callers.Total)
	for _, e := range d.Callers.Items {
		fmt.Fprintf(w, "  %s in %s\n", e.Site, e.CallerName)
	}
	fmt.Fprintf(w, "callees (%d):\n", d.Callees.Total)
	for _, e := range d.Callees.Items {
		fmt.Fprintf(w, "  %s -> %s %s (%s)\n", e.Site, e.Callee, e.CalleeName, e.Kind)
	}
	fmt.Fprintf(w, "referenced strings (%d):\n", d.ReferencedStrings.Total)
	for _, s := range d.ReferencedStrings.Items {
		fmt.Fprintf(w, "  %s %q\n", s.Address, s.Value)
	}
	fmt.Fprintf(w, "references %d, referenced names %d\n", d.References.Total, d.ReferencedNames.Total)
}

func (c *cli) disassembleCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		Aliases: []string{"instructions"},
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Procedure = args[0], args[1]
			return runNative(c, cmd, "disassemble", func(a *app.App) (*app.NativeResult[query.Instructions], error) {
				return a.ReadFunctionInstructions(cmd.Context(), req, c.progressPrinter("disassemble"))
			}, func(r *query.Instructions) {
				fmt.Fprintf(c.stdout, "%s at %s (%d bytes)\n", r.Procedure.Name, r.Procedure.Address, r.Procedure.Size)
				c.printInstructions(r.Instructions.Items)
				c.pageLine(len(r.Instructions.Items), r.Instructions.Total, r.Instructions.NextOffset, "instructions")
			})
		},
	}
	return nativeCommand(cmd, operation.ReadFunctionInstructions(), &req)
}

// assemblyCommand is procedure_assembly: one page of a procedure's
// assembly text.
func (c *cli) assemblyCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Procedure = args[0], args[1]
			return runNative(c, cmd, "assembly", func(a *app.App) (*app.NativeResult[query.Instructions], error) {
				return a.ProcedureAssembly(cmd.Context(), req, c.progressPrinter("assembly"))
			}, func(r *query.Instructions) {
				fmt.Fprintf(c.stdout, "%s at %s (%d bytes)\n", r.Procedure.Name, r.Procedure.Address, r.Procedure.Size)
				c.printInstructions(r.Instructions.Items)
				c.pageLine(len(r.Instructions.Items), r.Instructions.Total, r.Instructions.NextOffset, "instructions")
			})
		},
	}
	return nativeCommand(cmd, operation.ProcedureAssembly(), &req)
}

func (c *cli) callsCommand(direction string) *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Procedure = args[0], args[1]
			return runNative(c, cmd, direction, func(a *app.App) (*app.NativeResult[query.Calls], error) {
				if direction == "callers" {
					return a.ProcedureCallers(cmd.Context(), req, c.progressPrinter(direction))
				}
				return a.ProcedureCallees(cmd.Context(), req, c.progressPrinter(direction))
			}, func(r *query.Calls) {
				for _, e := range r.Calls.Items {
					fmt.Fprintf(c.stdout, "%18s %-30s -> %18s %s (%s)\n", e.Site, e.CallerName, e.Callee, e.CalleeName, e.Kind)
				}
				c.pageLine(len(r.Calls.Items), r.Calls.Total, r.Calls.NextOffset, direction)
			})
		},
	}
	if direction == "callers" {
		return nativeCommand(cmd, operation.ProcedureCallers(), &req)
	}
	return nativeCommand(cmd, operation.ProcedureCallees(), &req)
}

func (c *cli) xrefsCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Address = args[0], args[1]
			return runNative(c, cmd, "xrefs", func(a *app.App) (*app.NativeResult[query.Xrefs], error) {
				return a.Xrefs(cmd.Context(), req, c.progressPrinter("xrefs"))
			}, func(r *query.Xrefs) {
				fmt.Fprintf(c.stdout, "references to %s %s\n", r.Address, r.Name)
				for _, e := range r.References.Items {
					in := ""
					if e.Procedure != nil {
						in = " in " + e.Procedure.String()
					}
					fmt.Fprintf(c.stdout, "%18s %-8s%s\n", e.From, e.Kind, in)
				}
				c.pageLine(len(r.References.Items), r.References.Total, r.References.NextOffset, "references")
			})
		},
	}
	return nativeCommand(cmd, operation.Xrefs(), &req)
}

func (c *cli) searchCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		Use:   "search BINARY PATTERN",
		Short: "Search procedure names and strings (literal, or --mode regex), paged",
		Long: `search runs search-procedures and search-strings with the same pattern and
flags and prints both pages.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Pattern = args[0], args[1]
			a, err := c.application()
			if err != nil {
				return err
			}
			procs, err := a.SearchProcedures(cmd.Context(), req, c.progressPrinter("search"))
			if err != nil {
				return err
			}
			strs, err := a.SearchStrings(cmd.Context(), req, c.progressPrinter("search"))
			c.endProgress()
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(map[string]any{"procedures": procs.Evidence, "strings": strs.Evidence})
			}
			c.printProcedures(procs.Result)
			fmt.Fprintln(c.stdout)
			c.printStrings(strs.Result)
			fmt.Fprintf(c.stdout, "\nevidence %s %s\n", procs.Evidence.EvidenceID, strs.Evidence.EvidenceID)
			return nil
		},
	}
	nativeFlags(cmd, &req, true)
	cmd.Flags().StringVar(&req.Mode, "mode", "", "pattern mode: literal (default) or regex")
	cmd.Flags().BoolVar(&req.CaseSensitive, "case-sensitive", false, "match case exactly")
	return cmd
}

func (c *cli) addressCommand(name string) *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath, req.Address = args[0], args[1]
			ctx, progress := cmd.Context(), c.progressPrinter(name)
			switch name {
			case "resolve":
				return runNative(c, cmd, name, func(a *app.App) (*app.NativeResult[query.Resolution], error) {
					return a.ResolveContainingProcedure(ctx, req, progress)
				}, func(r *query.Resolution) {
					fmt.Fprintf(c.stdout, "%s: %s", r.Address, r.Status)
					if r.Procedure != nil {
						fmt.Fprintf(c.stdout, " %s at %s (+%#x)", r.Procedure.Name, r.Procedure.Address, uint64(r.Address-r.Procedure.Address))
					} else if r.Section != "" {
						fmt.Fprintf(c.stdout, " in %s", r.Section)
					}
					fmt.Fprintln(c.stdout)
				})
			case "file-offset":
				return runNative(c, cmd, name, func(a *app.App) (*app.NativeResult[query.FileOffset], error) {
					return a.AddressToFileOffset(ctx, req, progress)
				}, func(r *query.FileOffset) {
					fmt.Fprintf(c.stdout, "%s -> file offset %d (%#x) in %s\n", r.Address, r.FileOffset, r.FileOffset, r.Section)
				})
			}
			return runNative(c, cmd, name, func(a *app.App) (*app.NativeResult[query.Bytes], error) {
				return a.ReadBytes(ctx, req, progress)
			}, func(r *query.Bytes) {
				fmt.Fprintf(c.stdout, "%s %d bytes: %s\n", r.Address, r.Length, r.Hex)
			})
		},
	}
	return nativeCommand(cmd, map[string]operation.Spec{"resolve": operation.ResolveContainingProcedure(),
		"file-offset": operation.AddressToFileOffset(), "read-bytes": operation.ReadBytes()}[name], &req)
}

func (c *cli) compareFunctionsCommand() *cobra.Command {
	var req app.CompareFunctionsRequest
	cmd := &cobra.Command{
		Long: `compare-functions reads analyze_function Evidence records (one record or a
JSON array of records per file, e.g. saved from rea --format json function),
pairs functions by name and compares identity, pseudocode, assembly,
comments, calls, references, strings and names, and the address-normalised
control-flow graph. A facet that was paged out is truncated and a facet the
provider cannot produce is unknown: neither is reported as equal.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if req.Left, err = readEvidenceRecords(args[0], "left"); err != nil {
				return err
			}
			if req.Right, err = readEvidenceRecords(args[1], "right"); err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.CompareFunctions(req)
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(res.Evidence)
			}
			cmp := res.Comparison
			fmt.Fprintf(c.stdout, "%s: %d pairs (%d unchanged, %d changed, %d truncated, %d unknown), %d added, %d removed\n", cmp.Status,
				cmp.Summary.Pairs, cmp.Summary.Unchanged, cmp.Summary.Changed, cmp.Summary.Truncated, cmp.Summary.Unknown, cmp.Summary.Added, cmp.Summary.Removed)
			for _, ch := range cmp.Changes.Items {
				name := ""
				if ch.Match.LeftName != nil {
					name = *ch.Match.LeftName
				} else if ch.Match.RightName != nil {
					name = *ch.Match.RightName
				}
				fmt.Fprintf(c.stdout, "\n%-10s %s\n", ch.Status, name)
				for _, d := range ch.Dimensions {
					delta := ""
					if d.TextDelta != nil && d.Status == "changed" {
						delta = fmt.Sprintf(" +%d -%d in %d hunks", d.TextDelta.AddedLines, d.TextDelta.RemovedLines, d.TextDelta.Hunks)
					}
					fmt.Fprintf(c.stdout, "  %-14s %-10s %d/%d%s\n", d.Dimension, d.Status, d.LeftCount, d.RightCount, delta)
				}
			}
			c.pageLine(len(cmp.Changes.Items), cmp.Changes.Total, cmp.Changes.NextOffset, "functions")
			fmt.Fprintf(c.stdout, "\nevidence %s\n", res.Evidence.EvidenceID)
			return nil
		},
	}
	return fromSpec(cmd, operation.CompareFunctions(), targets{"offset": &req.Offset, "limit": &req.Limit})
}
