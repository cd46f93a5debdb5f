package stream

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/artifact/inventory"
)

// TestDecodeBlockReadsShortZstdBlocks: a file's last squashfs block holds
// fewer bytes than zstd's 1 KiB minimum window (mksquashfs compresses it
// as a frame of its own, single-segment: window = max(content, 1 KiB));
// it decodes, and a block that decodes past what it declares is still
// refused. The frame is made by the real zstd.
func TestDecodeBlockReadsShortZstdBlocks(t *testing.T) {
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Fatal("zstd builds this test's fixture: apt-get install -y zstd")
	}
	for _, n := range []int{1, 486, 1023, 1024, 5000} {
		dir := t.TempDir()
		want := []byte(strings.Repeat("tail of a file ", n)[:n])
		p := filepath.Join(dir, "b")
		os.WriteFile(p, want, 0o644)
		if out, err := exec.Command("zstd", "-q", "-19", p).CombinedOutput(); err != nil {
			t.Fatalf("zstd: %v %s", err, out)
		}
		raw, err := os.ReadFile(p + ".zst")
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeBlock(inventory.CodecZstd, raw, int64(n))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if _, err := DecodeBlock(inventory.CodecZstd, raw, int64(n-1)); err == nil {
			t.Fatalf("%d bytes decoded within a %d-byte limit", n, n-1)
		}
	}
}
