package main_test

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

// installerEnv points the built rea at the real artifact and jsapp modules.
func installerEnv(t *testing.T) []string {
	return []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact")}
}

// electronTree lays out an installed Electron app under root/opt/Example:
// resources/app.asar packed from the insecure fixture, and a second copy
// as a resources/app/ folder under a bundled helper.
func electronTree(t *testing.T, root string) {
	t.Helper()
	src := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure")
	var files []asarpack.File
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files = append(files, asarpack.Bytes(filepath.ToSlash(rel), b))
		dst := filepath.Join(root, "opt", "Example", "helper", "resources", "app", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(root, "opt", "Example", "resources")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, files); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "app.asar"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func buildDeb(t *testing.T, compression string) string {
	t.Helper()
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Fatal("dpkg-deb builds the .deb fixture: apt-get install dpkg")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "pkg")
	electronTree(t, root)
	os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
	control := "Package: example\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: fixture\n"
	if err := os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte(control), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../etc/passwd", filepath.Join(root, "opt", "Example", "escape")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "example_"+compression+".deb")
	if b, err := exec.Command("dpkg-deb", "--root-owner-group", "-Z"+compression, "--build", root, out).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb: %v\n%s", err, b)
	}
	return out
}

func TestInspectArtifactReadsDebPackages(t *testing.T) {
	for _, comp := range []struct{ z, ext string }{{"xz", ".xz"}, {"zstd", ".zst"}, {"gzip", ".gz"}} {
		t.Run(comp.z, func(t *testing.T) {
			deb := buildDeb(t, comp.z)
			r := rea(t, "", installerEnv(t), "inspect-artifact", deb)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"deb  art_", "in 4 containers", "0 mismatched, 0 unavailable; coverage complete", "preload.js", "shared/channels.js", "data.tar" + comp.ext,
				"opt/Example/resources/app.asar", "opt/Example/escape -> ../../../etc/passwd"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--path", "data.tar"+comp.ext+"!/opt/Example/resources/app.asar", "--output", dest, deb)
			if r.code != 0 || !strings.Contains(r.stdout, "wrote 1 files") {
				t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			// The bytes rea extracted are the bytes dpkg-deb extracts.
			ref := t.TempDir()
			if b, err := exec.Command("dpkg-deb", "-x", deb, ref).CombinedOutput(); err != nil {
				t.Fatalf("dpkg-deb -x: %v %s", err, b)
			}
			got, err := os.ReadFile(filepath.Join(dest, "data.tar"+comp.ext+"!", "opt", "Example", "resources", "app.asar"))
			want, err2 := os.ReadFile(filepath.Join(ref, "opt", "Example", "resources", "app.asar"))
			if err != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Fatalf("extracted app.asar differs from dpkg-deb's (%v, %v)", err, err2)
			}
			// A member of the app.asar inside the package, expanded as a
			// nested container, is the file that was packed.
			member := "data.tar" + comp.ext + "!/opt/Example/resources/app.asar!/main.js"
			dest = filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--path", member, "--output", dest, deb)
			if r.code != 0 || !strings.Contains(r.stdout, "wrote 1 files") {
				t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			got, err = os.ReadFile(filepath.Join(dest, filepath.FromSlash(member)))
			want, err2 = os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", "main.js"))
			if err != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Fatalf("extracted %s differs from the packed main.js (%v, %v)", member, err, err2)
			}
		})
	}
}

func TestAnalyzeInstallerFindsTheElectronApp(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	deb := buildDeb(t, "xz")
	r := rea(t, "", env, "analyze", deb)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"analysing data.tar.xz!/opt/Example/resources/app.asar", "other application roots seen: data.tar.xz!/opt/Example/helper/resources/app",
		"insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("analyze lacks %q:\n%s", want, r.stdout)
		}
	}

	// A .tar.gz built by tar and a .zip (a folder app only) route the same way.
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	tgz := filepath.Join(dir, "example.tar.gz")
	if b, err := exec.Command("tar", "-czf", tgz, "-C", root, "opt").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, b)
	}
	r = rea(t, "", env, "--format", "json", "analyze", tgz)
	if r.code != 0 || !strings.Contains(r.stderr, "analysing opt/Example/resources/app.asar") || !strings.HasPrefix(strings.TrimSpace(r.stdout), "{") {
		t.Errorf("tar.gz: exit %d\nstdout %.300s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	zipPath := filepath.Join(dir, "example.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	helper := filepath.Join(root, "opt", "Example", "helper")
	filepath.WalkDir(helper, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(helper, p)
		w, _ := zw.Create("Example-linux-x64/" + filepath.ToSlash(rel))
		b, _ := os.ReadFile(p)
		w.Write(b)
		return nil
	})
	zw.Close()
	os.WriteFile(zipPath, buf.Bytes(), 0o644)
	r = rea(t, "", env, "analyze", zipPath)
	if r.code != 0 || !strings.Contains(r.stdout, "analysing Example-linux-x64/resources/app (") || !strings.Contains(r.stdout, "insecure-editor 0.3.0 (directory") {
		t.Errorf("zip: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A package without an application says so.
	empty := filepath.Join(dir, "empty.tar.gz")
	exec.Command("tar", "-czf", empty, "-C", filepath.Join(root, "opt", "Example", "helper", "resources", "app"), "shared").Run()
	r = rea(t, "", env, "analyze", empty)
	if r.code == 0 || !strings.Contains(r.stderr, "holds no Electron application") {
		t.Errorf("empty: exit %d %s", r.code, r.stderr)
	}
}

// TestAnalyzePackageTakesTheArtifactFlags: `rea analyze PACKAGE` extracts
// the package under the artifact flags analyze was given, as
// inspect-artifact does: a package holding a file compressed beyond the
// default ratio (8 MiB of zeros, deflated) is refused by default naming
// the limit, and analysed with --max-compression-ratio raised.
func TestAnalyzePackageTakesTheArtifactFlags(t *testing.T) {
	needPackager(t, "zip", "zip")
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree", "opt", "Example")
	electronTree(t, filepath.Join(dir, "tree"))
	if err := os.WriteFile(filepath.Join(tree, "zeros.bin"), make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "app.zip")
	cmd := exec.Command("zip", "-qr", pkg, ".")
	cmd.Dir = tree
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v\n%s", err, b)
	}
	r := rea(t, "", nil, "analyze", pkg, "--format", "json")
	var te typedError
	decode(t, r.stdout, &te)
	if r.code != 1 || te.Error.Code != "resource_constraint" || !strings.Contains(te.Error.Message, "compression") {
		t.Fatalf("default limits: exit %d %+v, want resource_constraint on the compression ratio\n%s", r.code, te, r.stderr)
	}
	r = rea(t, "", nil, "analyze", pkg, "--max-compression-ratio", "100000", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stderr, "analysing resources/app.asar") {
		t.Fatalf("--max-compression-ratio 100000: exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
	}
}
