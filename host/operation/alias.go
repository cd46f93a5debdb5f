package operation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"rea/host/evidence"
)

// One name per concept (issue 21 point 8): a path is input_path, an
// Evidence reference is {"kind":"retained-evidence","evidence_id":…}, a
// page is offset/limit. An older name stays accepted for one release as an
// Alias of the spec: the front ends rewrite it to the canonical parameter
// before validation (Canonical), the result carries a Deprecation naming
// the replacement, and giving both names with different values is an
// invalid-params error at the old name's path. Aliases are not advertised
// in the input schema (like a hidden CLI flag).

// Alias is an older name of a parameter.
type Alias struct {
	// Old and New are dotted paths ("page.offset", "assembly.offset"); a
	// "[]" segment applies the alias to every element of an array
	// ("reviewed_obligations[].source_evidence_ids"), and both paths share
	// the part up to it. A path through a Map names one of its keys
	// ("arguments.target_path").
	Old, New string
	// Refs: the old value is an array of bare Evidence ids, the new one
	// takes retained references.
	Refs bool
}

// Deprecation is the note a result carries when an old name was used; the
// same shape on every tool (MCP: _meta "rea/deprecations" and a text note;
// CLI: a line on standard error).
type Deprecation struct {
	Parameter   string `json:"parameter"`
	Replacement string `json:"replacement"`
	Message     string `json:"message"`
	// In is "result" for an old name of a result field (Parameter and
	// Replacement are then paths in the result, "[]" for array items);
	// absent for a parameter of the call.
	In string `json:"in,omitempty"`
}

// ResultDeprecations names the bare-id arrays of a result (JSON text) that
// stand beside their retained references for one release
// (evidence.WithReferences): a reader of the old name moves to the new.
func ResultDeprecations(result []byte) []Deprecation {
	var out []Deprecation
	for _, f := range evidence.LegacyIDFields(result) {
		out = append(out, Deprecation{Parameter: f.Path, Replacement: f.Replacement, In: "result",
			Message: fmt.Sprintf("the result field %s (bare Evidence ids) is deprecated and goes away in the next release: read %s", f.Path, f.Replacement) +
				refsWords(true)})
	}
	return out
}

// AliasConflict is an old and a new name given at once with different
// values; Path is the old name's path.
type AliasConflict struct {
	Path    []any
	Message string
}

// RefKind is the kind of a retained Evidence reference.
const RefKind = "retained-evidence"

// Ref is the retained reference to an Evidence id.
func Ref(id string) map[string]any { return map[string]any{"kind": RefKind, "evidence_id": id} }

// Canonical rewrites the old names of args (a decoded JSON object) to the
// canonical ones in place.
func Canonical(aliases []Alias, args map[string]any) ([]Deprecation, []AliasConflict) {
	var deps []Deprecation
	var conflicts []AliasConflict
	for _, a := range aliases {
		applyAlias(a, args, nil, &deps, &conflicts)
	}
	return deps, conflicts
}

// CanonicalJSON is Canonical on raw JSON arguments; the raw bytes come
// back unchanged when no alias was used (or they are no JSON object).
func CanonicalJSON(aliases []Alias, raw json.RawMessage) (json.RawMessage, []Deprecation, []AliasConflict) {
	if len(aliases) == 0 {
		return raw, nil, nil
	}
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return raw, nil, nil
	}
	deps, conflicts := Canonical(aliases, args)
	if len(deps) == 0 && len(conflicts) == 0 {
		return raw, nil, nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return raw, deps, conflicts
	}
	return b, deps, conflicts
}

func applyAlias(a Alias, obj map[string]any, prefix []any, deps *[]Deprecation, conflicts *[]AliasConflict) {
	if head, rest, ok := strings.Cut(a.Old, "[]."); ok {
		newRest, found := strings.CutPrefix(a.New, head+"[].")
		if !found {
			panic("operation: alias " + a.Old + " and " + a.New + " do not share their array")
		}
		parent, key := walkTo(obj, head, false)
		if parent == nil {
			return
		}
		items, _ := parent[key].([]any)
		for i, it := range items {
			if m, is := it.(map[string]any); is {
				applyAlias(Alias{Old: rest, New: newRest, Refs: a.Refs}, m, append(append(append([]any{}, prefix...), pathOf(head)...), i), deps, conflicts)
			}
		}
		return
	}
	oldParent, oldKey := walkTo(obj, a.Old, false)
	if oldParent == nil {
		return
	}
	v, given := oldParent[oldKey]
	if !given {
		return
	}
	oldPath := append(append([]any{}, prefix...), pathOf(a.Old)...)
	name, replacement := dotted(oldPath), dotted(append(append([]any{}, prefix...), pathOf(a.New)...))
	if a.Refs {
		v = refsOf(v)
	}
	delete(oldParent, oldKey)
	// An object left empty by moving its last field out (page: {}) goes
	// with it.
	if i := strings.LastIndexByte(a.Old, '.'); i >= 0 {
		if gp, k := walkTo(obj, a.Old[:i], false); gp != nil {
			if m, is := gp[k].(map[string]any); is && len(m) == 0 {
				delete(gp, k)
			}
		}
	}
	*deps = append(*deps, Deprecation{Parameter: name, Replacement: replacement,
		Message: fmt.Sprintf("%s is deprecated and goes away in the next release: use %s", name, replacement) + refsWords(a.Refs)})
	newParent, newKey := walkTo(obj, a.New, true)
	if newParent == nil {
		*conflicts = append(*conflicts, AliasConflict{Path: oldPath, Message: fmt.Sprintf("%s: cannot move to %s, which is no object", name, replacement)})
		return
	}
	if cur, has := newParent[newKey]; has && cur != nil {
		if !sameJSON(cur, v) {
			*conflicts = append(*conflicts, AliasConflict{Path: oldPath,
				Message: fmt.Sprintf("%s: is the deprecated name of %s, which is given with a different value; give only %s", name, replacement, replacement)})
		}
		return
	}
	newParent[newKey] = v
}

func refsWords(refs bool) string {
	if !refs {
		return ""
	}
	return ` (an array of {"kind":"retained-evidence","evidence_id":"ev_…"} objects instead of bare ids)`
}

// refsOf turns an array of bare ids into retained references; anything
// else is kept for validation to name.
func refsOf(v any) any {
	items, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(items))
	for i, it := range items {
		if s, is := it.(string); is {
			out[i] = Ref(s)
		} else {
			out[i] = it
		}
	}
	return out
}

// walkTo returns the object holding the last segment of path and that
// segment; create makes the missing objects on the way. nil when a
// segment on the way is no object.
func walkTo(obj map[string]any, path string, create bool) (map[string]any, string) {
	segs := strings.Split(path, ".")
	for _, s := range segs[:len(segs)-1] {
		next, ok := obj[s]
		if !ok || next == nil {
			if !create {
				return nil, ""
			}
			m := map[string]any{}
			obj[s] = m
			obj = m
			continue
		}
		m, is := next.(map[string]any)
		if !is {
			return nil, ""
		}
		obj = m
	}
	return obj, segs[len(segs)-1]
}

func pathOf(dottedPath string) []any {
	var out []any
	for _, s := range strings.Split(dottedPath, ".") {
		out = append(out, s)
	}
	return out
}

func dotted(path []any) string {
	var b strings.Builder
	for i, seg := range path {
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

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return reflect.DeepEqual(a, b)
	}
	var xa, ya any
	_ = json.Unmarshal(x, &xa)
	_ = json.Unmarshal(y, &ya)
	return reflect.DeepEqual(xa, ya)
}

// IDsOf returns the Evidence ids of retained references (the form the
// registries and modules store).
func IDsOf(refs []Reference) []string {
	if refs == nil {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.EvidenceID
	}
	return out
}

// Reference is a retained Evidence reference as a request field.
type Reference struct {
	Kind       string `json:"kind"`
	EvidenceID string `json:"evidence_id"`
}

// References turns ids into references (results that name Evidence).
func References(ids []string) []Reference {
	if ids == nil {
		return nil
	}
	out := make([]Reference, len(ids))
	for i, id := range ids {
		out[i] = Reference{Kind: RefKind, EvidenceID: id}
	}
	return out
}

// refList is a list of retained Evidence references.
func refList(name, description string, max int) Param {
	return Param{Name: name, Type: Array, Description: description, MaxItems: max, Items: &Param{Type: Object, Fields: []Param{
		{Name: "kind", Type: String, Required: true, Enum: []string{RefKind}, Description: "Always retained-evidence."},
		{Name: "evidence_id", Type: String, Required: true, Description: "ev_ followed by 64 lowercase hex digits."},
	}}}
}

// Lower is Canonical's inverse for a service whose request (and the record
// format it stores, e.g. the seed's unknown records) still spells the older
// names: every canonical parameter an alias names moves back to its old
// path, retained references to their bare ids. It runs after validation,
// so every reference has its evidence_id.
func Lower(aliases []Alias, args map[string]any) {
	for i := len(aliases) - 1; i >= 0; i-- {
		lower(aliases[i], args)
	}
}

func lower(a Alias, obj map[string]any) {
	if head, rest, ok := strings.Cut(a.New, "[]."); ok {
		oldRest := strings.TrimPrefix(a.Old, head+"[].")
		parent, key := walkTo(obj, head, false)
		if parent == nil {
			return
		}
		items, _ := parent[key].([]any)
		for _, it := range items {
			if m, is := it.(map[string]any); is {
				lower(Alias{Old: oldRest, New: rest, Refs: a.Refs}, m)
			}
		}
		return
	}
	parent, key := walkTo(obj, a.New, false)
	if parent == nil {
		return
	}
	v, given := parent[key]
	if !given {
		return
	}
	delete(parent, key)
	if a.Refs {
		if items, is := v.([]any); is {
			ids := make([]any, len(items))
			for i, it := range items {
				if m, ok := it.(map[string]any); ok {
					ids[i] = m["evidence_id"]
				} else {
					ids[i] = it
				}
			}
			v = ids
		}
	}
	if np, nk := walkTo(obj, a.Old, true); np != nil {
		np[nk] = v
	}
}

// LowerJSON is Lower on raw JSON arguments.
func LowerJSON(aliases []Alias, raw json.RawMessage) (json.RawMessage, error) {
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return raw, err
	}
	Lower(aliases, args)
	return json.Marshal(args)
}
