package jsengine

import (
	"reflect"
	"testing"

	"rea/jsengine/jsparse"
	"rea/jsengine/jstest"
)

// nameChecker compares nodeName with reflect's name on every node.
type nameChecker struct {
	t     *testing.T
	kinds map[string]bool
}

func (c *nameChecker) Enter(n any) bool {
	want := reflect.TypeOf(n).Elem().Name()
	if got := nodeName(n); got != want {
		c.t.Errorf("nodeName = %q, reflect says %q", got, want)
	}
	c.kinds[want] = true
	return true
}

func (c *nameChecker) Leave(any) {}

// The fingerprint format must not change when the name lookup does.
func TestNodeNameSpellsEveryNodeAsReflectDoes(t *testing.T) {
	srcs := []string{jstest.Bundle(16 << 10), `
class A extends B { #x = 1; static { this.y = 2; } get z() { return this.#x; } m(...r) { super.m?.(...r); } }
label: for (const [a, {b = 1, ...c}] of d) { if (a) continue label; else break label; }
for (var i = 0; i < 2; i++) {} for (let k in o) {} for (x.y of z) {}
switch (v) { case 1: debugger; default: ; }
try { throw new Error(` + "`t${1}`" + `); } catch { } finally { }
do { with (o) {} } while (false);
async function* g() { yield await h(); }
const r = /x/g, n = null, t = true, s = (1, 2), u = typeof q, m = new.target, o2 = { a, b: 2, [c]: 3, ...d };
`}
	c := &nameChecker{t: t, kinds: map[string]bool{}}
	for _, src := range srcs {
		prog, err := jsparse.Parse("t.js", src)
		if err != nil {
			t.Fatal(err)
		}
		walk(c, prog)
	}
	if len(c.kinds) < 40 {
		t.Fatalf("only %d node kinds seen; the corpus no longer exercises the switch", len(c.kinds))
	}
}
