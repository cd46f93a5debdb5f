package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/wasm/module"
)

// Version of rea itself; release builds override it with -ldflags -X.
var version = "0.1.0-dev"

// versionReport is what `rea version` prints.
type versionReport struct {
	Rea string `json:"rea"`
	Go  string `json:"go"`
	ABI int    `json:"abi_version"`
	// Dependencies are the engine versions: wazero and the MCP SDK from
	// this binary, esbuild and goja from the modules that run them.
	Dependencies map[string]string `json:"dependencies"`
	Modules      []module.Identity `json:"modules"`
}

// engines maps module paths to the names rea reports them under.
func engines() map[string]string {
	return map[string]string{
		"github.com/tetratelabs/wazero":          "wazero",
		"github.com/evanw/esbuild":               "esbuild",
		"github.com/dop251/goja":                 "goja",
		"github.com/modelcontextprotocol/go-sdk": "mcp-go-sdk",
	}
}

func (c *cli) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print rea's version, the versions of its engines and the digests of its modules",
		Long: `Print rea's version, the Go toolchain, the versions of the engines rea is built
on (wazero, esbuild, goja, the MCP SDK) and the sha256 digest of every module,
so a result can be tied to the exact code that produced it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep := versionReport{Rea: version, Go: runtime.Version(), ABI: abi.Version, Dependencies: dependencyVersions()}
			a, err := c.application()
			if err != nil {
				return err
			}
			rep.Modules = a.ListModules().Modules
			for _, m := range rep.Modules {
				bi, err := a.Runner.Catalog().BuildInfo(m.Name)
				if err != nil {
					continue
				}
				for _, d := range bi.Deps {
					if name, ok := engines()[d.Path]; ok && rep.Dependencies[name] == "unknown" {
						rep.Dependencies[name] = dependencyVersion(d)
					}
				}
			}
			if c.format == "json" {
				return c.printJSON(rep)
			}
			fmt.Fprintf(c.stdout, "rea %s (%s, module ABI %d)\n", rep.Rea, rep.Go, rep.ABI)
			for _, k := range []string{"wazero", "esbuild", "goja", "mcp-go-sdk"} {
				fmt.Fprintf(c.stdout, "  %-11s %s\n", k, rep.Dependencies[k])
			}
			if len(rep.Modules) == 0 {
				fmt.Fprintln(c.stdout, "modules: none embedded (run `make` to build them)")
			}
			for _, m := range rep.Modules {
				fmt.Fprintf(c.stdout, "  module %-10s sha256:%s (%s)\n", m.Name, m.SHA256, m.Source)
			}
			return nil
		},
	}
}

// dependencyVersions reads the engine versions linked into this binary;
// engines that only run inside modules stay "unknown" until a module that
// carries them is found.
func dependencyVersions() map[string]string {
	out := map[string]string{}
	for _, name := range engines() {
		out[name] = "unknown"
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	for _, d := range info.Deps {
		if name, ok := engines()[d.Path]; ok {
			out[name] = dependencyVersion(d)
		}
	}
	return out
}

// dependencyVersion is a dependency's version as a build records it, with
// its replacement named.
func dependencyVersion(d *debug.Module) string {
	if d.Replace == nil {
		return d.Version
	}
	if strings.HasPrefix(d.Replace.Path, ".") {
		// A patched copy in the source tree (third_party/wazero, esbuild):
		// the upstream version it is, and where the patches are.
		return d.Version + " (patched: " + strings.TrimPrefix(d.Replace.Path, "./") + ")"
	}
	return strings.TrimSpace(d.Replace.Version + " (replaced)")
}
