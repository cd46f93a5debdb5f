package mcpserver

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
	"rea/host/operation"
)

// deprecationsMeta is the _meta key of the deprecation notes a result
// carries when the call used an older parameter name: the same list on
// every tool and on prompts/get.
const deprecationsMeta = "rea/deprecations"

// canonicalArguments rewrites a tool's older parameter names (the spec's
// aliases) to the canonical ones before the schema sees them. An old and
// a new name given with different values is invalid_request with the old
// name's path among details.issues, like any other invalid argument.
func canonicalArguments(t *Tool, raw json.RawMessage) (json.RawMessage, []operation.Deprecation, error) {
	if t.Spec == nil || len(t.Spec.Aliases) == 0 {
		return raw, nil, nil
	}
	out, deps, conflicts := operation.CanonicalJSON(t.Spec.Aliases, raw)
	if len(conflicts) == 0 {
		return out, deps, nil
	}
	return raw, nil, conflictError(t.Name, conflicts)
}

func conflictError(tool string, conflicts []operation.AliasConflict) error {
	issues := make([]Issue, len(conflicts))
	msgs := make([]string, len(conflicts))
	for i, c := range conflicts {
		issues[i] = Issue{Path: c.Path, Reason: "conflicting_alias", Message: c.Message}
		msgs[i] = c.Message
	}
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", tool, strings.Join(msgs, "; ")).
		WithDetail("operation", tool).
		WithDetail("issues", issues)
}

// withDeprecations attaches the notes to a tool's output.
func withDeprecations(out any, deps []operation.Deprecation) any {
	if len(deps) == 0 {
		return out
	}
	if e, ok := out.(*Extra); ok {
		e.Deprecations = append(e.Deprecations, deps...)
		return e
	}
	return &Extra{Result: out, Deprecations: deps}
}

// addDeprecations puts the notes in the result's _meta and, for a model
// that reads only text, in a text item after the result.
func addDeprecations(res *mcp.CallToolResult, deps []operation.Deprecation) {
	if len(deps) == 0 {
		return
	}
	if res.Meta == nil {
		res.Meta = map[string]any{}
	}
	res.Meta[deprecationsMeta] = deps
	res.Content = append(res.Content, &mcp.TextContent{Text: deprecationText(deps)})
}

func deprecationText(deps []operation.Deprecation) string {
	lines := make([]string, len(deps))
	for i, d := range deps {
		lines[i] = "deprecated: " + d.Message
	}
	return strings.Join(lines, "\n")
}

// lowered is the call with its canonical arguments moved back to the older
// names its service's request still spells (operation.Lower): the unknown
// registry stores the seed's record format, bare Evidence ids.
func (c *Call) lowered(sp operation.Spec) *Call {
	raw, err := operation.LowerJSON(sp.Aliases, c.Arguments)
	if err != nil {
		return c
	}
	l := *c
	l.Arguments = raw
	return &l
}
