package artpath

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"rea/abi"
)

func TestNormalizeRefusesUnsafePaths(t *testing.T) {
	cases := []struct {
		name, path, code string
	}{
		{"empty", "", abi.CodeArtifactOperationFailed},
		{"nul", "a\x00b", abi.CodeArtifactOperationFailed},
		{"backslash", `a\..\b`, abi.CodeArtifactOperationFailed},
		{"absolute", "/etc/passwd", abi.CodeArtifactOperationFailed},
		{"unc", "//server/share/x", abi.CodeArtifactOperationFailed},
		{"drive", "C:/Windows/x", abi.CodeArtifactOperationFailed},
		{"drive lower", "c:x", abi.CodeArtifactOperationFailed},
		{"empty segment", "a//b", abi.CodeArtifactOperationFailed},
		{"trailing slash", "a/", abi.CodeArtifactOperationFailed},
		{"dot", "a/./b", abi.CodeArtifactOperationFailed},
		{"dotdot", "../etc/passwd", abi.CodeArtifactOperationFailed},
		{"inner dotdot", "a/../../b", abi.CodeArtifactOperationFailed},
		{"invalid utf8", "a\xffb", abi.CodeArtifactOperationFailed},
		{"too long", strings.Repeat("a", 4097), abi.CodeResourceConstraint},
		{"too deep", strings.Repeat("a/", 20) + "a", abi.CodeResourceConstraint},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Normalize(tc.path, Limits{})
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("Normalize(%q) = %q, %v; want a typed error", tc.path, got, err)
			}
			if ae.Code != tc.code {
				t.Fatalf("Normalize(%q) code = %s, want %s", tc.path, ae.Code, tc.code)
			}
		})
	}
}

func TestNormalizeNamesTheExceededLimit(t *testing.T) {
	_, err := Normalize("a/b/c", Limits{MaxDepth: 2})
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Details["limit"] != "max_depth" {
		t.Fatalf("err = %v, want max_depth limit", err)
	}
	_, err = Normalize("abcdef", Limits{MaxBytes: 5})
	if !errors.As(err, &ae) || ae.Details["limit"] != "max_path_bytes" {
		t.Fatalf("err = %v, want max_path_bytes limit", err)
	}
}

func TestNormalizeAcceptsOrdinaryPathsAndComposesToNFC(t *testing.T) {
	cases := []struct{ in, want string }{
		{"main.js", "main.js"},
		{"node_modules/a/index.js", "node_modules/a/index.js"},
		{"ab:c", "ab:c"},
		{"...", "..."},
		{".hidden/x", ".hidden/x"},
		{"cafe\u0301.txt", "caf\u00e9.txt"},
		{strings.Repeat("a/", 19) + "a", strings.Repeat("a/", 19) + "a"},
	}
	for _, tc := range cases {
		got, err := Normalize(tc.in, Limits{})
		if err != nil || got != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestValidSegmentRefusesNamesThatAreNotOneSegment(t *testing.T) {
	for _, name := range []string{"", ".", "..", "a/b", `a\b`, "a\x00"} {
		if ValidSegment(name) == nil {
			t.Errorf("ValidSegment(%q) = nil, want an error", name)
		}
	}
	for _, name := range []string{"a", "...", ".git", "a b"} {
		if err := ValidSegment(name); err != nil {
			t.Errorf("ValidSegment(%q) = %v", name, err)
		}
	}
}

func TestRegistryRefusesCollisions(t *testing.T) {
	type add struct {
		path string
		dir  bool
	}
	cases := []struct {
		name string
		adds []add // the last one must fail
	}{
		{"exact file twice", []add{{"a/b", false}, {"a/b", false}}},
		{"case folded", []add{{"README.md", false}, {"readme.md", false}}},
		{"case folded unicode", []add{{"STRASSE", false}, {"straße", false}}},
		{"case folded parent", []add{{"Lib/a", false}, {"lib/b", false}}},
		{"file then child", []add{{"a", false}, {"a/b", false}}},
		{"child then file", []add{{"a/b", false}, {"a", false}}},
		{"dir then file", []add{{"a", true}, {"a", false}}},
		{"file then dir", []add{{"a", false}, {"a", true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			for _, a := range tc.adds[:len(tc.adds)-1] {
				if err := r.Add(a.path, a.dir); err != nil {
					t.Fatalf("Add(%q) = %v", a.path, err)
				}
			}
			last := tc.adds[len(tc.adds)-1]
			err := r.Add(last.path, last.dir)
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeArtifactOperationFailed {
				t.Fatalf("Add(%q) = %v, want artifact_operation_failed", last.path, err)
			}
		})
	}
}

func TestRegistryAcceptsRepeatedDirectoriesAndSiblings(t *testing.T) {
	r := NewRegistry()
	for _, a := range []struct {
		p   string
		dir bool
	}{{"a", true}, {"a/b", false}, {"a", true}, {"a/c", true}, {"a/c/d", false}, {"ab", false}} {
		if err := r.Add(a.p, a.dir); err != nil {
			t.Fatalf("Add(%q) = %v", a.p, err)
		}
	}
	if r.Len() != 5 {
		t.Fatalf("Len = %d, want 5", r.Len())
	}
}

// FuzzNormalize checks the normaliser's promises on arbitrary input: it
// never panics, and whatever it accepts is NFC, bounded, relative and free
// of separators that could escape an extraction directory.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "a\\b", "C:/x", "//unc", "cafe\u0301", "a//b", ".", "a/./b", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Normalize(p, Limits{MaxBytes: 64, MaxDepth: 4})
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if !utf8.ValidString(got) || len(got) > 64 || strings.Count(got, "/") > 3 {
			t.Fatalf("accepted %q -> %q out of bounds", p, got)
		}
		if strings.HasPrefix(got, "/") || strings.ContainsAny(got, "\\\x00") {
			t.Fatalf("accepted unsafe %q", got)
		}
		for _, seg := range strings.Split(got, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("accepted %q with segment %q", got, seg)
			}
		}
		again, err := Normalize(got, Limits{MaxBytes: 64, MaxDepth: 4})
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", p, got, again, err)
		}
	})
}
