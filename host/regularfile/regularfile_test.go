package regularfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"rea/host/regularfile"
)

// within fails the test, instead of hanging it, when f blocks.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

func TestFIFOsAndDevicesAreRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe.js", filepath.Join(dir, "link.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"pipe.js", "link.js"} {
		within(t, "OpenIn("+name+")", func() {
			if f, err := regularfile.OpenIn(root, name); !errors.Is(err, regularfile.ErrNotRegular) {
				t.Errorf("OpenIn(%s) = %v, %v; want ErrNotRegular", name, f, err)
			}
		})
	}
	for _, p := range []string{filepath.Join(dir, "pipe.js"), "/dev/zero"} {
		within(t, "Open("+p+")", func() {
			if f, err := regularfile.Open(p); !errors.Is(err, regularfile.ErrNotRegular) {
				t.Errorf("Open(%s) = %v, %v; want ErrNotRegular", p, f, err)
			}
		})
	}
	for _, open := range []func() (*os.File, error){
		func() (*os.File, error) { return regularfile.OpenIn(root, "main.js") },
		func() (*os.File, error) { return regularfile.Open(filepath.Join(dir, "main.js")) },
	} {
		f, err := open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(b) != "ok" {
			t.Fatalf("a regular file reads %q, %v", b, err)
		}
	}
}
