package jsengine

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// Fuses declared in packaging configuration, read without running it:
// Electron Forge's `new FusesPlugin({ version: FuseVersion.V1,
// [FuseV1Options.RunAsNode]: false, … })` (or the { name, config } plugin
// form), electron-builder's `electronFuses: { runAsNode: false, … }` in any
// of its config files (builderconfig.go), and the objects afterPack or
// afterSign hook scripts pass to @electron/fuses. They say what the build
// intends to flip; the executable's own fuse wire (inspect_electron_binary)
// is what runs, so when it is known it wins, and a disagreement is reported
// as such. What rea cannot read statically (an expression, a spread of
// something not in the file, an extended package, a hook not in the input)
// is a limitation and makes coverage partial.

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

// builderConfigName: the files electron-builder reads by itself
// (electron-builder.{yml,yaml,json,json5,toml,js,mjs,cjs,ts}) and the
// electron-builder.config.* names projects pass with --config.
var builderConfigName = regexp.MustCompile(`^electron-builder(\.config)?\.(json5?|ya?ml|toml|[cm]?js|[cm]?ts)$`)

// builderConfigFlag finds `electron-builder … --config FILE` in a script.
var builderConfigFlag = regexp.MustCompile(`electron-builder\b[^&|;]*?(?:--config[= ]|-c )\s*['"]?([^\s&|;'"]+)`)

// fuseV1Names are @electron/fuses' FuseV1Options, in wire order.
var fuseV1Names = []string{"RunAsNode", "EnableCookieEncryption", "EnableNodeOptionsEnvironmentVariable", "EnableNodeCliInspectArguments",
	"EnableEmbeddedAsarIntegrityValidation", "OnlyLoadAppFromAsar", "LoadBrowserProcessSpecificV8Snapshot", "GrantFileProtocolExtraPrivileges"}

// maxExtendsDepth bounds electron-builder `extends` chains.
const maxExtendsDepth = 4

// configFuses reads the fuses every packaging config declares
// (node_modules excluded), in file order.
func (e *engine) configFuses() []configFuse {
	var forge, builder, manifests []string
	seen := map[string]bool{}
	for p := range e.files {
		if strings.Contains("/"+p, "/node_modules/") {
			continue
		}
		switch base := path.Base(p); {
		case forgeConfigName.MatchString(base):
			forge = append(forge, p)
		case builderConfigName.MatchString(base):
			builder = append(builder, p)
			seen[p] = true
		case base == "package.json":
			manifests = append(manifests, p)
		}
	}
	sort.Strings(forge)
	sort.Strings(manifests)
	var out []configFuse
	for _, p := range forge {
		out = append(out, e.hookFuses(p, "Electron Forge FusesPlugin")...)
	}
	for _, m := range manifests {
		b, ok := e.readSmall(m)
		if !ok {
			continue
		}
		src := string(b)
		// Configs passed with --config in the scripts are read too.
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pj) == nil {
			for _, sc := range pj.Scripts {
				for _, m2 := range builderConfigFlag.FindAllStringSubmatch(sc, -1) {
					if c := path.Join(path.Dir(m), m2[1]); e.files[c] && !seen[c] && !strings.Contains("/"+c, "/node_modules/") {
						seen[c] = true
						builder = append(builder, c)
					}
				}
			}
		}
		if !strings.Contains(src, `"build"`) {
			continue
		}
		v, err := readJSONConfig(m, src)
		if err != nil {
			continue // package.json itself is judged elsewhere
		}
		if b := v.get("build"); b != nil && b.kind == cfgMap {
			out = append(out, e.builderFuses(m, b, offsetLocator(m, src), 0, map[string]bool{m: true})...)
		}
	}
	sort.Strings(builder)
	inPackage := map[string]bool{}
	for _, f := range out {
		if path.Base(f.loc.File) == "package.json" && f.tool == "electron-builder electronFuses" {
			inPackage[path.Dir(f.loc.File)] = true
		}
	}
	for _, p := range builder {
		fs := e.builderFileFuses(p, 0, map[string]bool{})
		if len(fs) > 0 && inPackage[path.Dir(p)] && !strings.Contains(path.Base(p), ".config.") {
			e.limitations = append(e.limitations, fmt.Sprintf("both %s and package.json \"build\" declare electronFuses: electron-builder reads package.json \"build\" and ignores %s unless --config names it; rea reports both", p, path.Base(p)))
		}
		out = append(out, fs...)
	}
	return out
}

// fuseGap records what rea could not read about fuses: a limitation, and
// a cut in coverage.
func (e *engine) fuseGap(format string, a ...any) {
	e.limitations = append(e.limitations, fmt.Sprintf(format, a...))
	e.fuseGaps++
}

// builderFileFuses reads one electron-builder configuration file.
func (e *engine) builderFileFuses(p string, depth int, seen map[string]bool) []configFuse {
	if seen[p] {
		return nil
	}
	seen[p] = true
	if !e.files[p] {
		return nil
	}
	info, err := fs.Stat(e.fsys, p)
	if err != nil {
		return nil
	}
	if info.Size() > maxBuilderConfigBytes {
		e.fuseGap("%s is electron-builder configuration of %d bytes, past rea's bound of %d; any electronFuses it declares are unknown", p, info.Size(), maxBuilderConfigBytes)
		return nil
	}
	b, err := fs.ReadFile(e.fsys, p)
	if err != nil {
		return nil
	}
	src := string(b)
	var roots []*cfgValue
	loc := offsetLocator(p, src)
	switch ext := path.Ext(p); ext {
	case ".yml", ".yaml":
		var v *cfgValue
		v, err = readYAMLConfig(src)
		roots = append(roots, v)
	case ".toml":
		var v *cfgValue
		v, err = readTOMLConfig(src)
		roots = append(roots, v)
	case ".json", ".json5":
		var v *cfgValue
		v, err = readJSONConfig(p, src)
		roots = append(roots, v)
	default:
		var pf *parsedFile
		if pf, err = parseJS(p, src); err == nil {
			roots, err = jsBuilderConfigs(pf)
			loc = func(off int) Location { return pf.loc(file.Idx(off + 1 + pf.shift)) }
		}
	}
	if err != nil {
		e.fuseGap("%s (electron-builder configuration) could not be read: %v; any electronFuses it declares are unknown", p, err)
		return nil
	}
	var out []configFuse
	for _, r := range roots {
		if r != nil && r.kind == cfgMap {
			out = append(out, e.builderFuses(p, r, loc, depth, seen)...)
		}
	}
	if ext := path.Ext(p); ext != ".yml" && ext != ".yaml" && ext != ".toml" && ext != ".json" && ext != ".json5" {
		out = append(out, e.hookFuses(p, "electron-builder hook (@electron/fuses)")...)
	}
	return out
}

// builderFuses reads electronFuses from one configuration object, after
// the configurations it extends (electron-builder merges them, the
// extending one winning), and the fuses its afterPack/afterSign hook
// scripts flip.
func (e *engine) builderFuses(p string, cfg *cfgValue, loc func(int) Location, depth int, seen map[string]bool) []configFuse {
	byName := map[string]configFuse{}
	var order []string
	add := func(fs []configFuse) {
		for _, f := range fs {
			if _, ok := byName[f.name]; !ok {
				order = append(order, f.name)
			}
			byName[f.name] = f
		}
	}
	if ext := cfg.get("extends"); ext != nil {
		var names []*cfgValue
		switch ext.kind {
		case cfgString:
			names = []*cfgValue{ext}
		case cfgList:
			names = ext.items
		case cfgDynamic:
			e.fuseGap("%s: electron-builder extends %s, which rea does not evaluate; any electronFuses it declares are unknown", locString(loc(ext.off)), ext.why)
		}
		for _, n := range names {
			if n.kind != cfgString {
				continue
			}
			target := path.Join(path.Dir(p), n.s)
			switch {
			case n.s == "react-cra":
				// electron-builder's built-in preset sets no fuses.
			case depth >= maxExtendsDepth:
				e.fuseGap("%s: electron-builder extends %q past rea's bound of %d levels; any electronFuses it declares are unknown", locString(loc(n.off)), n.s, maxExtendsDepth)
			case e.files[target]:
				add(e.builderFileFuses(target, depth+1, seen))
			default:
				e.fuseGap("%s: electron-builder extends %q, a package or a file not in the input; any electronFuses it declares are unknown", locString(loc(n.off)), n.s)
			}
		}
	}
	if ef := cfg.get("electronFuses"); ef != nil {
		switch ef.kind {
		case cfgMap:
			var own []configFuse
			for _, k := range ef.keys {
				v := ef.fields[k]
				if k == "..." {
					e.fuseGap("%s: electronFuses spreads %s, which rea does not evaluate; the fuses it sets are unknown", locString(loc(v.off)), v.why)
					continue
				}
				name, ok := builderFuseKeys[k]
				if !ok {
					continue
				}
				if f, ok := e.fuseState(name, "electron-builder electronFuses", v, loc); ok {
					own = append(own, f)
				}
			}
			add(own)
		case cfgDynamic:
			e.fuseGap("%s: electronFuses is %s, which rea does not evaluate; the fuses it sets are unknown", locString(loc(ef.off)), ef.why)
		}
	}
	if sp := cfg.get("..."); sp != nil && cfg.get("electronFuses") == nil {
		e.fuseGap("%s: the electron-builder configuration spreads %s, which rea does not evaluate; any electronFuses it carries are unknown", locString(loc(sp.off)), sp.why)
	}
	for _, hook := range []string{"afterPack", "afterSign"} {
		h := cfg.get(hook)
		if h == nil || h.kind != cfgString {
			continue // inline functions are read with the file itself
		}
		target := path.Join(path.Dir(p), h.s)
		if path.Ext(target) == "" {
			for _, ext := range []string{".js", ".cjs", ".mjs", ".ts"} {
				if e.files[target+ext] {
					target += ext
					break
				}
			}
		}
		if !e.files[target] {
			// Not a gap: most hooks (notarisation) flip nothing, and one
			// that flips fuses after signing breaks the signature; but an
			// afterPack hook is where fuses are flipped, so it is named.
			if hook == "afterPack" {
				e.limitations = append(e.limitations, fmt.Sprintf("%s: electron-builder afterPack runs %q, which is not in the input; fuses it may flip (@electron/fuses) are unknown", locString(loc(h.off)), h.s))
			}
			continue
		}
		add(e.hookFuses(target, "electron-builder "+hook+" hook (@electron/fuses)"))
	}
	out := make([]configFuse, 0, len(order))
	for _, n := range order {
		out = append(out, byName[n])
	}
	return out
}

// fuseState is the declared state of one fuse value.
func (e *engine) fuseState(name, tool string, v *cfgValue, loc func(int) Location) (configFuse, bool) {
	f := configFuse{name: name, tool: tool, loc: loc(v.off)}
	switch v.kind {
	case cfgBool:
		f.state = map[bool]string{true: "enabled", false: "disabled"}[v.b]
	case cfgOther:
		return f, false // undefined / null: not set, Electron's default stays
	case cfgDynamic:
		f.state = "dynamic"
		e.fuseGap("%s:%d: the %s fuse is set to %s, which rea does not evaluate; its state is unknown", f.loc.File, f.loc.Line, name, v.why)
	default:
		f.state = "dynamic"
		e.fuseGap("%s:%d: the %s fuse is set to a value that is not a boolean; its state is unknown", f.loc.File, f.loc.Line, name)
	}
	return f, true
}

// hookFuses reads the fuse objects a JS file passes to @electron/fuses:
// `new FusesPlugin(X)`, Forge's `{ name: '@electron-forge/plugin-fuses',
// config: X }`, `flipFuses(path, X)` and electron-builder's
// `packager.addElectronFuses(context, X)`. X may be a literal, a const of
// the file, or spread from one.
func (e *engine) hookFuses(p, tool string) []configFuse {
	b, ok := e.readSmall(p)
	if !ok {
		return nil
	}
	src := string(b)
	if !strings.Contains(src, "FusesPlugin") && !strings.Contains(src, "flipFuses") && !strings.Contains(src, "addElectronFuses") && !strings.Contains(src, "plugin-fuses") {
		return nil
	}
	pf, err := parseJS(p, src)
	if err != nil {
		e.fuseGap("%s names @electron/fuses but could not be parsed; the fuses it sets are unknown", p)
		return nil
	}
	fc := &fusesCollector{pf: pf, r: newJSConfigReader(pf, 0)}
	walk(fc, pf.prog)
	loc := func(off int) Location { return pf.loc(file.Idx(off + 1 + pf.shift)) }
	var out []configFuse
	for _, a := range fc.args {
		v, err := fc.r.value(a.x, 0)
		if err != nil {
			e.fuseGap("%s: %v; the fuses it sets are unknown", pf.loc(a.x.Idx0()).File, err)
			continue
		}
		if v.kind != cfgMap {
			e.fuseGap("%s: %s is given %s, which rea does not evaluate; the fuses it sets are unknown", locString(pf.loc(a.x.Idx0())), a.callee, v.why)
			continue
		}
		for _, k := range v.keys {
			fv := v.fields[k]
			if k == "..." {
				e.fuseGap("%s: %s spreads %s, which rea does not evaluate; the fuses it sets are unknown", locString(loc(fv.off)), a.callee, fv.why)
				continue
			}
			name := k
			if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < len(fuseV1Names) {
				name = fuseV1Names[i]
			}
			if !slices.Contains(fuseV1Names, name) {
				continue
			}
			t := tool
			if a.callee != "FusesPlugin" && a.callee != "plugin-fuses" && !strings.HasPrefix(tool, "electron-builder") {
				t = "@electron/fuses " + a.callee
			}
			if f, ok := e.fuseState(name, t, fv, loc); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

func locString(l Location) string { return fmt.Sprintf("%s:%d", l.File, l.Line) }

// offsetLocator maps byte offsets of src to locations.
func offsetLocator(file, src string) func(int) Location {
	starts := lineStarts(src)
	return func(off int) Location {
		line := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
		line = max(line, 0)
		return Location{File: file, Line: line + 1, Column: off - starts[line] + 1}
	}
}

// fuseArg is an expression handed to @electron/fuses.
type fuseArg struct {
	callee string
	x      ast.Expression
}

type fusesCollector struct {
	pf   *parsedFile
	r    *jsConfigReader
	args []fuseArg
}

func (fc *fusesCollector) Leave(any) {}

func (fc *fusesCollector) Enter(n any) bool {
	switch n := n.(type) {
	case *ast.NewExpression:
		if calleeName(n.Callee) == "FusesPlugin" && len(n.ArgumentList) > 0 {
			fc.args = append(fc.args, fuseArg{"FusesPlugin", n.ArgumentList[0]})
		}
	case *ast.CallExpression:
		switch c := calleeName(n.Callee); {
		case c == "flipFuses" && len(n.ArgumentList) > 1:
			fc.args = append(fc.args, fuseArg{c, n.ArgumentList[1]})
		case c == "addElectronFuses" && len(n.ArgumentList) > 1:
			fc.args = append(fc.args, fuseArg{c, n.ArgumentList[1]})
		}
	case *ast.ObjectLiteral:
		// Forge's plugin form { name: '@electron-forge/plugin-fuses', config: X }.
		var name string
		var config ast.Expression
		for _, p := range n.Value {
			if kp, ok := p.(*ast.PropertyKeyed); ok {
				k, _ := staticKey(kp.Key, kp.Computed)
				if s, ok := kp.Value.(*ast.StringLiteral); ok && k == "name" {
					name = string(s.Value)
				}
				if k == "config" {
					config = kp.Value
				}
			}
		}
		if name == "@electron-forge/plugin-fuses" && config != nil {
			fc.args = append(fc.args, fuseArg{"plugin-fuses", config})
		}
	}
	return true
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
