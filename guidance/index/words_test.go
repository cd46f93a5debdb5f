package index

import (
	"reflect"
	"testing"
)

func TestASCIIFastPathTokenisesLikeTheUnicodePath(t *testing.T) {
	n := newNormaliser()
	for _, s := range []string{
		"Call `analyze_javascript_application` with .input_path=/abs/App.asar",
		"ev_0123ABCdef, HTTP/2 and IPv6", "  ", "x", "A-B_C.D/E\tF\nG",
	} {
		fast := n.tokens(s)
		slow := splitWords(n.normalise(s))
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%q: fast path %q, Unicode path %q", s, fast, slow)
		}
	}
}

func TestNonASCIIWordsAreNormalisedThenSplit(t *testing.T) {
	n := newNormaliser()
	got := n.tokens("Straße — ＡＰＩ ﬁle Cafe\u0301")
	want := []string{"strasse", "api", "file", "café"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
}
