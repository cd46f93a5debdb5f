package mcpserver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/host/operation"
)

// Schema projection as seed 001 states it: the root of every input schema
// describes the accepted input groups, and an advertised schema shares a
// repeated definition through a schema-local reference ($defs of the same
// schema, never recursive) instead of spelling it twice. The canonical
// schema (Tool.Input, what validate.go enforces) stays inlined; sharing is
// done when the tool is advertised.

// inputAlternatives are the input groups the parameter list alone does not
// show: which parameters stand instead of each other. The canonical
// validation (and the service) enforce them; a test checks that every name
// here is a parameter of the tool.
var inputAlternatives = map[string]struct {
	params []string
	text   string
}{
	"trace_application_feature": {[]string{"seed", "seeds"}, "Start from seed, seeds, or both (at least one)."},
	"read_javascript_source": {[]string{"source_ref", "path", "line", "start_line", "end_line", "module"},
		"Name the code by source_ref (as a fact returns it); or by path with line (and column) or start_line…end_line; or by module."},
	"inspect_analysis_view": {[]string{"view", "collection", "selector", "node_id", "facet", "offset", "limit"},
		"view summary (default) takes source alone; page takes collection with offset/limit; item takes collection with selector or node_id; facet and native take facet."},
	"guided_workflows": {[]string{"action", "workflow_id", "arguments"},
		"action list (default) takes nothing else; action render takes workflow_id and its arguments."},
	"get_evidence_bundle":       {[]string{"detail", "filters"}, "detail complete (default) alone; filters only with detail summary."},
	"verify_unknown_resolution": {[]string{"unknown_id", "evidence"}, "unknown_id alone checks its own Evidence; with evidence, those candidates instead."},
	"extract_artifact":          {[]string{"paths", "occurrence_ids"}, "Select entries by paths (globs), by occurrence_ids from inspect_artifact, or both; neither extracts everything."},
}

// inputGroups is the root description of an operation's input schema: the
// required and optional parameters, how Evidence, paths and the session's
// documents are passed, and the alternatives.
func inputGroups(sp operation.Spec) string {
	var required, optional, evidence, paths []string
	document := false
	for _, p := range sp.Params {
		if p.Required {
			required = append(required, p.Name)
		} else {
			optional = append(optional, p.Name)
		}
		switch {
		case p.Type == operation.Evidence || (p.Type == operation.Array && p.Items != nil && p.Items.Type == operation.Evidence):
			evidence = append(evidence, p.Name)
		case p.Type == operation.String && (p.Name == "input_path" || strings.HasSuffix(p.Name, "_path")):
			paths = append(paths, p.Name)
		case p.Name == "document":
			document = true
		}
	}
	sort.Strings(required)
	sort.Strings(optional)
	var parts []string
	// The optional names are the other properties: not repeated here, the
	// schema is sent with every request.
	switch {
	case len(required) > 0 && len(optional) > 0:
		parts = append(parts, fmt.Sprintf("Input: %s required; the other %d optional.", strings.Join(required, ", "), len(optional)))
	case len(required) > 0:
		parts = append(parts, fmt.Sprintf("Input: %s required.", strings.Join(required, ", ")))
	case len(optional) > 0:
		parts = append(parts, "Input: every property optional.")
	default:
		parts = append(parts, "Input: none (an empty object).")
	}
	if len(evidence) > 0 {
		parts = append(parts, fmt.Sprintf(`Evidence (%s): a {"kind":"retained-evidence","evidence_id":…} reference or the inline record.`, strings.Join(evidence, ", ")))
	}
	if len(paths) > 0 {
		parts = append(parts, fmt.Sprintf("Local paths: %s.", strings.Join(paths, ", ")))
	}
	if document {
		parts = append(parts, "document: a name from list_documents; absent, the session's current document (open_binary opens one).")
	}
	if alt, ok := inputAlternatives[sp.Name]; ok {
		parts = append(parts, alt.text)
	}
	return strings.Join(parts, " ")
}

// shareRepeated returns a copy of an advertised input schema in which
// every object definition that occurs more than once (the same properties,
// required list and bounds; descriptions may differ) is written once under
// the root's $defs and referenced where it occurs. A definition only ever
// refers to smaller ones, so no reference is recursive.
func shareRepeated(s Schema) Schema {
	out := cloneDeep(s).(Schema)
	counts := map[string]int{}
	var collect func(v any, top bool)
	collect = func(v any, top bool) {
		switch x := v.(type) {
		case Schema:
			if key, ok := definitionKey(x); ok && !top {
				counts[key]++
			}
			for k, child := range x {
				if k == "examples" || k == "enum" || k == "required" {
					continue
				}
				collect(child, false)
			}
		case map[string]Schema:
			for _, child := range x {
				collect(child, false)
			}
		case []Schema:
			for _, child := range x {
				collect(child, false)
			}
		}
	}
	collect(out, true)
	var repeated []string
	for key, n := range counts {
		if n > 1 {
			repeated = append(repeated, key)
		}
	}
	if len(repeated) == 0 {
		return out
	}
	defs := map[string]Schema{}
	names := map[string]string{}
	for _, key := range repeated {
		names[key] = ""
	}
	var replace func(v any, top bool, hint string) any
	replace = func(v any, top bool, hint string) any {
		switch x := v.(type) {
		case Schema:
			if key, ok := definitionKey(x); ok && !top {
				if name, shared := names[key]; shared {
					if name == "" {
						name = defName(hint, defs)
						names[key] = name
						def := cloneDeep(x).(Schema)
						delete(def, "description")
						delete(def, "examples")
						defs[name] = replace(def, true, hint).(Schema)
					}
					// The type stays beside the reference: clients that
					// read a property's type without resolving see it.
					ref := Schema{"$ref": "#/$defs/" + name, "type": x["type"]}
					if d, ok := x["description"]; ok {
						ref["description"] = d
					}
					if e, ok := x["examples"]; ok {
						ref["examples"] = e
					}
					return ref
				}
			}
			for _, k := range sortedKeys(x) {
				if k == "examples" || k == "enum" || k == "required" {
					continue
				}
				x[k] = replace(x[k], false, hint)
			}
			return x
		case map[string]Schema:
			for _, name := range sortedKeys(x) {
				x[name] = replace(x[name], false, name).(Schema)
			}
			return x
		case []Schema:
			for i, child := range x {
				x[i] = replace(child, false, hint).(Schema)
			}
			return x
		}
		return v
	}
	out = replace(out, true, "def").(Schema)
	out["$defs"] = defs
	return out
}

// definitionKey is the identity of a shareable definition: an object with
// properties, compared without the descriptions and examples of the
// occurrence itself.
func definitionKey(s Schema) (string, bool) {
	if s["type"] != "object" {
		return "", false
	}
	if _, ok := s["properties"]; !ok {
		return "", false
	}
	c := Schema{}
	for k, v := range s {
		if k != "description" && k != "examples" {
			c[k] = v
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// defName names a definition after the property it first occurs under
// (singular for an array's items), unique within the schema.
func defName(hint string, taken map[string]Schema) string {
	base := strings.TrimSuffix(hint, "s")
	if base == "" {
		base = "def"
	}
	name := base
	for i := 2; ; i++ {
		if _, ok := taken[name]; !ok {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
}

// cloneDeep copies the maps and slices of a schema tree.
func cloneDeep(v any) any {
	switch x := v.(type) {
	case Schema:
		out := make(Schema, len(x))
		for k, child := range x {
			out[k] = cloneDeep(child)
		}
		return out
	case map[string]Schema:
		out := make(map[string]Schema, len(x))
		for k, child := range x {
			out[k] = cloneDeep(child).(Schema)
		}
		return out
	case []Schema:
		out := make([]Schema, len(x))
		for i, child := range x {
			out[i] = cloneDeep(child).(Schema)
		}
		return out
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
