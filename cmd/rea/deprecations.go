package main

import (
	"fmt"
	"strings"

	"rea/abi"
	"rea/host/operation"
)

// canonicalRequest rewrites the older parameter names of a JSON request
// file (the spec's aliases) to the canonical ones: each old name used is
// named on standard error with its replacement (stdout stays the result),
// and an old and a new name with different values is an invalid request
// naming the old one's path, as on MCP.
func (c *cli) canonicalRequest(raw []byte, aliases []operation.Alias, file string) ([]byte, error) {
	out, deps, conflicts := operation.CanonicalJSON(aliases, raw)
	if len(conflicts) > 0 {
		issues := make([]map[string]any, len(conflicts))
		msgs := make([]string, len(conflicts))
		for i, k := range conflicts {
			issues[i] = map[string]any{"path": k.Path, "reason": "conflicting_alias", "message": k.Message}
			msgs[i] = k.Message
		}
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: %s", file, strings.Join(msgs, "; ")).WithDetail("issues", issues)
	}
	c.deprecated(deps)
	return out, nil
}

// deprecated writes the deprecation notes on standard error.
func (c *cli) deprecated(deps []operation.Deprecation) {
	for _, d := range deps {
		fmt.Fprintf(c.stderr, "rea: %s\n", d.Message)
	}
}
