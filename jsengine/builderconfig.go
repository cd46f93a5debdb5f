package jsengine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"

	"rea/jsengine/jsparse"
)

// electron-builder configuration read without running it: YAML (go.yaml.in),
// TOML (go-toml's parser), JSON/JSON5 and JS/TS object literals (the
// engine's own parser). Each becomes a cfgValue tree that keeps the byte
// offset of every key, so a fuse is reported where it is written. Only the
// keys fuses depend on are materialised; aliases, nodes and depth are
// bounded, past a bound the reader fails with a configLimitError.

const (
	maxBuilderConfigBytes = 256 << 10 // electron-builder configs are a few KiB
	maxConfigDepth        = 64
	maxConfigNodes        = 20000 // materialised values per file, aliases expanded
	maxConfigAliases      = 1000  // YAML alias dereferences per file
)

// configLimitError is a configuration past one of the reader's bounds.
type configLimitError struct{ limit, detail string }

func (e *configLimitError) Error() string {
	return fmt.Sprintf("limit %s reached: %s", e.limit, e.detail)
}

type cfgKind uint8

const (
	cfgMap     cfgKind = iota
	cfgBool            // b
	cfgString          // s
	cfgList            // items
	cfgOther           // a number, null, a date: nothing fuses depend on
	cfgDynamic         // an expression rea does not evaluate; why says which
)

// cfgValue is one configuration value; off is the byte offset of the key
// that holds it (of the value itself for a root or a list item).
type cfgValue struct {
	kind   cfgKind
	b      bool
	s, why string
	off    int
	keys   []string
	fields map[string]*cfgValue
	items  []*cfgValue
}

func (v *cfgValue) get(k string) *cfgValue {
	if v == nil || v.kind != cfgMap {
		return nil
	}
	return v.fields[k]
}

// set adds k unless it is already there (the first writer wins: callers
// add explicit keys before merged ones).
func (v *cfgValue) set(k string, c *cfgValue) {
	if v.fields == nil {
		v.fields = map[string]*cfgValue{}
	}
	if _, ok := v.fields[k]; ok {
		return
	}
	v.keys = append(v.keys, k)
	v.fields[k] = c
}

// builderTopKeys are the root keys whose values matter for fuses; the rest
// of a configuration is never materialised.
var builderTopKeys = map[string]bool{"electronFuses": true, "extends": true, "afterPack": true, "afterSign": true, "beforePack": true, "build": true}

// budget counts what one file's reading may materialise.
type cfgBudget struct{ nodes, aliases int }

func (b *cfgBudget) node() error {
	b.nodes++
	if b.nodes > maxConfigNodes {
		return &configLimitError{"config_nodes", fmt.Sprintf("more than %d values", maxConfigNodes)}
	}
	return nil
}

// readYAMLConfig reads an electron-builder YAML file.
func readYAMLConfig(src string) (*cfgValue, error) {
	if len(src) > maxBuilderConfigBytes {
		return nil, &configLimitError{"config_bytes", fmt.Sprintf("%d bytes, more than %d", len(src), maxBuilderConfigBytes)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return nil, fmt.Errorf("yaml: %w", err)
	}
	if len(doc.Content) == 0 {
		return &cfgValue{kind: cfgMap}, nil
	}
	y := &yamlReader{src: src, starts: lineStarts(src)}
	return y.value(doc.Content[0], 0, true)
}

type yamlReader struct {
	src    string
	starts []int
	cfgBudget
}

// offset turns yaml's 1-based line and (character) column into a byte offset.
func (y *yamlReader) offset(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(y.starts) {
		return 0
	}
	off := y.starts[n.Line-1]
	for c := 1; c < n.Column && off < len(y.src) && y.src[off] != '\n'; c++ {
		_, w := utf8.DecodeRuneInString(y.src[off:])
		off += w
	}
	return off
}

func (y *yamlReader) value(n *yaml.Node, depth int, top bool) (*cfgValue, error) {
	if depth > maxConfigDepth {
		return nil, &configLimitError{"config_depth", fmt.Sprintf("nested deeper than %d", maxConfigDepth)}
	}
	if err := y.node(); err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.AliasNode:
		y.aliases++
		if y.aliases > maxConfigAliases {
			return nil, &configLimitError{"config_aliases", fmt.Sprintf("more than %d alias expansions", maxConfigAliases)}
		}
		if n.Alias == nil {
			return &cfgValue{kind: cfgOther, off: y.offset(n)}, nil
		}
		return y.value(n.Alias, depth+1, top)
	case yaml.ScalarNode:
		v := &cfgValue{kind: cfgOther, off: y.offset(n)}
		switch n.ShortTag() {
		case "!!bool":
			if n.Decode(&v.b) == nil {
				v.kind = cfgBool
			}
		case "!!str":
			v.kind, v.s = cfgString, n.Value
		}
		return v, nil
	case yaml.SequenceNode:
		v := &cfgValue{kind: cfgList, off: y.offset(n)}
		for _, c := range n.Content {
			item, err := y.value(c, depth+1, false)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
		return v, nil
	case yaml.MappingNode:
		v := &cfgValue{kind: cfgMap, off: y.offset(n)}
		var merges []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if k.ShortTag() == "!!merge" {
				merges = append(merges, val)
				continue
			}
			if top && !builderTopKeys[k.Value] {
				continue
			}
			c, err := y.value(val, depth+1, false)
			if err != nil {
				return nil, err
			}
			c.off = y.offset(k)
			v.set(k.Value, c)
		}
		// <<: *base (or a list of them): merged keys, explicit ones win.
		for _, m := range merges {
			srcs := []*yaml.Node{m}
			if m.Kind == yaml.SequenceNode {
				srcs = m.Content
			}
			for _, s := range srcs {
				c, err := y.value(s, depth+1, top)
				if err != nil {
					return nil, err
				}
				if c.kind != cfgMap {
					continue
				}
				for _, k := range c.keys {
					v.set(k, c.fields[k])
				}
			}
		}
		return v, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &cfgValue{kind: cfgMap}, nil
		}
		return y.value(n.Content[0], depth+1, top)
	}
	return &cfgValue{kind: cfgOther, off: y.offset(n)}, nil
}

// readTOMLConfig reads an electron-builder TOML file with go-toml's
// parser, which keeps every key's position (its decoder does not).
func readTOMLConfig(src string) (v *cfgValue, err error) {
	if len(src) > maxBuilderConfigBytes {
		return nil, &configLimitError{"config_bytes", fmt.Sprintf("%d bytes, more than %d", len(src), maxBuilderConfigBytes)}
	}
	data := []byte(src)
	var p unstable.Parser
	p.Reset(data)
	root := &cfgValue{kind: cfgMap}
	var budget cfgBudget
	cur := root
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, offs := tomlKey(e.Key())
			cur = &cfgValue{kind: cfgMap} // an array of tables is nothing fuses use
			if e.Kind == unstable.Table {
				cur = tomlPath(root, keys, offs)
			}
		case unstable.KeyValue:
			keys, offs := tomlKey(e.Key())
			c, err := tomlValue(e.Value(), &budget, 0)
			if err != nil {
				return nil, err
			}
			c.off = offs[len(offs)-1]
			tomlPath(cur, keys[:len(keys)-1], offs).set(keys[len(keys)-1], c)
		}
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("toml: %w", err)
	}
	return root, nil
}

func tomlKey(it unstable.Iterator) (keys []string, offs []int) {
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		offs = append(offs, int(n.Raw.Offset))
	}
	return keys, offs
}

// tomlPath returns the table at keys under v, making it if needed.
func tomlPath(v *cfgValue, keys []string, offs []int) *cfgValue {
	for i, k := range keys {
		c := v.get(k)
		if c == nil || c.kind != cfgMap {
			c = &cfgValue{kind: cfgMap, off: offs[i]}
			if v.fields != nil {
				delete(v.fields, k)
			}
			v.set(k, c)
		}
		v = c
	}
	return v
}

func tomlValue(n *unstable.Node, b *cfgBudget, depth int) (*cfgValue, error) {
	if depth > maxConfigDepth {
		return nil, &configLimitError{"config_depth", fmt.Sprintf("nested deeper than %d", maxConfigDepth)}
	}
	if err := b.node(); err != nil {
		return nil, err
	}
	switch n.Kind {
	case unstable.Bool:
		return &cfgValue{kind: cfgBool, b: string(n.Data) == "true"}, nil
	case unstable.String:
		return &cfgValue{kind: cfgString, s: string(n.Data)}, nil
	case unstable.Array:
		v := &cfgValue{kind: cfgList}
		for it := n.Children(); it.Next(); {
			c, err := tomlValue(it.Node(), b, depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, c)
		}
		return v, nil
	case unstable.InlineTable:
		v := &cfgValue{kind: cfgMap}
		for it := n.Children(); it.Next(); {
			kv := it.Node()
			if kv.Kind != unstable.KeyValue {
				continue
			}
			keys, offs := tomlKey(kv.Key())
			c, err := tomlValue(kv.Value(), b, depth+1)
			if err != nil {
				return nil, err
			}
			c.off = offs[len(offs)-1]
			tomlPath(v, keys[:len(keys)-1], offs).set(keys[len(keys)-1], c)
		}
		return v, nil
	}
	return &cfgValue{kind: cfgOther}, nil
}

// jsConfigReader turns object literals of a parsed JS/TS/JSON5 file into
// cfgValues: literals are read, identifiers are followed to a const in the
// same file, anything else is dynamic. shift is subtracted from offsets
// (JSON is parsed wrapped in parentheses).
type jsConfigReader struct {
	pf     *parsedFile
	shift  int
	consts map[string]ast.Expression
	cfgBudget
}

func newJSConfigReader(pf *parsedFile, shift int) *jsConfigReader {
	r := &jsConfigReader{pf: pf, shift: shift, consts: map[string]ast.Expression{}}
	walk(&constCollector{into: r.consts}, pf.prog)
	return r
}

// constCollector records `const|let|var NAME = <expr>` (first binding wins).
type constCollector struct{ into map[string]ast.Expression }

func (c *constCollector) Leave(any) {}
func (c *constCollector) Enter(n any) bool {
	var list []*ast.Binding
	switch d := n.(type) {
	case *ast.LexicalDeclaration:
		list = d.List
	case *ast.VariableStatement:
		list = d.List
	}
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok && b.Initializer != nil {
			if _, seen := c.into[string(id.Name)]; !seen {
				c.into[string(id.Name)] = b.Initializer
			}
		}
	}
	return true
}

func (r *jsConfigReader) off(idx int) int {
	o := r.pf.offset(file.Idx(idx)) - r.shift
	return max(o, 0)
}

func (r *jsConfigReader) value(x ast.Expression, depth int) (*cfgValue, error) {
	if depth > maxConfigDepth {
		return nil, &configLimitError{"config_depth", fmt.Sprintf("nested deeper than %d", maxConfigDepth)}
	}
	if err := r.node(); err != nil {
		return nil, err
	}
	if x == nil {
		return &cfgValue{kind: cfgOther}, nil
	}
	at := r.off(int(x.Idx0()))
	switch x := x.(type) {
	case *ast.BooleanLiteral:
		return &cfgValue{kind: cfgBool, b: x.Value, off: at}, nil
	case *ast.StringLiteral:
		return &cfgValue{kind: cfgString, s: string(x.Value), off: at}, nil
	case *ast.TemplateLiteral:
		if len(x.Expressions) == 0 && len(x.Elements) == 1 {
			return &cfgValue{kind: cfgString, s: string(x.Elements[0].Parsed), off: at}, nil
		}
	case *ast.NullLiteral, *ast.NumberLiteral:
		return &cfgValue{kind: cfgOther, off: at}, nil
	case *ast.Identifier:
		if x.Name == "undefined" {
			return &cfgValue{kind: cfgOther, off: at}, nil
		}
		if init, ok := r.consts[string(x.Name)]; ok {
			v, err := r.value(init, depth+1)
			if err != nil {
				return nil, err
			}
			v.off = at
			return v, nil
		}
	case *ast.ArrayLiteral:
		v := &cfgValue{kind: cfgList, off: at}
		for _, e := range x.Value {
			c, err := r.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, c)
		}
		return v, nil
	case *ast.ObjectLiteral:
		return r.object(x, depth)
	case *ast.CallExpression:
		// defineConfig({...}) and the like: the one object argument.
		if len(x.ArgumentList) == 1 {
			if o, ok := x.ArgumentList[0].(*ast.ObjectLiteral); ok {
				return r.object(o, depth)
			}
		}
	}
	return &cfgValue{kind: cfgDynamic, off: at, why: r.pf.text(x, 80)}, nil
}

// object reads an object literal. A spread of a const object merges it
// (later keys win, as in JS); a spread of anything else leaves a dynamic
// entry under "..." that callers report.
func (r *jsConfigReader) object(o *ast.ObjectLiteral, depth int) (*cfgValue, error) {
	v := &cfgValue{kind: cfgMap, off: r.off(int(o.Idx0()))}
	put := func(k string, c *cfgValue) {
		if v.fields != nil {
			if _, ok := v.fields[k]; ok {
				delete(v.fields, k)
				for i, kk := range v.keys {
					if kk == k {
						v.keys = append(v.keys[:i], v.keys[i+1:]...)
						break
					}
				}
			}
		}
		v.set(k, c)
	}
	for _, p := range o.Value {
		switch p := p.(type) {
		case *ast.PropertyKeyed:
			var k string
			if d, ok := p.Key.(*ast.DotExpression); ok && p.Computed {
				k = string(d.Identifier.Name) // [FuseV1Options.RunAsNode]
			} else if s, ok := staticKey(p.Key, p.Computed); ok {
				k = s
			} else {
				continue
			}
			c, err := r.value(p.Value, depth+1)
			if err != nil {
				return nil, err
			}
			c.off = r.off(int(p.Key.Idx0()))
			put(k, c)
		case *ast.PropertyShort:
			c, err := r.value(&p.Name, depth+1)
			if err != nil {
				return nil, err
			}
			put(string(p.Name.Name), c)
		case *ast.SpreadElement:
			c, err := r.value(p.Expression, depth+1)
			if err != nil {
				return nil, err
			}
			if c.kind == cfgMap {
				for _, k := range c.keys {
					put(k, c.fields[k])
				}
				continue
			}
			c.kind, c.why = cfgDynamic, "..."+r.pf.text(p.Expression, 80)
			put("...", c)
		}
	}
	return v, nil
}

// readJSONConfig reads JSON or JSON5 as a JS expression (JSON5 is a subset
// of JS object literal syntax).
func readJSONConfig(p, src string) (*cfgValue, error) {
	if len(src) > maxBuilderConfigBytes && !strings.HasSuffix(p, "package.json") {
		return nil, &configLimitError{"config_bytes", fmt.Sprintf("%d bytes, more than %d", len(src), maxBuilderConfigBytes)}
	}
	// goja's parser directly: JSON needs no esbuild fallback.
	wrapped := "(" + src + "\n)"
	prog, err := jsparse.Parse(p, wrapped)
	if err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	pf := &parsedFile{path: p, original: wrapped, generated: wrapped, prog: prog, parsedBy: "goja", language: "javascript"}
	pf.lineStarts = lineStarts(wrapped)
	pf.origStarts = pf.lineStarts
	var root ast.Expression
	if len(pf.prog.Body) == 1 {
		if es, ok := pf.prog.Body[0].(*ast.ExpressionStatement); ok {
			root = es.Expression
		}
	}
	if root == nil {
		return nil, errors.New("json: not one value")
	}
	r := newJSConfigReader(pf, 1)
	return r.value(root, 0)
}

// jsBuilderConfigs finds, in a JS/TS electron-builder config, every object
// literal that holds builder keys fuses depend on (electronFuses, extends,
// hooks): whatever the export form, those objects are the configuration.
func jsBuilderConfigs(pf *parsedFile) ([]*cfgValue, error) {
	r := newJSConfigReader(pf, 0)
	oc := &objectCollector{}
	walk(oc, pf.prog)
	var out []*cfgValue
	for _, o := range oc.found {
		v, err := r.object(o, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].off < out[j].off })
	return out, nil
}

type objectCollector struct{ found []*ast.ObjectLiteral }

func (c *objectCollector) Leave(any) {}
func (c *objectCollector) Enter(n any) bool {
	o, ok := n.(*ast.ObjectLiteral)
	if !ok {
		return true
	}
	for _, p := range o.Value {
		var k string
		switch p := p.(type) {
		case *ast.PropertyKeyed:
			k, _ = staticKey(p.Key, p.Computed)
		case *ast.PropertyShort:
			k = string(p.Name.Name)
		}
		if k == "electronFuses" || k == "afterPack" || k == "afterSign" || k == "appId" {
			c.found = append(c.found, o)
			return false
		}
	}
	return true
}
