package app

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// TestExtractArtifactMatchesAsarExtract compares rea's extraction of an
// archive packed by @electron/asar with what `asar extract` wrote for it
// (testdata/artifact/app.asar.extract.txt): the same files with the same
// bytes, the same directories, and the same links — which rea records
// instead of creating.
func TestExtractArtifactMatchesAsarExtract(t *testing.T) {
	a := newArtifactApp(t)
	for _, name := range []string{"app.asar", "unpackdir.asar"} {
		t.Run(name, func(t *testing.T) { matchAsarExtract(t, a, name) })
	}
}

func matchAsarExtract(t *testing.T, a *App, name string) {
	fixtures := filepath.Join(wasmtest.RepoRoot(t), "testdata", "artifact")
	ref, err := os.ReadFile(filepath.Join(fixtures, name+".extract.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{
		ArtifactRequest: ArtifactRequest{InputPath: filepath.Join(fixtures, name)}, OutputDir: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree := listTree(t, out)
	links := map[string]string{}
	for _, s := range res.Extraction.Skipped {
		links[s.LogicalPath] = strings.TrimSuffix(strings.TrimPrefix(s.Reason, "link to "), ": links are recorded, never materialised")
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(ref)), "\n") {
		f := strings.Fields(line)
		seen++
		switch f[0] {
		case "dir":
			if tree[f[1]] != "dir" {
				t.Errorf("directory %s: rea has %q", f[1], tree[f[1]])
			}
		case "file":
			size, _ := strconv.Atoi(f[2])
			st, err := os.Stat(filepath.Join(out, f[1]))
			if err != nil || tree[f[1]] != f[3] || st.Size() != int64(size) {
				t.Errorf("file %s: rea wrote %q (%v), asar extract %s", f[1], tree[f[1]], err, f[3])
			}
		case "link":
			// asar extract links relative to the link's directory; the
			// archive (and rea) record the target from the root.
			if want := path.Join(path.Dir(f[1]), f[2]); links[f[1]] != want {
				t.Errorf("link %s: rea recorded %q, asar extract points at %q", f[1], links[f[1]], want)
			}
			seen-- // links are not in rea's tree
		}
	}
	if len(tree) != seen {
		t.Fatalf("rea wrote %d paths, asar extract %d: %v", len(tree), seen, tree)
	}
	for _, f := range res.Extraction.Files {
		if f.HashStatus != "verified" {
			t.Errorf("%s: %s", f.Path, f.HashStatus)
		}
	}
}
