package jssource

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
)

// ManifestName is the manifest unpack writes beside the modules, and
// EntryName the bundle's runtime and entry code (with a package.json
// naming it main, so the unpacked tree is analysed from it).
const (
	ManifestName = "manifest.json"
	EntryName    = "entry.js"
)

// reexport is a module that only re-exports an external package
// (webpack's externals: module.exports = require("electron")).
var reexport = regexp.MustCompile(`^\s*(?:["']use strict["'];?\s*)?[\w$]+\.exports\s*=\s*require\(\s*(["'])([^"'\\]+)["']\s*\)\s*;?\s*(?:/\*(?s:.*?)\*/\s*|//[^\n]*\s*)*$`)

// Unpack splits a bundle into one file per module: each module's body,
// its factory parameters bound to CommonJS's module, exports and require,
// and every require of another module of the bundle rewritten to the
// relative path of that module's file (or to the external package a
// re-export module stands for). A manifest lists the modules, their
// shipped spans and edges. Nothing is written here: the host writes the
// files under the output directory.
func Unpack(fsys fs.FS, req sourcewire.UnpackRequest) (*sourcewire.UnpackResult, error) {
	if err := outputBounds(&req.MaxFileBytes, &req.MaxOutputBytes, &req.MaxOutputFiles); err != nil {
		return nil, err
	}
	src, err := readFile(fsys, req.Path, req.MaxFileBytes, "path")
	if err != nil {
		return nil, err
	}
	b, err := splitBundle(req.Path, src)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s does not parse as a script, so its modules cannot be recovered: %v", req.Path, err).WithDetail("field", "path")
	}
	if b == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is not a bundle rea recognises (webpack 4/5, webpack/rspack chunks, esbuild __commonJS/__esm, browserify); read it with read_javascript_source", req.Path).WithDetail("field", "path")
	}
	if len(b.modules)+1 > req.MaxOutputFiles {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "%s has %d modules, over max_output_files=%d", req.Path, len(b.modules), req.MaxOutputFiles).
			WithDetail("resource", "output").WithDetail("field", "max_output_files")
	}
	t := newText(req.Path, src)
	res := &sourcewire.UnpackResult{Bundle: req.Path, Kind: b.kind, Modules: []sourcewire.UnpackedModule{}, Files: []sourcewire.OutputFile{}, Limitations: []string{}}
	sum := sha256.Sum256([]byte(src))
	res.SHA256 = hex.EncodeToString(sum[:])

	// Files first: every key's name, unique (case-insensitively, for the
	// file systems that fold case).
	files := map[string]string{}
	byKey := map[string]*factory{}
	byBinding := map[string]*factory{}
	taken := map[string]bool{}
	for _, m := range b.modules {
		if byKey[m.key] != nil {
			res.Limitations = append(res.Limitations, fmt.Sprintf("module key %q appears twice; the later factory is written, as the bundle's table would keep it", m.key))
		}
		byKey[m.key] = m
		if m.esbuildName != "" {
			byBinding[m.esbuildName] = m
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := moduleFileName(k)
		for i := 2; taken[strings.ToLower(name)]; i++ {
			ext := path.Ext(name)
			name = strings.TrimSuffix(moduleFileName(k), ext) + fmt.Sprintf("~%d", i) + ext
		}
		taken[strings.ToLower(name)] = true
		files[k] = name
	}
	external := map[string]string{}
	for k, m := range byKey {
		if mm := reexport.FindStringSubmatch(src[m.bodyStart:m.bodyEnd]); mm != nil {
			external[k] = mm[2]
		}
	}
	total := 0
	for _, k := range keys {
		m := byKey[k]
		file := files[k]
		um := sourcewire.UnpackedModule{Key: k, File: file, Start: t.pos(m.start), End: t.pos(m.end), Requires: []sourcewire.UnpackedEdge{}, External: external[k]}
		var body strings.Builder
		fmt.Fprintf(&body, "// rea unpack_javascript_bundle: module %s of %s (shipped %d:%d–%d:%d, %s)\n", jsString(k), req.Path,
			um.Start.Line, um.Start.Column, um.End.Line, um.End.Column, b.kind)
		body.WriteString(bindParams(b.kind, m.params))
		type edit struct {
			a, b int
			with string
		}
		var edits []edit
		last := m.bodyStart
		for _, rc := range m.requires(b.kind == "esbuild", b.kind == "browserify") {
			if rc.start < last || rc.end > m.bodyEnd {
				continue // nested in a call already rewritten, or outside
			}
			target := rc.key
			switch b.kind {
			case "esbuild":
				if tm := byBinding[rc.key]; tm != nil {
					target = tm.key
				} else {
					continue
				}
			case "browserify":
				k2, ok := m.deps[rc.key]
				if !ok {
					continue // a package outside the bundle: require stays
				}
				target = k2
			}
			to := ""
			switch {
			case external[target] != "":
				to = external[target]
			case files[target] != "":
				to = relativeRequire(file, files[target])
			}
			um.Requires = append(um.Requires, sourcewire.UnpackedEdge{Key: target, To: to})
			if to == "" {
				continue // a key the bundle does not define: left as shipped
			}
			edits = append(edits, edit{rc.start, rc.end, "require(" + jsString(to) + ")"})
			last = rc.end
		}
		// A minified factory's module and exports parameters (e, r) are
		// renamed to module and exports where they are not shadowed, so
		// the file reads (and is analysed) as the CommonJS module it was.
		for _, r := range m.renames(b.kind) {
			edits = append(edits, edit{r.start, r.end, r.key})
		}
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].a < edits[j].a })
		last = m.bodyStart
		for _, e := range edits {
			if e.a < last || e.b > m.bodyEnd {
				continue
			}
			body.WriteString(src[last:e.a])
			body.WriteString(e.with)
			last = e.b
		}
		if m.exprBody {
			body.WriteString("module.exports = (")
			body.WriteString(src[last:m.bodyEnd])
			body.WriteString(");\n")
		} else {
			body.WriteString(src[last:m.bodyEnd])
			body.WriteString("\n")
		}
		content := body.String()
		total += len(content)
		if total > req.MaxOutputBytes {
			return nil, abi.Errorf(abi.CodeResourceConstraint, "the modules of %s come to more than max_output_bytes=%d", req.Path, req.MaxOutputBytes).
				WithDetail("resource", "output").WithDetail("field", "max_output_bytes")
		}
		res.Files = append(res.Files, outputFile(file, content))
		res.Modules = append(res.Modules, um)
	}
	// The runtime and entry code: the bundle without its module tables,
	// its requires of modules rewritten like the modules'.
	if b.kind != "browserify" && b.kind != "webpack-chunk" {
		type edit struct {
			a, b int
			with string
		}
		var edits []edit
		for _, tb := range b.tables {
			edits = append(edits, edit{tb[0], tb[1], src[tb[0]:tb[0]+1] + src[tb[1]-1:tb[1]]})
		}
		for _, rc := range b.entryRequires() {
			target := rc.key
			if b.kind == "esbuild" {
				tm := byBinding[rc.key]
				if tm == nil {
					continue
				}
				target = tm.key
			}
			to := external[target]
			if to == "" && files[target] != "" {
				to = relativeRequire(EntryName, files[target])
			}
			if to != "" {
				edits = append(edits, edit{rc.start, rc.end, "require(" + jsString(to) + ")"})
			}
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].a < edits[j].a })
		var entry strings.Builder
		fmt.Fprintf(&entry, "// rea unpack_javascript_bundle: the runtime and entry code of %s (%s), its module tables emptied\n", req.Path, b.kind)
		last := 0
		for _, e := range edits {
			if e.a < last {
				continue
			}
			entry.WriteString(src[last:e.a])
			entry.WriteString(e.with)
			last = e.b
		}
		entry.WriteString(src[last:])
		res.Files = append(res.Files, outputFile(EntryName, entry.String()))
		res.Files = append(res.Files, outputFile("package.json", `{"name": "rea-unpacked", "private": true, "main": "`+EntryName+`"}`+"\n"))
	}
	manifest, err := json.MarshalIndent(struct {
		Bundle  string                      `json:"bundle"`
		SHA256  string                      `json:"sha256"`
		Kind    string                      `json:"kind"`
		Modules []sourcewire.UnpackedModule `json:"modules"`
	}{req.Path, res.SHA256, b.kind, res.Modules}, "", "  ")
	if err != nil {
		return nil, err
	}
	res.Files = append(res.Files, outputFile(ManifestName, string(manifest)+"\n"))
	return res, nil
}

func outputFile(p, content string) sourcewire.OutputFile {
	sum := sha256.Sum256([]byte(content))
	return sourcewire.OutputFile{Path: p, Content: content, SHA256: hex.EncodeToString(sum[:]), Bytes: len(content)}
}

func outputBounds(maxFile, maxOut, maxFiles *int) error {
	for _, b := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"max_file_bytes", maxFile, sourcewire.DefaultMaxFileBytes, sourcewire.MaxMaxFileBytes},
		{"max_output_bytes", maxOut, sourcewire.DefaultMaxOutputBytes, sourcewire.MaxMaxOutputBytes},
		{"max_output_files", maxFiles, sourcewire.DefaultMaxOutputFiles, 200_000},
	} {
		if *b.v < 0 || *b.v > b.max {
			return abi.Errorf(abi.CodeInvalidRequest, "%s=%d is outside 0..%d", b.name, *b.v, b.max).WithDetail("field", b.name)
		}
		if *b.v == 0 {
			*b.v = b.def
		}
	}
	return nil
}

// bindParams names a factory's parameters as CommonJS's.
func bindParams(kind string, params []string) string {
	order := []string{"module", "exports", "require"}
	switch kind {
	case "esbuild":
		order = []string{"exports", "module"}
	case "browserify":
		order = []string{"require", "module", "exports"}
	}
	var decl []string
	for i, p := range params {
		if i < len(order) && p != "" && p != order[i] {
			decl = append(decl, p+" = "+order[i])
		}
	}
	if len(decl) == 0 {
		return ""
	}
	return "var " + strings.Join(decl, ", ") + ";\n"
}

// moduleFileName is the file a module key is written to, under modules/:
// "./src/a.js" → modules/src/a.js, 12 → modules/12.js; ".." segments,
// absolute prefixes and unusual characters never leave the directory.
func moduleFileName(key string) string {
	k := key
	for _, pre := range []string{"webpack://", "./"} {
		k = strings.TrimPrefix(k, pre)
	}
	var segs []string
	for _, s := range strings.Split(k, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			s = "__up__"
		}
		b := []byte(s)
		for i, c := range b {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '@' || c == '+') {
				b[i] = '_'
			}
		}
		s = string(b)
		if strings.Trim(s, ".") == "" {
			s = "_"
		}
		if len(s) > 120 {
			s = s[:120]
		}
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		segs = []string{"_"}
	}
	name := "modules/" + strings.Join(segs, "/")
	switch path.Ext(name) {
	case ".js", ".cjs", ".mjs":
	default:
		name += ".js"
	}
	return name
}

// relativeRequire is the specifier from file from to file to.
func relativeRequire(from, to string) string {
	var fd []string
	if d := path.Dir(from); d != "." {
		fd = strings.Split(d, "/")
	}
	td := strings.Split(to, "/")
	i := 0
	for i < len(fd) && i < len(td)-1 && fd[i] == td[i] {
		i++
	}
	rel := strings.Repeat("../", len(fd)-i) + strings.Join(td[i:], "/")
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
