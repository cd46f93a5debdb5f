package app

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/sys/unix"

	"rea/analysis/artifact/inventory"
)

func syscallMkfifo(p string) error { return unix.Mkfifo(p, 0o644) }

func mustOpenDirFD(t *testing.T, dir string) int {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// The fast walk (openat2, files hashed on every core) and the os.Root
// walk enter the same fields in the same order: one key, one walk.
func TestFastWalkGivesTheRootWalksKey(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.js": "1", "b/c.js": "22", "b/d/e.js": "333", "b/d/f.json": "{}", "z/empty.txt": "", "B.js": "upper"}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "a.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"l1": "a.js", "b/l2": "../z", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscallMkfifo(filepath.Join(dir, "b", "fifo")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, sub := range []string{".", "b"} {
		slow, fast := keyWriter{sha256.New()}, keyWriter{sha256.New()}
		sw, fw := newInputWalk("."), newInputWalk(".")
		sn, err := walkTreeRoot(root, sub, slow, sw)
		if err != nil {
			t.Fatal(err)
		}
		fn, ok, err := walkTreeFast(dir, sub, fast, fw)
		if !ok {
			t.Fatal("the fast walk is not available here (openat2)")
		}
		if err != nil {
			t.Fatal(err)
		}
		if sn != fn || !bytes.Equal(slow.h.Sum(nil), fast.h.Sum(nil)) {
			t.Fatalf("%s: os.Root walk %d entries, fast walk %d; keys equal: %v\n%+v\n%+v", sub, sn, fn, bytes.Equal(slow.h.Sum(nil), fast.h.Sum(nil)), sw, fw)
		}
		// The early analysis builds its tree from what a walk recorded.
		if !reflect.DeepEqual(sw, fw) {
			t.Fatalf("%s: the walks recorded different entries:\n%+v\n%+v", sub, sw, fw)
		}
	}
	// A link where a directory was: the fast walk refuses to pass it.
	if err := os.Symlink(dir, filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if _, err := openBeneath(mustOpenDirFD(t, dir), "loop/a.js", 0); err == nil {
		t.Fatal("openat2 followed a link")
	}
}

// TestKeyWalkStopsAtTheInventoryLimits: the key walk runs before the
// inventory, so it stops at the request's inventory limits — entries
// listed, bytes about to be read — with either walker, and the inventory
// is left to refuse the input by name.
func TestKeyWalkStopsAtTheInventoryLimits(t *testing.T) {
	dir := t.TempDir()
	for i := range 6 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.js", i)), bytes.Repeat([]byte("x"), 1024), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	walkers := map[string]func(*inputWalk) error{
		"os.Root": func(w *inputWalk) error { _, err := walkTreeRoot(root, ".", keyWriter{sha256.New()}, w); return err },
		"openat2": func(w *inputWalk) error {
			_, ok, err := walkTreeFast(dir, ".", keyWriter{sha256.New()}, w)
			if !ok {
				t.Fatal("the fast walk is not available here (openat2)")
			}
			return err
		},
	}
	for _, c := range []struct {
		name   string
		limits inventory.Limits
		over   bool
	}{
		{"entries", inventory.Limits{MaxEntries: 5}, true},
		{"bytes", inventory.Limits{MaxTotalBytes: 5 * 1024}, true},
		{"within both", inventory.Limits{MaxEntries: 6, MaxTotalBytes: 6 * 1024}, false},
	} {
		for name, walk := range walkers {
			w := newInputWalk(".")
			w.bound(c.limits)
			err := walk(w)
			if got := errors.Is(err, errWalkOverLimits); got != c.over {
				t.Errorf("%s, %s walker: error %v, want over the limits: %v", c.name, name, err, c.over)
			}
		}
	}
}
