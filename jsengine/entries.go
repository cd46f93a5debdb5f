package jsengine

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
)

// Bundler entry names. A preload is usually written as the bundler's
// output (`join(__dirname, "../preload/renderer.cjs")`), and the output's
// name is the key of an entry in the build configuration — electron-vite's
// and rollup's `rollupOptions.input: { renderer: "app/renderer/js/main.ts" }`,
// webpack's `entry: { preload: "./src/preload.ts" }` — not the source's
// stem. The literal entry objects of the configurations the resolver reads
// map each output name to its source.

// entryCollector gathers `input: {…}` / `entry: {…}` objects of a bundler
// configuration.
type entryCollector struct {
	c     *aliasCollector
	e     *engine
	found map[string][]string
}

func (ec *entryCollector) Leave(any) {}

func (ec *entryCollector) Enter(n any) bool {
	kp, ok := n.(*ast.PropertyKeyed)
	if !ok {
		return true
	}
	if k, ok := staticKey(kp.Key, kp.Computed); !ok || (k != "input" && k != "entry") {
		return true
	}
	o, ok := ec.c.deref(kp.Value).(*ast.ObjectLiteral)
	if !ok {
		return true
	}
	for _, p := range o.Value {
		ep, ok := p.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		name, ok := staticKey(ep.Key, ep.Computed)
		if !ok || name == "" {
			continue
		}
		v := ec.c.deref(ep.Value)
		if eo, ok := v.(*ast.ObjectLiteral); ok { // webpack 5: { import: "./src/x.ts" }
			v = nil
			for _, q := range eo.Value {
				if iq, ok := q.(*ast.PropertyKeyed); ok {
					if k, _ := staticKey(iq.Key, iq.Computed); k == "import" {
						v = iq.Value
					}
				}
			}
			if v == nil {
				continue
			}
		}
		target, ok := ec.c.pathOf(v, 0)
		if !ok {
			continue
		}
		if r := ec.e.resolveFile(target); r != "" && textKind(r) == "javascript" {
			ec.found[name] = append(ec.found[name], r)
		}
	}
	return true
}

// readEntries records the entry names of the configuration pf.
func (e *engine) readEntries(r *bundlerResolution, pf *parsedFile, c *aliasCollector) {
	ec := &entryCollector{c: c, e: e, found: map[string][]string{}}
	walk(ec, pf.prog)
	if len(ec.found) == 0 {
		return
	}
	if r.entries == nil {
		r.entries = map[string][]string{}
	}
	for k, v := range ec.found {
		r.entries[k] = append(r.entries[k], v...)
	}
}

// bundleEntry is the one source file a bundler builds into an output named
// like p (its stem), from the configurations' entry names; "" when no
// entry or more than one source carries the name.
func (e *engine) bundleEntry(p string) string {
	r := e.resolution()
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	srcs := append([]string(nil), r.entries[stem]...)
	sort.Strings(srcs)
	if len(srcs) == 0 {
		return ""
	}
	for _, s := range srcs[1:] {
		if s != srcs[0] {
			return ""
		}
	}
	return srcs[0]
}

// importMeta reads import.meta.dirname / filename (Node's ESM __dirname and
// __filename). esbuild's CommonJS output declares `const import_meta = {}`,
// whose members would otherwise read as undefined and join into paths as
// the string "undefined"; any other member of it is unknown.
func (e *engine) importMeta(m *moduleInfo, s *scope, x *ast.DotExpression) (value, bool) {
	if !isImportMeta(s, x.Left) {
		return value{}, false
	}
	switch x.Identifier.Name {
	case "dirname":
		return value{kind: kString, str: m.dir, fsPath: true, at: e.locp(m, x.Idx0())}, true
	case "filename":
		return value{kind: kString, str: m.path, fsPath: true, at: e.locp(m, x.Idx0())}, true
	}
	return unknown(m.pf.text(x, 80)), true
}

// isImportMeta reports whether x is import.meta, or esbuild's empty
// import_meta object standing for it in CommonJS output.
func isImportMeta(s *scope, x ast.Expression) bool {
	if _, meta := x.(*ast.MetaProperty); meta {
		return true
	}
	id, ok := x.(*ast.Identifier)
	if !ok || id.Name != "import_meta" {
		return false
	}
	b := s.lookup("import_meta")
	if b == nil {
		return false
	}
	o, ok := b.init.(*ast.ObjectLiteral)
	return ok && len(o.Value) == 0
}

// importMetaResolve evaluates import.meta.resolve(specifier) to the file
// the specifier names in the application (a file URL in Node; the path is
// what fileURLToPath makes of it), or unknown when it names none.
func (e *engine) importMetaResolve(m *moduleInfo, s *scope, x *ast.CallExpression, c evalCtx) (value, bool) {
	d, ok := x.Callee.(*ast.DotExpression)
	if !ok || d.Identifier.Name != "resolve" || len(x.ArgumentList) != 1 || !isImportMeta(s, d.Left) {
		return value{}, false
	}
	spec, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
	if !ok {
		return unknown(m.pf.text(x, 80)), true
	}
	p := e.resolve(m.dir, spec)
	if p == "" {
		return unknown(m.pf.text(x, 80)), true
	}
	v := value{kind: kString, str: p, fsPath: true, inferred: true, at: e.locp(m, x.Idx0())}
	return v.withStep(Step{Description: "import.meta.resolve(" + strconv.Quote(spec) + ") names " + p, Location: m.pf.loc(x.Idx0())}), true
}

// urlFromImportMeta evaluates new URL(relative, import.meta.url), ESM's way
// of naming a file beside the module, to that file's path (what
// fileURLToPath makes of it): electron-vite's preload idiom.
func (e *engine) urlFromImportMeta(m *moduleInfo, s *scope, x *ast.NewExpression, c evalCtx) (value, bool) {
	id, ok := x.Callee.(*ast.Identifier)
	if !ok || id.Name != "URL" || len(x.ArgumentList) != 2 || s.lookup("URL") != nil {
		return value{}, false
	}
	d, ok := x.ArgumentList[1].(*ast.DotExpression)
	if !ok || d.Identifier.Name != "url" || !isImportMeta(s, d.Left) {
		return value{}, false
	}
	rel, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
	if !ok || strings.Contains(rel, ":") || strings.HasPrefix(rel, "/") {
		return unknown(m.pf.text(x, 80)), true
	}
	return value{kind: kString, str: path.Join(m.dir, rel), fsPath: true, at: e.locp(m, x.Idx0())}, true
}

// Electron Forge's webpack plugin defines, for each renderer entry point
// of forge.config, a global <NAME>_PRELOAD_WEBPACK_ENTRY holding the
// built preload's path (the template's `preload:
// MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY`). The entry's `preload.js` names the
// source.

var forgeConfigName = regexp.MustCompile(`^forge\.config\.(js|ts|mjs|cjs|mts|cts)$`)

// forgeCollector gathers { name, preload: { js } } entry points, written
// out or returned by a helper of the configuration called with the entry's
// name (Zettlr's generateRendererEntrypoint('about', 'win-about')).
type forgeCollector struct {
	c     *aliasCollector
	e     *engine
	found map[string]string
	// helpers are the configuration's top-level functions by name.
	helpers map[string]*ast.FunctionLiteral
}

func (fc *forgeCollector) Leave(any) {}

func (fc *forgeCollector) Enter(n any) bool {
	if call, ok := n.(*ast.CallExpression); ok {
		fc.helperEntry(call)
		return true
	}
	o, ok := n.(*ast.ObjectLiteral)
	if !ok {
		return true
	}
	fc.entry(o, nil)
	return true
}

// helperEntry reads an entry point a helper returns: a call of a top-level
// function of the configuration whose body returns an object literal, its
// parameters bound to the call's string literals.
func (fc *forgeCollector) helperEntry(call *ast.CallExpression) {
	id, ok := call.Callee.(*ast.Identifier)
	if !ok {
		return
	}
	fn := fc.helpers[string(id.Name)]
	if fn == nil || fn.Body == nil || fn.ParameterList == nil {
		return
	}
	var ret *ast.ObjectLiteral
	for _, st := range fn.Body.List {
		if r, ok := st.(*ast.ReturnStatement); ok {
			ret, _ = r.Argument.(*ast.ObjectLiteral)
		}
	}
	if ret == nil {
		return
	}
	args := map[string]string{}
	for i, p := range fn.ParameterList.List {
		pid, ok := p.Target.(*ast.Identifier)
		if !ok || i >= len(call.ArgumentList) {
			continue
		}
		if s, ok := fc.c.deref(call.ArgumentList[i]).(*ast.StringLiteral); ok {
			args[string(pid.Name)] = string(s.Value)
		}
	}
	fc.entry(ret, args)
}

// entry records the preload global of entry point o; args are the values of
// the helper parameters o may name.
func (fc *forgeCollector) entry(o *ast.ObjectLiteral, args map[string]string) {
	var name string
	var js ast.Expression
	for _, p := range o.Value {
		if ps, ok := p.(*ast.PropertyShort); ok && string(ps.Name.Name) == "name" {
			name = args["name"] // { name } in a helper
			continue
		}
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		switch k, _ := staticKey(kp.Key, kp.Computed); k {
		case "name":
			switch v := fc.c.deref(kp.Value).(type) {
			case *ast.StringLiteral:
				name = string(v.Value)
			case *ast.Identifier:
				name = args[string(v.Name)]
			}
		case "preload":
			if po, ok := fc.c.deref(kp.Value).(*ast.ObjectLiteral); ok {
				for _, q := range po.Value {
					if qp, ok := q.(*ast.PropertyKeyed); ok {
						if k, _ := staticKey(qp.Key, qp.Computed); k == "js" {
							js = qp.Value
						}
					}
				}
			}
		}
	}
	if name == "" || js == nil {
		return
	}
	if target, ok := fc.c.pathOf(js, 0); ok {
		if r := fc.e.resolveFile(target); r != "" {
			fc.found[forgeGlobal(name)] = r
		}
	}
}

// forgeGlobal is the global the plugin defines for entry point name.
func forgeGlobal(name string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String() + "_PRELOAD_WEBPACK_ENTRY"
}

// readForgeConfig records the preload entry globals of forge.config p.
func (e *engine) readForgeConfig(r *bundlerResolution, p string) {
	b, ok := e.readSmall(p)
	if !ok {
		return
	}
	pf, err := parseJS(p, string(b))
	if err != nil {
		r.notes = append(r.notes, "Electron Forge configuration "+p+" could not be parsed; its entry points are not applied")
		return
	}
	c := &aliasCollector{pf: pf, dir: path.Dir(p), consts: map[string]ast.Expression{}}
	helpers := map[string]*ast.FunctionLiteral{}
	for _, st := range pf.prog.Body {
		switch v := st.(type) {
		case *ast.FunctionDeclaration:
			if v.Function != nil && v.Function.Name != nil {
				helpers[string(v.Function.Name.Name)] = v.Function
			}
		case *ast.VariableStatement:
			for _, bd := range v.List {
				c.declare(bd)
			}
		case *ast.LexicalDeclaration:
			for _, bd := range v.List {
				c.declare(bd)
			}
		}
	}
	fc := &forgeCollector{c: c, e: e, found: map[string]string{}, helpers: helpers}
	walk(fc, pf.prog)
	if len(fc.found) == 0 {
		return
	}
	if r.forge == nil {
		r.forge = map[string]forgeEntry{}
	}
	for g, src := range fc.found {
		r.forge[g] = forgeEntry{source: src, config: p}
	}
}

type forgeEntry struct{ source, config string }

// forgePreload gives a free identifier the plugin defines its value.
func (e *engine) forgePreload(m *moduleInfo, x *ast.Identifier) (value, bool) {
	name := string(x.Name)
	if !strings.HasSuffix(name, "_PRELOAD_WEBPACK_ENTRY") {
		return value{}, false
	}
	f, ok := e.resolution().forge[name]
	if !ok {
		return value{}, false
	}
	v := value{kind: kString, str: f.source, fsPath: true, inferred: true, at: e.locp(m, x.Idx)}
	return v.withStep(Step{Description: "Electron Forge's webpack plugin defines " + name + " from the entry point in " + f.config,
		Location: Location{File: f.config, Line: 1, Column: 1}}), true
}
