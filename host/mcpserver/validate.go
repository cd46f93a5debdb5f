package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"rea/abi"
)

// Issue is one validation failure, reported in details.issues so an agent
// can correct exactly the named field.
type Issue struct {
	Path     []any  `json:"path"`
	Reason   string `json:"reason"`
	Expected string `json:"expected,omitempty"`
	Minimum  *int64 `json:"minimum,omitempty"`
	Maximum  *int64 `json:"maximum,omitempty"`
	Message  string `json:"message"`
}

// validateArguments checks raw tool arguments against the tool's input
// schema (rea's portable subset) and returns an invalid_request error
// listing every issue with its path, or nil.
func validateArguments(tool string, schema Schema, raw json.RawMessage) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "%s: arguments are not valid JSON: %v", tool, err).
			WithDetail("operation", tool)
	}
	var issues []Issue
	check(schema, v, nil, &issues)
	if len(issues) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(issues))
	for _, is := range issues {
		msgs = append(msgs, is.Message)
	}
	return abi.Errorf(abi.CodeInvalidRequest, "%s: %s", tool, strings.Join(msgs, "; ")).
		WithDetail("operation", tool).
		WithDetail("issues", issues)
}

func pathString(p []any) string {
	if len(p) == 0 {
		return "arguments"
	}
	var b strings.Builder
	for i, seg := range p {
		switch s := seg.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, s)
		}
	}
	return b.String()
}

func add(issues *[]Issue, path []any, reason, expected, format string, args ...any) *Issue {
	p := append([]any{}, path...)
	*issues = append(*issues, Issue{Path: p, Reason: reason, Expected: expected, Message: pathString(p) + ": " + fmt.Sprintf(format, args...)})
	return &(*issues)[len(*issues)-1]
}

func typesOf(s Schema) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []string:
		return t
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func typeMatches(want, got string) bool {
	return want == got || (want == "number" && got == "integer")
}

func check(s Schema, v any, path []any, issues *[]Issue) {
	if types := typesOf(s); len(types) > 0 {
		got := jsonType(v)
		ok := false
		for _, t := range types {
			ok = ok || typeMatches(t, got)
		}
		if !ok {
			add(issues, path, "invalid_type", strings.Join(types, "|"), "expected %s, got %s", strings.Join(types, " or "), got)
			return
		}
	}
	if e, ok := s["enum"].([]string); ok {
		str, _ := v.(string)
		found := false
		for _, x := range e {
			found = found || x == str
		}
		if !found {
			add(issues, path, "invalid_value", strings.Join(e, "|"), "%q is not one of %s", str, strings.Join(e, ", "))
			return
		}
	}
	switch x := v.(type) {
	case map[string]any:
		checkObject(s, x, path, issues)
	case []any:
		if max, ok := s["maxItems"].(int); ok && len(x) > max {
			m := int64(max)
			add(issues, path, "maximum", "", "at most %d items, got %d", max, len(x)).Maximum = &m
		}
		if min, ok := s["minItems"].(int); ok && len(x) < min {
			m := int64(min)
			add(issues, path, "minimum", "", "at least %d items, got %d", min, len(x)).Minimum = &m
		}
		if items, ok := s["items"].(Schema); ok {
			for i, item := range x {
				check(items, item, append(path, i), issues)
			}
		}
	case json.Number:
		f, _ := x.Float64()
		if min, ok := s["minimum"].(int64); ok && f < float64(min) {
			add(issues, path, "minimum", "", "must be at least %d, got %s", min, x).Minimum = &min
		}
		if max, ok := s["maximum"].(int64); ok && f > float64(max) {
			add(issues, path, "maximum", "", "must be at most %d, got %s", max, x).Maximum = &max
		}
		if typesOf(s) != nil && len(typesOf(s)) == 1 && typesOf(s)[0] == "integer" && f != math.Trunc(f) {
			add(issues, path, "invalid_type", "integer", "must be a whole number")
		}
	case string:
		if min, ok := s["minLength"].(int); ok && len([]rune(x)) < min {
			m := int64(min)
			add(issues, path, "minimum", "", "must be at least %d characters", min).Minimum = &m
		}
		if max, ok := s["maxLength"].(int); ok && len([]rune(x)) > max {
			m := int64(max)
			add(issues, path, "maximum", "", "must be at most %d characters", max).Maximum = &m
		}
		if pat, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(pat); err == nil && !re.MatchString(x) {
				add(issues, path, "invalid_format", pat, "%q does not match %s", x, pat)
			}
		}
	}
}

func checkObject(s Schema, obj map[string]any, path []any, issues *[]Issue) {
	props, _ := s["properties"].(map[string]Schema)
	if req, ok := s["required"].([]string); ok {
		for _, name := range req {
			if _, present := obj[name]; !present {
				add(issues, append(path, name), "missing_argument", "", "is required")
			}
		}
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	closed := s["additionalProperties"] == false
	for _, k := range names {
		ps, known := props[k]
		if !known {
			if extra, ok := s["additionalProperties"].(Schema); ok {
				check(extra, obj[k], append(path, k), issues)
				continue
			}
			if closed {
				known := make([]string, 0, len(props))
				for p := range props {
					known = append(known, p)
				}
				sort.Strings(known)
				add(issues, append(path, k), "unknown_argument", strings.Join(known, "|"), "is not an accepted argument (accepted: %s)", strings.Join(known, ", "))
			}
			continue
		}
		check(ps, obj[k], append(path, k), issues)
	}
}
