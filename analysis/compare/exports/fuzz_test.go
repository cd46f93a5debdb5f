package exports

import (
	"context"
	"testing"
)

// FuzzExtract feeds arbitrary module text to the abstraction and the
// comparison: hostile source must give a shape or a reason, never a panic.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		`exports.a = 1;`,
		`module.exports = { a: [1, { b: "x" }], c: function (x) { if (x) return { t: "a" }; return { t: "b" }; } };`,
		`const x = y = 1; exports.a = x, exports.b = () => ({ ...x });`,
		`module.exports = function f() { try { return 1 } catch (e) { return "s" } finally { } };`,
		`exports["a"] = -"1" + !0; exports.b = typeof 1; exports.c = void 0; exports.d = 1 ? null : undefined;`,
	} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, src, name string) {
		lim := Limits{}
		_ = lim.Normalise()
		ex := Extract(src, name, lim)
		if ex.Shape == nil && ex.Reason == "" && ex.Assignments <= 1 {
			t.Fatalf("no shape and no reason for %q", name)
		}
		req := &Request{Left: Side{ModulePath: "m.js", ExportName: name, Modules: []Module{{Path: "m.js"}}, Source: &src},
			Right: Side{ModulePath: "m.js", ExportName: name, Modules: []Module{{Path: "m.js"}}, Source: &src}, Limits: lim}
		res, err := Compare(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status == StatusChanged {
			t.Fatalf("one source compared with itself changed: %+v", res.Changes)
		}
	})
}
