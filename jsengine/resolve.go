package jsengine

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// bundlerResolution is how the application's own build resolves bare
// specifiers: tsconfig/jsconfig paths and baseUrl, the literal resolve.alias
// objects of its bundler configurations, and the packages of its workspace.
// It is read once, statically (configuration files are parsed, never run).
type bundlerResolution struct {
	aliases []aliasRule
	bases   []baseURL
	// workspace maps a package name to its directory inside the root.
	workspace map[string]string
	// sources are the configuration files read, for limitations.
	notes []string
	// entries maps a bundler entry (output) name to its sources, forge the
	// Electron Forge preload globals to theirs (entries.go).
	entries map[string][]string
	forge   map[string]forgeEntry
}

// aliasRule maps a specifier prefix (bundler alias) or a tsconfig paths
// pattern to targets inside (or outside) the root.
type aliasRule struct {
	scope   string // directory whose files the rule applies to ("." = all)
	key     string // "@renderer", "@shared/*", "~"
	pattern bool   // tsconfig pattern: one "*" in key and targets
	exact   bool   // webpack "key$": the specifier must equal key
	// bare: the targets are module specifiers (vite's "zulip:remote":
	// "electron/main"), resolved again, not paths.
	bare    bool
	targets []string
	from    string // the configuration file that declares it
}

type baseURL struct{ scope, dir string }

// maxConfigBytes bounds a configuration file read for resolution.
const maxConfigBytes = 1 << 20

// resolution builds e's bundlerResolution on first use.
func (e *engine) resolution() *bundlerResolution {
	if e.bundler != nil {
		return e.bundler
	}
	r := &bundlerResolution{workspace: map[string]string{}}
	e.bundler = r
	var tsconfigs, bundlerConfigs, forgeConfigs, manifests []string
	for p := range e.files {
		if strings.Contains("/"+p, "/node_modules/") {
			continue
		}
		base := path.Base(p)
		switch {
		case strings.HasSuffix(base, ".json") && (strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig")):
			tsconfigs = append(tsconfigs, p)
		case bundlerConfigName.MatchString(base):
			bundlerConfigs = append(bundlerConfigs, p)
		case forgeConfigName.MatchString(base):
			forgeConfigs = append(forgeConfigs, p)
		case base == "package.json":
			manifests = append(manifests, p)
		}
	}
	sort.Strings(tsconfigs)
	sort.Strings(bundlerConfigs)
	sort.Strings(manifests)
	for _, p := range tsconfigs {
		e.readTSConfig(r, p)
	}
	for _, p := range bundlerConfigs {
		e.readBundlerConfig(r, p)
	}
	sort.Strings(forgeConfigs)
	for _, p := range forgeConfigs {
		e.readForgeConfig(r, p)
	}
	e.readWorkspace(r, manifests)
	// Nearest scope first, then the longest key: the most specific rule wins.
	sort.SliceStable(r.aliases, func(i, j int) bool {
		a, b := r.aliases[i], r.aliases[j]
		if len(a.scope) != len(b.scope) {
			return len(a.scope) > len(b.scope)
		}
		return len(a.key) > len(b.key)
	})
	sort.SliceStable(r.bases, func(i, j int) bool { return len(r.bases[i].scope) > len(r.bases[j].scope) })
	e.resolutionRead = true
	return r
}

var bundlerConfigName = regexp.MustCompile(`^(vite|electron\.vite|electron-vite|webpack|rollup|vue|quasar|rspack|rsbuild)([.-][\w.-]+)?\.config\.(js|ts|mjs|cjs|mts|cts)$|^webpack\.[\w.-]+\.(js|ts|mjs|cjs)$`)

// readSmall reads a root file of at most maxConfigBytes.
func (e *engine) readSmall(p string) ([]byte, bool) {
	if !e.files[p] {
		return nil, false
	}
	info, err := fs.Stat(e.fsys, p)
	if err != nil || info.Size() > maxConfigBytes {
		return nil, false
	}
	b, err := fs.ReadFile(e.fsys, p)
	return b, err == nil
}

// tsconfigOptions are the compilerOptions that decide resolution.
type tsconfigOptions struct {
	baseURL, pathsDir string
	hasBase, hasPaths bool
	paths             map[string][]string
}

func (e *engine) readTSConfig(r *bundlerResolution, p string) {
	o, ok := e.tsconfigChain(p, 0)
	if !ok {
		return
	}
	scope := path.Dir(p)
	if o.hasBase {
		r.bases = append(r.bases, baseURL{scope: scope, dir: o.baseURL})
	}
	if !o.hasPaths {
		return
	}
	dir := o.pathsDir
	if o.hasBase {
		dir = o.baseURL
	}
	for key, targets := range o.paths {
		rule := aliasRule{scope: scope, key: key, pattern: strings.Contains(key, "*"), from: p}
		for _, t := range targets {
			rule.targets = append(rule.targets, path.Join(dir, t))
		}
		r.aliases = append(r.aliases, rule)
	}
}

// tsconfigChain reads p and what it extends (child options override).
func (e *engine) tsconfigChain(p string, depth int) (tsconfigOptions, bool) {
	var o tsconfigOptions
	if depth > 8 {
		return o, false
	}
	b, ok := e.readSmall(p)
	if !ok {
		return o, false
	}
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONC(b), &raw) != nil {
		return o, false
	}
	var parents []string
	if len(raw.Extends) > 0 {
		var one string
		if json.Unmarshal(raw.Extends, &one) == nil {
			parents = []string{one}
		} else {
			_ = json.Unmarshal(raw.Extends, &parents)
		}
	}
	dir := path.Dir(p)
	for _, ext := range parents {
		if pp := e.extendsPath(dir, ext); pp != "" {
			if po, ok := e.tsconfigChain(pp, depth+1); ok {
				if po.hasBase {
					o.baseURL, o.hasBase = po.baseURL, true
				}
				if po.hasPaths {
					o.paths, o.pathsDir, o.hasPaths = po.paths, po.pathsDir, true
				}
			}
		}
	}
	if raw.CompilerOptions.BaseURL != nil {
		o.baseURL, o.hasBase = path.Join(dir, *raw.CompilerOptions.BaseURL), true
	}
	if raw.CompilerOptions.Paths != nil {
		o.paths, o.pathsDir, o.hasPaths = raw.CompilerOptions.Paths, dir, true
	}
	return o, true
}

// extendsPath finds the file a tsconfig "extends" names.
func (e *engine) extendsPath(dir, ext string) string {
	var cands []string
	if strings.HasPrefix(ext, ".") || strings.HasPrefix(ext, "/") {
		base := path.Join(dir, ext)
		cands = []string{base, base + ".json", path.Join(base, "tsconfig.json")}
	} else {
		for d := dir; ; d = path.Dir(d) {
			base := path.Join(d, "node_modules", ext)
			cands = append(cands, base, base+".json", path.Join(base, "tsconfig.json"))
			if d == "." || d == "/" {
				break
			}
		}
	}
	for _, c := range cands {
		if e.files[c] {
			return c
		}
	}
	return ""
}

// stripJSONC removes comments and trailing commas (tsconfig's dialect).
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) {
				j = len(b) - 1
			}
			out = append(out, b[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
		case c == ',':
			k := i + 1
			for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
				k++
			}
			if k < len(b) && (b[k] == '}' || b[k] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// readBundlerConfig reads the literal resolve.alias objects of a
// vite/electron-vite/webpack/rollup configuration. The file is parsed, not
// run: only aliases whose keys and targets are literals or path joins of
// literals and __dirname are taken.
func (e *engine) readBundlerConfig(r *bundlerResolution, p string) {
	b, ok := e.readSmall(p)
	if !ok {
		return
	}
	pf, err := parseJS(p, string(b))
	if err != nil {
		r.notes = append(r.notes, "bundler configuration "+p+" could not be parsed; its aliases are not applied")
		return
	}
	c := &aliasCollector{pf: pf, dir: path.Dir(p), consts: map[string]ast.Expression{}, vite: strings.Contains(path.Base(p), "vite")}
	for _, st := range pf.prog.Body {
		if v, ok := st.(*ast.VariableStatement); ok {
			for _, bd := range v.List {
				c.declare(bd)
			}
		}
		if l, ok := st.(*ast.LexicalDeclaration); ok {
			for _, bd := range l.List {
				c.declare(bd)
			}
		}
	}
	walk(c, pf.prog)
	e.readEntries(r, pf, c)
	scope := e.packageScope(path.Dir(p))
	for _, a := range c.found {
		a.scope, a.from = scope, p
		r.aliases = append(r.aliases, a)
	}
}

// packageScope is the nearest directory at or above dir holding a
// package.json (the project a configuration belongs to), else the root.
func (e *engine) packageScope(dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if e.files[path.Join(d, "package.json")] {
			return d
		}
		if d == "." || d == "/" || d == "" {
			return "."
		}
	}
}

type aliasCollector struct {
	pf  *parsedFile
	dir string
	// vite: a replacement "/src" is relative to the project root there.
	vite   bool
	consts map[string]ast.Expression
	found  []aliasRule
}

func (c *aliasCollector) declare(bd *ast.Binding) {
	if id, ok := bd.Target.(*ast.Identifier); ok && bd.Initializer != nil {
		c.consts[string(id.Name)] = bd.Initializer
	}
}

func (c *aliasCollector) Leave(any) {}

func (c *aliasCollector) Enter(n any) bool {
	kp, ok := n.(*ast.PropertyKeyed)
	if !ok {
		return true
	}
	if k, ok := staticKey(kp.Key, kp.Computed); !ok || k != "alias" {
		return true
	}
	switch v := c.deref(kp.Value).(type) {
	case *ast.ObjectLiteral:
		for _, p := range v.Value {
			ep, ok := p.(*ast.PropertyKeyed)
			if !ok {
				continue
			}
			key, ok := staticKey(ep.Key, ep.Computed)
			if !ok || key == "" {
				continue
			}
			if spec, ok := bareSpecifier(c.deref(ep.Value)); ok {
				c.addBare(key, spec)
			} else if t, ok := c.pathOf(ep.Value, 0); ok {
				c.add(key, t)
			}
		}
	case *ast.ArrayLiteral:
		for _, el := range v.Value {
			o, ok := el.(*ast.ObjectLiteral)
			if !ok {
				continue
			}
			var find, repl ast.Expression
			for _, p := range o.Value {
				if ep, ok := p.(*ast.PropertyKeyed); ok {
					switch k, _ := staticKey(ep.Key, ep.Computed); k {
					case "find":
						find = ep.Value
					case "replacement":
						repl = ep.Value
					}
				}
			}
			key, ok := find.(*ast.StringLiteral)
			if !ok || repl == nil {
				continue
			}
			if spec, ok := bareSpecifier(c.deref(repl)); ok {
				c.addBare(string(key.Value), spec)
			} else if t, ok := c.pathOf(repl, 0); ok {
				c.add(string(key.Value), t)
			}
		}
	}
	return true
}

func (c *aliasCollector) add(key, target string) {
	rule := aliasRule{key: key, targets: []string{target}}
	if strings.HasSuffix(key, "$") {
		rule.key, rule.exact = strings.TrimSuffix(key, "$"), true
	}
	c.found = append(c.found, rule)
}

func (c *aliasCollector) addBare(key, spec string) {
	c.add(key, spec)
	c.found[len(c.found)-1].bare = true
}

// bareSpecifier reports a string literal alias target that is a module
// specifier rather than a path (bundlers resolve such a target again).
func bareSpecifier(x ast.Expression) (string, bool) {
	lit, ok := x.(*ast.StringLiteral)
	if !ok {
		return "", false
	}
	s := string(lit.Value)
	if s == "" || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") || strings.Contains(s, "\\") {
		return "", false
	}
	return s, true
}

func (c *aliasCollector) deref(x ast.Expression) ast.Expression {
	if id, ok := x.(*ast.Identifier); ok {
		if init, ok := c.consts[string(id.Name)]; ok {
			return init
		}
	}
	return x
}

// pathOf evaluates the few path expressions alias targets are written
// with, relative to the configuration's directory (the project root a
// bundler runs in): literals, __dirname, path.resolve/join, fileURLToPath(
// new URL(lit, import.meta.url)), + and template literals of those.
func (c *aliasCollector) pathOf(x ast.Expression, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	x = c.deref(x)
	switch v := x.(type) {
	case *ast.StringLiteral:
		s := string(v.Value)
		if strings.HasPrefix(s, "/") && !(c.vite && depth == 0) {
			return "", false // an absolute path of the build machine
		}
		return path.Join(c.dir, s), true
	case *ast.Identifier:
		if v.Name == "__dirname" {
			return c.dir, true
		}
	case *ast.TemplateLiteral:
		var sb strings.Builder
		for i, el := range v.Elements {
			sb.WriteString(string(el.Parsed))
			if i < len(v.Expressions) {
				s, ok := c.pathOf(v.Expressions[i], depth+1)
				if !ok {
					return "", false
				}
				sb.WriteString("\x00" + s + "\x00")
			}
		}
		return c.rooted(sb.String())
	case *ast.BinaryExpression:
		if v.Operator != token.PLUS {
			return "", false
		}
		l, ok := c.pathOf(v.Left, depth+1)
		if !ok {
			return "", false
		}
		rs, ok := v.Right.(*ast.StringLiteral)
		if !ok {
			return "", false
		}
		return path.Join(l, string(rs.Value)), true
	case *ast.CallExpression:
		name := calleeName(v.Callee)
		if name == "cwd" && len(v.ArgumentList) == 0 && strings.Contains(c.pf.text(v.Callee, 60), "process") {
			return c.dir, true // the build runs in the project's directory
		}
		switch name {
		case "resolve", "path.resolve", "join", "path.join", "import_path.resolve", "import_path.join", "import_node_path.resolve", "import_node_path.join",
			"import_path.default.resolve", "import_path.default.join", "import_node_path.default.resolve", "import_node_path.default.join":
			cur := c.dir
			for i, a := range v.ArgumentList {
				if id, ok := a.(*ast.Identifier); ok && id.Name == "__dirname" && i == 0 {
					cur = c.dir
					continue
				}
				if s, ok := c.deref(a).(*ast.StringLiteral); ok {
					lit := string(s.Value)
					if strings.HasPrefix(lit, "/") {
						return "", false
					}
					cur = path.Join(cur, lit)
					continue
				}
				if i == 0 {
					if s, ok := c.pathOf(a, depth+1); ok {
						cur = s
						continue
					}
				}
				return "", false
			}
			return cur, true
		case "fileURLToPath", "import_url.fileURLToPath", "import_node_url.fileURLToPath":
			if len(v.ArgumentList) == 1 {
				if nx, ok := v.ArgumentList[0].(*ast.NewExpression); ok && calleeName(nx.Callee) == "URL" && len(nx.ArgumentList) >= 1 {
					if s, ok := nx.ArgumentList[0].(*ast.StringLiteral); ok {
						return path.Join(c.dir, string(s.Value)), true
					}
				}
			}
		}
	}
	return "", false
}

// rooted turns a template of "\x00dir\x00/rest" into a path.
func (c *aliasCollector) rooted(s string) (string, bool) {
	parts := strings.Split(s, "\x00")
	if len(parts) != 3 || parts[0] != "" {
		return "", false
	}
	return path.Join(parts[1], parts[2]), true
}

// readWorkspace maps the names of the root's own packages to their
// directories: the workspace globs of package.json, pnpm-workspace.yaml or
// lerna.json first, then any other package.json outside node_modules.
func (e *engine) readWorkspace(r *bundlerResolution, manifests []string) {
	var globs []string
	if b, ok := e.readSmall("package.json"); ok {
		var pj struct {
			Workspaces json.RawMessage `json:"workspaces"`
		}
		if json.Unmarshal(b, &pj) == nil && len(pj.Workspaces) > 0 {
			var list []string
			if json.Unmarshal(pj.Workspaces, &list) != nil {
				var obj struct {
					Packages []string `json:"packages"`
				}
				_ = json.Unmarshal(pj.Workspaces, &obj)
				list = obj.Packages
			}
			globs = append(globs, list...)
		}
	}
	if b, ok := e.readSmall("lerna.json"); ok {
		var l struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(b, &l) == nil {
			globs = append(globs, l.Packages...)
		}
	}
	if b, ok := e.readSmall("pnpm-workspace.yaml"); ok {
		globs = append(globs, pnpmPackages(string(b))...)
	}
	declared := map[string]bool{}
	names := map[string]string{}
	for _, m := range manifests {
		dir := path.Dir(m)
		if dir == "." {
			continue
		}
		b, ok := e.readSmall(m)
		if !ok {
			continue
		}
		var pj struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(b, &pj) != nil || pj.Name == "" {
			continue
		}
		inWorkspace := false
		for _, g := range globs {
			if matchGlob(strings.TrimPrefix(strings.TrimSuffix(g, "/"), "./"), dir) {
				inWorkspace = true
			}
		}
		if _, have := names[pj.Name]; have && !(inWorkspace && !declared[pj.Name]) {
			continue
		}
		names[pj.Name] = dir
		declared[pj.Name] = inWorkspace
	}
	r.workspace = names
}

// pnpmPackages reads the "packages:" list of a pnpm-workspace.yaml.
func pnpmPackages(src string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "packages:"):
			in = true
		case in && strings.HasPrefix(t, "-"):
			g := strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "-")), `"'`)
			if !strings.HasPrefix(g, "!") {
				out = append(out, g)
			}
		case in && t != "" && !strings.HasPrefix(t, "#") && line[0] != ' ' && line[0] != '\t':
			in = false
		}
	}
	return out
}

// matchGlob matches a workspace glob ("packages/*", "apps/**") against a
// directory.
func matchGlob(glob, dir string) bool {
	g, d := strings.Split(glob, "/"), strings.Split(dir, "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(g) {
			return j == len(d)
		}
		if g[i] == "**" {
			for k := j; k <= len(d); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(d) {
			return false
		}
		ok, err := path.Match(g[i], d[j])
		return err == nil && ok && match(i+1, j+1)
	}
	return match(0, 0)
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// aliasTarget applies the first alias rule matching spec for a file in
// dir: the candidate paths (root-relative, possibly leaving the root) and
// whether a rule matched at all.
func (r *bundlerResolution) aliasTarget(dir, spec string) ([]string, *aliasRule) {
	for i := range r.aliases {
		a := &r.aliases[i]
		if !under(dir, a.scope) {
			continue
		}
		if a.pattern {
			pre, post, _ := strings.Cut(a.key, "*")
			if len(spec) < len(pre)+len(post) || !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, post) {
				continue
			}
			star := spec[len(pre) : len(spec)-len(post)]
			var out []string
			for _, t := range a.targets {
				out = append(out, strings.Replace(t, "*", star, 1))
			}
			return out, a
		}
		if spec == a.key {
			return a.targets, a
		}
		if !a.exact && strings.HasPrefix(spec, a.key+"/") {
			rest := spec[len(a.key)+1:]
			var out []string
			for _, t := range a.targets {
				if a.bare {
					out = append(out, t+"/"+rest)
				} else {
					out = append(out, path.Join(t, rest))
				}
			}
			return out, a
		}
	}
	return nil, nil
}

// resolveBare resolves a bare specifier as the application's build would:
// aliases and tsconfig paths, baseUrl, node_modules, then the workspace's
// own packages. internal reports that the specifier names application code
// (an alias or workspace package matched) even when no file was found;
// outside names the path it points to when that leaves the root.
func (e *engine) resolveBare(dir, spec string) (resolved string, internal bool, outside string) {
	r := e.resolution()
	if rewritten, ok := e.aliasSpecifier(dir, spec); ok {
		if rewritten == "electron" || strings.HasPrefix(rewritten, "electron/") || nodeBuiltins[rewritten] {
			return "", false, ""
		}
		spec = rewritten
	}
	if targets, rule := r.aliasTarget(dir, spec); rule != nil && !rule.bare {
		for _, t := range targets {
			if t == ".." || strings.HasPrefix(t, "../") {
				outside = t
				continue
			}
			if p := e.resolveFile(t); p != "" {
				return p, true, ""
			}
		}
		if !strings.HasPrefix(rule.key, "*") {
			return "", true, outside
		}
		// A catch-all pattern ("*": ["node_modules/*", "types/*"]) claims
		// no specifier it cannot resolve: packages still resolve below.
		outside = ""
	}
	for _, b := range r.bases {
		if under(dir, b.scope) {
			if p := e.resolveFile(path.Join(b.dir, spec)); p != "" && !strings.HasPrefix(p, "../") {
				return p, true, ""
			}
			break
		}
	}
	if p := e.resolvePackage(dir, spec); p != "" {
		return p, false, ""
	}
	name, sub := packageName(spec)
	if wdir, ok := r.workspace[name]; ok {
		if p := e.packageEntry(wdir, sub); p != "" {
			return p, true, ""
		}
		if p := e.workspaceSource(wdir, sub); p != "" {
			return p, true, ""
		}
		return "", true, ""
	}
	if strings.HasPrefix(spec, "@/") || strings.HasPrefix(spec, "~/") {
		return "", true, "" // the usual app alias, though no configuration declares it
	}
	return "", false, ""
}

// packageName splits "@scope/name/sub/path" into "@scope/name" and "sub/path".
func packageName(spec string) (string, string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name := parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			return name, parts[2]
		}
		return name, ""
	}
	name, sub, _ := strings.Cut(spec, "/")
	return name, sub
}

// packageEntry resolves subpath ("" = the package itself) of the package
// in dir: package.json exports, then main and module, then the file or
// index at dir/subpath.
func (e *engine) packageEntry(dir, sub string) string {
	pj := e.manifest(dir)
	if pj != nil && pj.exports != nil {
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		if t := exportTarget(pj.exports, key); t != "" {
			if p := e.resolveFile(path.Join(dir, t)); p != "" {
				return p
			}
		}
	}
	if sub == "" && pj != nil {
		for _, m := range []string{pj.main, pj.module} {
			if m == "" {
				continue
			}
			if p := e.resolveFile(path.Join(dir, m)); p != "" {
				return p
			}
		}
	}
	return e.resolveFile(path.Join(dir, sub))
}

// buildDirs are the output directories a workspace package's manifest
// commonly points into, built from src.
var buildDirs = map[string]bool{"dist": true, "out": true, "build": true, "lib": true}

// workspaceSource finds the source of a workspace package's entry whose
// built file is absent (a source checkout, where dist/ is not built): a
// file any condition of its exports names that exists and is not a
// declaration file (`"types": "./src/index.ts"`, `"source"`), else a named
// file under dist/, out/, build/ or lib/ looked up under src/ instead
// (./dist/exposed.mjs → src/exposed.ts).
func (e *engine) workspaceSource(dir, sub string) string {
	pj := e.manifest(dir)
	if pj == nil {
		return ""
	}
	var targets []string
	if pj.exports != nil {
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		targets = exportTargets(pj.exports, key)
	}
	if sub == "" {
		targets = append(targets, pj.main, pj.module)
	}
	for _, t := range targets {
		if t == "" || strings.HasSuffix(t, ".d.ts") || strings.HasSuffix(t, ".d.mts") || strings.HasSuffix(t, ".d.cts") {
			continue
		}
		if p := e.resolveFile(path.Join(dir, t)); p != "" {
			return p
		}
	}
	for _, t := range targets {
		first, rest, ok := strings.Cut(strings.TrimPrefix(path.Clean(t), "./"), "/")
		if !ok || !buildDirs[first] {
			continue
		}
		if p := e.resolveFile(path.Join(dir, "src", rest)); p != "" && !strings.HasSuffix(p, ".d.ts") {
			return p
		}
	}
	return ""
}

// exportTargets lists every file key's entry in exports names, under any
// condition, in the order written.
func exportTargets(exports any, key string) []string {
	var v any
	if o, ok := exports.(*orderedObject); ok && len(o.keys) > 0 && strings.HasPrefix(o.keys[0], ".") {
		v = o.vals[key]
	} else if key == "." {
		v = exports
	}
	var out []string
	var collect func(any)
	collect = func(v any) {
		switch t := v.(type) {
		case string:
			if strings.HasPrefix(t, "./") && !strings.Contains(t, "*") {
				out = append(out, t)
			}
		case []any:
			for _, x := range t {
				collect(x)
			}
		case *orderedObject:
			for _, k := range t.keys {
				collect(t.vals[k])
			}
		}
	}
	collect(v)
	return out
}

// manifestInfo is what resolution needs of a package.json.
type manifestInfo struct {
	main, module string
	exports      any // string, []any or *orderedObject
}

// manifest reads dir/package.json once.
func (e *engine) manifest(dir string) *manifestInfo {
	if m, ok := e.manifests[dir]; ok {
		return m
	}
	if e.manifests == nil {
		e.manifests = map[string]*manifestInfo{}
	}
	var out *manifestInfo
	if b, ok := e.readSmall(path.Join(dir, "package.json")); ok {
		var pj struct {
			Main    string          `json:"main"`
			Module  string          `json:"module"`
			Exports json.RawMessage `json:"exports"`
		}
		if json.Unmarshal(b, &pj) == nil {
			out = &manifestInfo{main: pj.Main, module: pj.Module}
			if len(pj.Exports) > 0 {
				out.exports = decodeOrdered(json.NewDecoder(bytes.NewReader(pj.Exports)))
			}
		}
	}
	e.manifests[dir] = out
	return out
}

// orderedObject is a JSON object with its key order (exports conditions
// are matched in the order the package writes them).
type orderedObject struct {
	keys []string
	vals map[string]any
}

func decodeOrdered(d *json.Decoder) any {
	tok, err := d.Token()
	if err != nil {
		return nil
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &orderedObject{vals: map[string]any{}}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return o
				}
				k, _ := kt.(string)
				o.keys = append(o.keys, k)
				o.vals[k] = decodeOrdered(d)
			}
			_, _ = d.Token()
			return o
		case '[':
			var arr []any
			for d.More() {
				arr = append(arr, decodeOrdered(d))
			}
			_, _ = d.Token()
			return arr
		}
	case string:
		return t
	}
	return nil
}

// exportConditions are the conditions an Electron main process (Node)
// loading the package matches.
var exportConditions = map[string]bool{"electron": true, "node": true, "require": true, "import": true, "module": true, "default": true, "development": true, "production": true}

// exportTarget resolves key ("." or "./sub") in a package's exports.
func exportTarget(exports any, key string) string {
	if o, ok := exports.(*orderedObject); ok && len(o.keys) > 0 && strings.HasPrefix(o.keys[0], ".") {
		if v, ok := o.vals[key]; ok {
			return conditionTarget(v, "")
		}
		for _, k := range o.keys { // subpath patterns "./*"
			pre, post, ok := strings.Cut(k, "*")
			if ok && strings.HasPrefix(key, pre) && strings.HasSuffix(key, post) && len(key) >= len(pre)+len(post) {
				return conditionTarget(o.vals[k], key[len(pre):len(key)-len(post)])
			}
		}
		return ""
	}
	if key != "." {
		return ""
	}
	return conditionTarget(exports, "")
}

func conditionTarget(v any, star string) string {
	switch t := v.(type) {
	case string:
		if !strings.HasPrefix(t, "./") {
			return ""
		}
		return strings.Replace(t, "*", star, 1)
	case []any:
		for _, x := range t {
			if s := conditionTarget(x, star); s != "" {
				return s
			}
		}
	case *orderedObject:
		for _, k := range t.keys {
			if exportConditions[k] {
				if s := conditionTarget(t.vals[k], star); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// appInternal reports whether a bare specifier that resolved to no file
// still names application code (an alias or workspace package), which is
// then not an external package.
func (e *engine) appInternal(dir, spec string) bool {
	if nodeBuiltins[spec] || spec == "electron" || strings.HasPrefix(spec, "electron/") {
		return false
	}
	_, internal, _ := e.resolveBare(dir, spec)
	return internal
}

// uniqueDirStem finds the one script file of the application (outside
// node_modules) whose directory name and stem equal p's: a bundler's
// out/preload/index.js computed from __dirname is built from
// src/preload/index.ts, where the stem alone ("index") is not unique.
func (e *engine) uniqueDirStem(p string) string {
	dir := path.Base(path.Dir(p))
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if dir == "." || dir == "/" || dir == "" {
		return ""
	}
	found := ""
	for mp := range e.files {
		if textKind(mp) != "javascript" || strings.Contains("/"+mp, "/node_modules/") || strings.HasSuffix(mp, ".d.ts") {
			continue
		}
		if path.Base(path.Dir(mp)) == dir && strings.TrimSuffix(path.Base(mp), path.Ext(mp)) == stem {
			if found != "" {
				return ""
			}
			found = mp
		}
	}
	return found
}

// aliasSpecifier applies the aliases that rewrite a specifier to another
// module specifier (at most a few times: aliases may chain, never loop).
func (e *engine) aliasSpecifier(dir, spec string) (string, bool) {
	r := e.resolution()
	changed := false
	for range 4 {
		targets, rule := r.aliasTarget(dir, spec)
		if rule == nil || !rule.bare || len(targets) == 0 || targets[0] == spec {
			break
		}
		spec, changed = targets[0], true
	}
	return spec, changed
}
