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

// raised renames, in an error of a lowered call's service, the stored
// field names back to the parameters the caller gives (the last segment
// of each reference alias: supporting_evidence_ids → supporting_evidence),
// so details.issues paths name the canonical input.
func raised(sp operation.Spec, err error) error {
	ae, ok := err.(*abi.Error)
	if !ok {
		return err
	}
	names := map[string]string{}
	for _, a := range sp.Aliases {
		if a.Refs {
			names[a.Old[strings.LastIndexAny(a.Old, ".")+1:]] = a.New[strings.LastIndexAny(a.New, ".")+1:]
		}
	}
	var issues []map[string]any
	if ae.Details["issues"] != nil {
		b, mErr := json.Marshal(ae.Details["issues"])
		if mErr != nil || json.Unmarshal(b, &issues) != nil {
			return err
		}
	}
	for _, is := range issues {
		path, _ := is["path"].([]any)
		for i, seg := range path {
			if s, isStr := seg.(string); isStr && names[s] != "" {
				path[i] = names[s]
			}
		}
		if msg, isStr := is["message"].(string); isStr {
			is["message"] = renameWords(msg, names)
		}
	}
	out := *ae
	out.Message = renameWords(ae.Message, names)
	out.Details = map[string]any{}
	for k, v := range ae.Details {
		out.Details[k] = v
	}
	if issues != nil {
		out.Details["issues"] = issues
	}
	if f, isStr := out.Details["field"].(string); isStr {
		out.Details["field"] = renameWords(f, names)
	}
	return &out
}

// renameWords replaces whole field names in a message.
func renameWords(s string, names map[string]string) string {
	for old, neu := range names {
		var b strings.Builder
		for {
			i := strings.Index(s, old)
			if i < 0 {
				b.WriteString(s)
				break
			}
			end := i + len(old)
			word := (i == 0 || !isNameByte(s[i-1])) && (end == len(s) || !isNameByte(s[end]))
			b.WriteString(s[:i])
			if word {
				b.WriteString(neu)
			} else {
				b.WriteString(old)
			}
			s = s[end:]
		}
		s = b.String()
	}
	return s
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
