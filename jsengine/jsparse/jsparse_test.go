package jsparse

import (
	"errors"
	"strings"
	"testing"
)

func TestDepthEstimatesNestingOfBracketsAndOperatorChains(t *testing.T) {
	// Separators end a chain; brackets add up; strings and comments do not
	// count.
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"list", strings.Repeat("a + b, ", 10_000), 1},
		{"statements", strings.Repeat("a = b + c;\n", 10_000), 2},
		{"call arguments", "f(a + b + c, d + e)", 3},
		{"nested", "a + (b + (c + d))", 5},
		{"string", `x = "` + strings.Repeat("+", 10_000) + `"`, 1},
		{"comment", "x = 1 /* " + strings.Repeat("+", 10_000) + " */ // " + strings.Repeat("=", 100), 1},
	} {
		if _, got := Depth(c.src); got != c.want {
			t.Errorf("%s: estimated %d, want %d", c.name, got, c.want)
		}
	}
}

func TestParseRefusesOverDeepTextAsTooDeep(t *testing.T) {
	for name, src := range map[string]string{
		"brackets":  strings.Repeat("(", MaxNesting+1) + "1" + strings.Repeat(")", MaxNesting+1),
		"operators": "x = " + strings.Repeat("a + ", MaxOperatorChain+1) + "b;",
	} {
		prog, err := Parse("deep.js", src)
		if prog != nil || !errors.Is(err, ErrTooDeep) {
			t.Errorf("%s: Parse = %v, %v; want an ErrTooDeep refusal", name, prog, err)
		}
	}
	// At the bound it parses.
	src := strings.Repeat("(", MaxNesting) + "1" + strings.Repeat(")", MaxNesting)
	if _, err := Parse("ok.js", src); err != nil {
		t.Fatalf("%d brackets: %v", MaxNesting, err)
	}
}

func TestParseReportsSyntaxErrorsAsErrorsNotTooDeep(t *testing.T) {
	_, err := Parse("x.js", "function ( {")
	if err == nil || errors.Is(err, ErrTooDeep) {
		t.Fatalf("err = %v, want a syntax error", err)
	}
}
