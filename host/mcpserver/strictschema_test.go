package mcpserver

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func advertisedJSON(t *testing.T, s *Server, name string) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(s.Advertised(name).InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 21 point 10: every tool's strict-profile schema passes OpenAI's
// strict rules and Gemini's function-declaration subset, and Anthropic's
// strict keyword rules; Anthropic's complexity limits are checked per tool.
func TestStrictProfileSchemasPassTheVendorRuleSets(t *testing.T) {
	s := newTestServer(t, Options{Version: "test", SchemaProfile: "strict"})
	overBudget, most, mostTool := 0, 0, ""
	for _, tool := range s.Tools() {
		b := advertisedJSON(t, s, tool.Name)
		for _, rules := range []StrictRuleSet{RulesOpenAI, RulesGemini} {
			if problems, _ := checkStrictRules(rules, tool.Name, b); len(problems) > 0 {
				t.Errorf("%s under %s:\n%s", tool.Name, rules, strictSummary(problems))
			}
		}
		problems, cx := checkStrictRules(RulesAnthropic, tool.Name, b)
		var keyword []string
		for _, p := range problems {
			if !strings.Contains(p, "across a request's strict tools") {
				keyword = append(keyword, p)
			}
		}
		if len(keyword) > 0 {
			t.Errorf("%s under %s:\n%s", tool.Name, RulesAnthropic, strictSummary(keyword))
		}
		if cx.Unions > anthropicMaxUnionParams || cx.Optional > anthropicMaxOptional {
			overBudget++
			t.Errorf("%s: %d union-typed and %d optional parameters, over Anthropic's %d and %d", tool.Name, cx.Unions, cx.Optional, anthropicMaxUnionParams, anthropicMaxOptional)
		}
		if cx.Unions > most {
			most, mostTool = cx.Unions, tool.Name
		}
	}
	if overBudget > 0 {
		t.Errorf("%d tools exceed Anthropic's %d union-typed parameters on their own", overBudget, anthropicMaxUnionParams)
	}
	t.Logf("most union-typed parameters: %s, %d", mostTool, most)
}

// The checker can fail: the full profile (type lists, open maps, optional
// properties, bounds) breaks OpenAI's and Gemini's rules.
func TestStrictRulesRejectTheFullProfile(t *testing.T) {
	s := newTestServer(t, Options{Version: "test"})
	failing := 0
	for _, tool := range s.Tools() {
		b := advertisedJSON(t, s, tool.Name)
		p1, _ := checkStrictRules(RulesOpenAI, tool.Name, b)
		p2, _ := checkStrictRules(RulesGemini, tool.Name, b)
		if len(p1) > 0 || len(p2) > 0 {
			failing++
		}
	}
	if failing < len(s.Tools())/2 {
		t.Fatalf("only %d of %d full-profile schemas break a strict rule set: the checker is too lax", failing, len(s.Tools()))
	}
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`, "type list"},
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, "not in required"},
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, "not closed"},
		{`{"type":"object","properties":{"a":{"type":"string","examples":["x"]}},"required":["a"],"additionalProperties":false}`, `"examples"`},
		{`{"anyOf":[{"type":"object"}]}`, "root"},
	} {
		p, _ := checkStrictRules(RulesOpenAI, "t", json.RawMessage(tc.schema))
		if !strings.Contains(strictSummary(p), tc.want) {
			t.Errorf("%s: want a problem mentioning %s, got %v", tc.schema, tc.want, p)
		}
	}
	if p, _ := checkStrictRules(RulesAnthropic, "t", json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer","maximum":5}},"required":["a"],"additionalProperties":false}`)); len(p) == 0 {
		t.Errorf("Anthropic rules accepted maximum")
	}
}

// toStrictArgs writes canonical arguments the way a strict client must:
// every optional property present (null when unused), maps as {name,
// value} pairs, free-form values as JSON text.
func toStrictArgs(s Schema, v any) any {
	if isFreeJSON(s) {
		if isEvidenceSlot(s) {
			return v // a reference is already the strict form
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	switch x := v.(type) {
	case map[string]any:
		if extra, ok := s["additionalProperties"].(Schema); ok {
			if _, hasProps := s["properties"]; !hasProps {
				var pairs []any
				for k, val := range x {
					pairs = append(pairs, map[string]any{"name": k, "value": toStrictArgs(extra, val)})
				}
				return pairs
			}
		}
		props, _ := s["properties"].(map[string]Schema)
		out := map[string]any{}
		for name, ps := range props {
			switch val, ok := x[name]; {
			case ok:
				out[name] = toStrictArgs(ps, val)
			case !acceptsNull(ps):
				out[name] = nil
			}
			// A property that takes null canonically keeps null's own
			// meaning under the strict profile; omitting it is still valid.
		}
		return out
	case []any:
		if items, ok := s["items"].(Schema); ok {
			for i := range x {
				x[i] = toStrictArgs(items, x[i])
			}
		}
	}
	return v
}

// Strict-form calls are mapped back to canonical arguments: every
// advertised example, rewritten as a strict client must send it, comes
// back as the same canonical input and passes canonical validation.
func TestStrictArgumentsMapBackToCanonicalInputs(t *testing.T) {
	s := newTestServer(t, Options{Version: "test", SchemaProfile: "strict"})
	checked := 0
	for _, tool := range s.Tools() {
		for i, ex := range tool.Examples {
			canonical, _ := json.Marshal(ex)
			var v any
			dec := json.NewDecoder(bytes.NewReader(canonical))
			dec.UseNumber()
			_ = dec.Decode(&v)
			strictArgs, _ := json.Marshal(toStrictArgs(tool.Input, v))
			back, err := fromStrict(tool.Input, strictArgs)
			if err != nil {
				t.Errorf("%s example %d: %v", tool.Name, i, err)
				continue
			}
			if err := validateArguments(tool.Name, tool.Input, back); err != nil {
				t.Errorf("%s example %d: strict form %s maps back to an invalid input: %v", tool.Name, i, strictArgs, err)
				continue
			}
			if !sameJSON(t, back, canonical) {
				t.Errorf("%s example %d: strict form maps back to %s, want %s", tool.Name, i, back, canonical)
			}
			// A canonical call under the strict profile is left as it is.
			if same, err := fromStrict(tool.Input, canonical); err != nil || !sameJSON(t, same, canonical) {
				t.Errorf("%s example %d: a canonical call changed: %s, %v", tool.Name, i, same, err)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d examples checked", checked)
	}
	// Bad JSON text in a free-form slot names the path.
	if tool := findTool(s, "evaluate_reconstruction_coverage"); tool != nil {
		if _, err := fromStrict(tool.Input, json.RawMessage(`{"workspace":"{not json"}`)); err == nil || !strings.Contains(err.Error(), "workspace") {
			t.Errorf("bad JSON text: %v", err)
		}
	}
}

func findTool(s *Server, name string) *Tool {
	for _, t := range s.Tools() {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ea, _ := json.Marshal(x)
	eb, _ := json.Marshal(y)
	return bytes.Equal(ea, eb)
}

var sendDefault = regexp.MustCompile(`Send (.+?) for the default\.`)

// strictForm writes canonical arguments the way a strict client reading the
// advertised schema must: every property present, an unused one null when
// the schema takes null and otherwise the default its description says to
// send; maps as {name, value} pairs, free-form values as JSON text.
func strictForm(t *testing.T, adv map[string]any, canonical Schema, v any) any {
	t.Helper()
	if isFreeJSON(canonical) {
		return toStrictArgs(canonical, v)
	}
	if branches, ok := adv["anyOf"].([]any); ok && v != nil {
		for _, b := range branches {
			if m, _ := b.(map[string]any); m["type"] != "null" {
				adv = m
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if _, isMap := canonical["additionalProperties"].(Schema); isMap {
			return toStrictArgs(canonical, v)
		}
		props, _ := adv["properties"].(map[string]any)
		cprops, _ := canonical["properties"].(map[string]Schema)
		out := map[string]any{}
		for name, p := range props {
			ap, _ := p.(map[string]any)
			if val, ok := x[name]; ok {
				out[name] = strictForm(t, ap, cprops[name], val)
				continue
			}
			if _, nullable := ap["anyOf"]; nullable {
				out[name] = nil
				continue
			}
			d, _ := ap["description"].(string)
			m := sendDefault.FindStringSubmatch(d)
			if m == nil {
				t.Fatalf("%s: required in the strict profile, neither nullable nor with a default to send: %q", name, d)
			}
			var def any
			if err := json.Unmarshal([]byte(m[1]), &def); err != nil {
				t.Fatalf("%s: the default %q is not JSON: %v", name, m[1], err)
			}
			out[name] = strictForm(t, ap, cprops[name], def)
		}
		return out
	case []any:
		items, _ := adv["items"].(map[string]any)
		citems, _ := canonical["items"].(Schema)
		out := make([]any, len(x))
		for i := range x {
			out[i] = strictForm(t, items, citems, x[i])
		}
		return out
	}
	return v
}

// Issue 21 point 2 (Anthropic's 16 union-typed parameters): an optional
// property with a default is required in the strict profile, the default
// in its description. Every example, written from the advertised strict
// schema alone (nulls where it takes null, the stated default elsewhere),
// is accepted by an independent validator of that schema, and maps back to
// a canonical input that rea's canonical validation accepts.
func TestStrictFormWithStatedDefaultsValidatesBothWays(t *testing.T) {
	s := newTestServer(t, Options{Version: "test", SchemaProfile: "strict"})
	checked, defaults := 0, 0
	for _, tool := range s.Tools() {
		b := advertisedJSON(t, s, tool.Name)
		defaults += len(sendDefault.FindAll(b, -1))
		var adv map[string]any
		_ = json.Unmarshal(b, &adv)
		for i, ex := range tool.Examples {
			canonical, _ := json.Marshal(ex)
			var v any
			dec := json.NewDecoder(bytes.NewReader(canonical))
			dec.UseNumber()
			_ = dec.Decode(&v)
			strictArgs, _ := json.Marshal(strictForm(t, adv, tool.Input, v))
			if err := validateAdvertised(t, b, string(strictArgs)); err != nil {
				t.Errorf("%s example %d: the strict schema rejects its strict form %s: %v", tool.Name, i, strictArgs, err)
				continue
			}
			back, err := fromStrict(tool.Input, strictArgs)
			if err != nil {
				t.Errorf("%s example %d: %v", tool.Name, i, err)
				continue
			}
			if err := validateArguments(tool.Name, tool.Input, back); err != nil {
				t.Errorf("%s example %d: strict form %s maps back to an invalid input: %v", tool.Name, i, strictArgs, err)
			}
			checked++
		}
	}
	if checked < 20 || defaults < 50 {
		t.Fatalf("only %d examples checked, %d stated defaults", checked, defaults)
	}
	t.Logf("%d examples, %d properties that send their default", checked, defaults)
	// A stated default is still checked canonically: out of bounds fails.
	tool := findTool(s, "capture_process_scenario")
	err := validateArguments(tool.Name, tool.Input, json.RawMessage(`{"executable":"/bin/true","limits":{"timeout_ms":1000000000}}`))
	if err == nil || !strings.Contains(err.Error(), "timeout_ms") {
		t.Errorf("an out-of-range limit passed canonical validation: %v", err)
	}
}
