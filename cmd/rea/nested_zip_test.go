package main_test

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// zipElectronApp zips the installed Electron tree (resources/app.asar and a
// helper's resources/app/) with the real zip (deflate; -0 stores).
func zipElectronApp(t *testing.T, args ...string) (archive, tree string) {
	t.Helper()
	needPackager(t, "zip", "zip")
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	tree = filepath.Join(root, "opt", "Example")
	archive = filepath.Join(dir, "app.zip")
	cmd := exec.Command("zip", append(append([]string{"-qr"}, args...), archive, ".")...)
	cmd.Dir = tree
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v\n%s", err, b)
	}
	return archive, tree
}

// storedZipOf wraps files (name → path on disk) in a zip written by Go's
// archive/zip with every member stored.
func storedZipOf(t *testing.T, out string, files [][2]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		b, err := os.ReadFile(f[1])
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Store})
		w.Write(b)
	}
	zw.Close()
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNestedASARInZipsIsExpanded: resources/app.asar in a zip written by
// the real zip, deflated (the default) and stored (-0), and the same zip
// stored in a zip stored in a zip, is listed with every member of the
// archive verified and coverage complete; a member extracted through the
// nesting is byte-identical to the packed file; past max_depth the
// archive is listed, not expanded, and coverage says partial.
func TestNestedASARInZipsIsExpanded(t *testing.T) {
	env := installerEnv(t)
	for name, args := range map[string][]string{"deflate": nil, "stored": {"-0"}} {
		t.Run(name, func(t *testing.T) {
			archive, _ := zipElectronApp(t, args...)
			r := rea(t, "", env, "inspect-artifact", archive)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"zip  art_", "in 2 containers", "0 mismatched, 0 unavailable; coverage complete", "resources/app.asar", "preload.js", "shared/channels.js"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", env, "extract-artifact", "--path", "resources/app.asar!/main.js", "--output", dest, archive)
			if r.code != 0 {
				t.Fatalf("extract: exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			got, err := os.ReadFile(filepath.Join(dest, "resources", "app.asar!", "main.js"))
			want, _ := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("extracted main.js differs from the packed one (%v)", err)
			}
		})
	}
	// app.zip (deflated members) stored in two more zips: depth 0, 1, 2
	// are zips, the app.asar is depth 3.
	archive, _ := zipElectronApp(t)
	dir := t.TempDir()
	mid := storedZipOf(t, filepath.Join(dir, "mid.zip"), [][2]string{{"payload/app.zip", archive}})
	outer := storedZipOf(t, filepath.Join(dir, "outer.zip"), [][2]string{{"bundle/mid.zip", mid}})
	r := rea(t, "", env, "inspect-artifact", outer)
	if r.code != 0 || !strings.Contains(r.stdout, "in 4 containers") || !strings.Contains(r.stdout, "coverage complete") || !strings.Contains(r.stdout, "shared/channels.js") {
		t.Errorf("zip in a zip in a zip: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dest := filepath.Join(t.TempDir(), "out")
	r = rea(t, "", env, "extract-artifact", "--path", "bundle/mid.zip!/payload/app.zip!/resources/app.asar!/main.js", "--output", dest, outer)
	got, err := os.ReadFile(filepath.Join(dest, "bundle", "mid.zip!", "payload", "app.zip!", "resources", "app.asar!", "main.js"))
	want, _ := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
	if r.code != 0 || err != nil || !bytes.Equal(got, want) {
		t.Errorf("extract through three levels: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	// max_depth bounds path depth too, so the cut is shown with shallow
	// paths: app.asar in app.zip in mid.zip in outer.zip, depths 0–3.
	asar := filepath.Join(dir, "app.asar")
	os.WriteFile(asar, rawASARFile(`{"files":{"main.js":{"size":5,"offset":"0"}}}`, []byte("main1")), 0o644)
	z := storedZipOf(t, filepath.Join(dir, "app.zip"), [][2]string{{"app.asar", asar}})
	z = storedZipOf(t, filepath.Join(dir, "mid2.zip"), [][2]string{{"app.zip", z}})
	z = storedZipOf(t, filepath.Join(dir, "outer2.zip"), [][2]string{{"mid.zip", z}})
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "3", z)
	if r.code != 0 || !strings.Contains(r.stdout, "in 4 containers") || !strings.Contains(r.stdout, "coverage complete") {
		t.Errorf("max-depth 3: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rea(t, "", env, "inspect-artifact", "--max-depth", "2", z)
	if r.code != 0 || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "coverage partial") || !strings.Contains(r.stdout, "nested deeper than max_depth") {
		t.Errorf("max-depth 2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNestedASARInZipsIsBounded: a traversal in an app.asar inside a
// zip is refused naming the nested archive; a deflated archive that
// expands past the compression ratio is refused naming the limit; a zip
// deflated inside a zip is expanded.
func TestNestedASARInZipsIsBounded(t *testing.T) {
	env := installerEnv(t)
	dir := t.TempDir()
	evil := filepath.Join(dir, "app.asar")
	os.WriteFile(evil, rawASARFile(`{"files":{"..":{"files":{"..":{"files":{"etc":{"files":{"passwd":{"size":1,"offset":"0"}}}}}}}}}`, []byte("x")), 0o644)
	for _, stored := range []bool{false, true} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		method := zip.Deflate
		if stored {
			method = zip.Store
		}
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "resources/app.asar", Method: method})
		b, _ := os.ReadFile(evil)
		w.Write(b)
		zw.Close()
		z := filepath.Join(t.TempDir(), "evil.zip")
		os.WriteFile(z, buf.Bytes(), 0o644)
		r := rea(t, "", env, "inspect-artifact", z)
		if r.code == 0 || !strings.Contains(r.stderr, `nested container "resources/app.asar"`) || !strings.Contains(r.stderr, "..") {
			t.Errorf("stored=%v traversal: exit %d\n%s%s", stored, r.code, r.stdout, r.stderr)
		}
	}
	// 8 MiB of zeros appended to a real archive, deflated: ratio ~1000.
	bomb := filepath.Join(dir, "bomb")
	os.MkdirAll(filepath.Join(bomb, "resources"), 0o755)
	os.WriteFile(filepath.Join(bomb, "resources", "app.asar"), append(rawASARFile(`{"files":{"main.js":{"size":1,"offset":"0"}}}`, []byte("x")), make([]byte, 8<<20)...), 0o644)
	needPackager(t, "zip", "zip")
	cmd := exec.Command("zip", "-qr", "-9", filepath.Join(dir, "bomb.zip"), ".")
	cmd.Dir = bomb
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v %s", err, b)
	}
	r := rea(t, "", env, "--format", "json", "inspect-artifact", "--max-compression-ratio", "100", filepath.Join(dir, "bomb.zip"))
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "max_compression_ratio") {
		t.Errorf("bomb: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A zip deflated inside a zip: expanded from the decoded copy of the
	// member, its app.asar too, nothing partial.
	archive, _ := zipElectronApp(t, "-0")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "payload/app.zip", Method: zip.Deflate})
	b, _ := os.ReadFile(archive)
	w.Write(b)
	zw.Close()
	outer := filepath.Join(dir, "outer.zip")
	os.WriteFile(outer, buf.Bytes(), 0o644)
	r = rea(t, "", env, "inspect-artifact", outer)
	if r.code != 0 || !strings.Contains(r.stdout, "in 3 containers") || !strings.Contains(r.stdout, "0 mismatched, 0 unavailable; coverage complete") || !strings.Contains(r.stdout, "shared/channels.js") {
		t.Errorf("deflated zip in a zip: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAnalyzeZipInstallerFindsTheApp: `rea analyze app.zip` (zip's
// deflated members, app.asar expanded) analyses resources/app.asar and
// names the helper's resources/app as another root seen.
func TestAnalyzeZipInstallerFindsTheApp(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	archive, _ := zipElectronApp(t)
	r := rea(t, "", env, "analyze", archive)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"analysing resources/app.asar", "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("analyze lacks %q:\n%s", want, r.stdout)
		}
	}
}
