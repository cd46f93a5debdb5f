package jsengine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rea/jsengine/report"
)

// fuseStates runs the analysis on files and returns the config-fuse
// observations as NAME=state@file:line, the insecure-fuse findings' fuses,
// the limitations and the coverage status.
func fuseStates(t *testing.T, files map[string]string) (obs []string, insecure []string, lims string, coverage string) {
	t.Helper()
	r, err := Analyze(context.Background(), fuseTree(files), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Observations {
		if o.Kind == "config-fuse" {
			obs = append(obs, o.Argument+"="+o.State+"@"+o.Location.File+":"+strconv.Itoa(o.Location.Line))
		}
	}
	for _, f := range r.Findings {
		if f.RuleID == "electron-fuse-config-insecure" {
			insecure = append(insecure, strings.Fields(f.Message[strings.Index(f.Message, "sets the ")+len("sets the "):])[0])
		}
	}
	sort.Strings(obs)
	sort.Strings(insecure)
	return obs, insecure, strings.Join(r.Limitations, "\n"), r.Coverage.Status
}

func TestBuilderConfigForms(t *testing.T) {
	pkg := `{"name":"b","main":"main.js"}`
	cases := []struct {
		name     string
		files    map[string]string
		obs      []string
		insecure []string
		lim      string // a limitation that must be there ("" = none about fuses)
		complete bool   // with lim: the limitation does not cut coverage
	}{
		{"yaml", map[string]string{"electron-builder.yml": "appId: x\n# fuses\nelectronFuses:\n  runAsNode: true\n  enableNodeOptionsEnvironmentVariable: false\n  onlyLoadAppFromAsar: False\n  grantFileProtocolExtraPrivileges: ~\n"},
			[]string{"EnableNodeOptionsEnvironmentVariable=disabled@electron-builder.yml:5", "OnlyLoadAppFromAsar=disabled@electron-builder.yml:6", "RunAsNode=enabled@electron-builder.yml:4"},
			[]string{"OnlyLoadAppFromAsar", "RunAsNode"}, "", false},
		{"yaml flow and anchor merge", map[string]string{"electron-builder.yaml": "base: &hard\n  runAsNode: false\n  enableNodeCliInspectArguments: true\nelectronFuses:\n  <<: *hard\n  runAsNode: true\n"},
			[]string{"EnableNodeCliInspectArguments=enabled@electron-builder.yaml:3", "RunAsNode=enabled@electron-builder.yaml:6"},
			[]string{"EnableNodeCliInspectArguments", "RunAsNode"}, "", false},
		{"yaml string value", map[string]string{"electron-builder.yml": "electronFuses: { runAsNode: \"false\" }\n"},
			[]string{"RunAsNode=dynamic@electron-builder.yml:1"}, nil, "not a boolean", false},
		{"yaml alias bomb", map[string]string{"electron-builder.yml": yamlBomb()},
			nil, nil, "limit config_", false},
		{"yaml broken", map[string]string{"electron-builder.yml": "electronFuses:\n  runAsNode: [\n"},
			nil, nil, "electron-builder.yml (electron-builder configuration) could not be read: yaml:", false},
		{"toml table", map[string]string{"electron-builder.toml": "appId = \"x\"\n\n[electronFuses]\nrunAsNode = false\nenableEmbeddedAsarIntegrityValidation = false\n"},
			[]string{"EnableEmbeddedAsarIntegrityValidation=disabled@electron-builder.toml:5", "RunAsNode=disabled@electron-builder.toml:4"},
			[]string{"EnableEmbeddedAsarIntegrityValidation"}, "", false},
		{"toml inline and dotted", map[string]string{"electron-builder.toml": "electronFuses = { runAsNode = true }\nelectronFuses.enableNodeCliInspectArguments = false\n"},
			[]string{"EnableNodeCliInspectArguments=disabled@electron-builder.toml:2", "RunAsNode=enabled@electron-builder.toml:1"},
			[]string{"RunAsNode"}, "", false},
		{"json5", map[string]string{"electron-builder.json5": "// comment\n{\n  appId: 'x',\n  electronFuses: {\n    runAsNode: true, // trailing comma next\n  },\n}\n"},
			[]string{"RunAsNode=enabled@electron-builder.json5:5"}, []string{"RunAsNode"}, "", false},
		{"json", map[string]string{"electron-builder.json": "{\n  \"electronFuses\": {\n    \"enableNodeOptionsEnvironmentVariable\": true\n  }\n}\n"},
			[]string{"EnableNodeOptionsEnvironmentVariable=enabled@electron-builder.json:3"}, []string{"EnableNodeOptionsEnvironmentVariable"}, "", false},
		{"js const and spread", map[string]string{"electron-builder.config.js": "const hardened = { runAsNode: false, onlyLoadAppFromAsar: true };\nmodule.exports = {\n  appId: 'x',\n  electronFuses: {\n    ...hardened,\n    enableNodeCliInspectArguments: process.env.E2E === '1',\n  },\n};\n"},
			[]string{"EnableNodeCliInspectArguments=dynamic@electron-builder.config.js:6", "OnlyLoadAppFromAsar=enabled@electron-builder.config.js:1", "RunAsNode=disabled@electron-builder.config.js:1"},
			nil, "the EnableNodeCliInspectArguments fuse is set to process.env", false},
		{"ts export default", map[string]string{"electron-builder.ts": "import type { Configuration } from 'electron-builder';\nconst config: Configuration = {\n  appId: 'x',\n  electronFuses: { runAsNode: true },\n};\nexport default config;\n"},
			[]string{"RunAsNode=enabled@electron-builder.ts:4"}, []string{"RunAsNode"}, "", false},
		{"js unknown spread", map[string]string{"electron-builder.config.mjs": "import shared from './shared.mjs';\nexport default { appId: 'x', electronFuses: { ...shared.fuses } };\n"},
			nil, nil, "electron-builder.config.mjs:2: electronFuses is", false},
		{"extends a file", map[string]string{"electron-builder.yml": "extends: ./base.yml\nelectronFuses:\n  runAsNode: false\n", "base.yml": "electronFuses:\n  runAsNode: true\n  enableNodeOptionsEnvironmentVariable: true\n"},
			[]string{"EnableNodeOptionsEnvironmentVariable=enabled@base.yml:3", "RunAsNode=disabled@electron-builder.yml:3"},
			[]string{"EnableNodeOptionsEnvironmentVariable"}, "", false},
		{"extends a package", map[string]string{"electron-builder.yml": "extends: '@acme/builder-preset'\n"},
			nil, nil, `extends "@acme/builder-preset", a package or a file not in the input`, false},
		{"afterPack hook missing", map[string]string{"electron-builder.yml": "afterPack: scripts/fuses.js\n"},
			nil, nil, `afterPack runs "scripts/fuses.js", which is not in the input`, true},
		{"afterSign hook missing", map[string]string{"electron-builder.yml": "afterSign: scripts/notarize.js\n"},
			nil, nil, "", false},
		{"afterPack flipFuses", map[string]string{"electron-builder.json": `{"afterPack": "./build/after.js"}`, "build/after.js": "const { flipFuses, FuseV1Options, FuseVersion } = require('@electron/fuses');\nexports.default = async (ctx) => flipFuses(ctx.path, {\n  version: FuseVersion.V1,\n  [FuseV1Options.EnableNodeCliInspectArguments]: true,\n});\n"},
			[]string{"EnableNodeCliInspectArguments=enabled@build/after.js:4"}, []string{"EnableNodeCliInspectArguments"}, "", false},
		{"package.json --config", map[string]string{"package.json": `{"name":"b","main":"main.js","scripts":{"dist":"electron-builder -c build/eb.yml"}}`, "build/eb.yml": "electronFuses:\n  runAsNode: true\n"},
			[]string{"RunAsNode=enabled@build/eb.yml:2"}, []string{"RunAsNode"}, "", false},
		{"forge shared object", map[string]string{"forge.config.js": "const { FusesPlugin } = require('@electron-forge/plugin-fuses');\nconst fuses = { version: FuseVersion.V1, ['RunAsNode']: true };\nmodule.exports = { plugins: [new FusesPlugin({ ...fuses, [FuseV1Options.OnlyLoadAppFromAsar]: false })] };\n"},
			[]string{"OnlyLoadAppFromAsar=disabled@forge.config.js:3", "RunAsNode=enabled@forge.config.js:2"}, []string{"OnlyLoadAppFromAsar", "RunAsNode"}, "", false},
		{"forge plugin object form", map[string]string{"forge.config.js": "module.exports = { plugins: [{ name: '@electron-forge/plugin-fuses', config: {\n  version: '1',\n  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: true } }] };\n"},
			[]string{"EnableNodeOptionsEnvironmentVariable=enabled@forge.config.js:3"}, []string{"EnableNodeOptionsEnvironmentVariable"}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"package.json": pkg}
			for k, v := range c.files {
				files[k] = v
			}
			obs, insecure, lims, cov := fuseStates(t, files)
			if strings.Join(obs, ",") != strings.Join(c.obs, ",") {
				t.Errorf("observations %v, want %v", obs, c.obs)
			}
			if strings.Join(insecure, ",") != strings.Join(c.insecure, ",") {
				t.Errorf("insecure findings %v, want %v", insecure, c.insecure)
			}
			if c.lim != "" {
				if !strings.Contains(lims, c.lim) {
					t.Errorf("no limitation %q in:\n%s", c.lim, lims)
				}
				if want := map[bool]string{false: "partial", true: "complete"}[c.complete]; cov != want {
					t.Errorf("coverage %s, want %s", cov, want)
				}
			} else if strings.Contains(lims, "fuse") {
				t.Errorf("unexpected fuse limitation:\n%s", lims)
			}
		})
	}
}

// TestBuilderFusesShippedWireWins: with the executable's wire known, a
// YAML setting it contradicts is a disagreement, not an insecure finding.
func TestBuilderFusesShippedWireWins(t *testing.T) {
	fsys := fuseTree(map[string]string{"package.json": `{"name":"b","main":"main.js"}`, "electron-builder.yml": "electronFuses:\n  runAsNode: false\n  enableNodeCliInspectArguments: true\n"})
	r, err := Analyze(context.Background(), fsys, Options{ShippedElectron: &report.ShippedElectron{Version: "33.2.1", Binary: "opt/X/x",
		Fuses: map[string]string{"RunAsNode": "enabled", "EnableNodeCliInspectArguments": "enabled"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if strings.HasPrefix(f.RuleID, "electron-fuse-config") {
			got = append(got, f.RuleID+"@"+f.Location.File+":"+strconv.Itoa(f.Location.Line))
		}
	}
	if strings.Join(got, ",") != "electron-fuse-config-disagrees@electron-builder.yml:2" {
		t.Errorf("findings %v", got)
	}
}

// yamlBomb is a billion-laughs document: 9 levels of 9 aliases each.
func yamlBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + strconv.Itoa(i-1))
		}
		b.WriteString("]\n")
	}
	b.WriteString("electronFuses:\n  runAsNode: *a9\n")
	return b.String()
}

func TestConfigReadersBounds(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	cases := []struct {
		name  string
		read  func() (*cfgValue, error)
		limit string // "" = must succeed
	}{
		{"yaml bomb", func() (*cfgValue, error) { return readYAMLConfig(yamlBomb()) }, "config_"},
		{"yaml too big", func() (*cfgValue, error) { return readYAMLConfig(strings.Repeat("#", maxBuilderConfigBytes+1)) }, "config_bytes"},
		{"yaml deep", func() (*cfgValue, error) { return readYAMLConfig("electronFuses: " + deep + "\n") }, "config_depth"},
		{"yaml other keys not read", func() (*cfgValue, error) {
			return readYAMLConfig(strings.Replace(yamlBomb(), "electronFuses:\n  runAsNode: *a9\n", "", 1))
		}, ""},
		{"toml deep", func() (*cfgValue, error) { return readTOMLConfig("electronFuses = " + deep + "\n") }, "any"},
		{"toml too big", func() (*cfgValue, error) { return readTOMLConfig(strings.Repeat("#", maxBuilderConfigBytes+1)) }, "config_bytes"},
		{"json deep", func() (*cfgValue, error) {
			return readJSONConfig("electron-builder.json", `{"electronFuses":`+deep+`}`)
		}, "any"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.read()
			var le *configLimitError
			switch {
			case c.limit == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.limit == "any" && err == nil:
				t.Fatalf("no error, value %+v", v)
			case c.limit != "" && c.limit != "any" && (!errors.As(err, &le) || !strings.HasPrefix(le.limit, c.limit)):
				t.Fatalf("error %v, want a configLimitError %s", err, c.limit)
			}
		})
	}
}

// TestBuilderFuseFixtures checks rea against the fuse states labelled by
// reading two real apps' configuration forms (testdata/buildconfig/README.md).
func TestBuilderFuseFixtures(t *testing.T) {
	cases := []struct {
		dir      string
		obs      []string
		insecure []string
	}{
		{"ytmdesktop2", []string{
			"EnableCookieEncryption=enabled@scripts/afterPack.js:9", "EnableEmbeddedAsarIntegrityValidation=enabled@scripts/afterPack.js:12",
			"EnableNodeCliInspectArguments=disabled@scripts/afterPack.js:11", "EnableNodeOptionsEnvironmentVariable=disabled@scripts/afterPack.js:10",
			"GrantFileProtocolExtraPrivileges=enabled@scripts/afterPack.js:15", "LoadBrowserProcessSpecificV8Snapshot=enabled@scripts/afterPack.js:14",
			"OnlyLoadAppFromAsar=enabled@scripts/afterPack.js:13", "RunAsNode=disabled@scripts/afterPack.js:8"}, nil},
		{"arenzyra", []string{
			"EnableEmbeddedAsarIntegrityValidation=enabled@electron-builder.config.cjs:20", "EnableNodeCliInspectArguments=disabled@electron-builder.config.cjs:19",
			"EnableNodeOptionsEnvironmentVariable=disabled@electron-builder.config.cjs:18", "GrantFileProtocolExtraPrivileges=enabled@electron-builder.config.cjs:23",
			"LoadBrowserProcessSpecificV8Snapshot=disabled@electron-builder.config.cjs:22", "OnlyLoadAppFromAsar=enabled@electron-builder.config.cjs:21",
			"RunAsNode=enabled@electron-builder.config.cjs:17"}, []string{"RunAsNode"}},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			root := filepath.Join("..", "testdata", "buildconfig", c.dir)
			files := map[string]string{}
			err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				files[filepath.ToSlash(rel)] = string(b)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			obs, insecure, lims, _ := fuseStates(t, files)
			if strings.Join(obs, ",") != strings.Join(c.obs, ",") {
				t.Errorf("observations\n%v\nwant\n%v", obs, c.obs)
			}
			if strings.Join(insecure, ",") != strings.Join(c.insecure, ",") {
				t.Errorf("insecure %v, want %v", insecure, c.insecure)
			}
			if strings.Contains(lims, "fuse") {
				t.Errorf("fuse limitations for a config rea reads in full:\n%s", lims)
			}
		})
	}
}

// FuzzBuilderConfig: arbitrary YAML, TOML or JSON5 text never panics or
// hangs the readers; a value they return keeps every offset in the file.
func FuzzBuilderConfig(f *testing.F) {
	for _, s := range []string{"electronFuses:\n  runAsNode: true\n", yamlBomb(), "[electronFuses]\nrunAsNode = false\n", "{electronFuses: {runAsNode: true,},}", "extends: [a.yml, b]\nafterPack: x.js\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		for _, read := range []func(string) (*cfgValue, error){readYAMLConfig, readTOMLConfig, func(s string) (*cfgValue, error) { return readJSONConfig("electron-builder.json5", s) }} {
			if v, err := read(src); err == nil {
				checkTree(t, v, len(src)+1, 0)
			}
		}
	})
}
