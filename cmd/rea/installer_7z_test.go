package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// build7zApp archives an installed Electron app the way electron-builder
// packs app-64.7z: the app folder's contents (resources/app.asar, a
// helper's resources/app/), plus a link that escapes, with the real 7z.
func build7zApp(t *testing.T, args ...string) (archive, tree string) {
	t.Helper()
	needPackager(t, "7z", "p7zip-full")
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	tree = filepath.Join(root, "opt", "Example")
	exe, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tree, "Example.exe"), exe, 0o755)
	if err := os.Symlink("../../../etc/passwd", filepath.Join(tree, "escape")); err != nil {
		t.Fatal(err)
	}
	archive = filepath.Join(dir, "app-64.7z")
	cmd := exec.Command("7z", append(append([]string{"a", "-bd", "-snl"}, args...), archive, ".")...)
	cmd.Dir = tree
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z a: %v\n%s", err, b)
	}
	return archive, tree
}

// buildNSIS wraps files in an installer built by the real makensis with
// the given compressor line ("SetCompress off", "SetCompressor zlib", …).
func buildNSIS(t *testing.T, compressor string, files ...string) string {
	t.Helper()
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	out := filepath.Join(dir, "setup.exe")
	script := "Name \"Example\"\nOutFile \"" + out + "\"\nUnicode true\nRequestExecutionLevel user\n" + compressor + "\nInstallDir \"$TEMP\\Example\"\nSection\nSetOutPath \"$INSTDIR\"\n"
	for _, f := range files {
		script += "File \"" + f + "\"\n"
	}
	script += "SectionEnd\n"
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	return out
}

// TestInspectArtifactReadsSevenZipArchives: 7z archives written by the
// real 7z (LZMA2 with BCJ2 at -mx=9, non-solid LZMA, Deflate) are listed
// through the built binary with every member verified, the escaping link
// shown, and extract-artifact writes exactly the bytes `7z x` writes.
func TestInspectArtifactReadsSevenZipArchives(t *testing.T) {
	for name, args := range map[string][]string{"mx9": {"-mx=9"}, "nonsolid-lzma": {"-m0=LZMA", "-ms=off"}, "deflate": {"-m0=Deflate"}} {
		t.Run(name, func(t *testing.T) {
			archive, _ := build7zApp(t, args...)
			r := rea(t, "", installerEnv(t), "inspect-artifact", archive)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"7z  art_", "in 2 containers", "0 mismatched, 0 unavailable; coverage complete", "resources/app.asar", "Example.exe executable", "escape -> ../../../etc/passwd",
				// The app.asar in the 7z folder is expanded from the
				// host's decoded copy of the folder.
				"preload.js", "shared/channels.js"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--output", dest, archive)
			if r.code != 0 {
				t.Fatalf("extract: exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			ref := t.TempDir()
			// 7z x refuses the escaping link ("Dangerous link path was
			// ignored", exit 2) but leaves a plain file holding its target;
			// rea records the link and writes no file for it.
			if b, err := exec.Command("7z", "x", "-bd", "-snl", "-o"+ref, archive).CombinedOutput(); err != nil && !strings.Contains(string(b), "Dangerous link path was ignored") {
				t.Fatalf("7z x: %v %s", err, b)
			}
			if st, err := os.Lstat(filepath.Join(ref, "escape")); err == nil && st.Mode().IsRegular() {
				os.Remove(filepath.Join(ref, "escape"))
			}
			compareTrees(t, ref, dest, false)
			if _, err := os.Lstat(filepath.Join(dest, "escape")); err == nil {
				t.Error("extract-artifact materialised the escaping link")
			}
		})
	}
}

// TestInspectArtifactRefusesCorruptAndEncryptedSevenZip: a flipped byte in
// a stored member is caught by its CRC-32 in the host (artifact_integrity),
// and an encrypted archive is capability_unavailable naming the encryption.
func TestInspectArtifactRefusesCorruptAndEncryptedSevenZip(t *testing.T) {
	archive, _ := build7zApp(t, "-m0=Copy")
	b, _ := os.ReadFile(archive)
	i := bytes.Index(b, []byte("insecure-editor"))
	if i < 0 {
		t.Fatal("the stored archive does not hold package.json in the clear")
	}
	b[i] ^= 0x20
	bad := filepath.Join(t.TempDir(), "bad.7z")
	os.WriteFile(bad, b, 0o644)
	r := rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", bad)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "artifact_integrity") || !strings.Contains(r.stdout+r.stderr, "CRC-32") {
		t.Errorf("corrupt member: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	enc, _ := build7zApp(t, "-pSECRET", "-mhe=on")
	r = rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", enc)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "capability_unavailable") || !strings.Contains(r.stdout+r.stderr, `"encryption": "7zAES"`) {
		t.Errorf("encrypted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestInspectArtifactReadsNSISInstallers: an installer built by the real
// makensis with SetCompress off, and one with the default non-solid zlib
// (whose incompressible 7z item is stored, a text item deflated), list the
// embedded app-64.7z under its script name as a nested 7z container with
// every member verified (every other compressor: installer_nsis_test.go).
func TestInspectArtifactReadsNSISInstallers(t *testing.T) {
	archive, tree := build7zApp(t, "-mx=9")
	notes := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notes, bytes.Repeat([]byte("release notes\n"), 500), 0o644)
	for _, compressor := range []string{"SetCompress off", "SetCompressor zlib"} {
		setup := buildNSIS(t, compressor, archive, notes)
		r := rea(t, "", installerEnv(t), "inspect-artifact", setup)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", compressor, r.code, r.stderr)
		}
		for _, want := range []string{"nsis  art_", "in 3 containers", "0 mismatched, 0 unavailable; coverage complete", "app-64.7z", "resources/app.asar", "notes.txt", "escape -> ../../../etc/passwd",
			// electron-builder's layout: setup.exe → app-64.7z →
			// resources/app.asar, every level expanded.
			"preload.js", "shared/channels.js"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: inventory lacks %q:\n%s", compressor, want, r.stdout)
			}
		}
		dest := filepath.Join(t.TempDir(), "out")
		r = rea(t, "", installerEnv(t), "extract-artifact", "--path", "app-64.7z!/resources/app.asar", "--path", "notes.txt", "--output", dest, setup)
		if r.code != 0 {
			t.Fatalf("%s: extract: exit %d: %s%s", compressor, r.code, r.stdout, r.stderr)
		}
		got, err := os.ReadFile(filepath.Join(dest, "app-64.7z!", "resources", "app.asar"))
		want, _ := os.ReadFile(filepath.Join(tree, "resources", "app.asar"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: extracted app.asar differs from the packed one (%v)", compressor, err)
		}
		gotNotes, err := os.ReadFile(filepath.Join(dest, "notes.txt"))
		wantNotes, _ := os.ReadFile(notes)
		if err != nil || !bytes.Equal(gotNotes, wantNotes) {
			t.Errorf("%s: extracted notes differ (%v)", compressor, err)
		}
	}
}

// TestAnalyzeInstallerReadsSevenZipAndNSIS: `rea analyze setup.exe` and
// `rea analyze app-64.7z` find resources/app.asar inside, name the path
// chosen and the other root seen, and analyse the app.
func TestAnalyzeInstallerReadsSevenZipAndNSIS(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	archive, _ := build7zApp(t, "-mx=9")
	setup := buildNSIS(t, "SetCompressor zlib", archive)
	for input, root := range map[string]string{archive: "resources/app.asar", setup: "app-64.7z!/resources/app.asar"} {
		r := rea(t, "", env, "analyze", input)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", filepath.Base(input), r.code, r.stderr)
		}
		for _, want := range []string{"analysing " + root, "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: analyze lacks %q:\n%s", filepath.Base(input), want, r.stdout)
			}
		}
	}
}

// TestCompareArtifactsReadsSevenZip: the compare fixture's v1 and v2
// trees, each archived by the real 7z (v1 solid LZMA2, v2 non-solid with
// BCJ2), compare exactly as the directories do.
func TestCompareArtifactsReadsSevenZip(t *testing.T) {
	needPackager(t, "7z", "p7zip-full")
	dir := t.TempDir()
	var archives []string
	for v, args := range map[string][]string{"v1": {"-mx=5"}, "v2": {"-mx=9", "-ms=off"}} {
		out := filepath.Join(dir, v+".7z")
		cmd := exec.Command("7z", append(append([]string{"a", "-bd"}, args...), out, ".")...)
		cmd.Dir = compareFixture(t, "artifacts", v)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("7z a: %v\n%s", err, b)
		}
		archives = append(archives, out)
	}
	if filepath.Base(archives[0]) != "v1.7z" {
		archives[0], archives[1] = archives[1], archives[0]
	}
	r := reaWithModules(t, "compare-artifacts", archives[0], archives[1], "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var c artifactComparison
	decode(t, r.stdout, &c)
	want := map[string]string{"app/main.js": "changed content,size", "app/new.js": "added ", "app/old.js": "removed "}
	if got := c.kinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	if c.NormalizedResult.Status != "changed" || c.NormalizedResult.Summary["unchanged"] != 6 {
		t.Errorf("status %s summary %v", c.NormalizedResult.Status, c.NormalizedResult.Summary)
	}
}
