package jsengine

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"rea/jsengine/report"
)

func fuseTree(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{"main.js": {Data: []byte("const { app, BrowserWindow } = require('electron');\napp.whenReady().then(() => new BrowserWindow({}));\n")}}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

const forgeConfig = `const { FusesPlugin } = require('@electron-forge/plugin-fuses');
const { FuseV1Options, FuseVersion } = require('@electron/fuses');

module.exports = {
  packagerConfig: { asar: true },
  plugins: [
    new FusesPlugin({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: true,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: false,
      [FuseV1Options.OnlyLoadAppFromAsar]: process.env.STRICT === '1',
    }),
  ],
};
`

func TestFusesDeclaredInBuildConfiguration(t *testing.T) {
	analyse := func(t *testing.T, fsys fstest.MapFS, opts Options) *Result {
		t.Helper()
		r, err := Analyze(context.Background(), fsys, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("forge", func(t *testing.T) {
		for _, name := range []string{"forge.config.js", "forge.config.ts"} {
			src := forgeConfig
			if strings.HasSuffix(name, ".ts") {
				src = strings.Replace(strings.Replace(src, "const { FusesPlugin } = require('@electron-forge/plugin-fuses');", "import { FusesPlugin } from '@electron-forge/plugin-fuses';", 1),
					"module.exports = {", "const config: any = {", 1) + "export default config;\n"
			}
			r := analyse(t, fuseTree(map[string]string{"package.json": `{"name":"f","main":"main.js"}`, name: src}), Options{})
			states := map[string]string{}
			for _, o := range r.Observations {
				if o.Kind == "config-fuse" {
					states[o.Argument] = o.State + "@" + o.Location.File + ":" + strconv.Itoa(o.Location.Line)
				}
			}
			want := map[string]string{"RunAsNode": "enabled@" + name + ":9", "EnableCookieEncryption": "enabled@" + name + ":10",
				"EnableNodeOptionsEnvironmentVariable": "disabled@" + name + ":11", "EnableEmbeddedAsarIntegrityValidation": "disabled@" + name + ":12",
				"OnlyLoadAppFromAsar": "dynamic@" + name + ":13"}
			for k, v := range want {
				if states[k] != v {
					t.Errorf("%s: %s is %q, want %q (all %v)", name, k, states[k], v, states)
				}
			}
			var insecure []string
			for _, f := range r.Findings {
				if f.RuleID == "electron-fuse-config-insecure" {
					insecure = append(insecure, f.Message)
				}
			}
			if len(insecure) != 2 || !strings.Contains(strings.Join(insecure, "\n"), "RunAsNode fuse enabled: ELECTRON_RUN_AS_NODE=1") ||
				!strings.Contains(strings.Join(insecure, "\n"), "EnableEmbeddedAsarIntegrityValidation fuse disabled") {
				t.Errorf("%s: insecure findings %q", name, insecure)
			}
		}
	})
	t.Run("electron-builder", func(t *testing.T) {
		pkg := "{\n  \"name\": \"b\",\n  \"main\": \"main.js\",\n  \"build\": {\n    \"electronFuses\": {\n      \"runAsNode\": false,\n      \"enableNodeCliInspectArguments\": true\n    }\n  }\n}\n"
		r := analyse(t, fuseTree(map[string]string{"package.json": pkg, "electron-builder.yml": "electronFuses:\n  runAsNode: true\n"}), Options{})
		var got []string
		for _, o := range r.Observations {
			if o.Kind == "config-fuse" {
				got = append(got, o.Argument+"="+o.State+"@"+o.Location.File+":"+strconv.Itoa(o.Location.Line))
			}
		}
		if strings.Join(got, ",") != "RunAsNode=enabled@electron-builder.yml:2,RunAsNode=disabled@package.json:6,EnableNodeCliInspectArguments=enabled@package.json:7" {
			t.Errorf("observations %v", got)
		}
		found := false
		for _, f := range r.Findings {
			found = found || f.RuleID == "electron-fuse-config-insecure" && strings.Contains(f.Message, "EnableNodeCliInspectArguments")
		}
		if !found {
			t.Error("no finding for inspect arguments on")
		}
		if !strings.Contains(strings.Join(r.Limitations, "\n"), "electron-builder reads package.json") {
			t.Errorf("both package.json build and electron-builder.yml declare fuses, and nothing says which one electron-builder uses: %v", r.Limitations)
		}
	})
	t.Run("the shipped wire wins", func(t *testing.T) {
		fsys := fuseTree(map[string]string{"package.json": `{"name":"f","main":"main.js"}`, "forge.config.js": forgeConfig})
		r := analyse(t, fsys, Options{ShippedElectron: &report.ShippedElectron{Version: "33.2.1", Binary: "opt/X/x",
			Fuses: map[string]string{"RunAsNode": "disabled", "EnableEmbeddedAsarIntegrityValidation": "disabled", "EnableCookieEncryption": "enabled"}}})
		var ids []string
		for _, f := range r.Findings {
			if strings.HasPrefix(f.RuleID, "electron-fuse-config") {
				ids = append(ids, f.RuleID+":"+f.Message[:strings.Index(f.Message, " fuse")])
			}
		}
		// RunAsNode: the wire says disabled (a disagreement, no insecure
		// finding); integrity agrees with the wire (nothing: the binary's
		// own findings judge it); NODE_OPTIONS is not in the wire given,
		// so the config is judged — and it is secure.
		if len(ids) != 1 || !strings.Contains(ids[0], "electron-fuse-config-disagrees") || !strings.Contains(ids[0], "RunAsNode") {
			t.Errorf("findings %v", ids)
		}
	})
}

// FuzzConfigFuses: arbitrary config text never panics the @electron/fuses
// argument collector or the object reader, and every offset they give is
// in the file.
func FuzzConfigFuses(f *testing.F) {
	f.Add(forgeConfig)
	f.Add(`{"build":{"electronFuses":{"runAsNode":true,"onlyLoadAppFromAsar":"x"}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		pf, err := parseJS("forge.config.js", src)
		if err != nil {
			return
		}
		fc := &fusesCollector{pf: pf, r: newJSConfigReader(pf, 0)}
		walk(fc, pf.prog)
		for _, a := range fc.args {
			if v, err := fc.r.value(a.x, 0); err == nil {
				checkTree(t, v, len(pf.generated)+1, 0)
			}
		}
	})
}

// checkTree fails if a value's offset is outside a file of n bytes.
func checkTree(t *testing.T, v *cfgValue, n, depth int) {
	t.Helper()
	if v == nil {
		t.Fatal("nil value without an error")
	}
	if v.off < 0 || v.off > n || depth > maxConfigDepth+2 {
		t.Fatalf("offset %d outside a %d-byte file (depth %d)", v.off, n, depth)
	}
	for _, k := range v.keys {
		checkTree(t, v.fields[k], n, depth+1)
	}
	for _, c := range v.items {
		checkTree(t, c, n, depth+1)
	}
}
