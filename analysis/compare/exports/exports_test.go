package exports

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func side(src, name string) Side {
	return Side{EvidenceID: "ev", Modules: []Module{{Path: "lib/api.js", SHA256: "aa"}, {Path: "other/api.js", SHA256: "bb"}},
		ModulePath: "lib/api.js", ExportName: name, Source: &src}
}

func compare(t *testing.T, l, r Side) *Result {
	t.Helper()
	req := &Request{Left: l, Right: r}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Compare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func changes(res *Result) []string {
	var out []string
	for _, c := range res.Changes {
		out = append(out, c.Kind+" "+c.Pointer)
	}
	sort.Strings(out)
	return out
}

func TestExportShapeDifferencesAtJSONPointers(t *testing.T) {
	left := `
const VERSION = "1." + "0";
function settings(user) {
  if (!user) return null;
  return { theme: "dark", retries: 3, user: user, tags: ["a", "b"] };
}
exports.settings = settings;
exports.version = VERSION;
`
	right := `
const VERSION = "2.0";
exports.settings = (user, opts) => ({ theme: "light", tags: ["a"], "a/b": true, user });
exports.version = VERSION;
`
	res := compare(t, side(left, "settings"), side(right, "settings"))
	// One parameter became two; the left returns null | object, the right
	// only an object, so the returns' kind changed (union → object).
	got := changes(res)
	if !reflect.DeepEqual(got, []string{"changed /$params", "changed /$returns"}) {
		t.Errorf("changes %v", got)
	}
	if res.Status != StatusChanged {
		t.Errorf("status %s", res.Status)
	}
	// The version constant is folded on both sides.
	res = compare(t, side(left, "version"), side(right, "version"))
	if got := changes(res); !reflect.DeepEqual(got, []string{"changed "}) || res.Changes[0].Left.Const != "1.0" || res.Changes[0].Right.Const != "2.0" {
		t.Errorf("version changes %v %+v", got, res.Changes)
	}
}

func TestObjectMembersAndArrayItems(t *testing.T) {
	left := `module.exports = { config: { theme: "dark", retries: 3, tags: ["a", "b"], "a/b": 1 } };`
	right := `module.exports = { config: { theme: "light", tags: ["a"], extra: null, "a/b": 1 } };`
	res := compare(t, side(left, "config"), side(right, "config"))
	want := []string{"added /extra", "changed /theme", "removed /retries", "removed /tags/1"}
	if got := changes(res); !reflect.DeepEqual(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	// "a/b" is escaped in pointers; identical → no change.
	right2 := `module.exports = { config: { theme: "dark", retries: 3, tags: ["a", "b"], "a/b": 2 } };`
	res = compare(t, side(left, "config"), side(right2, "config"))
	if got := changes(res); !reflect.DeepEqual(got, []string{"changed /a~1b"}) {
		t.Errorf("escaped pointer: %v", got)
	}
	// Identical shapes are unchanged.
	res = compare(t, side(left, "config"), side(left, "config"))
	if res.Status != StatusUnchanged || len(res.Changes) != 0 {
		t.Errorf("identical: %s %v", res.Status, res.Changes)
	}
}

func TestUnionVariantsPairByReciprocalDiscriminant(t *testing.T) {
	left := `exports.parse = function (x) {
  if (x === 1) return { type: "ok", value: 1 };
  if (x === 2) return { type: "error", message: "bad" };
  return { type: "legacy" };
};`
	right := `exports.parse = function (x) {
  if (x === 2) return { type: "error", message: "bad", code: 7 };
  if (x === 1) return { type: "ok", value: 2 };
  return { type: "pending" };
};`
	res := compare(t, side(left, "parse"), side(right, "parse"))
	want := []string{
		"added /$returns/$variant/type=error/code",
		"added /$returns/$variant/type=pending",
		"changed /$returns/$variant/type=ok/value",
		"removed /$returns/$variant/type=legacy",
	}
	if got := changes(res); !reflect.DeepEqual(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	// Without a unique discriminant the variants are not paired: unknown.
	noDisc := `exports.parse = function (x) { if (x) return { a: 1 }; return { b: 2 }; };`
	noDisc2 := `exports.parse = function (x) { if (x) return { a: 1 }; return { b: 3 }; };`
	res = compare(t, side(noDisc, "parse"), side(noDisc2, "parse"))
	if got := changes(res); !reflect.DeepEqual(got, []string{"unknown /$returns"}) || res.Status != StatusUnknown {
		t.Errorf("no discriminant: %v %s", got, res.Status)
	}
}

func TestUnknownValuesNeverCompareEqual(t *testing.T) {
	src := `const x = compute(); exports.value = x; exports.obj = { ...base, a: 1 };`
	res := compare(t, side(src, "value"), side(src, "value"))
	if res.Status != StatusUnknown || len(res.Recommendations) == 0 || !strings.Contains(res.Recommendations[0], "controlled replay") {
		t.Errorf("unknown call result: %s %v %v", res.Status, res.Changes, res.Recommendations)
	}
	// An open object (spread) claims no removal.
	right := `exports.obj = { ...base };`
	res = compare(t, side(src, "obj"), side(right, "obj"))
	if got := changes(res); !reflect.DeepEqual(got, []string{"unknown /a"}) {
		t.Errorf("open object: %v", got)
	}
}

func TestSelectorsMissingDuplicateOrUnreadableAreUnknownWithCandidates(t *testing.T) {
	good := `exports.a = 1; exports.b = 2;`
	cases := []struct {
		name       string
		right      Side
		status     string
		candidates []string
	}{
		{"a missing module", func() Side { s := side(good, "a"); s.ModulePath = "api.js"; return s }(), "missing-module", []string{"lib/api.js", "other/api.js"}},
		{"a missing export", side(good, "c"), "missing-export", []string{"a", "b"}},
		{"a duplicate export", side(`exports.a = 1; if (x) { } exports.a = 2;`, "a"), "duplicate-export", []string{"a"}},
		{"an ES module", side(`export const a = 1;`, "a"), "unparsed", nil},
		{"no source", func() Side {
			s := side(good, "a")
			s.Source = nil
			s.SourceUnavailable = "the application is an ASAR archive"
			return s
		}(), "source-unavailable", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := compare(t, side(good, "a"), c.right)
			if res.Status != StatusUnknown || res.Right.Status != c.status || !reflect.DeepEqual(res.Right.Candidates, c.candidates) {
				t.Errorf("status %s, right %+v", res.Status, res.Right)
			}
			if len(res.Recommendations) == 0 {
				t.Error("no controlled-replay recommendation")
			}
		})
	}
}

func TestLatticeJoin(t *testing.T) {
	lim := 4
	cases := []struct {
		name string
		a, b *Shape
		want string
	}{
		{"equal constants stay", constant(KindString, "x"), constant(KindString, "x"), KindString + " x"},
		{"two constants lose the constant", constant(KindNumber, 1.0), constant(KindNumber, 2.0), KindNumber + " <nil>"},
		{"unknown absorbs", unknown("r"), constant(KindNumber, 2.0), KindUnknown + " <nil>"},
		{"different kinds make a union", constant(KindNumber, 1.0), &Shape{Kind: KindNull}, KindUnion + " <nil>"},
	}
	for _, c := range cases {
		j := Join(c.a, c.b, lim)
		if got := j.Kind + " " + toString(j.Const); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	var u *Shape
	for i := 0; i < 6; i++ {
		u = Join(u, &Shape{Kind: KindObject, Keys: []string{"k"}, Props: map[string]*Shape{"k": constant(KindNumber, float64(i))}}, lim)
	}
	if u.Kind != KindUnknown {
		t.Errorf("more variants than the bound: %s", u.Kind)
	}
}

func toString(v any) string {
	if v == nil {
		return "<nil>"
	}
	if s, ok := v.(string); ok {
		return s
	}
	return "?"
}

func TestRequestsAreChecked(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"left":{"module_path":"a.js","export_name":"x"},"right":{"module_path":"","export_name":"x"}}`, "right.module_path"},
		{`{"left":{"module_path":"a.js","export_name":""},"right":{"module_path":"a.js","export_name":"x"}}`, "left.export_name"},
		{`{"left":{"module_path":"a.js","export_name":"x"},"right":{"module_path":"a.js","export_name":"x"},"limits":{"max_depth":99}}`, "max_depth"},
		{`{"bogus":1}`, "bogus"},
	} {
		if _, err := DecodeRequest([]byte(c.raw)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.raw, err, c.want)
		}
	}
}
