package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// TestAnalyzeReadsFusesFromBuildConfiguration: without an executable, the
// fuses a forge.config.js sets are reported as declared, with findings
// for the insecure ones; with the shipped executable in a package, its
// wire wins and a setting it contradicts is reported as a disagreement.
func TestAnalyzeReadsFusesFromBuildConfiguration(t *testing.T) {
	env := []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "artifact", "jsapp", "native"), "REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR="}
	dir := t.TempDir()
	app := filepath.Join(dir, "src")
	os.MkdirAll(app, 0o755)
	os.WriteFile(filepath.Join(app, "main.js"), []byte("const { app, BrowserWindow } = require('electron');\napp.whenReady().then(() => new BrowserWindow({}));\n"), 0o644)
	os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name":"fz","version":"1.0.0","main":"main.js","devDependencies":{"electron":"33.2.1"}}`), 0o644)
	os.WriteFile(filepath.Join(app, "forge.config.js"), []byte(`const { FusesPlugin } = require('@electron-forge/plugin-fuses');
const { FuseV1Options, FuseVersion } = require('@electron/fuses');
module.exports = {
  plugins: [
    new FusesPlugin({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: true,
    }),
  ],
};
`), 0o644)
	r := rea(t, "", env, "--format", "json", "analyze", app)
	if r.code != 0 && r.code != 2 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`"kind": "config-fuse"`, `"argument": "RunAsNode"`, `"state": "disabled"`, `"rule_id": "electron-fuse-config-insecure"`,
		"sets the EnableNodeCliInspectArguments fuse enabled", `"file": "forge.config.js"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("analysis lacks %q:\n%.3000s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "sets the RunAsNode fuse") {
		t.Error("RunAsNode off is not insecure")
	}

	// The same app packaged with an executable whose wire has RunAsNode
	// and inspect arguments on (Electron's defaults: the plugin never ran).
	needPackager(t, "dpkg-deb", "dpkg")
	root := filepath.Join(dir, "pkg")
	res := filepath.Join(root, "opt", "Fz", "resources", "app")
	os.MkdirAll(res, 0o755)
	for _, f := range []string{"main.js", "package.json", "forge.config.js"} {
		b, _ := os.ReadFile(filepath.Join(app, f))
		os.WriteFile(filepath.Join(res, f), b, 0o644)
	}
	bin, err := os.ReadFile(electronELF(t, "10110001"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "opt", "Fz", "fz"), bin, 0o755)
	os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755)
	os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: fz\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: fixture\n"), 0o644)
	deb := filepath.Join(dir, "fz.deb")
	if b, err := exec.Command("dpkg-deb", "--root-owner-group", "-Zzstd", "--build", root, deb).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb: %v\n%s", err, b)
	}
	r = rea(t, "", env, "--format", "json", "analyze", deb)
	if r.code != 0 && r.code != 2 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, `"rule_id": "electron-fuse-config-disagrees"`) || !strings.Contains(r.stdout, "declares the RunAsNode fuse disabled, but the shipped executable data.tar.zst!/opt/Fz/fz has it enabled") {
		t.Errorf("no disagreement between the config and the shipped wire:\n%.3000s\n%s", r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, `"rule_id": "electron-fuse-config-insecure"`) {
		t.Error("with the shipped wire read, the configuration is not judged on its own")
	}
}
