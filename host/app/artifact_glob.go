package app

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globMatch matches a path or any of its parent directories against the
// extraction globs: path.Match syntax per segment plus "**" for any number
// of segments. The globs come from MCP and CLI input, so matching goes
// through doublestar, whose matcher keeps one backtracking point per "*" and
// "**" and so stays polynomial however many "**" a glob holds (a recursive
// per-segment matcher is exponential in them).
func globMatch(globs []string, p string) bool {
	for _, g := range globs {
		pattern := pathMatchSyntax(g)
		for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if doublestar.MatchUnvalidated(pattern, q) {
				return true
			}
		}
	}
	return false
}

// pathMatchSyntax escapes what doublestar reads differently from path.Match,
// so a glob means what the request's documentation says: braces are
// literal (doublestar would expand {a,b} alternatives, recursively), and
// "[!" does not negate a class (path.Match negates only with '^'). An
// escaped character means itself inside and outside a class in both
// syntaxes, so escaping every '{', '}' and '!' is exact. Escapes already in
// the glob are kept; the glob was validated with path.Match before.
func pathMatchSyntax(g string) string {
	if !strings.ContainsAny(g, "{}!") {
		return g
	}
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '\\' && i+1 < len(g):
			b.WriteByte(c)
			i++
			b.WriteByte(g[i])
			continue
		case c == '{' || c == '}' || c == '!':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
