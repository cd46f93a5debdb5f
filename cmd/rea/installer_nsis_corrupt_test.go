package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNSISCorruptOrTruncatedInstallerIsRefused: through the built rea,
// installers by the real makensis, stored, compressed item by item and
// solid, of a folder holding no archive (so the host hashes the stored
// items in the pass that sums the installer's CRC-32, and the
// compressed ones from what it summed while decoding them, without a
// copy): the clean installer lists complete; a byte flipped in an item,
// in the script or in the CRC word is refused as artifact_integrity
// naming the CRC-32, by inspect-artifact and by extract-artifact (which
// writes nothing); a truncated installer is refused typed.
func TestNSISCorruptOrTruncatedInstallerIsRefused(t *testing.T) {
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	for i := range 6 {
		p := filepath.Join(app, fmt.Sprintf("lib%d", i%2), fmt.Sprintf("m%d.js", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, bytes.Repeat([]byte(fmt.Sprintf("exports.v%d = %d;\n", i, i*i)), 3000*(i+1)), 0o644)
	}
	for _, c := range []string{"SetCompress off", "SetCompressor zlib", "SetCompressor /SOLID zlib", "SetCompressor /SOLID lzma"} {
		t.Run(strings.ReplaceAll(c, "/", ""), func(t *testing.T) {
			out := t.TempDir()
			setup := filepath.Join(out, "setup.exe")
			nsi := filepath.Join(out, "setup.nsi")
			os.WriteFile(nsi, []byte("Name \"T\"\nOutFile \""+setup+"\"\nUnicode true\nRequestExecutionLevel user\n"+c+
				"\nInstallDir \"$TEMP\\T\"\nSection\nSetOutPath \"$INSTDIR\"\nFile /r \""+app+"/*\"\nSectionEnd\n"), 0o644)
			if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
				t.Fatalf("makensis: %v\n%s", err, b)
			}
			raw, _ := os.ReadFile(setup)
			r := rea(t, "", installerEnv(t), "inspect-artifact", setup)
			if r.code != 0 || !strings.Contains(r.stdout, "6 verified, 0 mismatched, 0 unavailable; coverage complete") {
				t.Fatalf("clean installer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, at := range []int{len(raw) / 2, 1000, len(raw) - 80, len(raw) - 2} {
				bad := append([]byte(nil), raw...)
				bad[at] ^= 0x20
				p := filepath.Join(t.TempDir(), "bad.exe")
				os.WriteFile(p, bad, 0o644)
				r := rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", p)
				if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "artifact_integrity") || !strings.Contains(r.stdout+r.stderr, "CRC-32") {
					t.Errorf("byte %d of %d flipped: exit %d\n%s%s", at, len(raw), r.code, r.stdout, r.stderr)
				}
				dest := filepath.Join(t.TempDir(), "x")
				r = rea(t, "", installerEnv(t), "extract-artifact", "--output", dest, p)
				if _, err := os.Stat(dest); r.code == 0 || err == nil || !strings.Contains(r.stdout+r.stderr, "CRC-32") {
					t.Errorf("extract of byte %d flipped: exit %d, output %v\n%s%s", at, r.code, err, r.stdout, r.stderr)
				}
			}
			p := filepath.Join(t.TempDir(), "cut.exe")
			os.WriteFile(p, raw[:len(raw)-300], 0o644) // inside the data block
			r = rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", p)
			if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "artifact_operation_failed") || !strings.Contains(r.stdout+r.stderr, "truncated") {
				t.Errorf("truncated: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}
