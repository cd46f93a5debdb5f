package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
)

// nsisInstaller builds an installer of root's files with the real
// makensis and compressor line c.
func nsisInstaller(t *testing.T, root, c string) string {
	t.Helper()
	if _, err := exec.LookPath("makensis"); err != nil {
		t.Fatal("makensis builds this test's installers: apt-get install -y nsis")
	}
	dir := t.TempDir()
	setup := filepath.Join(dir, "setup.exe")
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte("Name \"T\"\nOutFile \""+setup+"\"\nUnicode true\nRequestExecutionLevel user\n"+c+
		"\nInstallDir \"$TEMP\\T\"\nSection\nSetOutPath \"$INSTDIR\"\nFile /r \""+root+"/*\"\nSectionEnd\n"), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	return setup
}

// TestInspectNSISHashesEveryItemFromOnePass: for installers built by the
// real makensis, stored, compressed item by item and solid, every file
// is verified with the SHA-256 of the file on disk (the host hashed the
// stored items in the pass that took the installer's digest and CRC-32,
// and the compressed ones from the sums the stage made as it decoded
// them, without a copy), the subject digest is the installer's, and
// coverage is complete. A flipped byte anywhere the CRC-32 covers is
// refused as artifact_integrity naming the CRC-32, whether the listing
// then fails (the module checks) or succeeds (the host's pass checks);
// a truncated installer is refused typed.
func TestInspectNSISHashesEveryItemFromOnePass(t *testing.T) {
	root := filepath.Join(t.TempDir(), "app")
	want := map[string]string{}
	for i := range 12 {
		p := filepath.Join(root, fmt.Sprintf("d%d", i%3), fmt.Sprintf("f%02d.js", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		body := bytes.Repeat([]byte(fmt.Sprintf("module.exports = %d;\n", i)), 1000*(i+1))
		if i%4 == 0 {
			body = pattern(96<<10*(i+1), byte(i)) // does not compress: stored even in a compressed installer
		}
		os.WriteFile(p, body, 0o644)
		want[fmt.Sprintf("d%d/f%02d.js", i%3, i)] = sha(body)
	}
	a := newArtifactApp(t)
	for _, c := range []string{"SetCompress off", "SetCompressor zlib", "SetCompressor /SOLID zlib", "SetCompressor /SOLID lzma", "SetCompressor bzip2"} {
		t.Run(strings.ReplaceAll(c, "/", ""), func(t *testing.T) {
			setup := nsisInstaller(t, root, c)
			raw, _ := os.ReadFile(setup)
			out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: setup},
				Occurrences: PageRequest{Limit: 500}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			inv := out.Inventory
			if out.Evidence.Subject.Digest.SHA256 != sha(raw) || inv.Coverage != "complete" || inv.Counts.Verified != len(want) {
				t.Fatalf("digest %s (want %s), coverage %s, %d verified of %d", out.Evidence.Subject.Digest.SHA256, sha(raw), inv.Coverage, inv.Counts.Verified, len(want))
			}
			for _, o := range inv.Occurrences.Items {
				if w, ok := want[o.LogicalPath]; ok && (o.ObservedSHA256 == nil || *o.ObservedSHA256 != w || o.HashStatus != statusVerified) {
					t.Errorf("%s: observed %v, want %s", o.LogicalPath, o.ObservedSHA256, w)
				}
			}
			for _, at := range []int{600, len(raw) / 3, len(raw) / 2, len(raw) - 64, len(raw) - 1} {
				bad := append([]byte(nil), raw...)
				bad[at] ^= 0x04
				p := filepath.Join(t.TempDir(), "bad.exe")
				os.WriteFile(p, bad, 0o644)
				_, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p}}, nil)
				var ae *abi.Error
				if !errors.As(err, &ae) || ae.Code != abi.CodeArtifactIntegrity || !strings.Contains(ae.Message, "CRC-32") {
					t.Errorf("byte %d of %d flipped: %v", at, len(raw), err)
				}
			}
			p := filepath.Join(t.TempDir(), "cut.exe")
			os.WriteFile(p, raw[:len(raw)-1000], 0o644)
			_, err = a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p}}, nil)
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeArtifactOperationFailed || !strings.Contains(ae.Message, "truncated") {
				t.Errorf("truncated: %v", err)
			}
		})
	}
}
