package mcpserver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"rea/host/operation"
)

// projectionProblems walks one advertised input schema (as a client
// receives it) and reports what seed 001's projection forbids: a root
// without a description of the input groups, a property without a
// description (unless the profile drops nested prose, as compact does), a
// reference that is not schema-local or is recursive, and (when shared is
// set) an object definition written out more than once instead of shared
// by $ref.
func projectionProblems(tool string, schema json.RawMessage, nestedProse, shared bool) []string {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return []string{tool + ": not a JSON object"}
	}
	var problems []string
	bad := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	if d, _ := root["description"].(string); !strings.HasPrefix(d, "Input: ") {
		bad(tool, "the root does not describe the accepted input groups: %q", d)
	}
	defs, _ := root["$defs"].(map[string]any)
	seen := map[string][]string{}
	// refs are the definitions this node is reached through; a node so
	// reached is written out under $defs and counted there once.
	var walk func(node map[string]any, path string, refs []string)
	walk = func(node map[string]any, path string, refs []string) {
		if ref, ok := node["$ref"].(string); ok {
			name, local := strings.CutPrefix(ref, "#/$defs/")
			def, known := defs[name].(map[string]any)
			switch {
			case !local || !known:
				bad(path, "reference %q is not to this schema's $defs", ref)
				return
			case contains(refs, name):
				bad(path, "reference %q is recursive", ref)
				return
			}
			walk(def, path, append(refs, name))
			return
		}
		if node["type"] == "object" && node["properties"] != nil && path != tool && len(refs) == 0 {
			c := map[string]any{}
			for k, v := range node {
				if k != "description" && k != "examples" {
					c[k] = v
				}
			}
			b, _ := json.Marshal(c)
			seen[string(b)] = append(seen[string(b)], path)
		}
		if props, ok := node["properties"].(map[string]any); ok {
			for _, name := range sortedKeys(props) {
				p, _ := props[name].(map[string]any)
				if d, _ := p["description"].(string); nestedProse && strings.TrimSpace(d) == "" {
					bad(path+"."+name, "property without a description")
				}
				walk(p, path+"."+name, refs)
			}
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(items, path+"[]", refs)
		}
		if extra, ok := node["additionalProperties"].(map[string]any); ok {
			walk(extra, path+"{}", refs)
		}
		if branches, ok := node["anyOf"].([]any); ok {
			for i, b := range branches {
				if m, ok := b.(map[string]any); ok {
					walk(m, fmt.Sprintf("%s|%d", path, i), refs)
				}
			}
		}
	}
	walk(root, tool, nil)
	// Each definition, and what it holds, is counted once where it is
	// written out.
	for _, name := range sortedKeys(defs) {
		if def, ok := defs[name].(map[string]any); ok {
			walk(def, tool+".$defs."+name, nil)
		}
	}
	if shared {
		var repeated []string
		for _, paths := range seen {
			if len(paths) > 1 {
				sort.Strings(paths)
				repeated = append(repeated, strings.Join(paths, " and "))
			}
		}
		sort.Strings(repeated)
		for _, r := range repeated {
			bad(tool, "one object definition written out at %s, not shared by $ref", r)
		}
	}
	return problems
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Issue 21 point 4 (seed 001, schema projection): in every profile every
// tool's root states its accepted input groups; every property at every
// depth has a description (compact drops nested prose by design, the seed
// says so, and keeps the root's); the default profile shares every
// repeated object definition through a schema-local, non-recursive $ref.
func TestEveryInputSchemaDescribesItsGroupsAndPropertiesAndSharesRepeats(t *testing.T) {
	shares := 0
	for _, profile := range []string{"full", "compact", "strict"} {
		s := newTestServer(t, Options{Version: "test", SchemaProfile: profile})
		for _, tool := range s.Tools() {
			b := advertisedJSON(t, s, tool.Name)
			for _, p := range projectionProblems(tool.Name, b, profile != "compact", profile == "full") {
				t.Errorf("%s profile: %s", profile, p)
			}
			if profile == "full" && strings.Contains(string(b), `"$ref"`) {
				shares++
			}
		}
	}
	if shares == 0 {
		t.Errorf("no tool shares a definition: trace_application_feature's seed and seeds[] are one definition")
	}
}

// The checker can fail, and the sharing keeps what it shares: a schema
// with an undescribed property, a repeated object and a bare root is
// reported; after shareRepeated the repetition is one $defs entry that
// validates the same arguments.
func TestProjectionCheckerAndSharingOnAHandWrittenSchema(t *testing.T) {
	point := func(desc string) Schema {
		return object(desc, map[string]Schema{"x": integer("X.", 0, 9), "y": integer("Y.", 0, 9)}, "x")
	}
	s := object("", map[string]Schema{
		"from": point("Start."),
		"to":   point("End."),
		"path": array("Points on the way.", point(""), 8),
		"name": {"type": "string"},
	}, "from")
	b, _ := json.Marshal(s)
	got := strings.Join(projectionProblems("t", b, true, true), "\n")
	for _, want := range []string{"the root does not describe", "t.name: property without a description", "t.from and t.path[] and t.to, not shared"} {
		if !strings.Contains(got, want) {
			t.Errorf("want a problem %q, got:\n%s", want, got)
		}
	}
	s["description"] = "Input: from required."
	s["properties"].(map[string]Schema)["name"]["description"] = "A name."
	sharedSchema := shareRepeated(s)
	b, _ = json.Marshal(sharedSchema)
	if p := projectionProblems("t", b, true, true); len(p) > 0 {
		t.Errorf("after sharing: %v\n%s", p, b)
	}
	if n := strings.Count(string(b), `"$ref":"#/$defs/from"`); n != 3 {
		t.Errorf("%d references to the shared point, want 3: %s", n, b)
	}
	if !strings.Contains(string(b), `"description":"End."`) {
		t.Errorf("an occurrence lost its own description: %s", b)
	}
	if _, ok := s["$defs"]; ok {
		t.Errorf("shareRepeated changed the canonical schema")
	}
	for _, tc := range []struct {
		args string
		ok   bool
	}{
		{`{"from":{"x":1},"to":{"x":2,"y":3},"path":[{"x":4}]}`, true},
		{`{"from":{"x":1},"path":[{"x":10}]}`, false}, // bound inside the shared definition
		{`{"from":{"y":1}}`, false},                   // its required field
		{`{"from":{"x":1,"z":1}}`, false},             // closed
	} {
		if err := validateAdvertised(t, b, tc.args); (err == nil) != tc.ok {
			t.Errorf("%s: advertised schema says %v, want ok=%v", tc.args, err, tc.ok)
		}
		if err := validateArguments("t", s, json.RawMessage(tc.args)); (err == nil) != tc.ok {
			t.Errorf("%s: canonical validation says %v, want ok=%v", tc.args, err, tc.ok)
		}
	}
}

// Every name inputAlternatives states is a parameter of its tool (a rename
// must update the root description too).
func TestInputAlternativesNameParametersOfTheirTools(t *testing.T) {
	specs := map[string]operation.Spec{}
	for _, sp := range operation.All() {
		specs[sp.Name] = sp
	}
	for tool, alt := range inputAlternatives {
		sp, ok := specs[tool]
		if !ok {
			t.Errorf("%s: no such operation", tool)
			continue
		}
		for _, p := range alt.params {
			if _, ok := sp.Lookup(p); !ok {
				t.Errorf("%s: the input groups name %q, which is no parameter", tool, p)
			}
			if !strings.Contains(alt.text, p) {
				t.Errorf("%s: %q is listed but the text does not mention it", tool, p)
			}
		}
		if !strings.Contains(inputGroups(sp), alt.text) {
			t.Errorf("%s: the root description lacks its alternatives", tool)
		}
	}
}

// validateAdvertised checks arguments against an advertised schema with an
// independent JSON Schema implementation (jsonschema-go), references
// resolved.
func validateAdvertised(t *testing.T, schema []byte, args string) error {
	t.Helper()
	var js jsonschema.Schema
	if err := json.Unmarshal(schema, &js); err != nil {
		t.Fatal(err)
	}
	rs, err := js.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		t.Fatal(err)
	}
	return rs.Validate(v)
}
