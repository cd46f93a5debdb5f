package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSweepKeepsTheDiskCacheWithinItsBoundOldestFirst(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i, name := range []string{"old", "mid", "new"} {
		p := filepath.Join(dir, "ab", name+".json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, 100), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := now.Add(time.Duration(i-3) * time.Hour)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	sweep(dir, 150, now, isResultFile)
	for name, want := range map[string]bool{"old": false, "mid": false, "new": true} {
		_, err := os.Stat(filepath.Join(dir, "ab", name+".json"))
		if (err == nil) != want {
			t.Errorf("%s kept=%v, want %v", name, err == nil, want)
		}
	}
	// A second sweep within the hour does nothing, even over the bound.
	if err := os.WriteFile(filepath.Join(dir, "ab", "more.json"), make([]byte, 500), 0o644); err != nil {
		t.Fatal(err)
	}
	sweep(dir, 150, now.Add(time.Minute), isResultFile)
	if _, err := os.Stat(filepath.Join(dir, "ab", "more.json")); err != nil {
		t.Fatal("a sweep ran again within the hour")
	}
}

// The compiled-module cache is bounded the same way, over wazero's entries
// only: rea's own markers stay.
func TestSweepBoundsTheCompiledModuleCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	entries := filepath.Join(dir, "wazero-v1.12.0-amd64-linux")
	if err := os.MkdirAll(entries, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(p string, size int, age time.Duration) {
		if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(entries, "old"), 100, 3*time.Hour)
	write(filepath.Join(entries, "new"), 100, time.Hour)
	write(filepath.Join(dir, "rea-seen-abc"), 0, 5*time.Hour)
	sweep(dir, 150, now, isCompiledFile)
	for p, want := range map[string]bool{filepath.Join(entries, "old"): false, filepath.Join(entries, "new"): true, filepath.Join(dir, "rea-seen-abc"): true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s kept=%v, want %v", p, err == nil, want)
		}
	}
}
