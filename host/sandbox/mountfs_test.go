package sandbox_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"rea/host/regularfile"
	"rea/host/sandbox"
)

// wazero stats a mounted path by opening it, so a FIFO planted in an input
// blocked the guest's stat — and rea — until a writer came. The mount
// shows the FIFO for what it is and never reads it.
func TestMountsShowAFIFOWithoutBlockingAndNeverReadIt(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
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
	mount := sandbox.DirFS(root)
	f, err := mount.Open("pipe.js") // blocked before
	if err != nil {
		t.Fatalf("Open(pipe.js): %v (a mount must show what the path is)", err)
	}
	if st, err := f.Stat(); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("Stat(pipe.js) = %v, %v; want a named pipe", st, err)
	}
	if _, err := f.Read(make([]byte, 8)); !errors.Is(err, regularfile.ErrNotRegular) {
		t.Errorf("reading pipe.js: %v; want ErrNotRegular", err)
	}
	f.Close()
	if b, err := fs.ReadFile(mount, "main.js"); err != nil || string(b) != "ok" {
		t.Fatalf("main.js reads %q, %v", b, err)
	}
	if entries, err := fs.ReadDir(mount, "."); err != nil || len(entries) != 2 {
		t.Fatalf("ReadDir: %d entries, %v", len(entries), err)
	}
	if _, err := mount.Open("../escape"); err == nil {
		t.Fatal("a path outside the mount opened")
	}
}
