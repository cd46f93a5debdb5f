package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// JSON configuration files are edited by splicing bytes, not by decoding
// and re-encoding them: a client's file keeps its key order, spacing,
// number spellings and every other server exactly as it was, and only the
// members rea manages change. Every function here expects a document that
// json.Valid accepted.

// jsonMember is one member of a JSON object: the byte offsets of its key's
// opening quote and of its value.
type jsonMember struct {
	key                string
	keyStart           int
	valStart, valEnd   int // valEnd is exclusive
	valueIsObjectStart bool
}

// jsonObject lists the members of the object whose '{' is at doc[start]
// and returns the offset of its closing '}'.
func jsonObject(doc []byte, start int) ([]jsonMember, int, error) {
	if start >= len(doc) || doc[start] != '{' {
		return nil, 0, fmt.Errorf("offset %d: not an object", start)
	}
	var members []jsonMember
	i := skipSpace(doc, start+1)
	if i < len(doc) && doc[i] == '}' {
		return nil, i, nil
	}
	for i < len(doc) {
		if doc[i] != '"' {
			return nil, 0, fmt.Errorf("offset %d: expected a key", i)
		}
		keyEnd := skipString(doc, i)
		var key string
		if err := json.Unmarshal(doc[i:keyEnd], &key); err != nil {
			return nil, 0, fmt.Errorf("offset %d: %w", i, err)
		}
		j := skipSpace(doc, keyEnd)
		if j >= len(doc) || doc[j] != ':' {
			return nil, 0, fmt.Errorf("offset %d: expected ':'", j)
		}
		vs := skipSpace(doc, j+1)
		ve := skipValue(doc, vs)
		members = append(members, jsonMember{key: key, keyStart: i, valStart: vs, valEnd: ve, valueIsObjectStart: vs < len(doc) && doc[vs] == '{'})
		i = skipSpace(doc, ve)
		if i < len(doc) && doc[i] == '}' {
			return members, i, nil
		}
		if i >= len(doc) || doc[i] != ',' {
			return nil, 0, fmt.Errorf("offset %d: expected ',' or '}'", i)
		}
		i = skipSpace(doc, i+1)
	}
	return nil, 0, fmt.Errorf("unterminated object at offset %d", start)
}

// lookupMember returns the last member named key (encoding/json also lets
// the last duplicate win).
func lookupMember(members []jsonMember, key string) (jsonMember, bool) {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].key == key {
			return members[i], true
		}
	}
	return jsonMember{}, false
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset just past the string starting at doc[i].
func skipString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(doc)
}

// skipValue returns the offset just past the value starting at doc[i].
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return i
	}
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for ; i < len(doc); i++ {
			switch doc[i] {
			case '"':
				i = skipString(doc, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(doc)
	default:
		for i < len(doc) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(doc[i])) {
			i++
		}
		return i
	}
}

// lineIndent returns the whitespace that starts the line holding doc[i],
// and whether only that whitespace precedes doc[i].
func lineIndent(doc []byte, i int) (string, bool) {
	start := bytes.LastIndexByte(doc[:i], '\n') + 1
	prefix := doc[start:i]
	lead := prefix[:len(prefix)-len(bytes.TrimLeft(prefix, " \t"))]
	return string(lead), len(lead) == len(prefix)
}

// indentUnit guesses one level of indentation from the document: the
// indentation of the first indented line, or two spaces.
func indentUnit(doc []byte) string {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(trimmed) > 0 {
			return string(line[:n])
		}
	}
	return "  "
}

// setJSONMember sets key in the object at doc[objStart] to value (any
// JSON-encodable), replacing an existing value in place or appending a new
// member after the last one with matching indentation.
func setJSONMember(doc []byte, objStart int, key string, value any) ([]byte, error) {
	members, closeAt, err := jsonObject(doc, objStart)
	if err != nil {
		return nil, err
	}
	unit := indentUnit(doc)
	objIndent, _ := lineIndent(doc, objStart)
	if m, ok := lookupMember(members, key); ok {
		ind, multiline := lineIndent(doc, m.keyStart)
		enc, err := encodeJSON(value, ind, unit, multiline)
		if err != nil {
			return nil, err
		}
		return splice(doc, m.valStart, m.valEnd, enc), nil
	}
	keyEnc, _ := json.Marshal(key)
	if len(members) == 0 {
		inner := objIndent + unit
		enc, err := encodeJSON(value, inner, unit, true)
		if err != nil {
			return nil, err
		}
		text := "\n" + inner + string(keyEnc) + ": " + string(enc) + "\n" + objIndent
		return splice(doc, objStart+1, closeAt, []byte(text)), nil
	}
	last := members[len(members)-1]
	ind, multiline := lineIndent(doc, last.keyStart)
	enc, err := encodeJSON(value, ind, unit, multiline)
	if err != nil {
		return nil, err
	}
	sep := ", "
	if multiline {
		sep = ",\n" + ind
	}
	return splice(doc, last.valEnd, last.valEnd, []byte(sep+string(keyEnc)+": "+string(enc))), nil
}

// deleteJSONMember removes key (every duplicate of it) from the object at
// doc[objStart], together with the separator that joined it.
func deleteJSONMember(doc []byte, objStart int, key string) ([]byte, error) {
	for {
		members, _, err := jsonObject(doc, objStart)
		if err != nil {
			return nil, err
		}
		idx := -1
		for i, m := range members {
			if m.key == key {
				idx = i
				break
			}
		}
		if idx < 0 {
			return doc, nil
		}
		m := members[idx]
		switch {
		case len(members) == 1:
			// Leave an empty object: {}.
			_, closeAt, _ := jsonObject(doc, objStart)
			doc = splice(doc, objStart+1, closeAt, nil)
		case idx == 0:
			// Remove from this key up to the next key.
			doc = splice(doc, m.keyStart, members[1].keyStart, nil)
		default:
			// Remove from the end of the previous value through this value.
			doc = splice(doc, members[idx-1].valEnd, m.valEnd, nil)
		}
	}
}

// encodeJSON encodes value for a member whose key line starts with indent;
// compact when the surrounding object is written on one line.
func encodeJSON(value any, indent, unit string, multiline bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if multiline {
		enc.SetIndent(indent, unit)
	}
	if err := enc.Encode(value); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func splice(doc []byte, from, to int, with []byte) []byte {
	out := make([]byte, 0, len(doc)-(to-from)+len(with))
	out = append(out, doc[:from]...)
	out = append(out, with...)
	return append(out, doc[to:]...)
}
