package evidence

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// One name per concept on the output side (issue 21 point 8): a result
// names Evidence with {"kind":"retained-evidence","evidence_id":…}
// references. The seed's formats spell bare-id arrays (evidence_ids,
// supporting_evidence_ids, source_evidence_ids, …); for one release a
// result carries both, the bare ids under their old name and the
// references beside them under the name without "_ids" (evidence,
// supporting_evidence, source_evidence), and the old name is a deprecation
// of the result (LegacyIDFields).

// RefsName is the reference-array name of a bare-id array's name
// ("evidence_ids" → "evidence", "source_evidence_ids" → "source_evidence");
// ok is false for any other name.
func RefsName(key string) (string, bool) {
	if key == "evidence_ids" || strings.HasSuffix(key, "_evidence_ids") {
		return strings.TrimSuffix(key, "_ids"), true
	}
	return "", false
}

// legacyMarker is how every bare-id array's name ends in JSON text: a
// document without it has nothing to rewrite (the common case, checked
// without decoding).
var legacyMarker = []byte(`evidence_ids"`)

// WithReferences adds, beside every bare-id array of doc (a member named
// as RefsName says whose value is an array of strings, or null), the same
// ids as retained references under the new name, unless that name is
// already taken. Embedded Evidence records are left as they are: their id
// binds their bytes. doc comes back unchanged when there is nothing to add
// (or it is no JSON).
func WithReferences(doc []byte) []byte {
	if !bytes.Contains(doc, legacyMarker) {
		return doc
	}
	v, ok := decodeNumbers(doc)
	if !ok || !addRefs(v, true) {
		return doc
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return doc
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func decodeNumbers(doc []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// isRecord: an object shaped like an Evidence record.
func isRecord(m map[string]any) bool {
	_, id := m["evidence_id"]
	_, nr := m["normalized_result"]
	_, sv := m["schema_version"]
	return id && nr && sv
}

func addRefs(v any, top bool) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		if !top && isRecord(x) {
			return false
		}
		var add map[string]any
		for k, e := range x {
			if neu, ok := RefsName(k); ok {
				if _, taken := x[neu]; !taken {
					if refs, ok := refsOfIDs(e); ok {
						if add == nil {
							add = map[string]any{}
						}
						add[neu] = refs
					}
				}
			}
			if addRefs(e, false) {
				changed = true
			}
		}
		for k, r := range add {
			x[k] = r
			changed = true
		}
	case []any:
		for _, e := range x {
			if addRefs(e, false) {
				changed = true
			}
		}
	}
	return changed
}

func refsOfIDs(v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	items, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]any, len(items))
	for i, it := range items {
		s, isStr := it.(string)
		if !isStr {
			return nil, false
		}
		out[i] = map[string]any{"kind": ReferenceKind, "evidence_id": s}
	}
	return out, true
}

// LegacyIDField is a bare-id array of a result that has its references
// beside it: Path and Replacement are dotted paths ("[]" for array items).
type LegacyIDField struct {
	Path, Replacement string
}

// LegacyIDFields lists, once each and sorted, the bare-id arrays of doc
// whose references stand beside them (WithReferences), embedded records
// included: what a reader of the old name should move to.
func LegacyIDFields(doc []byte) []LegacyIDField {
	if !bytes.Contains(doc, legacyMarker) {
		return nil
	}
	v, ok := decodeNumbers(doc)
	if !ok {
		return nil
	}
	seen := map[string]LegacyIDField{}
	legacyFields(v, "", seen)
	out := make([]LegacyIDField, 0, len(seen))
	for _, f := range seen {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func legacyFields(v any, path string, seen map[string]LegacyIDField) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if neu, ok := RefsName(k); ok && isRefArray(x[neu]) {
				r := neu
				if path != "" {
					r = path + "." + neu
				}
				seen[p] = LegacyIDField{Path: p, Replacement: r}
			}
			legacyFields(e, p, seen)
		}
	case []any:
		for _, e := range x {
			legacyFields(e, path+"[]", seen)
		}
	}
}

func isRefArray(v any) bool {
	items, ok := v.([]any)
	if !ok {
		return false
	}
	for _, it := range items {
		m, is := it.(map[string]any)
		if !is || m["kind"] != ReferenceKind {
			return false
		}
		if _, has := m["evidence_id"].(string); !has {
			return false
		}
	}
	return true
}
