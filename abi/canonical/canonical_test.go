package canonical

import (
	"errors"
	"math"
	"testing"

	"rea/abi"
)

func TestDigestIsSHA256OfRFC8785(t *testing.T) {
	// RFC 8785 sorts members and writes numbers in their shortest form:
	// both spellings are the canonical text {"a":1,"b":[1e+21,"x"]}.
	a, err := Digest(map[string]any{"b": []any{1e21, "x"}, "a": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Digest(struct {
		A int   `json:"a"`
		B []any `json:"b"`
	}{1, []any{1000000000000000000000.0, "x"}})
	if err != nil {
		t.Fatal(err)
	}
	// sha256sum of the text {"a":1,"b":[1e+21,"x"]}
	const want = "56d128c27ef9f9452fe61cf291f5d7c0636143beb3720b7ab3207ddf9771df99"
	if a != want || b != want {
		t.Fatalf("digests %s and %s, want %s", a, b, want)
	}
}

func TestDigestOfWhatHasNoCanonicalFormIsAnInternalError(t *testing.T) {
	for name, v := range map[string]any{"NaN": math.NaN(), "channel": make(chan int)} {
		d, err := Digest(v)
		var ae *abi.Error
		if d != "" || !errors.As(err, &ae) || ae.Code != abi.CodeInternal {
			t.Errorf("%s: Digest = %q, %v; want an internal abi.Error", name, d, err)
		}
	}
}
