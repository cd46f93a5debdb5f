package main_test

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rawASARFile lays out an ASAR with the given JSON header and data, as
// @electron/asar's pickle writes it, for headers no honest packer writes.
func rawASARFile(header string, data []byte) []byte {
	pad := (4 - len(header)%4) % 4
	payload := 4 + len(header) + pad
	b := make([]byte, 16, 16+payload+len(data))
	binary.LittleEndian.PutUint32(b[0:], 4)
	binary.LittleEndian.PutUint32(b[4:], uint32(payload+4))
	binary.LittleEndian.PutUint32(b[8:], uint32(payload))
	binary.LittleEndian.PutUint32(b[12:], uint32(len(header)))
	b = append(b, header...)
	b = append(b, make([]byte, pad)...)
	return append(b, data...)
}

// debWithASAR builds a .deb with dpkg-deb holding opt/X/resources/app.asar.
func debWithASAR(t *testing.T, asar []byte) string {
	t.Helper()
	needPackager(t, "dpkg-deb", "dpkg")
	dir := t.TempDir()
	root := filepath.Join(dir, "pkg")
	os.MkdirAll(filepath.Join(root, "opt", "X", "resources"), 0o755)
	os.WriteFile(filepath.Join(root, "opt", "X", "resources", "app.asar"), asar, 0o644)
	os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
	os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: x\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: fixture\n"), 0o644)
	deb := filepath.Join(dir, "x.deb")
	if b, err := exec.Command("dpkg-deb", "--root-owner-group", "-Zzstd", "--build", root, deb).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb: %v\n%s", err, b)
	}
	return deb
}

// TestNestedASARInPackagesIsBounded: an app.asar inside a .deb is expanded
// within the same limits — a traversal in its header is refused, typed and
// naming the nested archive; a depth limit that cuts leaves the archive
// unexpanded (container tests); the entries limit spans the nesting.
func TestNestedASARInPackagesIsBounded(t *testing.T) {
	env := installerEnv(t)
	evil := debWithASAR(t, rawASARFile(`{"files":{"..":{"files":{"..":{"files":{"etc":{"files":{"passwd":{"size":1,"offset":"0"}}}}}}}}}`, []byte("x")))
	r := rea(t, "", env, "inspect-artifact", evil)
	if r.code == 0 || !strings.Contains(r.stderr, `nested container "opt/X/resources/app.asar"`) || !strings.Contains(r.stderr, "..") {
		t.Errorf("traversal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	good := debWithASAR(t, rawASARFile(`{"files":{"main.js":{"size":5,"offset":"0"},"lib":{"files":{"a.js":{"size":3,"offset":"5"}}}}}`, []byte("main1abc")))
	r = rea(t, "", env, "inspect-artifact", good)
	if r.code != 0 || !strings.Contains(r.stdout, "in 4 containers") || !strings.Contains(r.stdout, "coverage complete") || !strings.Contains(r.stdout, "lib/a.js") {
		t.Errorf("expanded: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// max_depth bounds path depth too (opt/X/resources/app.asar is 4
	// deep), so in a real package it cuts the paths before the nesting;
	// the nesting cut (archive listed, not expanded) is tested in
	// analysis/artifact/container with an archive at the package root.
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "1", good)
	if r.code == 0 {
		t.Errorf("max-depth 1 refuses the package's own paths (depth 4):\n%s", r.stdout)
	}
	// 8 entries outside the archive (ar members, control, directories,
	// app.asar) and 3 inside: 9 allowed fails in the archive.
	r = rea(t, "", env, "inspect-artifact", "--max-entries", "9", good)
	if r.code == 0 || !strings.Contains(r.stderr, "max_entries") || !strings.Contains(r.stderr, `nested container "opt/X/resources/app.asar"`) {
		t.Errorf("max-entries: exit %d\n%s", r.code, r.stderr)
	}
}
