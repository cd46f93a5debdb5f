package stream

import (
	"bytes"
	"compress/zlib"
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

// TestDecodeBlockZlibAtItsLimit: a zlib block (a .dmg chunk, a squashfs
// block) of each size around readBlock's first buffer decodes exactly
// within a limit of its size and is refused within one byte less; a
// block whose Adler-32 is wrong is refused (the host's klauspost inflate
// checks it as compress/zlib does).
func TestDecodeBlockZlibAtItsLimit(t *testing.T) {
	for _, n := range []int{0, 1, 4096, preallocCap - 1, preallocCap, preallocCap + 1, 3*preallocCap + 7} {
		want := bytes.Repeat([]byte("const a = require('b'); "), n/24+1)[:n]
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(want)
		zw.Close()
		got, err := DecodeBlock(inventory.CodecZlib, z.Bytes(), int64(n))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: %v (%d decoded)", n, err, len(got))
		}
		if n > 0 {
			if _, err := DecodeBlock(inventory.CodecZlib, z.Bytes(), int64(n-1)); err == nil || !strings.Contains(err.Error(), "decodes to more than") {
				t.Fatalf("%d bytes within a %d-byte limit: %v", n, n-1, err)
			}
		}
		bad := bytes.Clone(z.Bytes())
		bad[len(bad)-1] ^= 1
		if _, err := DecodeBlock(inventory.CodecZlib, bad, int64(n)); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("%d bytes with a wrong Adler-32: %v", n, err)
		}
	}
}
