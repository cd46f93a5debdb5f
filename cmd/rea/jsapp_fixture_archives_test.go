package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalysisIgnoresArchivesAmongTheAppsFiles: real applications carry
// archives among their files — test fixtures (deliberately corrupt zips,
// npm tarballs), packed dependencies — which the JavaScript analysis never
// reads (it analyses the input's own files). A malformed one must not fail
// the analysis, nor make its coverage partial; inspect-artifact, which is
// asked for every nested member, still refuses it, typed, naming it.
func TestAnalysisIgnoresArchivesAmongTheAppsFiles(t *testing.T) {
	app := filepath.Join(t.TempDir(), "app")
	copyTree(t, filepath.Join("..", "..", "testdata", "electron", "insecure"), app)
	fixtures := filepath.Join(app, "node_modules", "unzipper", "test", "fixtures")
	if err := os.MkdirAll(fixtures, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"broken.zip":    "PK\x03\x04 a local header and nothing after it",
		"truncated.tgz": "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03 not deflate",
		"empty.asar":    "\x04\x00\x00\x00",
	} {
		if err := os.WriteFile(filepath.Join(fixtures, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	storedZipOf(t, filepath.Join(fixtures, "good.zip"), [][2]string{{"main.js", filepath.Join(app, "main.js")}})

	clean := rea(t, "", nil, "analyze-javascript-application", filepath.Join("..", "..", "testdata", "electron", "insecure"), "--format", "json")
	r := rea(t, "", nil, "analyze-javascript-application", app, "--format", "json")
	if r.code != 0 {
		t.Fatalf("analysis failed on an app holding fixture archives: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var got, want struct {
		NormalizedResult struct {
			Coverage    string   `json:"coverage"`
			Limitations []string `json:"limitations"`
			Application struct {
				IPC      []any `json:"ipc"`
				Windows  []any `json:"browser_windows"`
				Findings []any `json:"findings"`
			} `json:"application"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &got)
	decode(t, clean.stdout, &want)
	g, w := got.NormalizedResult, want.NormalizedResult
	if g.Coverage != "complete" || w.Coverage != "complete" {
		t.Fatalf("coverage %q (limitations %q), want complete as without the fixtures (%q)", g.Coverage, g.Limitations, w.Coverage)
	}
	if len(g.Application.IPC) != len(w.Application.IPC) || len(g.Application.Windows) != len(w.Application.Windows) || len(g.Application.Findings) != len(w.Application.Findings) {
		t.Fatalf("facts changed by the fixtures: ipc %d/%d windows %d/%d findings %d/%d", len(g.Application.IPC), len(w.Application.IPC),
			len(g.Application.Windows), len(w.Application.Windows), len(g.Application.Findings), len(w.Application.Findings))
	}

	in := rea(t, "", nil, "inspect-artifact", app, "--format", "json")
	var te typedError
	decode(t, in.stdout, &te)
	if in.code != 1 || te.Error.Code != "artifact_operation_failed" || !strings.Contains(te.Error.Message, "fixtures/") {
		t.Fatalf("inspect-artifact must still refuse the malformed nested archive by name: exit %d %+v\n%s", in.code, te, in.stderr)
	}
}
