package main_test

import (
	"encoding/json"
	"fmt"
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

// TestAnalyzeReadsElectronBuilderFuses: electron-builder's electronFuses in
// electron-builder.yml, and the two real apps' forms under
// testdata/buildconfig (an afterPack hook flipping fuses; a CommonJS
// config passed with --config), reach the findings with file and line.
func TestAnalyzeReadsElectronBuilderFuses(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.js"), []byte("const { app, BrowserWindow } = require('electron');\napp.whenReady().then(() => new BrowserWindow({}));\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"eb","version":"1.0.0","main":"main.js","devDependencies":{"electron":"33.2.1"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "electron-builder.yml"), []byte("appId: com.example.eb\nasar: true\nelectronFuses:\n  runAsNode: true\n  enableCookieEncryption: true\n  enableNodeOptionsEnvironmentVariable: false\n  enableEmbeddedAsarIntegrityValidation: false\n"), 0o644)
	type loc struct {
		File string `json:"file"`
		Line int    `json:"line"`
	}
	var out struct {
		NormalizedResult struct {
			Application json.RawMessage `json:"application"`
			Coverage    string          `json:"coverage"`
		} `json:"normalized_result"`
	}
	var res struct {
		Findings []struct {
			RuleID   string `json:"rule_id"`
			Message  string `json:"message"`
			Location loc    `json:"location"`
		} `json:"findings"`
		Observations []struct {
			Kind, Argument, State string
			Location              loc `json:"location"`
		} `json:"observations"`
	}
	analyse := func(t *testing.T, dir string) {
		t.Helper()
		r := reaWithModules(t, "analyze-javascript-application", dir, "--format", "json")
		if r.code != 0 && r.code != 2 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		res.Findings, res.Observations = nil, nil
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v:\n%.2000s", err, r.stdout)
		}
		if err := json.Unmarshal(out.NormalizedResult.Application, &res); err != nil {
			t.Fatalf("%v:\n%.2000s", err, r.stdout)
		}
	}
	insecure := func() map[string]string {
		m := map[string]string{}
		for _, f := range res.Findings {
			if f.RuleID == "electron-fuse-config-insecure" {
				name := strings.Fields(f.Message[strings.Index(f.Message, "sets the ")+len("sets the "):])[0]
				m[name] = fmt.Sprintf("%s:%d", f.Location.File, f.Location.Line)
				if !strings.Contains(f.Message, "no executable was read") {
					t.Errorf("a config finding does not say no executable was read: %s", f.Message)
				}
			}
		}
		return m
	}
	analyse(t, dir)
	want := map[string]string{"RunAsNode": "electron-builder.yml:4", "EnableEmbeddedAsarIntegrityValidation": "electron-builder.yml:7"}
	if got := insecure(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("insecure fuse findings %v, want %v", got, want)
	}
	states := map[string]string{}
	for _, o := range res.Observations {
		if o.Kind == "config-fuse" {
			states[o.Argument] = fmt.Sprintf("%s@%s:%d", o.State, o.Location.File, o.Location.Line)
		}
	}
	if states["EnableNodeOptionsEnvironmentVariable"] != "disabled@electron-builder.yml:6" || states["EnableCookieEncryption"] != "enabled@electron-builder.yml:5" {
		t.Errorf("config-fuse observations %v", states)
	}

	root := filepath.Join("..", "..", "testdata", "buildconfig")
	analyse(t, filepath.Join(root, "ytmdesktop2"))
	if got := insecure(); len(got) != 0 {
		t.Errorf("ytmdesktop2's afterPack hook sets no insecure fuse; findings %v", got)
	}
	n := 0
	for _, o := range res.Observations {
		if o.Kind == "config-fuse" && o.Location.File == "scripts/afterPack.js" {
			n++
		}
	}
	if n != 8 {
		t.Errorf("%d fuses read from the afterPack hook, want 8: %+v", n, res.Observations)
	}
	analyse(t, filepath.Join(root, "arenzyra"))
	if got := insecure(); fmt.Sprint(got) != fmt.Sprint(map[string]string{"RunAsNode": "electron-builder.config.cjs:17"}) {
		t.Errorf("arenzyra: insecure fuse findings %v", got)
	}

	// A setting rea cannot read: named, and coverage partial.
	os.WriteFile(filepath.Join(dir, "electron-builder.yml"), []byte("appId: com.example.eb\nextends: '@acme/electron-preset'\nafterPack: ./scripts/fuses.js\n"), 0o644)
	r := reaWithModules(t, "analyze-javascript-application", dir, "--format", "json")
	for _, want := range []string{`electron-builder.yml:2: electron-builder extends \"@acme/electron-preset\", a package or a file not in the input; any electronFuses it declares are unknown`,
		`electron-builder.yml:3: electron-builder afterPack runs \"./scripts/fuses.js\", which is not in the input`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no limitation %s:\n%.3000s", want, r.stdout)
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.NormalizedResult.Coverage != "partial" {
		t.Errorf("coverage %q (%v) with fuse settings rea could not read", out.NormalizedResult.Coverage, err)
	}
}
