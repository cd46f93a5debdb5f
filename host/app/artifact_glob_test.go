package app

import (
	"path"
	"strings"
	"testing"
)

// segmentMatch is the extraction glob's definition, written as directly as
// possible: path.Match per segment, "**" for any number of segments. It is
// exponential in the number of "**", so the tests use it on small inputs
// only, as the specification globMatch must agree with.
func segmentMatch(glob, name []string) bool {
	for len(glob) > 0 {
		if glob[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if segmentMatch(glob[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(glob[0], name[0]); !ok {
			return false
		}
		glob, name = glob[1:], name[1:]
	}
	return len(name) == 0
}

func specMatch(g, p string) bool {
	for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		if segmentMatch(strings.Split(g, "/"), strings.Split(q, "/")) {
			return true
		}
	}
	return false
}

// TestGlobMatchAgreesWithPathMatchPerSegment checks every glob against
// every path, including what doublestar alone reads differently (braces,
// "[!", escapes).
func TestGlobMatchAgreesWithPathMatchPerSegment(t *testing.T) {
	globs := []string{
		"*", "**", "a", "a/**", "**/a", "a/**/b", "**/**/b", "a/*/b", "*/b", "a*", "a**", "**b",
		"[ab]", "[!a]", "[^a]", "[!-z]", `\!`, "!", "{a,b}", "{a,b}/c", "x{", "}", `\{a,b\}`, `[\!]`, `[{]`,
		"?", "a/?", "a/**/?/b", "**/[a-c]/**", `a\*`, "a/**/**/b",
	}
	paths := []string{
		"a", "b", "c", "!", "x{", "}", "{a,b}", "{a,b}/c", "a/b", "a/c", "a/x/b", "a/x/y/b", "b/a", "c/a/b",
		"ab", "ba", "a*", "a/b/c", "z/a/q/b", "-", "{",
	}
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			t.Fatalf("test glob %q is not path.Match syntax: %v", g, err)
		}
		for _, p := range paths {
			if got, want := globMatch([]string{g}, p), specMatch(g, p); got != want {
				t.Errorf("globMatch(%q, %q) = %v, the per-segment definition says %v", g, p, got, want)
			}
		}
	}
}

// TestGlobMatchManyDoubleStarsOnADeepPath is the glob that took the
// recursive matcher seconds per path (8 "**" against 30 segments, with no
// match so every split is tried); it must give the right answer both ways.
func TestGlobMatchManyDoubleStarsOnADeepPath(t *testing.T) {
	glob := strings.Repeat("**/", 8) + "target.js"
	segs := make([]string, 30)
	for i := range segs {
		segs[i] = "d"
	}
	deep := strings.Join(segs, "/")
	if globMatch([]string{glob}, deep+"/other.js") {
		t.Errorf("%q matched a path without target.js", glob)
	}
	if !globMatch([]string{glob}, deep+"/target.js") {
		t.Errorf("%q did not match %s/target.js", glob, deep)
	}
	if !globMatch([]string{glob}, deep+"/target.js/inside") {
		t.Errorf("%q did not select what the directory target.js holds", glob)
	}
}
