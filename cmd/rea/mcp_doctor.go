package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"rea/abi"
)

// doctorReport is what `rea mcp doctor` found by talking to a fresh server.
type doctorReport struct {
	Healthy       bool           `json:"healthy"`
	ServerPath    string         `json:"server_path"`
	Protocol      string         `json:"negotiated_protocol_version"`
	Server        map[string]any `json:"server"`
	CatalogDigest string         `json:"catalog_digest"`
	Tools         int            `json:"tools"`
	Prompts       []string       `json:"prompts"`
	Modules       []any          `json:"modules"`
	Checks        []doctorCheck  `json:"checks"`
	StartupMillis int64          `json:"startup_ms"`
}

type doctorCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func (c *cli) mcpDoctorCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Start `rea mcp` as a client would and check identity, catalog and prompts",
		Long: `Start this binary as an MCP server over stdio, perform the initialize handshake,
call binary_session, list tools and prompts, and report the server identity,
the catalog digest and the prompt inventory. Exits 1 when a check fails.
The REA_MCP_* settings of this environment apply to the started server.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			rep, err := c.mcpDoctor()
			if err != nil {
				return err
			}
			if c.format == "json" {
				if err := c.printJSON(rep); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(c.stdout, "server   %s (%v %v), protocol %s, started in %d ms\n", rep.ServerPath, rep.Server["name"], rep.Server["version"], rep.Protocol, rep.StartupMillis)
				fmt.Fprintf(c.stdout, "catalog  %s (%d tools)\nprompts  %v\n", rep.CatalogDigest, rep.Tools, rep.Prompts)
				for _, ch := range rep.Checks {
					mark := "ok  "
					if !ch.OK {
						mark = "FAIL"
					}
					fmt.Fprintf(c.stdout, "%s %-22s %s\n", mark, ch.Name, ch.Detail)
				}
			}
			if !rep.Healthy {
				return abi.Errorf("doctor_unhealthy", "one or more MCP checks failed; see the report above")
			}
			return nil
		},
	}
}

func (c *cli) mcpDoctor() (*doctorReport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.ctx, 60*time.Second)
	defer cancel()
	args := []string{"mcp", "--log-level", "error"}
	if c.moduleDir != "" {
		args = append(args, "--module-dir", c.moduleDir)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stderr = c.stderr
	rep := &doctorReport{ServerPath: exe}
	check := func(name string, ok bool, detail string) {
		rep.Checks = append(rep.Checks, doctorCheck{name, ok, detail})
	}
	start := time.Now()
	client := mcp.NewClient(&mcp.Implementation{Name: "rea-doctor", Version: version}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		check("initialize", false, err.Error())
		return rep, nil
	}
	defer session.Close()
	rep.Protocol = session.InitializeResult().ProtocolVersion
	check("initialize", true, "handshake completed")
	tools, err := session.ListTools(ctx, nil)
	rep.StartupMillis = time.Since(start).Milliseconds()
	if err != nil {
		check("tools/list", false, err.Error())
		return rep, nil
	}
	rep.Tools = len(tools.Tools)
	check("tools/list", len(tools.Tools) > 0, fmt.Sprintf("%d tools", len(tools.Tools)))
	listed := false
	for _, t := range tools.Tools {
		listed = listed || t.Name == "binary_session"
	}
	if !listed {
		// A REA_MCP_TOOL_FAMILIES scope without the session family:
		// identity comes from the handshake (doctor_scope.go).
		c.doctorWithoutSession(ctx, session, rep, check)
		return rep, nil
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "binary_session", Arguments: map[string]any{"expected_package_version": version}})
	if err != nil || res.IsError {
		check("binary_session", false, fmt.Sprint(err, res))
		return rep, nil
	}
	var bs struct {
		ServerIdentity struct {
			Server    map[string]any `json:"server"`
			Catalog   map[string]any `json:"catalog"`
			Modules   []any          `json:"modules"`
			Alignment struct {
				State   string   `json:"state"`
				Reasons []string `json:"reasons"`
			} `json:"alignment"`
		} `json:"server_identity"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &bs)
	rep.Server = bs.ServerIdentity.Server
	rep.CatalogDigest, _ = bs.ServerIdentity.Catalog["digest"].(string)
	rep.Modules = bs.ServerIdentity.Modules
	check("identity", bs.ServerIdentity.Alignment.State == "aligned", fmt.Sprintf("alignment %s %v", bs.ServerIdentity.Alignment.State, bs.ServerIdentity.Alignment.Reasons))
	check("modules", len(rep.Modules) > 0, fmt.Sprintf("%d modules", len(rep.Modules)))
	doctorPrompts(ctx, session, rep, check)
	rep.Healthy = true
	for _, ch := range rep.Checks {
		rep.Healthy = rep.Healthy && ch.OK
	}
	return rep, nil
}

// doctorPrompts lists the prompts in scope.
func doctorPrompts(ctx context.Context, session *mcp.ClientSession, rep *doctorReport, check func(string, bool, string)) {
	rep.Prompts = []string{}
	if session.InitializeResult().Capabilities.Prompts != nil {
		prompts, err := session.ListPrompts(ctx, nil)
		if err != nil {
			check("prompts/list", false, err.Error())
		} else {
			for _, p := range prompts.Prompts {
				rep.Prompts = append(rep.Prompts, p.Name)
			}
			check("prompts/list", true, fmt.Sprintf("%d prompts", len(rep.Prompts)))
		}
	}
}
