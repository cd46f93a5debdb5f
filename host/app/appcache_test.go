package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"rea/analysis/artifact/inventory"
	"testing"

	"rea/analysis/artifact/asarpack"
)

// The application result cache stores an answer only when the inventory
// the analysis used saw exactly what the key's walk hashed: a file changed
// or added between the walk and the inventory leaves it uncached, so a key
// never names bytes the analysis did not read.
func TestApplicationCacheStoresOnlyWhatTheInventorySaw(t *testing.T) {
	a := newArtifactApp(t)
	ctx := context.Background()
	walkOf := func(t *testing.T, input string) (string, *inputWalk) {
		t.Helper()
		in, err := resolveInput(input)
		if err != nil {
			t.Fatal(err)
		}
		w := keyWriter{sha256.New()}
		walk, err := walkInput(in, w, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(w.h.Sum(nil)), walk
	}
	matches := func(t *testing.T, input string, walk *inputWalk) bool {
		t.Helper()
		scan, err := a.scanArtifact(ctx, ArtifactRequest{InputPath: input, IntegrityPolicy: IntegrityRecordAndContinue}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return scan.matchesWalk(walk)
	}
	write := func(t *testing.T, p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "main.js"), "require('electron')\n")
		write(t, filepath.Join(dir, "lib", "a.js"), "module.exports = 1\n")
		if err := os.Symlink("main.js", filepath.Join(dir, "link.js")); err != nil {
			t.Fatal(err)
		}
		key, walk := walkOf(t, dir)
		if again, _ := walkOf(t, dir); again != key {
			t.Fatal("two walks of one unchanged directory gave two keys")
		}
		if !matches(t, dir, walk) {
			t.Fatal("the inventory of an unchanged directory does not match its walk")
		}
		write(t, filepath.Join(dir, "lib", "a.js"), "module.exports = 2\n") // same size
		if matches(t, dir, walk) {
			t.Fatal("a file changed after the walk, and the inventory still matched it")
		}
		if changed, _ := walkOf(t, dir); changed == key {
			t.Fatal("a changed file's bytes did not change the key")
		}
		write(t, filepath.Join(dir, "lib", "a.js"), "module.exports = 1\n")
		if !matches(t, dir, walk) {
			t.Fatal("the restored directory does not match its walk")
		}
		write(t, filepath.Join(dir, "new.js"), "")
		if matches(t, dir, walk) {
			t.Fatal("a file added after the walk, and the inventory still matched it")
		}
		_ = os.Remove(filepath.Join(dir, "new.js"))
		_ = os.Remove(filepath.Join(dir, "link.js"))
		if err := os.Symlink("lib/a.js", filepath.Join(dir, "link.js")); err != nil {
			t.Fatal(err)
		}
		if matches(t, dir, walk) {
			t.Fatal("a link retargeted after the walk, and the inventory still matched it")
		}
	})

	t.Run("asar and its unpacked companion", func(t *testing.T) {
		dir := t.TempDir()
		main := "require('electron')\n"
		u := asarpack.Bytes("main.js", []byte(main))
		u.Unpacked = true
		var packed bytes.Buffer
		if err := asarpack.Write(&packed, []asarpack.File{asarpack.Bytes("package.json", []byte(`{"main":"main.js"}`)), u}); err != nil {
			t.Fatal(err)
		}
		asar := filepath.Join(dir, "app.asar")
		if err := os.WriteFile(asar, packed.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "app.asar.unpacked", "main.js"), main)
		key, walk := walkOf(t, asar)
		if !matches(t, asar, walk) {
			t.Fatal("the inventory of an unchanged archive does not match its walk")
		}
		write(t, filepath.Join(dir, "app.asar.unpacked", "main.js"), "require('electrom')\n")
		if matches(t, asar, walk) {
			t.Fatal("an unpacked file changed after the walk, and the inventory still matched it")
		}
		if changed, _ := walkOf(t, asar); changed == key {
			t.Fatal("an unpacked file's bytes did not change the key")
		}
		write(t, filepath.Join(dir, "app.asar.unpacked", "main.js"), main)
		if err := os.WriteFile(asar, append(packed.Bytes(), 0), 0o644); err != nil {
			t.Fatal(err)
		}
		if matches(t, asar, walk) {
			t.Fatal("the archive changed after the walk, and the inventory still matched it")
		}
	})
}

// findBuildID reads the Go build ID of the running test binary (an ELF
// note on Linux); without it the cache is off.
func TestBinaryBuildIDIsFound(t *testing.T) {
	if id := binaryBuildID(); len(id) < 20 {
		t.Fatalf("build ID %q", id)
	}
	note := append([]byte("\x7fELF...."), 4, 0, 0, 0, 5, 0, 0, 0, 4, 0, 0, 0)
	note = append(note, "Go\x00\x00abcde"...)
	if got := findBuildID(note); got != "abcde" {
		t.Fatalf("ELF note: %q", got)
	}
	if got := findBuildID([]byte("xx\xff Go build ID: \"a/b\"\n \xff")); got != "a/b" {
		t.Fatalf("marker: %q", got)
	}
}

// analysisOf is res.Analysis() for a test.
func analysisOf(t testing.TB, res *AnalyzeApplicationResult) *ApplicationAnalysis {
	t.Helper()
	a, err := res.Analysis()
	if err != nil {
		t.Fatal(err)
	}
	return a
}
