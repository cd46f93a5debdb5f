package main_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// needTool fails (never skips) when a fixture's builder is missing.
func needPackager(t *testing.T, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Fatalf("%s builds this test's fixture: apt-get install %s (.ci/run installs it)", tool, pkg)
	}
}

// buildRPM packages the Electron tree with the real rpmbuild, its payload
// compressed as payload says (w9.gzdio, w6.xzdio, w19.zstdio, w9.bzdio).
func buildRPM(t *testing.T, payload string) string {
	t.Helper()
	needPackager(t, "rpmbuild", "rpm")
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	electronTree(t, root)
	if err := os.Symlink("../../../etc/passwd", filepath.Join(root, "opt", "Example", "escape")); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "example.spec")
	os.WriteFile(spec, []byte("Name: example\nVersion: 1.0.0\nRelease: 1\nSummary: fixture\nLicense: MIT\nBuildArch: noarch\n"+
		"%description\nfixture\n%install\ncp -a "+root+"/. %{buildroot}/\n%files\n/opt/Example\n"), 0o644)
	top := filepath.Join(dir, "top")
	cmd := exec.Command("rpmbuild", "-bb", "--define", "_topdir "+top, "--define", "_binary_payload "+payload,
		"--define", "__os_install_post %{nil}", "--define", "_build_id_links none", spec)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rpmbuild: %v\n%s", err, b)
	}
	matches, _ := filepath.Glob(filepath.Join(top, "RPMS", "noarch", "*.rpm"))
	if len(matches) != 1 {
		t.Fatalf("rpmbuild wrote %v", matches)
	}
	return matches[0]
}

func TestInspectArtifactReadsRPMPackages(t *testing.T) {
	needPackager(t, "rpm2cpio", "rpm")
	needPackager(t, "cpio", "cpio")
	for _, payload := range []string{"w9.gzdio", "w6.xzdio", "w19.zstdio", "w9.bzdio"} {
		t.Run(payload, func(t *testing.T) {
			pkg := buildRPM(t, payload)
			r := rea(t, "", installerEnv(t), "inspect-artifact", pkg)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"rpm  art_", "0 mismatched, 0 unavailable; coverage complete", "preload.js", "shared/channels.js",
				"opt/Example/resources/app.asar", "opt/Example/escape -> ../../../etc/passwd"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--path", "opt/Example/resources/app.asar", "--output", dest, pkg)
			if r.code != 0 || !strings.Contains(r.stdout, "wrote 1 files") {
				t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			// The bytes rea extracted are the bytes rpm2cpio | cpio extracts.
			ref := t.TempDir()
			sh := exec.Command("sh", "-c", "rpm2cpio \"$1\" | cpio -idm --quiet", "sh", pkg)
			sh.Dir = ref
			if b, err := sh.CombinedOutput(); err != nil {
				t.Fatalf("rpm2cpio | cpio: %v %s", err, b)
			}
			got, err := os.ReadFile(filepath.Join(dest, "opt", "Example", "resources", "app.asar"))
			want, err2 := os.ReadFile(filepath.Join(ref, "opt", "Example", "resources", "app.asar"))
			if err != nil || err2 != nil || len(want) == 0 || !bytes.Equal(got, want) {
				t.Fatalf("extracted app.asar differs from rpm2cpio's (%v, %v)", err, err2)
			}
		})
	}
}

// buildAppImage makes a type 2 AppImage the way appimagetool lays one
// out: an ELF runtime (here a copy of /bin/true, "AI\x02" written into
// its identification padding) followed by a squashfs image made by the
// real mksquashfs of an electron-builder-like tree (resources/app.asar
// at the root).
func buildAppImage(t *testing.T, comp string) string {
	t.Helper()
	needPackager(t, "mksquashfs", "squashfs-tools")
	dir := t.TempDir()
	root := filepath.Join(dir, "squashfs-root")
	electronTree(t, root)
	app := filepath.Join(root, "opt", "Example")
	sq := filepath.Join(dir, "image.sqfs")
	if b, err := exec.Command("mksquashfs", app, sq, "-comp", comp, "-noappend", "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("mksquashfs: %v %s", err, b)
	}
	runtime, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	copy(runtime[8:11], "AI\x02")
	img, err := os.ReadFile(sq)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "Example-"+comp+".AppImage")
	if err := os.WriteFile(out, append(runtime, img...), 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestInspectArtifactReadsAppImages(t *testing.T) {
	needPackager(t, "unsquashfs", "squashfs-tools")
	for _, comp := range []string{"gzip", "xz", "zstd"} {
		t.Run(comp, func(t *testing.T) {
			img := buildAppImage(t, comp)
			r := rea(t, "", installerEnv(t), "inspect-artifact", img)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"appimage  art_", "0 mismatched, 0 unavailable; coverage complete", "preload.js", "shared/channels.js",
				"resources/app.asar", "helper/resources/app/package.json"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--output", dest, img)
			if r.code != 0 {
				t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			// Every file rea extracted is the file unsquashfs extracts.
			ref := filepath.Join(t.TempDir(), "ref")
			if b, err := exec.Command("unsquashfs", "-q", "-d", ref, "-o", appImageOffset(t, img), img).CombinedOutput(); err != nil {
				t.Fatalf("unsquashfs: %v %s", err, b)
			}
			compareTrees(t, ref, dest, true)
		})
	}
}

// appImageOffset is where the squashfs image starts: the size of the
// runtime the fixture was built from.
func appImageOffset(t *testing.T, _ string) string {
	st, err := os.Stat("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(st.Size(), 10)
}

// compareTrees checks that every regular file under ref is in got with
// the same bytes, and that got has no file ref lacks.
// nestedExpanded says rea expands the app.asar inside the package (it does
// for decoded streams; not yet from a 7z folder, where the inventory says
// partial instead).
func compareTrees(t *testing.T, ref, got string, nestedExpanded bool) {
	t.Helper()
	count, nested := 0, 0
	filepath.WalkDir(ref, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(ref, p)
		want, _ := os.ReadFile(p)
		have, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil || !bytes.Equal(want, have) {
			t.Errorf("%s: extracted bytes differ from the reference tool's (%v)", rel, err)
		}
		count++
		return nil
	})
	filepath.WalkDir(got, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(got, p)
		if _, member, ok := strings.Cut(filepath.ToSlash(rel), "app.asar!/"); ok {
			// A member of the nested app.asar, which the reference tool
			// leaves packed: it is the fixture file electronTree packed.
			want, err := os.ReadFile(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure", member))
			have, err2 := os.ReadFile(p)
			if err != nil || err2 != nil || !bytes.Equal(want, have) {
				t.Errorf("%s: extracted bytes differ from the file packed into the archive (%v, %v)", rel, err, err2)
			}
			nested++
			return nil
		}
		if _, err := os.Lstat(filepath.Join(ref, rel)); err != nil {
			t.Errorf("%s: extracted by rea but not by the reference tool", rel)
		}
		return nil
	})
	if count < 3 {
		t.Fatalf("the reference tool extracted only %d files", count)
	}
	if nestedExpanded && nested < 6 {
		t.Errorf("rea extracted %d members of the nested app.asar, want the fixture's 6", nested)
	}
}

func TestAnalyzeInstallerReadsRPMAndAppImage(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp")}
	for name, pkg := range map[string]string{"rpm": buildRPM(t, "w6.xzdio"), "appimage": buildAppImage(t, "zstd")} {
		want := "analysing opt/Example/resources/app.asar"
		if name == "appimage" {
			want = "analysing resources/app.asar"
		}
		r := rea(t, "", env, "analyze", pkg)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", name, r.code, r.stderr)
		}
		for _, w := range []string{want, "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: analyze lacks %q:\n%s", name, w, r.stdout)
			}
		}
	}
}

// TestAnalyzeInstallerExplainsUnreadableFormats: an NSIS installer whose
// solid LZMA stream asks for a 512 MiB dictionary (SetCompressorDictSize
// 512; rea decodes up to 256 MiB), built by the real makensis, is
// recognised and refused with capability_unavailable naming the format and
// the compression, not mistaken for a native executable or unknown bytes.
// (Solid LZMA itself is read since session 9: installer_nsis_test.go.)
func TestAnalyzeInstallerExplainsUnreadableFormats(t *testing.T) {
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	electronTree(t, src)
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte("OutFile \""+filepath.Join(dir, "setup.exe")+"\"\nSetCompressor /SOLID lzma\nSetCompressorDictSize 512\nUnicode true\nSection\nSetOutPath $INSTDIR\nFile /r \""+
		filepath.Join(src, "opt", "Example", "resources")+"\"\nSectionEnd\n"), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v %s", err, b)
	}
	p := filepath.Join(dir, "setup.exe")
	r := rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", p)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "capability_unavailable") || !strings.Contains(r.stdout+r.stderr, `"format": "nsis"`) ||
		!strings.Contains(r.stdout+r.stderr, `"compression": "LZMA"`) {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rea(t, "", installerEnv(t), "analyze", p)
	if r.code == 0 || !strings.Contains(r.stderr, "capability_unavailable") || !strings.Contains(r.stderr, "7z x") {
		t.Errorf("analyze: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAnalyzeInstallerJudgesByTheShippedElectron: a .deb whose app
// declares Electron 11.5.0 in package.json but ships an Electron 33.2.1
// executable beside resources/ is judged by 33.2.1 — the runtime that
// loads the code — and the note names the binary, its version and fuses.
func TestAnalyzeInstallerJudgesByTheShippedElectron(t *testing.T) {
	needPackager(t, "dpkg-deb", "dpkg")
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "native"), "REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR="}
	dir := t.TempDir()
	root := filepath.Join(dir, "pkg")
	electronTree(t, root)
	bin, err := os.ReadFile(electronELF(t, "10110001"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "opt", "Example", "example"), bin, 0o755)
	os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
	os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: example\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: fixture\n"), 0o644)
	deb := filepath.Join(dir, "example.deb")
	if b, err := exec.Command("dpkg-deb", "--root-owner-group", "-Zxz", "--build", root, deb).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb: %v\n%s", err, b)
	}
	r := rea(t, "", env, "--format", "json", "analyze", deb)
	if r.code != 0 && r.code != 2 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"Electron executable data.tar.xz!/opt/Example/example: Electron 33.2.1", "5 fuse finding(s)", "judge by Electron 33.2.1"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("note lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "the shipped binary data.tar.xz!/opt/Example/example is Electron 33.2.1") || strings.Contains(r.stdout, "sandbox is not set") {
		t.Errorf("the analysis does not judge by the shipped binary:\n%.2000s", r.stdout)
	}
	if strings.Contains(r.stdout, "in Electron 11.5.0 (package.json") {
		t.Errorf("the analysis still judges by package.json's 11.5.0")
	}
	if !strings.Contains(r.stdout, `"shipped_electron"`) {
		t.Errorf("the evidence parameters do not record the shipped version")
	}
}

// TestAnalyzeInstallerChecksDeclaredASARIntegrity: a zipped macOS bundle
// whose Info.plist declares its app.asar's header hash is said to match;
// once the archive's header changes (as a patched app would), mismatch.
func TestAnalyzeInstallerChecksDeclaredASARIntegrity(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp")}
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	electronTree(t, tree)
	archive, err := os.ReadFile(filepath.Join(tree, "opt", "Example", "resources", "app.asar"))
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(archive[12:])
	sum := sha256.Sum256(archive[16 : 16+n])
	plist := `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>ElectronAsarIntegrity</key><dict><key>Resources/app.asar</key><dict><key>algorithm</key><string>SHA256</string><key>hash</key><string>` +
		hex.EncodeToString(sum[:]) + `</string></dict></dict>
</dict></plist>`
	bundle := func(asar []byte) string {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, body := range map[string][]byte{"Example.app/Contents/Info.plist": []byte(plist), "Example.app/Contents/Resources/app.asar": asar} {
			w, _ := zw.Create(name)
			w.Write(body)
		}
		zw.Close()
		p := filepath.Join(t.TempDir(), "Example-mac.zip")
		os.WriteFile(p, buf.Bytes(), 0o644)
		return p
	}
	r := rea(t, "", env, "analyze", bundle(archive))
	if r.code != 0 || !strings.Contains(r.stdout, "ASAR integrity (Example.app/Contents/Info.plist): Resources/app.asar declared SHA256 "+hex.EncodeToString(sum[:])) ||
		!strings.Contains(r.stdout, ": match\n") {
		t.Errorf("exit %d\n%.1500s\n%s", r.code, r.stdout, r.stderr)
	}
	// Rename one header key (same length, so the archive stays readable).
	tampered := bytes.Replace(archive, []byte(`"preload.js"`), []byte(`"preloaX.js"`), 1)
	if bytes.Equal(tampered, archive) {
		t.Fatal("fixture has no preload.js in its header")
	}
	r = rea(t, "", env, "analyze", bundle(tampered))
	if !strings.Contains(r.stdout, ": mismatch (the archive's header does not hash to the declared value") {
		t.Errorf("tampered: exit %d\n%.1500s\n%s", r.code, r.stdout, r.stderr)
	}
}
