package mcpserver

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"rea/host/app"
	"rea/host/operation"
)

// nonCanonical says why a parameter name is not the one name of its concept
// (issue 21 point 8), or "" when it is: a path is input_path, Evidence
// references are {"kind":"retained-evidence","evidence_id":…} objects (no
// bare-id arrays), a page is offset/limit (a collection paged on its own is
// an object named after it holding offset/limit).
func nonCanonical(name string) string {
	switch {
	case notPaging[name]:
		return ""
	case name == "target_path" || strings.HasSuffix(name, "_target_path"):
		return "a path is input_path"
	case name == "evidence_ids" || strings.HasSuffix(name, "_evidence_ids"):
		return "Evidence is referenced by {kind, evidence_id} objects, not bare ids"
	case name == "page" || name == "pages" || strings.HasSuffix(name, "_offset") || strings.HasSuffix(name, "_limit"):
		return "a page is offset/limit"
	}
	return ""
}

// notPaging are names ending like a page's that are no page.
var notPaging = map[string]bool{
	"fail_on_limit": true, // analyze_javascript_application: fail instead of a partial graph when a limit is reached
}

// schemaNames calls fn for every property name anywhere in a schema
// (nested objects, array items, anyOf branches, $defs), with its path.
func schemaNames(v any, path string, fn func(path, name string)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if props, ok := x[k].(map[string]any); ok && k == "properties" {
				for name, sub := range props {
					fn(path, name)
					schemaNames(sub, path+"."+name, fn)
				}
				continue
			}
			schemaNames(x[k], path+"/"+k, fn)
		}
	case []any:
		for _, e := range x {
			schemaNames(e, path, fn)
		}
	}
}

// Every tool's advertised input schema (both profiles) and every workflow
// argument uses the canonical name of each concept; the old names are
// declared aliases only, never advertised.
func TestEveryInputUsesTheCanonicalNames(t *testing.T) {
	checked := 0
	for _, profile := range []string{"", "strict"} {
		s := newTestServer(t, Options{Version: "test", SchemaProfile: profile})
		for _, tool := range s.Tools() {
			var schema any
			if err := json.Unmarshal(advertisedJSON(t, s, tool.Name), &schema); err != nil {
				t.Fatal(err)
			}
			schemaNames(schema, tool.Name, func(path, name string) {
				checked++
				if why := nonCanonical(name); why != "" {
					t.Errorf("%s profile %q: parameter %s at %s: %s", tool.Name, profile, name, path, why)
				}
			})
		}
	}
	for _, w := range app.Workflows() {
		for _, a := range w.Arguments {
			checked++
			if why := nonCanonical(a.Name); why != "" {
				t.Errorf("workflow %s: argument %s: %s", w.ID, a.Name, why)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d names walked: the walker misses the schemas", checked)
	}
}

// Every declared alias is an old name the rule refuses (or a move into a
// collection's page object), its new name is a parameter of the spec, and
// the old one is not.
func TestDeclaredAliasesNameRealParameters(t *testing.T) {
	n := 0
	for _, sp := range operation.All() {
		for _, a := range sp.Aliases {
			n++
			old := a.Old[strings.LastIndex(a.Old, ".")+1:]
			if nonCanonical(old) == "" && !strings.HasPrefix(a.Old, "page.") {
				t.Errorf("%s: alias %s → %s: the old name is canonical", sp.Name, a.Old, a.New)
			}
			if doc, ok := inDocument(sp, a.New); ok {
				// A field of a free-form document parameter (the coverage
				// workspace): the document's own fields are no parameters.
				if !strings.HasSuffix(a.New, "evidence") || !a.Refs {
					t.Errorf("%s: alias %s → %s inside the document %s is no reference alias", sp.Name, a.Old, a.New, doc)
				}
				continue
			}
			if _, ok := lookupPath(sp, a.New); !ok {
				t.Errorf("%s: alias %s → %s: no parameter %s", sp.Name, a.Old, a.New, a.New)
			}
			if _, ok := lookupPath(sp, a.Old); ok {
				t.Errorf("%s: alias %s is still a parameter", sp.Name, a.Old)
			}
		}
	}
	if n == 0 {
		t.Fatal("no aliases declared")
	}
}

// lookupPath is Spec.Lookup through array items ("a[].b").
func lookupPath(sp operation.Spec, path string) (operation.Param, bool) {
	head, rest, ok := strings.Cut(path, "[].")
	if !ok {
		return sp.Lookup(path)
	}
	p, found := sp.Lookup(head)
	if !found || p.Items == nil {
		return operation.Param{}, false
	}
	return lookupPath(operation.Spec{Params: p.Items.Fields}, rest)
}

// inDocument reports whether path runs through a free-form Evidence-typed
// parameter (one without declared fields), naming it.
func inDocument(sp operation.Spec, path string) (string, bool) {
	head, _, _ := strings.Cut(path, ".")
	p, ok := sp.Lookup(head)
	return head, ok && head != path && p.Type == operation.Evidence && len(p.Fields) == 0 && p.Items == nil
}
