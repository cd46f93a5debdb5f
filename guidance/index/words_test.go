package index

import (
	"reflect"
	"testing"
)

func TestASCIIFastPathTokenisesLikeTheUnicodePath(t *testing.T) {
	n := newNormaliser()
	for _, s := range []string{
		"Call `analyze_javascript_application` with .input_path=/abs/App.asar",
		"ev_0123ABCdef, HTTP/2 and IPv6 — no", "  ", "x", "A-B_C.D/E\tF\nG",
	} {
		ascii := splitASCIIWords(s)
		unicode := splitWords(n.normalise(s))
		if isASCII(s) && !reflect.DeepEqual(ascii, unicode) {
			t.Errorf("%q: fast path %q, Unicode path %q", s, ascii, unicode)
		}
	}
}
