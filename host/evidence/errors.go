package evidence

import (
	"fmt"
	"strconv"
	"strings"

	"rea/abi"
)

// Issue is one field diagnostic of an invalid_request error, in the shape the
// MCP server reports under details.issues.
type Issue struct {
	// Path names the field from the document root: keys are strings, array
	// positions are ints.
	Path []any `json:"path"`
	// Reason is one of missing_argument, unknown_argument, invalid_type,
	// invalid_format, invalid_value, minimum, maximum.
	Reason string `json:"reason"`
	// Expected describes what would have been accepted.
	Expected string `json:"expected,omitempty"`
	Message  string `json:"message,omitempty"`
}

// Issue reasons.
const (
	ReasonMissing       = "missing_argument"
	ReasonUnknown       = "unknown_argument"
	ReasonInvalidType   = "invalid_type"
	ReasonInvalidFormat = "invalid_format"
	ReasonInvalidValue  = "invalid_value"
	ReasonMinimum       = "minimum"
	ReasonMaximum       = "maximum"
)

// fieldPath locates a value inside a document being validated.
type fieldPath []any

func (p fieldPath) key(k string) fieldPath {
	out := make(fieldPath, len(p), len(p)+1)
	copy(out, p)
	return append(out, k)
}

func (p fieldPath) index(i int) fieldPath {
	out := make(fieldPath, len(p), len(p)+1)
	copy(out, p)
	return append(out, i)
}

// String renders the path as a.b[2].c; the root is "(root)".
func (p fieldPath) String() string {
	if len(p) == 0 {
		return "(root)"
	}
	var b strings.Builder
	for i, part := range p {
		switch v := part.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(v) + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// invalid builds an invalid_request error that names the field.
func invalid(p fieldPath, reason, expected, format string, args ...any) *abi.Error {
	msg := fmt.Sprintf(format, args...)
	full := fmt.Sprintf("Field %s: %s", p, msg)
	if expected != "" {
		full += " (expected " + expected + ")"
	}
	issue := Issue{Path: append([]any{}, p...), Reason: reason, Expected: expected, Message: msg}
	return abi.Errorf(abi.CodeInvalidRequest, "%s.", full).
		WithDetail("issues", []Issue{issue}).
		WithDetail("field", p.String())
}
