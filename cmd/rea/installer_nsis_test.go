package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// nsisCompressorLines are every makensis compressor, solid and not.
var nsisCompressorLines = []string{"SetCompress off", "SetCompressor zlib", "SetCompressor bzip2", "SetCompressor lzma",
	"SetCompressor /SOLID zlib", "SetCompressor /SOLID bzip2", "SetCompressor /SOLID lzma"}

// buildNSISApp installs an Electron app folder the way a hand-written
// NSIS script does (SetOutPath $INSTDIR, File /r), with the real makensis.
func buildNSISApp(t *testing.T, compressor string) (setup, app string) {
	t.Helper()
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	electronTree(t, filepath.Join(dir, "tree"))
	app = filepath.Join(dir, "tree", "opt", "Example")
	setup = filepath.Join(dir, "setup.exe")
	script := "Name \"Example\"\nOutFile \"" + setup + "\"\nUnicode true\nRequestExecutionLevel user\n" + compressor +
		"\nInstallDir \"$LOCALAPPDATA\\Example\"\nSection\nSetOutPath \"$INSTDIR\"\nFile /r \"" + app + "/*\"\nSectionEnd\n"
	nsi := filepath.Join(dir, "setup.nsi")
	os.WriteFile(nsi, []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", nsi).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	return setup, app
}

// TestNSISEveryCompressorEndToEnd: for every makensis compressor, solid
// and not, the built rea lists the installer's files under their script
// names with every byte verified and the app.asar expanded, extracts
// exactly what `7z x` extracts (plus the asar's members), and `rea
// analyze setup.exe` finds and analyses resources/app.asar.
func TestNSISEveryCompressorEndToEnd(t *testing.T) {
	needPackager(t, "7z", "p7zip-full")
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "normalise")}
	for _, c := range nsisCompressorLines {
		t.Run(strings.ReplaceAll(c, "/", ""), func(t *testing.T) {
			setup, _ := buildNSISApp(t, c)
			r := rea(t, "", installerEnv(t), "inspect-artifact", setup)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"nsis  art_", "in 2 containers", "0 mismatched, 0 unavailable; coverage complete", "resources/app.asar",
				"helper/resources/app/package.json", "preload.js", "shared/channels.js"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
				}
			}
			if strings.Contains(r.stdout, "data/item-") {
				t.Errorf("an item was left unnamed:\n%s", r.stdout)
			}
			dest := filepath.Join(t.TempDir(), "out")
			r = rea(t, "", installerEnv(t), "extract-artifact", "--output", dest, setup)
			if r.code != 0 {
				t.Fatalf("extract: exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			ref := filepath.Join(t.TempDir(), "ref")
			if b, err := exec.Command("7z", "x", "-bd", "-o"+ref, setup).CombinedOutput(); err != nil {
				t.Fatalf("7z x: %v %s", err, b)
			}
			compareTrees(t, ref, dest, true)
			r = rea(t, "", env, "analyze", setup)
			if r.code != 0 {
				t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
			}
			for _, want := range []string{"analysing resources/app.asar", "helper/resources/app", "insecure-editor 0.3.0 (asar", "contextIsolation             false"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("analyze lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
}

// TestNSISRuntimeNamesArePartial: a File whose output directory is known
// only at run time is listed as data/item-N and the inventory says
// partial with the reason; a corrupted installer fails its CRC-32.
func TestNSISRuntimeNamesArePartial(t *testing.T) {
	needPackager(t, "makensis", "nsis")
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte(strings.Repeat("notes\n", 100)), 0o644)
	setup := filepath.Join(dir, "setup.exe")
	script := "Name \"E\"\nOutFile \"" + setup + "\"\nUnicode true\nRequestExecutionLevel user\nSetCompressor /SOLID lzma\nInstallDir \"$TEMP\\E\"\nSection\n" +
		"ReadEnvStr $0 APPDATA\nSetOutPath $0\nFile \"" + notes + "\"\nSetOutPath \"$INSTDIR\"\nFile \"" + notes + "\"\nSectionEnd\n"
	os.WriteFile(filepath.Join(dir, "setup.nsi"), []byte(script), 0o644)
	if b, err := exec.Command("makensis", "-V1", filepath.Join(dir, "setup.nsi")).CombinedOutput(); err != nil {
		t.Fatalf("makensis: %v\n%s", err, b)
	}
	r := rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", setup)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`"coverage": "partial"`, "known only at run time", `"notes.txt"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("inventory lacks %q:\n%s", want, r.stdout)
		}
	}
	b, _ := os.ReadFile(setup)
	b[len(b)-40] ^= 1
	bad := filepath.Join(dir, "bad.exe")
	os.WriteFile(bad, b, 0o644)
	r = rea(t, "", installerEnv(t), "--format", "json", "inspect-artifact", bad)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "artifact_integrity") || !strings.Contains(r.stdout+r.stderr, "CRC-32") {
		t.Errorf("corrupt installer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
