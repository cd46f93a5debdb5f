package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is a JSON Schema object as rea advertises it. rea writes its
// schemas by hand in the portable subset every function-calling model API
// accepts: every property typed, string enums only, no root combinators, no
// references (the advertised full profile shares repeated definitions
// through $defs, projection.go). validate.go enforces the same subset at
// runtime.
type Schema = map[string]any

// object returns an object schema with the given properties; required
// names the mandatory ones. Unknown properties are rejected.
func object(description string, props map[string]Schema, required ...string) Schema {
	s := Schema{"type": "object", "properties": props, "additionalProperties": false}
	if description != "" {
		s["description"] = description
	}
	if len(required) > 0 {
		sort.Strings(required)
		s["required"] = required
	}
	return s
}

func str(description string) Schema { return Schema{"type": "string", "description": description} }

func enum(description string, values ...string) Schema {
	return Schema{"type": "string", "description": description, "enum": values}
}

func integer(description string, min, max int64) Schema {
	return Schema{"type": "integer", "description": description, "minimum": min, "maximum": max}
}

func boolean(description string) Schema { return Schema{"type": "boolean", "description": description} }

func array(description string, items Schema, maxItems int) Schema {
	return Schema{"type": "array", "description": description, "items": items, "maxItems": maxItems}
}

// anyJSON accepts every JSON value; it lists all types explicitly so model
// clients do not infer "string" for an Evidence object.
func anyJSON(description string) Schema {
	return Schema{"type": []string{"object", "array", "string", "number", "integer", "boolean", "null"}, "description": description}
}

// withExamples attaches literal examples to a property schema.
func withExamples(s Schema, examples ...any) Schema {
	s["examples"] = examples
	return s
}

// withID gives a self-contained output schema a content-bound $id: the
// digest of the schema without it, so changing the schema changes its id.
func withID(s Schema) Schema {
	singleTypes(s)
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	delete(s, "$id")
	b, _ := json.Marshal(s) // map keys marshal sorted: stable
	sum := sha256.Sum256(b)
	s["$id"] = "urn:rea:schema:sha256:" + hex.EncodeToString(sum[:])
	return s
}

// evidenceOutputSchema describes an Evidence v2 record, the result of every
// evidence-producing tool.
func evidenceOutputSchema() Schema {
	anyValue := Schema{"anyOf": []Schema{{"type": "object"}, {"type": "array"}, {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}}}
	return withID(Schema{
		"type":        "object",
		"description": "A complete Evidence v2 record. Read normalized_result for the operation's result and evidence_id for its identity.",
		"properties": map[string]Schema{
			"schema_version":    {"type": "integer", "enum": []int{2}},
			"evidence_id":       {"type": "string", "pattern": "^ev_[0-9a-f]{64}$"},
			"subject":           nullable("object"),
			"provider":          {"type": "object"},
			"analysis_profile":  nullable("object"),
			"predicate_type":    {"type": "string"},
			"operation":         {"type": "string"},
			"parameters":        {"type": "object"},
			"raw_result":        anyValue,
			"normalized_result": anyValue,
			"confidence":        {"type": "string", "enum": []string{"observed", "derived", "inferred"}},
			"authority":         {"type": "string"},
			"environment":       nullable("object"),
			"limitations":       {"type": "array", "items": Schema{"type": "string"}},
			"locations":         {"type": "array", "items": Schema{"type": "object"}},
			"evidence_links":    {"type": "array", "items": Schema{"type": "string"}},
		},
		"required": []string{"schema_version", "evidence_id", "subject", "provider", "analysis_profile", "predicate_type",
			"operation", "parameters", "raw_result", "normalized_result", "confidence", "authority", "environment",
			"limitations", "locations", "evidence_links"},
		"additionalProperties": false,
	})
}

// result is an output schema for a plain (non-Evidence) result: the listed
// top-level fields with their types, every one of which the tool returns.
func result(description string, props map[string]Schema) Schema {
	required := make([]string, 0, len(props))
	for k := range props {
		required = append(required, k)
	}
	sort.Strings(required)
	return withID(Schema{"type": "object", "description": description, "properties": props, "required": required})
}

// typed is an output property of one type, or of several as anyOf
// branches: single-type branches map onto every client's schema dialect.
func typed(types ...string) Schema {
	if len(types) == 1 {
		return Schema{"type": types[0]}
	}
	branches := make([]Schema, len(types))
	for i, t := range types {
		branches[i] = Schema{"type": t}
	}
	return Schema{"anyOf": branches}
}

// nullable is an output property that is t or null.
func nullable(t string) Schema { return typed(t, "null") }

// inferred builds an input schema from a Go request type with
// jsonschema-go, then brings it into rea's portable subset: "null" is
// dropped from type lists (an optional field is omitted, not null), and the
// tree is converted into the typed maps the runtime validator reads.
func inferred[T any]() Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: cannot infer a schema: %v", err)) // a programming error caught by every test
	}
	b, _ := json.Marshal(s)
	var raw any
	_ = json.Unmarshal(b, &raw)
	return portable(raw)
}

func portable(v any) Schema {
	m, _ := v.(map[string]any)
	out := Schema{}
	for k, x := range m {
		switch k {
		case "type":
			switch t := x.(type) {
			case string:
				out[k] = t
			case []any:
				var types []string
				for _, e := range t {
					if s := fmt.Sprint(e); s != "null" {
						types = append(types, s)
					}
				}
				if len(types) == 1 {
					out[k] = types[0]
				} else {
					out[k] = types
				}
			}
		case "properties":
			props := map[string]Schema{}
			for name, p := range x.(map[string]any) {
				props[name] = portable(p)
			}
			out[k] = props
		case "items":
			out[k] = portable(x)
		case "additionalProperties":
			if b, ok := x.(bool); ok {
				out[k] = b
			} else {
				out[k] = portable(x)
			}
		case "required", "enum":
			var ss []string
			for _, e := range x.([]any) {
				ss = append(ss, fmt.Sprint(e))
			}
			out[k] = ss
		case "minimum", "maximum":
			if f, ok := x.(float64); ok {
				out[k] = int64(f)
			}
		case "maxItems", "minItems", "maxLength", "minLength":
			if f, ok := x.(float64); ok {
				out[k] = int(f)
			}
		default:
			out[k] = x
		}
	}
	return out
}

// singleTypes rewrites every multi-type "type" list of an output schema as
// anyOf branches of one type each, the spelling that single-type schema
// dialects (and the MCP Inspector's --strict lint) accept.
func singleTypes(v any) {
	switch x := v.(type) {
	case Schema:
		var types []string
		switch t := x["type"].(type) {
		case []string:
			types = t
		case []any:
			for _, e := range t {
				types = append(types, fmt.Sprint(e))
			}
		}
		if len(types) > 1 {
			delete(x, "type")
			branches := make([]Schema, len(types))
			for i, t := range types {
				branches[i] = Schema{"type": t}
			}
			x["anyOf"] = branches
		}
		for _, child := range x {
			singleTypes(child)
		}
	case map[string]Schema:
		for _, child := range x {
			singleTypes(child)
		}
	case []Schema:
		for _, child := range x {
			singleTypes(child)
		}
	case []any:
		for _, child := range x {
			singleTypes(child)
		}
	}
}
