package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/wasm/module"
)

func (c *cli) modulesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "modules",
		Short: "List, warm and run the WebAssembly analyzer modules",
		Long: `Analyzer modules are the only code in rea that reads untrusted bytes. They are
WebAssembly (Go compiled for wasip1) and run in wazero under the global limits.
Modules embedded at build time can be replaced by NAME.wasm files in
--module-dir (REA_MODULE_DIR); a module without a fuel counter is metered when
it is loaded.`,
	}
	cmd.AddCommand(c.modulesListCommand(), c.modulesRunCommand(), c.modulesWarmCommand())
	return cmd
}

func (c *cli) modulesListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List modules with their digest, size, source and metering",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := c.application()
			if err != nil {
				return err
			}
			list := a.ListModules()
			if c.format == "json" {
				return c.printJSON(list)
			}
			if len(list.Modules) == 0 {
				fmt.Fprintln(c.stdout, "no modules: this binary was built without them; run `make` or pass --module-dir")
				return nil
			}
			fmt.Fprintf(c.stdout, "%-10s %-64s %10s %-8s %s\n", "NAME", "SHA256", "SIZE", "SOURCE", "METERED")
			for _, m := range list.Modules {
				metered := "yes"
				if !m.Metered {
					metered = "no (metered at load)"
				} else if m.MeteredAtLoad {
					metered = "at load"
				}
				fmt.Fprintf(c.stdout, "%-10s %-64s %10d %-8s %s\n", m.Name, m.SHA256, m.Size, m.Source, metered)
			}
			return nil
		},
	}
}

func (c *cli) modulesWarmCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "warm",
		Short: "Compile every module into the on-disk cache so later runs start fast",
		Long: `Compile every module into rea's compiled-code cache (under the user cache
directory). The first compile of a large module takes seconds; a cache hit
takes a fraction of a second. 'make' runs this after building.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := c.application()
			if err != nil {
				return err
			}
			return a.WarmModules(c.ctx, func(id module.Identity, took time.Duration, err error) {
				if err != nil {
					fmt.Fprintf(c.stderr, "module %s: %v\n", id.Name, err)
					return
				}
				fmt.Fprintf(c.stderr, "module %-10s ready in %s\n", id.Name, took.Round(time.Millisecond))
			})
		},
	}
}

func (c *cli) modulesRunCommand() *cobra.Command {
	var requestPath, operation string
	var mounts []string
	cmd := &cobra.Command{
		Use:   "run NAME --request FILE|-",
		Short: "Run one module on a request under the limits and print its response",
		Long: `Run one module on a request and print its response as JSON. The request file
holds the module's params object, or a full envelope {"operation":…,"params":…}.
Use --mount GUEST=HOSTDIR to expose a host directory read-only (e.g.
--mount /in=./app); the module can never leave it, not even through symlinks.

On failure the typed error is printed as JSON and rea exits 1, e.g. a
resource_constraint naming the limit that was hit (memory, fuel, deadline,
output).`,
		Example: `  echo '{"operation":"inventory","params":{"root":"/in"}}' | rea modules run artifact --request - --mount /in=testdata/artifact
  rea modules run guidance --request query.json --fuel 1000000000 --timeout 10s`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("format") && os.Getenv("REA_FORMAT") == "" {
				c.format = "json"
			}
			if requestPath == "" {
				return invalidFlag("request", "name a request file, or - for standard input")
			}
			req, err := c.readModuleRequest(requestPath)
			if err != nil {
				return err
			}
			req.Module = args[0]
			if operation != "" {
				req.Operation = operation
			}
			req.Mounts = map[string]string{}
			for _, m := range mounts {
				guest, host, ok := strings.Cut(m, "=")
				if !ok {
					return invalidFlag("mount", fmt.Sprintf("%q is not GUEST=HOSTDIR", m))
				}
				req.Mounts[guest] = host
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.RunModule(c.ctx, req, c.progressPrinter(args[0]))
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(res)
			}
			fmt.Fprintf(c.stdout, "%s\n", res.Result)
			fmt.Fprintf(c.stderr, "module %s: fuel %d, memory %d bytes, %d ms\n", res.Module.Name, res.Usage.FuelUsed, res.Usage.PeakMemoryBytes, res.Usage.WallMillis)
			return nil
		},
	}
	cmd.Flags().StringVar(&requestPath, "request", "", "request JSON file, or - for standard input")
	cmd.Flags().StringVar(&operation, "operation", "", "operation name (overrides the envelope's)")
	cmd.Flags().StringArrayVar(&mounts, "mount", nil, "GUEST=HOSTDIR read-only mount, repeatable")
	return cmd
}

// readModuleRequest reads either a full envelope or a bare params object.
func (c *cli) readModuleRequest(path string) (app.ModuleRunRequest, error) {
	var r io.Reader = c.stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return app.ModuleRunRequest{}, invalidFlag("request", err.Error())
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, 64<<20+1))
	if err != nil {
		return app.ModuleRunRequest{}, invalidFlag("request", err.Error())
	}
	if len(raw) > 64<<20 {
		return app.ModuleRunRequest{}, invalidFlag("request", "request is larger than 64 MiB; mount bulk input with --mount instead")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		e := abi.Errorf(abi.CodeInvalidRequest, "request is not a JSON object: %v", err).WithDetail("flag", "--request")
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			e.Message += fmt.Sprintf(" (at byte %d)", syn.Offset)
			e.WithDetail("offset", syn.Offset)
		} else if len(bytes.TrimSpace(raw)) == 0 || err.Error() == "unexpected end of JSON input" {
			e.Message += fmt.Sprintf(" (input ends at byte %d)", len(raw))
			e.WithDetail("offset", len(raw))
		}
		return app.ModuleRunRequest{}, e
	}
	var req app.ModuleRunRequest
	if op, ok := probe["operation"]; ok {
		if err := json.Unmarshal(op, &req.Operation); err != nil {
			return req, abi.Errorf(abi.CodeInvalidRequest, "operation must be a string").WithDetail("field", "operation")
		}
		req.Params = probe["params"]
		return req, nil
	}
	req.Params = raw
	return req, nil
}

// progressPrinter shows module progress on stderr when it is a terminal and
// the run has lasted a second, at most every 200 ms, so long runs never
// look hung and short ones print nothing but their result.
func (c *cli) progressPrinter(name string) func(abi.Progress) {
	f, ok := c.stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	// A run shorter than a second shows no progress; a longer one shows at
	// most five updates a second.
	started := time.Now()
	var last time.Time
	return func(p abi.Progress) {
		now := time.Now()
		if now.Sub(started) < time.Second || now.Sub(last) < 200*time.Millisecond {
			return
		}
		last = now
		if p.Total > 0 {
			fmt.Fprintf(f, "\r%s: %s %d/%d %s\033[K", name, p.Phase, p.Done, p.Total, p.Message)
		} else {
			fmt.Fprintf(f, "\r%s: %s %d %s\033[K", name, p.Phase, p.Done, p.Message)
		}
	}
}
