package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/mcpserver"
	"rea/wasm/module"
)

// cliOnlyCommands are CLI commands with no MCP tool, and why. The catalog
// test fails when a command is neither paired with a tool nor listed here.
func cliOnlyCommands() map[string]string {
	return map[string]string{
		"version":      "identity of the binary; MCP clients read it from binary_session",
		"modules list": "module inventory for operators; MCP clients read module digests from binary_session",
		"modules run":  "raw module invocation for module developers, below the tool contracts",
		"modules warm": "fills the compile cache at build time; `rea mcp` warms in the background",
		"mcp":          "starts the MCP server itself",
		"mcp doctor":   "checks a server from the outside, as a client would",
		"catalog":      "generates this catalog",
		"setup":        "changes client configuration on the user's machine, with confirmation",
		"doctor":       "diagnoses client registrations from the outside",
		"completion":   "shell completion scripts",
		"cache show":   "housekeeping of this machine's caches; no analysis",
		"cache clear":  "housekeeping of this machine's caches; no analysis",
		"guidance":     "the older form of guidance search and guidance read (--action), kept for one release",
		"search":       "runs search_procedures and search_strings with one pattern; search-procedures and search-strings are each tool's own command",
		"providers":    "provider discovery for operators; MCP clients read analysis_provider_candidates from binary_session",
	}
}

// catalogDocument is docs/product-catalog.json.
type catalogDocument struct {
	Generator map[string]any          `json:"generator"`
	Server    map[string]any          `json:"server"`
	Tools     []mcpserver.CatalogTool `json:"tools"`
	Prompts   any                     `json:"prompts"`
	CLI       []catalogCommand        `json:"cli"`
	Providers any                     `json:"providers"`
	Modules   []module.Identity       `json:"modules"`
	Digests   map[string]string       `json:"digests"`
}

type catalogCommand struct {
	Command        string `json:"command"`
	Short          string `json:"short"`
	MCPTool        string `json:"mcp_tool,omitempty"`
	OneSidedReason string `json:"one_sided_reason,omitempty"`
}

func (c *cli) catalogCommand() *cobra.Command {
	var output, revision string
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Write the generated product catalog (tools, prompts, CLI, modules, digests)",
		Long: `Generate the machine-readable product catalog: every MCP tool (name, title,
family, description, effects, annotations, input and output schemas, advertised
examples), every prompt and its arguments, every CLI command with the MCP tool
it shares a service with, the module names and digests, and the catalog
digests. It describes the binary that runs it; 'make docs' writes it to
docs/product-catalog.json for the exact source revision being built.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			doc, err := c.buildCatalog(cmd.Root(), revision)
			if err != nil {
				return err
			}
			b, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				return err
			}
			b = append(b, '\n')
			if output == "-" {
				_, err = c.stdout.Write(b)
				return err
			}
			if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(output, b, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(c.stderr, "wrote %s (%d tools, %d CLI commands, catalog %s)\n", output, len(doc.Tools), len(doc.CLI), doc.Digests["catalog"])
			return nil
		},
	}
	cmd.Flags().StringVar(&output, "output", "docs/product-catalog.json", "where to write the catalog; - for standard output")
	cmd.Flags().StringVar(&revision, "source-revision", "", "source revision being built (make docs passes git's)")
	return cmd
}

func (c *cli) buildCatalog(root *cobra.Command, revision string) (*catalogDocument, error) {
	a, err := c.application()
	if err != nil {
		return nil, err
	}
	srv, err := mcpserver.New(a, mcpserver.Options{Version: version})
	if err != nil {
		return nil, err
	}
	cat := srv.Catalog()
	doc := &catalogDocument{
		Generator: map[string]any{"name": "rea catalog", "rea": version, "go": runtime.Version(), "source_revision": revision, "abi_version": abi.Version},
		Server:    map[string]any{"name": mcpserver.ServerName, "version": version, "families": mcpserver.Families()},
		Tools:     cat.Tools,
		Prompts:   cat.Prompts,
		Modules:   a.ListModules().Modules,
	}
	// Providers as discovered here, without launching anything.
	if rep, err := a.Providers(""); err == nil {
		doc.Providers = rep.Candidates
	} else {
		doc.Providers = []any{}
	}
	toolOf := map[string]string{}
	for _, t := range cat.Tools {
		if t.CLI != "" {
			toolOf[t.CLI] = t.Name
		}
	}
	only := cliOnlyCommands()
	for _, path := range leafCommands(root) {
		cc := catalogCommand{Command: path.path, Short: path.short, MCPTool: toolOf[path.path]}
		if cc.MCPTool == "" {
			cc.OneSidedReason = only[path.path]
			if first, _, _ := strings.Cut(path.path, " "); cc.OneSidedReason == "" {
				cc.OneSidedReason = only[first]
			}
		}
		doc.CLI = append(doc.CLI, cc)
	}
	doc.Digests = map[string]string{"tools": cat.ToolsDigest, "prompts": cat.PromptsDigest}
	all, _ := json.Marshal(struct {
		T, P, C any
	}{cat.Tools, cat.Prompts, doc.CLI})
	sum := sha256.Sum256(all)
	doc.Digests["catalog"] = "sha256:" + hex.EncodeToString(sum[:])
	return doc, nil
}

type commandPath struct{ path, short string }

// leafCommands lists every runnable command by its path below the root.
func leafCommands(root *cobra.Command) []commandPath {
	var out []commandPath
	var walk func(*cobra.Command, []string)
	walk = func(cmd *cobra.Command, prefix []string) {
		for _, sub := range cmd.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			p := append(append([]string{}, prefix...), sub.Name())
			if sub.Runnable() {
				out = append(out, commandPath{strings.Join(p, " "), sub.Short})
			}
			walk(sub, p)
		}
	}
	walk(root, nil)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}
