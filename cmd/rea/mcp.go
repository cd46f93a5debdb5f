package main

import (
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"rea/host/mcpserver"
	"rea/providers"
)

func (c *cli) mcpCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve MCP over stdio for an agent (Claude Code, Codex, Cursor, Gemini CLI, …)",
		Long: `Serve the Model Context Protocol over stdin/stdout. Nothing but protocol is
written to stdout; logs go to stderr. Register it with your agent as the command
'rea mcp' (rea setup does this for you).

Startup settings (restart the server to change them):
  REA_MCP_MAX_RESPONSE_BYTES    largest complete tool result, default 10485760
  REA_MCP_TOOL_FAMILIES         comma-separated families to expose
                                (application, artifact, guidance, native, process, session)
  REA_MCP_INPUT_SCHEMA_PROFILE  full (default) or compact (every input schema ≤ 13,312 bytes)
  REA_MCP_WARM_IDLE_MS          modules load on first use, and one at a time once
                                the client has been quiet this long (default 300);
                                off = on first use only
The global limit flags (--memory-limit, --fuel, --timeout) apply to every module run.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			opts, err := mcpserver.OptionsFromEnvironment(os.Getenv, version)
			if err != nil {
				return err
			}
			// Provider startup deadlines are validated at startup, naming
			// the variable, not at the first query.
			if err := providers.ValidateEnvironment(nil); err != nil {
				return err
			}
			c.serving = true
			a, err := c.application()
			if err != nil {
				return err
			}
			// The registration of the tools allocates tens of megabytes
			// that die at once; collecting during it cost more (in a
			// process of a few megabytes live) than the pages it reuses.
			gcPercent := debug.SetGCPercent(-1)
			srv, err := mcpserver.New(a, opts)
			if err != nil {
				debug.SetGCPercent(gcPercent)
				return err
			}
			go func() {
				<-srv.Registered()
				debug.SetGCPercent(gcPercent)
			}()
			// Modules load on first use, or one at a time while the
			// client is idle: loading them at start delayed tools/list.
			if err := warmModulesWhenIdle(c.ctx, a, srv.MCP()); err != nil {
				return err
			}
			err = srv.Run(c.ctx, &mcpserver.Transport{In: os.Stdin, Out: os.Stdout, Log: c.log})
			if c.ctx.Err() != nil {
				return nil // interrupted: a normal way to stop a server
			}
			return err
		},
	}
	cmd.AddCommand(c.mcpDoctorCommand())
	return cmd
}
