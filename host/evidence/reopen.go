package evidence

import (
	"bytes"
	"encoding/json"
	"io"

	"rea/abi"
)

// Reopen restores a record from the bytes its Canonical returned, as a
// cache that kept them hands them back. Parse canonicalises its input
// (RFC 8785) before reading it, which on a record of megabytes is most of
// the cost of a cache hit; Reopen splits the top-level members without
// canonicalising the payloads again, then checks what Parse checks of the
// fields, recomputes the id (whose digest covers every payload byte, so a
// payload changed since sealing is refused as tampered), and requires the
// bytes to be exactly the canonical form of what it read at the top
// level. What it cannot see is a forger who also recomputed the id over
// non-canonical payloads: bytes from anywhere but this package's own
// Canonical go through Parse.
//
// The record's payloads (parameters, raw_result, normalized_result) are
// slices of canonical; neither may be modified afterwards.
func Reopen(canonical []byte) (Record, error) {
	fields, err := splitObject(canonical)
	if err != nil {
		return Record{}, err
	}
	r, rerr := recordFromFields(fields, fieldPath{})
	if rerr != nil {
		return Record{}, rerr
	}
	same := &prefixWriter{want: canonical, ok: true}
	_ = r.full().emit(same) // compared as it is written: the record is not copied
	if !same.ok || same.off != len(canonical) {
		return Record{}, abi.Errorf(abi.CodeEvidenceIntegrity,
			"Evidence %s is not in its canonical form; reopen only bytes a record's Canonical returned, or Parse them.", r.EvidenceID).
			WithDetail("field", "evidence_id").WithDetail("declared_evidence_id", r.EvidenceID)
	}
	r.canonical = canonical
	return r, nil
}

// prefixWriter checks that what is written to it is want, in order.
type prefixWriter struct {
	want []byte
	off  int
	ok   bool
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	if w.ok && bytes.HasPrefix(w.want[w.off:], p) {
		w.off += len(p)
	} else {
		w.ok = false
	}
	return len(p), nil
}

// splitObject splits a compact JSON object whose keys need no escapes
// into its members, without decoding the values: each value is found by
// skipValue. It refuses what is not such an object (whitespace, escaped or
// repeated keys, anything after the closing brace); the values are
// checked by whoever reads them.
func splitObject(b []byte) (map[string]json.RawMessage, *abi.Error) {
	bad := func(what string) *abi.Error {
		return invalid(fieldPath{}, ReasonInvalidFormat, "a canonical Evidence record", "%s", what)
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, bad("the record is not a JSON object")
	}
	fields := map[string]json.RawMessage{}
	i := 1
	if b[i] == '}' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				return nil, bad("a member does not start with a key")
			}
			end := bytes.IndexByte(b[i+1:], '"')
			if end < 0 {
				return nil, bad("a key is not closed")
			}
			key := b[i+1 : i+1+end]
			if bytes.IndexByte(key, '\\') >= 0 {
				return nil, bad("a key holds an escape")
			}
			i += end + 2
			if i >= len(b) || b[i] != ':' {
				return nil, bad("a key is not followed by a colon")
			}
			i++
			j, ok := skipValue(b, i)
			if !ok || j == i {
				return nil, bad("a member's value is malformed")
			}
			if _, dup := fields[string(key)]; dup {
				return nil, bad("a key is repeated")
			}
			fields[string(key)] = json.RawMessage(b[i:j:j])
			i = j
			if i >= len(b) {
				return nil, bad("the object is not closed")
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return nil, bad("members are not separated by commas")
			}
			i++
		}
	}
	if i != len(b) {
		return nil, bad("bytes follow the record")
	}
	return fields, nil
}

// skipValue returns the end of the compact JSON value that starts at b[i]:
// after a string's closing quote, after the bracket that closes an object
// or array (strings inside are skipped, brackets counted, not matched by
// kind), or at the ',', '}' or ']' that ends a scalar. ok is false when the
// value runs off the end of b or a string is not closed.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, ok := skipString(b, i)
				if !ok {
					return j, false
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	for j := i; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', '{', '[', '"', ':':
			return j, true
		}
	}
	return len(b), true
}

// skipString returns the index after the closing quote of the string that
// starts at b[i] (a backslash escapes the byte after it).
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1, true
		case '\\':
			j++
		}
	}
	return len(b), false
}

// AppendIndented appends what a json.Encoder with SetIndent(prefix,
// indent) and SetEscapeHTML(false) writes for r: its canonical bytes
// indented, then a newline. The canonical bytes of a record from New,
// Seal, Parse or Reopen are compact valid JSON, so they are indented in
// one pass instead of the encoder's validating copy and indenting scan (on
// a record of megabytes that is most of the time of printing it).
func (r Record) AppendIndented(dst []byte, prefix, indent string) ([]byte, error) {
	if r.canonical == nil {
		b, err := r.MarshalJSON()
		if err != nil {
			return dst, err
		}
		var out bytes.Buffer
		if err := json.Indent(&out, append(b, '\n'), prefix, indent); err != nil {
			return dst, err
		}
		return append(dst, out.Bytes()...), nil
	}
	return append(appendIndentCompact(dst, r.canonical, prefix, indent, nil), '\n'), nil
}

// WriteIndented writes AppendIndented's bytes to w through a small
// buffer, without holding the whole indented text.
func (r Record) WriteIndented(w io.Writer, prefix, indent string) error {
	if r.canonical == nil {
		b, err := r.AppendIndented(nil, prefix, indent)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	var werr error
	flush := func(b []byte) {
		if werr == nil {
			_, werr = w.Write(b)
		}
	}
	b := appendIndentCompact(make([]byte, 0, 2*indentChunk), r.canonical, prefix, indent, flush)
	flush(append(b, '\n'))
	return werr
}

// indentChunk is how much indented text WriteIndented gathers per write.
const indentChunk = 64 << 10

// appendIndentCompact is json.Indent for compact valid JSON (no
// whitespace outside strings): the same bytes, one pass. With flush, dst
// is handed to it and emptied whenever it holds indentChunk bytes.
func appendIndentCompact(dst, src []byte, prefix, indent string, flush func([]byte)) []byte {
	depth := 0
	needIndent := false // after an opening bracket, until its first member
	newline := func(dst []byte) []byte {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
		return dst
	}
	for i := 0; i < len(src); {
		if flush != nil && len(dst) >= indentChunk {
			flush(dst)
			dst = dst[:0]
		}
		c := src[i]
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			dst = newline(dst)
		}
		switch c {
		case '"':
			j, _ := skipString(src, i)
			dst = append(dst, src[i:j]...)
			i = j
			continue
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newline(dst)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // {} and [] stay as they are
			} else {
				depth--
				dst = newline(dst)
			}
			dst = append(dst, c)
		default:
			j, _ := skipValue(src, i) // a number, true, false or null
			if j == i {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst
}
