package app

import (
	"math/rand/v2"
	"testing"
)

// TestFieldsIDMatchesRFC8785 checks the direct canonical writer against a
// general RFC 8785 implementation on awkward strings.
func TestFieldsIDMatchesRFC8785(t *testing.T) {
	awkward := []string{"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"<html>&amp;", "caf\u00e9 \u2028 \u2029 \U0001F600", "ünïcödé/路径"}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		b := make([]rune, rng.IntN(12))
		for i := range b {
			b[i] = rune(rng.IntN(0x250))
		}
		awkward = append(awkward, string(b))
	}
	for i, v := range awkward {
		w := awkward[(i+1)%len(awkward)]
		got := fieldsID("x_", "a", v, "b", w)
		want, err := contentID("x_", map[string]string{"b": w, "a": v})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("fieldsID(%q, %q) = %s, RFC 8785 gives %s", v, w, got, want)
		}
	}
}

func TestClassifyNamesNodeKinds(t *testing.T) {
	cases := []struct {
		path string
		exec bool
		head string
		want string
	}{
		{"a/addon.node", false, "\x7fELF", "native-addon"},
		{"lib/libffmpeg.so", false, "\x7fELF", "dynamic-library"},
		{"lib/libx.so.1", false, "", "dynamic-library"},
		{"main.js", false, "", "javascript"},
		{"main.js.map", false, "", "source-map"},
		{"node_modules/x/package.json", false, "", "package-metadata"},
		{"bin/tool", false, "\x7fELF", "executable"},
		{"bin/tool.exe", false, "", "executable"},
		{"run", true, "#!/b", "executable"},
		{"icon.png", false, "\x89PNG", "resource"},
		{"LICENSE", false, "MIT ", "unknown"},
	}
	for _, tc := range cases {
		if got := classify(tc.path, tc.exec, []byte(tc.head), false); got != tc.want {
			t.Errorf("classify(%q) = %s, want %s", tc.path, got, tc.want)
		}
	}
	if classify("x.bin", false, nil, true) != "container" {
		t.Error("an expanded archive is a container")
	}
}

func TestGlobMatchSelectsPathsAndWhatDirectoriesHold(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"main.js", "main.js", true},
		{"*.js", "main.js", true},
		{"*.js", "lib/a.js", false},
		{"lib", "lib/deep/a.js", true},
		{"dist/**", "dist/a/b/c.js", true},
		{"**/*.js", "a/b/c.js", true},
		{"**/*.js", "c.js", true},
		{"**/*.js", "a/b/c.css", false},
		{"lib/**/index.js", "lib/index.js", true},
		{"lib/**/index.js", "lib/x/y/index.js", true},
		{"lib/**/index.js", "src/x/index.js", false},
		{"resources/*!", "resources/app.asar!/index.js", true},
		{"resources/*!", "resources/app.asar", false},
	}
	for _, tc := range cases {
		if got := globMatch([]string{tc.glob}, tc.path); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}
