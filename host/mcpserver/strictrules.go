package mcpserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The rule sets strict function-calling APIs apply to a tool's parameter
// schema, written down from the vendors' documentation (read 2026-12):
//
//   - OpenAI, strict function calling / Structured Outputs "Supported
//     schemas" (platform.openai.com/docs/guides/structured-outputs): the
//     root an object and not anyOf; every object additionalProperties
//     false with every property in required (optional = union with null);
//     types string, number, boolean, integer, object, array, null; the
//     keywords anyOf (not at the root), enum, const, $defs/$ref, and the
//     constraints pattern, format, minimum, maximum, exclusiveMinimum,
//     exclusiveMaximum, multipleOf, minItems, maxItems; allOf, not, if/
//     then/else, dependentRequired, dependentSchemas unsupported; at most
//     5,000 object properties, 10 levels of nesting, 1,000 enum values and
//     120,000 characters of property names, enum and const values; a
//     function name of ^[a-zA-Z0-9_-]{1,64}$.
//   - Gemini, FunctionDeclaration.parameters, "a select subset of an
//     OpenAPI 3.0 schema object" (ai.google.dev/api/caching#Schema, Vertex
//     AI Schema): type (one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY,
//     OBJECT, NULL — a single value), format, title, description,
//     nullable, enum (strings), items, minItems, maxItems, properties,
//     propertyOrdering, required, minProperties, maxProperties, minLength,
//     maxLength, pattern, example, anyOf, default, minimum, maximum,
//     additionalProperties, $ref/$defs; no oneOf, allOf, not or type
//     lists; a function name that starts with a letter or underscore, of
//     a-z A-Z 0-9 _ . : -, at most 64; parameter names of a-z A-Z 0-9 _,
//     starting with a letter or underscore, at most 64.
//   - Anthropic, strict tool use / Structured Outputs "JSON Schema
//     limitations" (platform.claude.com/docs/en/build-with-claude/
//     structured-outputs): every object additionalProperties false; enum
//     of primitive values only; anyOf and allOf supported, $ref local
//     only and never recursive; no numerical constraints (minimum,
//     maximum, multipleOf, exclusive bounds), no string length
//     constraints, no array constraints beyond minItems 0 or 1; and the
//     complexity limits per request: at most 20 strict tools, 24 optional
//     parameters and 16 parameters with union types (anyOf or type lists)
//     across all strict schemas; a tool name of ^[a-zA-Z0-9_-]{1,64}$.
//
// checkStrictRules applies one rule set to a tool's advertised schema and
// returns every violation, each naming its path.

// StrictRuleSet names a vendor's rules.
type StrictRuleSet string

const (
	RulesOpenAI    StrictRuleSet = "openai-strict"
	RulesGemini    StrictRuleSet = "gemini-function-declaration"
	RulesAnthropic StrictRuleSet = "anthropic-strict"
)

var (
	openAIKeywords = set("type", "description", "properties", "required", "additionalProperties", "items", "enum", "const",
		"anyOf", "$defs", "$ref", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "minItems", "maxItems", "title")
	geminiKeywords = set("type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
		"properties", "propertyOrdering", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
		"example", "anyOf", "default", "minimum", "maximum", "additionalProperties", "$ref", "$defs")
	anthropicUnsupported = set("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
		"maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties", "patternProperties", "not", "if", "then", "else")
	jsonTypes     = set("string", "number", "boolean", "integer", "object", "array", "null")
	openAIName    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName    = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	geminiParam   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)
	anthropicTool = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
)

// Anthropic's per-request complexity limits for strict tools.
const (
	anthropicMaxStrictTools   = 20
	anthropicMaxOptional      = 24
	anthropicMaxUnionParams   = 16
	openAIMaxProperties       = 5000
	openAIMaxNesting          = 10
	openAIMaxEnumValues       = 1000
	openAIMaxSchemaTextLength = 120_000
)

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// StrictComplexity is what counts against Anthropic's limits.
type StrictComplexity struct {
	Optional int // properties not in required
	Unions   int // nodes with anyOf or a type list
}

// checkStrictRules checks one tool's advertised input schema (as JSON, the
// way a client receives it) against one rule set.
func checkStrictRules(rules StrictRuleSet, tool string, schema json.RawMessage) ([]string, StrictComplexity) {
	var root map[string]any
	var problems []string
	var cx StrictComplexity
	if err := json.Unmarshal(schema, &root); err != nil {
		return []string{tool + ": schema is not a JSON object"}, cx
	}
	bad := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	switch rules {
	case RulesOpenAI:
		if !openAIName.MatchString(tool) {
			bad(tool, "function name does not match %s", openAIName)
		}
	case RulesGemini:
		if !geminiName.MatchString(tool) {
			bad(tool, "function name does not match %s", geminiName)
		}
		props, _ := root["properties"].(map[string]any)
		for name := range props {
			if !geminiParam.MatchString(name) {
				bad(tool+"."+name, "parameter name does not match %s", geminiParam)
			}
		}
	case RulesAnthropic:
		if !anthropicTool.MatchString(tool) {
			bad(tool, "tool name does not match %s", anthropicTool)
		}
	}
	if root["type"] != "object" {
		bad(tool, "the root is not type object")
	}
	if _, ok := root["anyOf"]; ok {
		bad(tool, "the root is a union")
	}
	properties, enumValues, textLength := 0, 0, 0
	var walk func(node map[string]any, path string, depth int)
	walk = func(node map[string]any, path string, depth int) {
		keys := make([]string, 0, len(node))
		for k := range node {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch rules {
			case RulesOpenAI:
				if !openAIKeywords[k] {
					bad(path, "keyword %q is outside OpenAI's strict subset", k)
				}
			case RulesGemini:
				if !geminiKeywords[k] {
					bad(path, "keyword %q is outside Gemini's function-declaration subset", k)
				}
			case RulesAnthropic:
				if anthropicUnsupported[k] {
					bad(path, "keyword %q is not supported by Anthropic strict tools", k)
				}
			}
		}
		if k, ok := node["minItems"].(float64); ok && rules == RulesAnthropic && k > 1 {
			bad(path, "minItems %v (Anthropic supports 0 or 1)", k)
		}
		switch t := node["type"].(type) {
		case string:
			if !jsonTypes[t] {
				bad(path, "type %q is not a JSON Schema type", t)
			}
		case []any:
			cx.Unions++
			if rules == RulesGemini {
				bad(path, "a type list (Gemini takes one type)")
			}
			if rules == RulesOpenAI {
				// Allowed by OpenAI, but the strict profile promises none.
				bad(path, "a type list (the strict profile uses anyOf)")
			}
		case nil:
			if _, union := node["anyOf"]; !union {
				if _, ref := node["$ref"]; !ref {
					bad(path, "no type")
				}
			}
		}
		if e, ok := node["enum"].([]any); ok {
			enumValues += len(e)
			for _, v := range e {
				switch x := v.(type) {
				case string:
					textLength += len(x)
				case map[string]any, []any:
					bad(path, "enum holds a complex value")
				default:
					if rules == RulesGemini {
						bad(path, "enum holds a non-string value")
					}
				}
			}
		}
		if branches, ok := node["anyOf"].([]any); ok {
			cx.Unions++
			for i, b := range branches {
				if m, ok := b.(map[string]any); ok {
					walk(m, fmt.Sprintf("%s|%d", path, i), depth)
				}
			}
		}
		if node["type"] == "object" {
			props, _ := node["properties"].(map[string]any)
			if ap, ok := node["additionalProperties"]; !ok || ap != false {
				if rules != RulesGemini {
					bad(path, "object is not closed (additionalProperties false)")
				}
			}
			required := map[string]bool{}
			if req, ok := node["required"].([]any); ok {
				for _, r := range req {
					if s, ok := r.(string); ok {
						required[s] = true
					}
				}
			}
			if depth+1 > openAIMaxNesting && rules == RulesOpenAI {
				bad(path, "more than %d levels of nesting", openAIMaxNesting)
			}
			names := make([]string, 0, len(props))
			for name := range props {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				properties++
				textLength += len(name)
				if !required[name] {
					cx.Optional++
					if rules == RulesOpenAI {
						bad(path+"."+name, "not in required")
					}
				}
				if m, ok := props[name].(map[string]any); ok {
					walk(m, path+"."+name, depth+1)
				}
			}
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(items, path+"[]", depth)
		}
		if extra, ok := node["additionalProperties"].(map[string]any); ok {
			walk(extra, path+"{}", depth+1)
		}
	}
	walk(root, tool, 0)
	if rules == RulesOpenAI {
		if properties > openAIMaxProperties {
			bad(tool, "%d object properties (at most %d)", properties, openAIMaxProperties)
		}
		if enumValues > openAIMaxEnumValues {
			bad(tool, "%d enum values (at most %d)", enumValues, openAIMaxEnumValues)
		}
		if textLength > openAIMaxSchemaTextLength {
			bad(tool, "%d characters of names and enum values (at most %d)", textLength, openAIMaxSchemaTextLength)
		}
	}
	if rules == RulesAnthropic {
		if cx.Optional > anthropicMaxOptional {
			bad(tool, "%d optional parameters (Anthropic allows %d across a request's strict tools)", cx.Optional, anthropicMaxOptional)
		}
		if cx.Unions > anthropicMaxUnionParams {
			bad(tool, "%d parameters with union types (Anthropic allows %d across a request's strict tools)", cx.Unions, anthropicMaxUnionParams)
		}
	}
	return problems, cx
}

// strictSummary lists problems one a line, for test failures.
func strictSummary(problems []string) string { return strings.Join(problems, "\n") }

// CheckStrictSchema applies a rule set to an advertised input schema (for
// end-to-end tests of the strict profile); it returns the violations and
// what counts against Anthropic's complexity limits.
func CheckStrictSchema(rules StrictRuleSet, tool string, schema json.RawMessage) ([]string, StrictComplexity) {
	return checkStrictRules(rules, tool, schema)
}
