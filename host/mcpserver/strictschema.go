package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"rea/abi"
	"rea/host/operation"
)

// The strict input-schema profile (REA_MCP_INPUT_SCHEMA_PROFILE=strict)
// advertises every input schema in the part of JSON Schema that strict
// function-calling clients accept (strictrules.go writes the rule sets
// down): every object closed and fully required, an optional property
// nullable (anyOf [T, null], never a type list), and only the keywords
// type, description, properties, required, additionalProperties, items,
// enum and anyOf. What it cannot say is moved into descriptions (bounds,
// maximum items) or re-spelled in a typed form the server maps back
// (fromStrict): nulls for omitted optionals, {name, value} pairs for maps,
// JSON text for free-form values. Calls are still checked by the
// canonical schema, so bounds and exclusions hold server-side.

// strictKeywords are the only keywords the strict profile emits.
var strictKeywords = map[string]bool{"type": true, "description": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "enum": true, "anyOf": true}

// strictDefault marks, in the copy strict renders from, the default the
// operation spec declares for a property (never advertised as a keyword).
const strictDefault = "\x00default"

// strictWithDefaults renders a tool's input in the strict profile, its
// spec's defaults known.
func strictWithDefaults(s Schema, sp *operation.Spec) Schema {
	if sp == nil {
		return strict(s)
	}
	c := cloneDeep(s).(Schema)
	var mark func(node Schema, ps []operation.Param)
	mark = func(node Schema, ps []operation.Param) {
		props, _ := node["properties"].(map[string]Schema)
		for _, p := range ps {
			n, ok := props[p.Name]
			if !ok {
				continue
			}
			if p.Default != nil {
				n[strictDefault] = p.Default
			}
			switch {
			case p.Type == operation.Object:
				mark(n, p.Fields)
				// An object whose every field has a default is, omitted,
				// those defaults: sent whole, it means the same.
				if d, ok := objectDefault(p); ok && !p.Nullable {
					n[strictDefault] = d
				}
			case p.Type == operation.Array && p.Items != nil && p.Items.Type == operation.Object:
				if items, ok := n["items"].(Schema); ok {
					mark(items, p.Items.Fields)
				}
			}
		}
	}
	mark(c, sp.Params)
	return strict(c)
}

// objectDefault is an Object parameter's value when omitted, if every
// field (at every depth) has a default; ok false otherwise.
func objectDefault(p operation.Param) (map[string]any, bool) {
	if p.Type != operation.Object || len(p.Fields) == 0 {
		return nil, false
	}
	out := map[string]any{}
	for _, f := range p.Fields {
		switch {
		case f.Default != nil:
			out[f.Name] = f.Default
		case f.Type == operation.Object:
			d, ok := objectDefault(f)
			if !ok {
				return nil, false
			}
			out[f.Name] = d
		default:
			return nil, false
		}
	}
	return out, true
}

// defaultLiteral spells a default as the JSON value to send.
func defaultLiteral(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func orEmpty(v any) string {
	s, _ := v.(string)
	return s
}

// strict renders a canonical input schema in the strict profile.
func strict(s Schema) Schema {
	out := strictNode(s)
	if _, ok := out["anyOf"]; ok {
		// The root must be an object, never a union.
		out = strictObject(Schema{"type": "object", "properties": map[string]Schema{}}, s["description"])
	}
	return out
}

// strictNode renders one schema node.
func strictNode(s Schema) Schema {
	desc, _ := s["description"].(string)
	desc = withBounds(desc, s)
	types := typesOf(s)
	switch {
	case isFreeJSON(s):
		if isEvidenceSlot(s) {
			if strings.Contains(desc, "an array of") {
				// A slot that also takes the pages of one scan.
				one := evidenceReference("")
				return describe(Schema{"anyOf": []Schema{one, {"type": "array", "items": evidenceReference("One page.")}}},
					joinProse(desc, `Strict profile: a retained reference {"kind":"retained-evidence","evidence_id":"ev_…"}, or an array of them.`))
			}
			return evidenceReference(desc)
		}
		return describe(Schema{"type": "string"}, joinProse(desc, "Send the value as JSON text (for example {\"key\":1}); rea decodes it."))
	case len(types) > 1:
		// A canonical type list such as ["string","null"]: anyOf branches.
		var branches []Schema
		for _, t := range types {
			n := cloneSchema(s)
			n["type"] = t
			delete(n, "description")
			branches = append(branches, strictNode(n))
		}
		return describe(Schema{"anyOf": branches}, desc)
	}
	t, _ := s["type"].(string)
	switch t {
	case "object":
		if extra, ok := s["additionalProperties"].(Schema); ok {
			if _, hasProps := s["properties"]; !hasProps {
				// A map: {name, value} pairs, mapped back by fromStrict.
				pair := strictObject(Schema{"type": "object", "properties": map[string]Schema{
					"name":  {"type": "string", "description": "Key."},
					"value": describedOr(strictNode(extra), "The value under that name."),
				}, "required": []string{"name", "value"}}, nil)
				return describe(Schema{"type": "array", "items": pair},
					joinProse(desc, "A map, sent as a list of {name, value} pairs."))
			}
		}
		return strictObject(s, desc)
	case "array":
		out := Schema{"type": "array"}
		if items, ok := s["items"].(Schema); ok {
			out["items"] = strictNode(items)
		}
		return describe(out, desc)
	default:
		out := Schema{"type": t}
		if e, ok := s["enum"].([]string); ok {
			out["enum"] = e
		}
		return describe(out, desc)
	}
}

// strictObject closes an object and makes every property required, the
// optional ones nullable.
func strictObject(s Schema, desc any) Schema {
	props, _ := s["properties"].(map[string]Schema)
	required := map[string]bool{}
	if req, ok := s["required"].([]string); ok {
		for _, r := range req {
			required[r] = true
		}
	}
	names := make([]string, 0, len(props))
	np := make(map[string]Schema, len(props))
	for name, p := range props {
		names = append(names, name)
		n := strictNode(p)
		if def, ok := p[strictDefault]; ok && !required[name] && !acceptsNull(n) {
			// An optional property with a default is required in its own
			// type, the default said in words: no union, so that a tool
			// stays within Anthropic's 16 union-typed parameters. The
			// value sent is checked like any other.
			required[name] = true
			n = describe(n, joinProse(orEmpty(n["description"]), fmt.Sprintf("Send %s for the default.", defaultLiteral(def))))
		}
		if !required[name] && !acceptsNull(n) {
			d, _ := n["description"].(string)
			inner := cloneSchema(n)
			delete(inner, "description")
			n = describe(Schema{"anyOf": []Schema{inner, {"type": "null"}}}, joinProse(d, "null: omitted (the default)."))
		}
		np[name] = n
	}
	sort.Strings(names)
	out := Schema{"type": "object", "properties": np, "required": names, "additionalProperties": false}
	if d, ok := desc.(string); ok && d != "" {
		out["description"] = d
	}
	return out
}

// evidenceReference is the one form of Evidence a strict client can
// spell: the exact reference to a record this connection retains.
func evidenceReference(desc string) Schema {
	return describe(Schema{
		"type": "object",
		"properties": map[string]Schema{
			"kind":        {"type": "string", "enum": []string{"retained-evidence"}, "description": "Always retained-evidence."},
			"evidence_id": {"type": "string", "description": "ev_ followed by 64 lowercase hex digits, as returned by the producing tool."},
		},
		"required":             []string{"evidence_id", "kind"},
		"additionalProperties": false,
	}, joinProse(desc, `Strict profile: a retained reference {"kind":"retained-evidence","evidence_id":"ev_…"}.`))
}

// isFreeJSON reports a node that accepts every JSON value (anyJSON).
func isFreeJSON(s Schema) bool { return len(typesOf(s)) >= 6 }

// isEvidenceSlot reports a free-form node that carries Evidence (by what
// its description says it takes) rather than an arbitrary value.
func isEvidenceSlot(s Schema) bool {
	d, _ := s["description"].(string)
	d = strings.ToLower(d)
	return strings.Contains(d, "evidence") || strings.Contains(d, "reference") || strings.Contains(d, "record")
}

func acceptsNull(s Schema) bool {
	for _, t := range typesOf(s) {
		if t == "null" {
			return true
		}
	}
	if branches, ok := s["anyOf"].([]Schema); ok {
		for _, b := range branches {
			if acceptsNull(b) {
				return true
			}
		}
	}
	return false
}

// withBounds states in prose the bounds the strict keyword set cannot.
func withBounds(desc string, s Schema) string {
	var parts []string
	min, hasMin := s["minimum"].(int64)
	max, hasMax := s["maximum"].(int64)
	switch {
	case hasMin && hasMax:
		parts = append(parts, fmt.Sprintf("%d to %d", min, max))
	case hasMin:
		parts = append(parts, fmt.Sprintf("at least %d", min))
	case hasMax:
		parts = append(parts, fmt.Sprintf("at most %d", max))
	}
	if n, ok := s["maxItems"].(int); ok {
		parts = append(parts, fmt.Sprintf("at most %d items", n))
	}
	if n, ok := s["minItems"].(int); ok && n > 0 {
		parts = append(parts, fmt.Sprintf("at least %d items", n))
	}
	if n, ok := s["maxLength"].(int); ok {
		parts = append(parts, fmt.Sprintf("at most %d characters", n))
	}
	if n, ok := s["minLength"].(int); ok && n > 0 {
		parts = append(parts, fmt.Sprintf("at least %d characters", n))
	}
	if p, ok := s["pattern"].(string); ok {
		parts = append(parts, "matching "+p)
	}
	if len(parts) == 0 {
		return desc
	}
	return joinProse(desc, "("+strings.Join(parts, "; ")+")")
}

func joinProse(a, b string) string {
	a = strings.TrimSpace(a)
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case strings.HasSuffix(a, ".") || strings.HasSuffix(a, ")") || strings.HasSuffix(a, ":"):
		return a + " " + b
	}
	return a + ". " + b
}

// describedOr gives a node without a description the given one.
func describedOr(s Schema, desc string) Schema {
	if d, _ := s["description"].(string); d == "" {
		s["description"] = desc
	}
	return s
}

func describe(s Schema, desc string) Schema {
	if desc != "" {
		s["description"] = desc
	}
	return s
}

// fromStrict maps arguments written against the strict profile back to
// canonical arguments: a null for an optional property that does not take
// null is an omission, {name, value} pairs are a map, JSON text in a
// free-form slot is its value. Canonical arguments pass unchanged, so a
// client that ignores the profile still works.
func fromStrict(canonical Schema, raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, nil // the canonical validation reports it
	}
	var issues []Issue
	v = unstrict(canonical, v, nil, &issues)
	if len(issues) > 0 {
		msgs := make([]string, len(issues))
		for i, is := range issues {
			msgs[i] = is.Message
		}
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s", strings.Join(msgs, "; ")).WithDetail("issues", issues)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw, nil
	}
	return out, nil
}

func unstrict(s Schema, v any, path []any, issues *[]Issue) any {
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]Schema)
		required := map[string]bool{}
		if req, ok := s["required"].([]string); ok {
			for _, r := range req {
				required[r] = true
			}
		}
		for k, val := range x {
			ps, known := props[k]
			if !known {
				if extra, ok := s["additionalProperties"].(Schema); ok {
					x[k] = unstrict(extra, val, append(path, k), issues)
				}
				continue
			}
			if val == nil && !required[k] && !acceptsNull(ps) {
				delete(x, k)
				continue
			}
			x[k] = unstrict(ps, val, append(path, k), issues)
		}
		return x
	case []any:
		if extra, ok := s["additionalProperties"].(Schema); ok && typesOf(s) != nil && typesOf(s)[0] == "object" {
			if _, hasProps := s["properties"]; !hasProps {
				return pairsToMap(extra, x, path, issues)
			}
		}
		if items, ok := s["items"].(Schema); ok {
			for i := range x {
				x[i] = unstrict(items, x[i], append(path, i), issues)
			}
		}
		return x
	case string:
		if isFreeJSON(s) && !isEvidenceSlot(s) {
			dec := json.NewDecoder(strings.NewReader(x))
			dec.UseNumber()
			var decoded any
			if err := dec.Decode(&decoded); err != nil || dec.More() {
				add(issues, path, "invalid_format", "JSON text", "is not JSON text: %v", err)
				return x
			}
			return decoded
		}
	}
	return v
}

// pairsToMap turns [{name, value}…] into {name: value…}.
func pairsToMap(valueSchema Schema, pairs []any, path []any, issues *[]Issue) any {
	out := make(map[string]any, len(pairs))
	for i, p := range pairs {
		m, ok := p.(map[string]any)
		name, okName := m["name"].(string)
		if !ok || !okName {
			add(issues, append(path, i), "invalid_type", "object", "expected a {name, value} pair")
			continue
		}
		if _, dup := out[name]; dup {
			add(issues, append(path, i, "name"), "invalid_value", "", "%q appears twice", name)
			continue
		}
		out[name] = unstrict(valueSchema, m["value"], append(path, i, "value"), issues)
	}
	return out
}

// withOperation names the tool in a strict-argument error.
func withOperation(err error, tool string) error {
	if ae, ok := err.(*abi.Error); ok {
		ae.Message = tool + ": " + ae.Message
		return ae.WithDetail("operation", tool)
	}
	return err
}
