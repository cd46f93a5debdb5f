package sourcemap

import (
	"strings"
	"testing"
)

func TestShippedMapSourceNames(t *testing.T) {
	for _, c := range []struct{ dir, root, src, want string }{
		{"dist", "", "../src/main.ts", "src/main.ts"},
		{"dist", "", "webpack://my-app/./src/main.ts", "src/main.ts"},
		{"dist", "", "webpack:///src/index.js", "src/index.js"},
		{"out/main", "../..", "src/a.ts", "src/a.ts"},
		{"dist", "", "/abs/build/src/a.ts", "/abs/build/src/a.ts"},
	} {
		if got := SourceName(c.dir, c.root, c.src); got != c.want {
			t.Errorf("SourceName(%q, %q, %q) = %q, want %q", c.dir, c.root, c.src, got, c.want)
		}
	}
	for src, want := range map[string]string{
		"x\n//# sourceMappingURL=main.js.map\n":                                                       "main.js.map",
		"x\n//@ sourceMappingURL=data:application/json;base64,e30=":                                   "data:application/json;base64,e30=",
		"var s = 'sourceMappingURL=nope'":                                                             "",
		"x\n//# sourceMappingURL=data:application/json;base64," + strings.Repeat("QUJD", 2000) + "\n": "data:application/json;base64," + strings.Repeat("QUJD", 2000),
	} {
		if got := DeclaredURL(src); got != want {
			t.Errorf("DeclaredURL(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestLocateNeverLeavesTheRoot: a declared map outside the root or behind
// a URL is not named; p+".map" is the fallback; an inline map is decoded.
func TestLocateNeverLeavesTheRoot(t *testing.T) {
	files := map[string]bool{"dist/main.js.map": true, "dist/other.map": true, "secret.map": true}
	exists := func(p string) bool { return files[p] }
	for _, c := range []struct{ p, src, want string }{
		{"dist/main.js", "x\n//# sourceMappingURL=other.map\n", "dist/other.map"},
		{"dist/main.js", "x\n//# sourceMappingURL=../../secret.map\n", "dist/main.js.map"},
		{"dist/main.js", "x\n//# sourceMappingURL=https://example.com/m.map\n", "dist/main.js.map"},
		{"dist/x.js", "x\n//# sourceMappingURL=../../../secret.map\n", ""},
		{"dist/x.js", "x\n//# sourceMappingURL=../secret.map\n", "secret.map"},
	} {
		got, data, ok := Locate(c.p, c.src, exists)
		if got != c.want || data != nil || ok != (c.want != "") {
			t.Errorf("Locate(%q, %q) = %q, %v, %v; want %q", c.p, c.src, got, data, ok, c.want)
		}
	}
	got, data, ok := Locate("a.js", "x\n//# sourceMappingURL=data:application/json;base64,e30=", exists)
	if !ok || got != "a.js" || string(data) != "{}" {
		t.Fatalf("inline: %q %q %v", got, data, ok)
	}
}
