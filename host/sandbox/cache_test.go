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
	sweep(dir, 150, now)
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
	sweep(dir, 150, now.Add(time.Minute))
	if _, err := os.Stat(filepath.Join(dir, "ab", "more.json")); err != nil {
		t.Fatal("a sweep ran again within the hour")
	}
}
