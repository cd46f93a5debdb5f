package jsengine

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
)

// Fuses declared in packaging configuration, read without running it:
// Electron Forge's `new FusesPlugin({ version: FuseVersion.V1,
// [FuseV1Options.RunAsNode]: false, … })` and electron-builder's
// `electronFuses: { runAsNode: false, … }` (package.json "build" or
// electron-builder.json). They say what the build intends to flip; the
// executable's own fuse wire (inspect_electron_binary) is what runs, so
// when it is known it wins, and a disagreement is reported as such.

// configFuse is one fuse a configuration sets.
type configFuse struct {
	name, state, tool string // state: enabled | disabled | dynamic
	loc               Location
}

// builderFuseKeys maps electron-builder's electronFuses keys to the fuse.
var builderFuseKeys = map[string]string{
	"runAsNode":                             "RunAsNode",
	"enableCookieEncryption":                "EnableCookieEncryption",
	"enableNodeOptionsEnvironmentVariable":  "EnableNodeOptionsEnvironmentVariable",
	"enableNodeCliInspectArguments":         "EnableNodeCliInspectArguments",
	"enableEmbeddedAsarIntegrityValidation": "EnableEmbeddedAsarIntegrityValidation",
	"onlyLoadAppFromAsar":                   "OnlyLoadAppFromAsar",
	"loadBrowserProcessSpecificV8Snapshot":  "LoadBrowserProcessSpecificV8Snapshot",
	"grantFileProtocolExtraPrivileges":      "GrantFileProtocolExtraPrivileges",
}

// insecureFuse is the state of a fuse that opens the app, and what it lets
// an attacker do.
var insecureFuse = map[string]struct{ state, consequence string }{
	"RunAsNode":                             {"enabled", "ELECTRON_RUN_AS_NODE=1 turns the app into a Node.js interpreter running arbitrary JavaScript under the app's identity and code signature"},
	"EnableNodeOptionsEnvironmentVariable":  {"enabled", "NODE_OPTIONS=--require=… injects code into the main process at start-up"},
	"EnableNodeCliInspectArguments":         {"enabled", "--inspect / --inspect-brk let anyone who can launch the app attach a debugger to the main process and run code in it"},
	"EnableEmbeddedAsarIntegrityValidation": {"disabled", "app.asar is loaded without checking it against the hash in the executable, so whoever can write the installation can replace the app's code"},
	"OnlyLoadAppFromAsar":                   {"disabled", "Electron also loads an app from resources/app/, side-stepping ASAR integrity"},
}

var builderConfigName = regexp.MustCompile(`^electron-builder\.(json|json5|ya?ml|toml)$`)

// configFuses reads the fuses every root-level packaging config declares
// (node_modules excluded), in file order.
func (e *engine) configFuses() []configFuse {
	var forge, builder []string
	for p := range e.files {
		if strings.Contains("/"+p, "/node_modules/") {
			continue
		}
		switch base := path.Base(p); {
		case forgeConfigName.MatchString(base):
			forge = append(forge, p)
		case builderConfigName.MatchString(base):
			builder = append(builder, p)
		}
	}
	sort.Strings(forge)
	sort.Strings(builder)
	var out []configFuse
	for _, p := range forge {
		out = append(out, e.forgeFuses(p)...)
	}
	if e.pkgSrc != "" {
		out = append(out, builderFuses("package.json", e.pkgSrc, true)...)
	}
	for _, p := range builder {
		if !strings.HasSuffix(p, ".json") {
			e.limitations = append(e.limitations, fmt.Sprintf("%s is electron-builder configuration in a format rea does not read (only JSON); any electronFuses it declares are unknown", p))
			continue
		}
		if b, ok := e.readSmall(p); ok {
			out = append(out, builderFuses(p, string(b), false)...)
		}
	}
	return out
}

// forgeFuses reads `new FusesPlugin({...})` in a forge config.
func (e *engine) forgeFuses(p string) []configFuse {
	b, ok := e.readSmall(p)
	if !ok || !strings.Contains(string(b), "FusesPlugin") {
		return nil
	}
	pf, err := parseJS(p, string(b))
	if err != nil {
		e.limitations = append(e.limitations, fmt.Sprintf("%s names FusesPlugin but could not be parsed; the fuses it sets are unknown", p))
		return nil
	}
	fc := &fusesCollector{pf: pf}
	walk(fc, pf.prog)
	return fc.found
}

type fusesCollector struct {
	pf    *parsedFile
	found []configFuse
}

func (fc *fusesCollector) Leave(any) {}

func (fc *fusesCollector) Enter(n any) bool {
	ne, ok := n.(*ast.NewExpression)
	if !ok || len(ne.ArgumentList) == 0 {
		return true
	}
	var callee string
	switch c := ne.Callee.(type) {
	case *ast.Identifier:
		callee = string(c.Name)
	case *ast.DotExpression:
		callee = string(c.Identifier.Name)
	}
	o, ok := ne.ArgumentList[0].(*ast.ObjectLiteral)
	if callee != "FusesPlugin" || !ok {
		return true
	}
	for _, prop := range o.Value {
		kp, ok := prop.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		var name string
		if d, ok := kp.Key.(*ast.DotExpression); ok && kp.Computed {
			name = string(d.Identifier.Name) // [FuseV1Options.RunAsNode]
		} else if k, ok := staticKey(kp.Key, kp.Computed); ok {
			name = k
		}
		if name == "" || name == "version" || name == "resetAdHocDarwinSignature" || name == "strictlyRequireAllFuses" {
			continue
		}
		state := "dynamic"
		if bl, ok := kp.Value.(*ast.BooleanLiteral); ok {
			state = map[bool]string{true: "enabled", false: "disabled"}[bl.Value]
		}
		fc.found = append(fc.found, configFuse{name: name, state: state, tool: "Electron Forge FusesPlugin", loc: fc.pf.loc(kp.Key.Idx0())})
	}
	return true
}

// builderFuses reads electronFuses from electron-builder JSON (under
// "build" in package.json).
func builderFuses(file, src string, inPackage bool) []configFuse {
	var doc map[string]json.RawMessage
	if json.Unmarshal([]byte(src), &doc) != nil {
		return nil
	}
	cfg := doc
	if inPackage {
		if json.Unmarshal(doc["build"], &cfg) != nil {
			return nil
		}
	}
	var fuses map[string]json.RawMessage
	if json.Unmarshal(cfg["electronFuses"], &fuses) != nil || len(fuses) == 0 {
		return nil
	}
	pf := &parsedFile{original: src, generated: src, lineStarts: lineStarts(src), path: file}
	base := strings.Index(src, `"electronFuses"`)
	keys := make([]string, 0, len(fuses))
	for k := range fuses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []configFuse
	for _, k := range keys {
		name, ok := builderFuseKeys[k]
		if !ok {
			continue
		}
		state := "dynamic"
		var v bool
		if json.Unmarshal(fuses[k], &v) == nil {
			state = map[bool]string{true: "enabled", false: "disabled"}[v]
		}
		loc := Location{File: file, Line: 1, Column: 1}
		if i := strings.Index(src[max(base, 0):], `"`+k+`"`); i >= 0 {
			loc = pf.loc(idxOf(max(base, 0) + i))
		}
		out = append(out, configFuse{name: name, state: state, tool: "electron-builder electronFuses", loc: loc})
	}
	return out
}

// fuseConfigFindings records every declared fuse as an observation, and
// judges them: an insecure setting is a finding unless the shipped
// executable's wire is known, which then wins; a declared state the wire
// contradicts is a finding of its own.
func (e *engine) fuseConfigFindings() {
	shipped := map[string]string{}
	binary := ""
	if se := e.opts.ShippedElectron; se != nil && len(se.Fuses) > 0 {
		shipped, binary = se.Fuses, se.Binary
	}
	for _, f := range e.configFuses() {
		e.obs = append(e.obs, Observation{Kind: "config-fuse", API: f.tool, Argument: f.name, State: f.state, Module: f.loc.File, Location: f.loc})
		if wire, ok := shipped[f.name]; ok {
			if f.state != "dynamic" && wire != f.state {
				e.addFinding(Finding{RuleID: "electron-fuse-config-disagrees", Severity: "info", Confidence: "observed",
					Message: fmt.Sprintf("%s (%s) declares the %s fuse %s, but the shipped executable %s has it %s: the build did not flip it as configured, and the executable's wire is what runs.",
						f.loc.File, f.tool, f.name, f.state, binary, wire),
					Location: f.loc, Snippet: e.snippetAt(f.loc), Remediation: "Rebuild so the packager flips the fuses, and check the result with inspect_electron_binary."})
			}
			continue
		}
		if r, ok := insecureFuse[f.name]; ok && f.state == r.state {
			e.addFinding(Finding{RuleID: "electron-fuse-config-insecure", Severity: "medium", Confidence: "observed",
				Message: fmt.Sprintf("%s (%s) sets the %s fuse %s: %s. This is what the build configuration declares; no executable was read, so the shipped wire is not confirmed.",
					f.loc.File, f.tool, f.name, f.state, r.consequence),
				Location: f.loc, Snippet: e.snippetAt(f.loc), Remediation: fmt.Sprintf("Set %s to %s in the fuses configuration.", f.name, map[string]string{"enabled": "false", "disabled": "true"}[f.state])})
		}
	}
}
