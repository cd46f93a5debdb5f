package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// doctorWithoutSession checks a server whose REA_MCP_TOOL_FAMILIES scope
// leaves out the session family, so binary_session is not callable: the
// identity is the handshake's serverInfo (same binary, same version), the
// catalog is what tools/list returned, and the prompts are the scope's.
func (c *cli) doctorWithoutSession(ctx context.Context, session *mcp.ClientSession, rep *doctorReport, check func(string, bool, string)) {
	scope := strings.TrimSpace(os.Getenv("REA_MCP_TOOL_FAMILIES"))
	check("binary_session", true, fmt.Sprintf("not in the REA_MCP_TOOL_FAMILIES scope %q; identity read from the initialize handshake", scope))
	info := session.InitializeResult().ServerInfo
	rep.Server = map[string]any{"name": "", "version": ""}
	ok := false
	if info != nil {
		rep.Server = map[string]any{"name": info.Name, "version": info.Version}
		ok = info.Name == "rea" && info.Version == version
	}
	check("identity", ok, fmt.Sprintf("serverInfo %v %v, this binary %s", rep.Server["name"], rep.Server["version"], version))
	doctorPrompts(ctx, session, rep, check)
	rep.Healthy = true
	for _, ch := range rep.Checks {
		rep.Healthy = rep.Healthy && ch.OK
	}
}
