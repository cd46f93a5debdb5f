package main_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

// windowsElectron lays out dir/app.exe — a PE32+ linked by the real MinGW
// binutils with the fuse wire and the resource Electron's archive_win.cc
// reads (type INTEGRITY, name ELECTRONASAR, a JSON list of {file, alg,
// value}) — and dir/resources/app.asar. integrity gets the archive's real
// header hash and returns the resource's JSON.
func windowsElectron(t *testing.T, integrity func(headerHash string) string) (exe, asar string) {
	t.Helper()
	for _, tool := range []string{"x86_64-w64-mingw32-windres", "x86_64-w64-mingw32-as", "x86_64-w64-mingw32-ld", "cpp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s builds the Windows Electron fixture: apt-get install -y binutils-mingw-w64-x86-64 cpp", tool)
		}
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, []asarpack.File{asarpack.Bytes("main.js", []byte("require('electron')\n")), asarpack.Bytes("package.json", []byte(`{"name":"w","main":"main.js"}`))}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	n := binary.LittleEndian.Uint32(b[12:])
	sum := sha256.Sum256(b[16 : 16+n])
	asar = filepath.Join(dir, "resources", "app.asar")
	os.MkdirAll(filepath.Dir(asar), 0o755)
	if err := os.WriteFile(asar, b, 0o644); err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	os.WriteFile(filepath.Join(build, "start.s"), []byte("\t.text\n\t.globl _start\n_start:\n\tret\n\t.section .rdata,\"dr\"\n"+
		"\t.ascii \"dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX\"\n\t.byte 1, 8\n\t.ascii \"01001110\"\n\t.ascii \"Chrome/130.0.6723.137 Electron/33.2.1\"\n"), 0o644)
	os.WriteFile(filepath.Join(build, "integrity.json"), []byte(integrity(hex.EncodeToString(sum[:]))), 0o644)
	os.WriteFile(filepath.Join(build, "res.rc"), []byte("ELECTRONASAR INTEGRITY \"integrity.json\"\n"), 0o644)
	exe = filepath.Join(dir, "app.exe")
	for _, args := range [][]string{
		{"x86_64-w64-mingw32-as", "start.s", "-o", "start.o"},
		{"x86_64-w64-mingw32-windres", "--preprocessor=cpp", "res.rc", "-O", "coff", "-o", "res.o"},
		{"x86_64-w64-mingw32-ld", "--entry", "_start", "start.o", "res.o", "-o", exe},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = build
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", args[0], err, out)
		}
	}
	return exe, asar
}

func TestInspectElectronBinaryChecksTheWindowsIntegrityResource(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "native", "artifact"), "REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR="}
	exe, asar := windowsElectron(t, func(h string) string {
		return `[{"file":"resources\\app.asar","alg":"SHA256","value":"` + h + `"}]`
	})
	r := rea(t, "", env, "inspect-electron-binary", exe)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"pe ", "electron 33.2.1", "asar integrity (PE resource INTEGRITY/ELECTRONASAR", "1 entries", `match      resources\app.asar`, "findings 0"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}

	// The same executable after the archive's header was edited (same
	// length, so only the hash tells): a mismatch finding.
	b, _ := os.ReadFile(asar)
	i := bytes.Index(b, []byte(`"main.js"`))
	copy(b[i:], `"evil.js"`)
	os.WriteFile(asar, b, 0o644)
	r = rea(t, "", env, "inspect-electron-binary", exe)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`mismatch   resources\app.asar`, "header hashes to", "findings 1", "[high] electron-asar-integrity-mismatch", "Electron refuses to start"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("after the edit, output lacks %q:\n%s", want, r.stdout)
		}
	}

	// Built on Linux for Windows, the path has forward slashes: the hash
	// matches but Electron's lookup never finds it.
	exe, _ = windowsElectron(t, func(h string) string {
		return `[{"file":"resources/app.asar","alg":"SHA256","value":"` + h + `"}]`
	})
	r = rea(t, "", env, "--format", "json", "inspect-electron-binary", exe)
	if r.code != 0 || !strings.Contains(r.stdout, `"rule_id": "electron-asar-integrity-unfindable"`) || !strings.Contains(r.stdout, `"status": "match"`) {
		t.Fatalf("exit %d: want an unfindable finding beside a matching hash:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
