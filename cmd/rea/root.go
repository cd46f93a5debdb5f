package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/sandbox"
	"rea/jsengine/report"
)

// Exit statuses: 0 success (unknowns and paging are still success), 1 any
// failure, 128 + the signal when a signal ended rea (130 SIGINT, 143
// SIGTERM, 129 SIGHUP; see main.go).
const (
	exitOK          = 0
	exitFailure     = 1
	exitInterrupted = 130
)

// cli carries what every command needs: streams, the global flags and the
// lazily built application.
type cli struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	memoryLimit string
	fuel        string
	timeout     string
	format      string
	moduleDir   string
	logLevel    string

	// notesPath is the --notes bundle of analyst notes; notesLoaded its
	// ledger once read.
	notesPath   string
	notesLoaded *evidence.Ledger

	app *app.App
	log *slog.Logger
	// serving is set by `rea mcp`: its App keeps modules compiled across
	// requests (within serverRetainedModuleBytes) instead of releasing
	// each as soon as the command is done with it.
	serving bool
	// exitCode is a non-failure status a command chose (e.g. partial
	// coverage); failures return errors instead.
	exitCode int
	// shippedElectron, set by `rea analyze PACKAGE`, is the Electron
	// version read from the package's executable for the analysis.
	shippedElectron *report.ShippedElectron

	// findingSource is the code --show-source prints under findings.
	findingSource map[sourcewire.SourceRef][]sourcewire.Line
}

// globalFlagEnv pairs each global flag with its environment variable; a
// flag given on the command line wins over the environment.
func globalFlagEnv() [][2]string {
	return [][2]string{
		{"memory-limit", "REA_MEMORY_LIMIT"},
		{"fuel", "REA_FUEL"},
		{"timeout", "REA_TIMEOUT"},
		{"format", "REA_FORMAT"},
		{"module-dir", "REA_MODULE_DIR"},
		{"log-level", "REA_LOG_LEVEL"},
	}
}

func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	root := c.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if c.app != nil {
		_ = c.app.Close(context.Background())
	}
	if err == nil {
		return c.exitCode
	}
	c.printError(err)
	var typed *abi.Error
	if errors.As(err, &typed) && typed.Code == abi.CodeCancelled && ctx.Err() != nil {
		return exitInterrupted
	}
	return exitFailure
}

func (c *cli) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "rea",
		Short: "Reverse engineer anything: evidence-backed analysis of software you have no source for",
		Long: `rea investigates Electron/JavaScript applications, artifacts and native binaries
without executing them. Every parser of untrusted bytes runs as a WebAssembly
module under hard memory, fuel and time limits; every result is Evidence you
can reproduce.

Use it three ways:
  rea mcp                 serve MCP over stdio for an agent
  rea <command> ...       one-shot analysis from the shell or CI
  rea modules ...         inspect, warm and run the analyzer modules

Limits apply to every module run and can also be set in the environment
(REA_MEMORY_LIMIT, REA_FUEL, REA_TIMEOUT, REA_FORMAT, REA_MODULE_DIR,
REA_LOG_LEVEL); a flag on the command line wins over the environment.

SIGINT (Ctrl-C), SIGTERM and SIGHUP cancel the work in progress; rea then
cleans up what it started (captured processes, temporary directories) and
exits 130, 143 or 129 respectively (128 + the signal number). A second signal
does not cut the cleanup short; it is bounded by its deadline.

Results of module runs over content-addressed input are cached under the
user cache directory (rea/results, trimmed to 1 GiB); REA_RESULT_CACHE_DIR
moves that cache, and REA_RESULT_CACHE_DIR=off keeps it in memory only. A
repeated analyze-javascript-application over an application whose bytes,
request and rea binary are unchanged is answered from it without loading
any module (--log-level debug says "served from the result cache").

A directory's analysis starts beside its inventory, on the files the result
cache's key walk hashed, and is kept only when the inventory lists the same
files with the same bytes (else it runs again on the inventory's);
REA_ANALYSE_AFTER_INVENTORY=1 runs one after the other, with the same answer.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.applyEnvironment(cmd.Flags()); err != nil {
				return err
			}
			if (c.format == "sarif" || c.format == "html") && cmd.Name() != "analyze-javascript-application" && cmd.Name() != "analyze" {
				return invalidFlag("format", c.format+" output is for analyze and analyze-javascript-application; use text or json here")
			}
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&c.memoryLimit, "memory-limit", sandbox.FormatBytes(sandbox.DefaultMemoryBytes), "memory limit of each module run, e.g. 512MiB or 2GiB")
	pf.StringVar(&c.fuel, "fuel", strconv.FormatUint(sandbox.DefaultFuel, 10), "fuel of each module run: loop iterations and calls it may execute")
	pf.StringVar(&c.timeout, "timeout", sandbox.DefaultDeadline.String(), "wall-clock deadline of each module run, e.g. 30s or 5m")
	pf.StringVar(&c.format, "format", "text", "output format: text or json")
	pf.StringVar(&c.moduleDir, "module-dir", "", "directory of NAME.wasm modules that replace embedded ones (unmetered modules are metered at load)")
	pf.StringVar(&c.logLevel, "log-level", "info", "stderr log level: debug, info, warn or error")
	pf.StringVar(&c.notesPath, "notes", "", "analyst notes file (an Evidence bundle): native commands show its notes, set-name/set-comment/set-bookmark/… record theirs in it")

	root.AddCommand(c.versionCommand(), c.modulesCommand(), c.mcpCommand(), c.inspectEvidenceBundleCommand(), c.catalogCommand(), c.analyzeJavaScriptApplicationCommand(), c.compareProcessCapturesCommand())
	root.AddCommand(c.artifactCommands()...)
	root.AddCommand(c.guidanceCommands()...)
	root.AddCommand(c.captureCommand(), c.cacheCommand())
	root.AddCommand(c.nativeCommands()...)
	root.AddCommand(c.nativeDepthCommands()...)
	root.AddCommand(c.noteCommands()...)
	root.AddCommand(c.inspectElectronBinaryCommand())
	root.AddCommand(c.compareCommands()...)
	root.AddCommand(c.sourceCommands()...)
	root.AddCommand(c.setupCommand(), c.doctorCommand())
	c.withListRules(root, "analyze", "analyze-javascript-application")
	root.AddCommand(c.reconstructCommands()...)
	root.AddCommand(c.runtimeCommands()...)
	return root
}

// applyEnvironment fills every global flag not given on the command line
// from its REA_* variable.
func (c *cli) applyEnvironment(flags *pflag.FlagSet) error {
	for _, pair := range globalFlagEnv() {
		f := flags.Lookup(pair[0])
		if f == nil || f.Changed {
			continue
		}
		if v, ok := os.LookupEnv(pair[1]); ok && v != "" {
			if err := f.Value.Set(v); err != nil {
				return invalidFlag(pair[0], fmt.Sprintf("%s=%q: %v", pair[1], v, err))
			}
		}
	}
	if c.format != "text" && c.format != "json" && c.format != "sarif" && c.format != "html" {
		return invalidFlag("format", fmt.Sprintf("%q is not an output format; use text or json (sarif or html for analyze-javascript-application)", c.format))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return invalidFlag("log-level", fmt.Sprintf("%q is not a log level; use debug, info, warn or error", c.logLevel))
	}
	c.log = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: level}))
	return nil
}

func invalidFlag(name, msg string) *abi.Error {
	return abi.Errorf(abi.CodeInvalidRequest, "--%s: %s", name, msg).WithDetail("flag", "--"+name)
}

// limits parses the limit flags.
func (c *cli) limits() (sandbox.Limits, error) {
	var l sandbox.Limits
	mem, err := sandbox.ParseBytes(c.memoryLimit)
	if err != nil {
		return l, invalidFlag("memory-limit", err.Error())
	}
	if mem == 0 {
		// 0 would silently mean the default, as --fuel 0 is refused.
		return l, invalidFlag("memory-limit", fmt.Sprintf("%q is not a positive size such as 512MiB or 2GiB", c.memoryLimit))
	}
	fuel, err := strconv.ParseUint(strings.ReplaceAll(c.fuel, "_", ""), 10, 64)
	if err != nil || fuel == 0 {
		return l, invalidFlag("fuel", fmt.Sprintf("%q is not a positive whole number", c.fuel))
	}
	timeout, err := time.ParseDuration(c.timeout)
	if err != nil || timeout <= 0 {
		return l, invalidFlag("timeout", fmt.Sprintf("%q is not a positive duration such as 30s or 5m", c.timeout))
	}
	return sandbox.Limits{MemoryBytes: mem, Fuel: fuel, Deadline: timeout}, nil
}

// serverRetainedModuleBytes is how much wasm `rea mcp` keeps compiled
// (about four times as much compiled code): the application analysis's
// three modules (31 MB) and the source module (16 MB); others load again
// from the compile cache (0.1–0.3 s) when they are used after those.
const serverRetainedModuleBytes = 48 << 20

// application builds the App on first use, so `rea --help` and `rea
// version` never pay for loading modules they do not run.
func (c *cli) application() (*app.App, error) {
	if c.app != nil {
		return c.app, nil
	}
	limits, err := c.limits()
	if err != nil {
		return nil, err
	}
	cfg := app.Config{ModuleDir: c.moduleDir, Limits: limits, Logger: c.log,
		ResultCacheDir: os.Getenv("REA_RESULT_CACHE_DIR"), AnalyseAfterInventory: os.Getenv("REA_ANALYSE_AFTER_INVENTORY") == "1"}
	if c.serving {
		cfg.MaxRetainedModuleBytes = serverRetainedModuleBytes
	} else {
		cfg.ReleaseModules = true
		// A one-shot command's peak is the modules' code and memories
		// plus this heap, whose live part (file trees, queued transforms,
		// the inventory) is small and allocated slowly: collecting at
		// 1.5x live instead of 2x cut the whole-@theia/core peak by 4-5 MB.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(50)
		}
	}
	a, err := app.New(cfg)
	if err != nil {
		return nil, err
	}
	if c.notesPath != "" {
		l, err := c.notesLedger()
		if err != nil {
			return nil, err
		}
		a.Notes = app.LedgerNotes(l)
	}
	c.app = a
	return a, nil
}

// printJSON writes v as indented JSON on stdout.
// printWithReferences prints a registry result with the retained
// references beside its bare-id arrays, as MCP returns it
// (evidence.WithReferences).
func (c *cli) printWithReferences(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.printJSON(json.RawMessage(evidence.WithReferences(b)))
}

func (c *cli) printJSON(v any) error {
	if rec, ok := v.(evidence.Record); ok {
		// The same bytes as the encoder below, in one pass over the
		// record's canonical form (megabytes for a large application).
		return rec.WriteIndented(c.stdout, "", "  ")
	}
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printError reports a failure: the typed error as JSON on stdout with
// --format json (so scripts read one stream), as text on stderr otherwise.
func (c *cli) printError(err error) {
	var typed *abi.Error
	if !errors.As(err, &typed) {
		typed = abi.Errorf(abi.CodeInvalidRequest, "%v", err)
		if !isUsageError(err) {
			typed.Code = abi.CodeInternal
		}
	}
	if c.format == "json" {
		_ = c.printJSON(map[string]any{"error": typed})
		return
	}
	fmt.Fprintf(c.stderr, "rea: %s: %s\n", typed.Code, typed.Message)
	if len(typed.Details) > 0 {
		b, _ := json.Marshal(typed.Details)
		fmt.Fprintf(c.stderr, "details: %s\n", b)
	}
}

// isUsageError recognises cobra's argument and flag errors.
func isUsageError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires ", "invalid argument", "flag needs"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
