package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// electronELF compiles a tiny ELF whose read-only data holds the
// @electron/fuses sentinel, a V1 wire of the given states and the version
// strings a real Electron build carries, laid out as @electron/fuses
// reads them: sentinel, version byte 1, length byte, one byte per fuse.
func electronELF(t *testing.T, states string) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Fatal("gcc is needed to build the Electron fuse fixture: apt-get install gcc")
	}
	wire := append([]byte("dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX"), 1, byte(len(states)))
	wire = append(wire, states...)
	var arr strings.Builder
	for _, b := range wire {
		fmt.Fprintf(&arr, "0x%02x,", b)
	}
	src := fmt.Sprintf(`#include <stdio.h>
__attribute__((used)) static const unsigned char fuse_wire[] = {%s};
__attribute__((used)) static const char ua[] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) example/1.0.0 Chrome/130.0.6723.137 Electron/33.2.1 Safari/537.36";
int main(void) { puts(ua); return fuse_wire[0] == 0; }
`, arr.String())
	dir := t.TempDir()
	c := filepath.Join(dir, "electron.c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "example")
	if b, err := exec.Command("gcc", "-O0", "-o", out, c).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	return out
}

func TestInspectElectronBinaryDecodesFuses(t *testing.T) {
	// Electron's shipped defaults: RunAsNode, NODE_OPTIONS, inspect and
	// file-protocol privileges on, integrity and asar-only off.
	open := electronELF(t, "10110001")
	r := rea(t, "", nativeEnv(t), "--format", "json", "inspect-electron-binary", open)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rec struct {
		Operation string `json:"operation"`
		Result    struct {
			Target struct{ Format string } `json:"target"`
			Wires  []struct {
				Version, Length int
				Fuses           []struct{ Name, State string }
			} `json:"wires"`
			Electron string `json:"electron_version"`
			Chromium string `json:"chromium_version"`
			Findings []struct {
				RuleID      string `json:"rule_id"`
				Fuse        string `json:"fuse"`
				Consequence string `json:"consequence"`
			} `json:"findings"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &rec)
	res := rec.Result
	if rec.Operation != "inspect_electron_binary" || res.Target.Format != "elf" {
		t.Errorf("operation %q format %q", rec.Operation, res.Target.Format)
	}
	if len(res.Wires) != 1 || res.Wires[0].Version != 1 || res.Wires[0].Length != 8 {
		t.Fatalf("wires = %+v", res.Wires)
	}
	var got []string
	for _, f := range res.Wires[0].Fuses {
		got = append(got, f.Name+"="+f.State)
	}
	want := "RunAsNode=enabled,EnableCookieEncryption=disabled,EnableNodeOptionsEnvironmentVariable=enabled,EnableNodeCliInspectArguments=enabled," +
		"EnableEmbeddedAsarIntegrityValidation=disabled,OnlyLoadAppFromAsar=disabled,LoadBrowserProcessSpecificV8Snapshot=disabled,GrantFileProtocolExtraPrivileges=enabled"
	if strings.Join(got, ",") != want {
		t.Errorf("fuses\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	if res.Electron != "33.2.1" || res.Chromium != "130.0.6723.137" {
		t.Errorf("versions %q %q", res.Electron, res.Chromium)
	}
	var fuses []string
	for _, f := range res.Findings {
		fuses = append(fuses, f.Fuse)
	}
	if strings.Join(fuses, ",") != "RunAsNode,EnableNodeOptionsEnvironmentVariable,EnableNodeCliInspectArguments,EnableEmbeddedAsarIntegrityValidation,OnlyLoadAppFromAsar" {
		t.Errorf("findings on %v", fuses)
	}
	if len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Consequence, "ELECTRON_RUN_AS_NODE=1") {
		t.Errorf("RunAsNode consequence: %+v", res.Findings)
	}

	// A hardened wire has no findings, and the text form says so.
	hard := electronELF(t, "01001110")
	r = rea(t, "", nativeEnv(t), "inspect-electron-binary", hard)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"electron 33.2.1  chromium 130.0.6723.137", "RunAsNode                                disabled", "OnlyLoadAppFromAsar                      enabled", "findings 0"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, r.stdout)
		}
	}

	// A binary without a sentinel is not an error: it says what is missing.
	r = rea(t, "", nativeEnv(t), "inspect-electron-binary", "/bin/true")
	if r.code != 0 || !strings.Contains(r.stdout, "no fuse sentinel found") {
		t.Errorf("exit %d, /bin/true:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
