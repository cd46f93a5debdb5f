package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// This file assembles RFC 8785 text for the parts of a record whose shape
// this package owns (fixed ASCII keys, strings, safe integers) and splices in
// payloads that jcs.Transform has already canonicalised. That is what lets a
// record be canonicalised once: the big payloads go through the RFC 8785
// library exactly once, and the record around them is written directly in
// canonical form. Tests compare every assembled form with jcs.Transform of
// the plain JSON encoding.

// canon is a canonical JSON value under construction: raw (already canonical
// bytes), obj or arr.
type canon interface{ emit(w io.Writer) error }

// raw is JSON text that is already RFC 8785 canonical.
type raw []byte

func (r raw) emit(w io.Writer) error { _, err := w.Write(r); return err }

// obj is an object whose members are emitted in RFC 8785 key order.
type obj []member

type member struct {
	key   string
	value canon
}

func (o obj) emit(w io.Writer) error {
	sorted := make(obj, len(o))
	copy(sorted, o)
	sort.Slice(sorted, func(i, j int) bool { return lessUTF16(sorted[i].key, sorted[j].key) })
	if _, err := w.Write([]byte{'{'}); err != nil {
		return err
	}
	for i, m := range sorted {
		if i > 0 {
			if _, err := w.Write([]byte{','}); err != nil {
				return err
			}
		}
		if _, err := w.Write(appendString(nil, m.key)); err != nil {
			return err
		}
		if _, err := w.Write([]byte{':'}); err != nil {
			return err
		}
		if err := m.value.emit(w); err != nil {
			return err
		}
	}
	_, err := w.Write([]byte{'}'})
	return err
}

// arr is an array; element order is kept.
type arr []canon

func (a arr) emit(w io.Writer) error {
	if _, err := w.Write([]byte{'['}); err != nil {
		return err
	}
	for i, v := range a {
		if i > 0 {
			if _, err := w.Write([]byte{','}); err != nil {
				return err
			}
		}
		if err := v.emit(w); err != nil {
			return err
		}
	}
	_, err := w.Write([]byte{']'})
	return err
}

var jsonNull = raw("null")

func cstr(s string) raw { return raw(appendString(nil, s)) }

func cint(n int64) raw { return raw(strconv.AppendInt(nil, n, 10)) }

func cstrOrNull(s *string) canon {
	if s == nil {
		return jsonNull
	}
	return cstr(*s)
}

func cstrings(ss []string) arr {
	out := make(arr, len(ss))
	for i, s := range ss {
		out[i] = cstr(s)
	}
	return out
}

// bytesOf renders a canonical value.
func bytesOf(c canon) []byte {
	var b sliceWriter
	_ = c.emit(&b) // sliceWriter never fails
	return b
}

// digestOf is the lowercase hex sha256 of a canonical value's text.
func digestOf(c canon) string {
	h := sha256.New()
	_ = c.emit(h) // hash.Hash never fails
	return hex.EncodeToString(h.Sum(nil))
}

type sliceWriter []byte

func (s *sliceWriter) Write(p []byte) (int, error) { *s = append(*s, p...); return len(p), nil }

// appendString appends the RFC 8785 form of s (ECMAScript JSON.stringify
// escaping: only '"', '\\' and U+0000..U+001F are escaped).
func appendString(dst []byte, s string) []byte {
	const hexdigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexdigits[c>>4], hexdigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// lessUTF16 orders strings by their UTF-16 code units, as RFC 8785 sorts
// object keys.
func lessUTF16(a, b string) bool { return compareUTF16(a, b) < 0 }

func compareUTF16(a, b string) int {
	// Byte order equals code-unit order until a character at or above
	// U+E000 meets a supplementary one; only then decode.
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			if ra < rb { // same high surrogate: compare the low ones
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

// canonicalJSON canonicalises one JSON document with the RFC 8785 library.
// It rejects what I-JSON rejects: invalid UTF-8, lone surrogates, duplicate
// keys, numbers that are not finite doubles.
func canonicalJSON(doc []byte) ([]byte, error) {
	if len(doc) == 0 {
		return nil, fmt.Errorf("empty JSON text")
	}
	out, err := jcs.Transform(doc)
	if err != nil {
		return nil, fmt.Errorf("not RFC 8785 canonicalisable JSON: %w", err)
	}
	return out, nil
}

// canonicalValue turns a Go value or JSON text into canonical JSON.
func canonicalValue(v any) ([]byte, error) {
	doc, err := jsonText(v)
	if err != nil {
		return nil, err
	}
	return canonicalJSON(doc)
}

// jsonText returns v as JSON text: RawMessage and []byte are taken as JSON
// text; anything else is marshalled. A nil value is JSON null.
func jsonText(v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return []byte("null"), nil
	case json.RawMessage:
		if t == nil {
			return []byte("null"), nil
		}
		return t, nil
	case []byte:
		return t, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode as JSON: %w", err)
		}
		return b, nil
	}
}

// unsafeInteger returns the first integer literal in JSON text whose
// magnitude exceeds 2^53: RFC 8785 reads numbers as IEEE-754 doubles, so
// such an integer would silently change value (a 64-bit address, say).
// String contents are skipped. The scan is a single cheap pass over bytes.
func unsafeInteger(doc []byte) (string, bool) {
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case c == '"':
			for i++; i < len(doc) && doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			start := i
			integer := true
			for ; i < len(doc); i++ {
				d := doc[i]
				if d == '.' || d == 'e' || d == 'E' {
					integer = false
				} else if !(d == '-' || d == '+' || d >= '0' && d <= '9') {
					break
				}
			}
			lit := doc[start:i]
			i--
			if !integer || len(bytes.TrimLeft(bytes.TrimPrefix(lit, []byte("-")), "0")) < 16 {
				continue // at most 15 significant digits: below 2^53
			}
			if n, err := strconv.ParseInt(string(lit), 10, 64); err != nil || n > maxSafeInteger || n < -maxSafeInteger {
				return string(lit), true
			}
		}
	}
	return "", false
}
