package jsengine

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// maxImportLimitations bounds the unresolved-import limitations listed one
// by one; the rest are counted in one line.
const maxImportLimitations = 40

// coverageGaps names what left the analysis short of the whole application
// besides the limits: files that were not analysed (parse failures, files
// that are not UTF-8) and imports of application code that resolve to
// nothing in the root or leave it. Each adds a limitation; the count makes
// coverage partial.
func (e *engine) coverageGaps(res *Result) int {
	gaps := 0
	for _, m := range res.Modules {
		if m.ParsedBy == "failed" {
			gaps++
			e.limitations = append(e.limitations, "not analysed, could not be parsed: "+m.Path+": "+strings.TrimPrefix(m.ParseError, m.Path+": "))
		}
	}
	gaps += res.Statistics.InvalidUTF8Files + e.fuseGaps
	seen := map[string]bool{}
	var extra int
	for _, m := range res.Modules {
		if strings.Contains("/"+m.Path, "/node_modules/") {
			continue // a dependency's optional requires are its own business
		}
		for _, imp := range m.Imports {
			if imp.Resolved != "" || imp.SpecifierKind != "module-specifier" {
				continue
			}
			if assetImport(imp.Specifier) {
				continue // styles, images, data: no code, nothing of the boundary
			}
			var msg string
			if imp.External {
				msg = electronWrapperMissing(imp)
			} else {
				msg = e.unresolvedImport(m.Path, imp)
			}
			if msg == "" || seen[msg] {
				continue
			}
			seen[msg] = true
			gaps++
			if len(seen) > maxImportLimitations {
				extra++
				continue
			}
			e.limitations = append(e.limitations, msg)
		}
	}
	if extra > 0 {
		e.limitations = append(e.limitations, fmt.Sprintf("%d more imports of application code resolve to nothing in the root (--format json lists every import)", extra))
	}
	return gaps
}

// unresolvedImport explains an import of application code that resolved
// to no file: it leaves the root, or names a file the root lacks.
func (e *engine) unresolvedImport(from string, imp Import) string {
	spec := stripQuery(imp.Specifier)
	dir := path.Dir(from)
	at := fmt.Sprintf("%s:%d", imp.Location.File, imp.Location.Line)
	var target string
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		target = path.Join(dir, spec)
	case strings.HasPrefix(spec, "/"):
		return "" // an absolute path of the machine that ran the app
	default:
		_, internal, outside := e.resolveBare(dir, spec)
		if !internal {
			return ""
		}
		if outside == "" {
			return fmt.Sprintf("import %q at %s names application code (an alias or workspace package) that resolves to nothing in the root; its facts are missing", imp.Specifier, at)
		}
		target = outside
	}
	if up := levelsAbove(target); up > 0 {
		return fmt.Sprintf("import %q at %s leaves the analysed root (it points to %s); analyse the directory %d level(s) above this root to include it", imp.Specifier, at, target, up)
	}
	return fmt.Sprintf("import %q at %s resolves to nothing in the root (no %s); its facts are missing", imp.Specifier, at, target)
}

// electronWrapperMissing explains an external package, absent from the
// root, whose name says it wraps Electron ("@theia/electron/shared/electron",
// "@app/electron"): whatever it re-exports is invisible, so windows and
// handlers reached through it are missed.
func electronWrapperMissing(imp Import) string {
	spec := strings.TrimPrefix(imp.Specifier, "node:")
	if spec == "electron" || strings.HasPrefix(spec, "electron/") {
		return ""
	}
	segs := strings.Split(spec, "/")
	if last := segs[len(segs)-1]; len(segs) < 2 || (last != "electron" && last != "electron-shared") {
		return ""
	}
	name, _ := packageName(spec)
	return fmt.Sprintf("import %q at %s:%d names a package that is not in the root and looks like a re-export of Electron; the windows and IPC reached through it are missed: analyse a root that includes node_modules/%s", imp.Specifier, imp.Location.File, imp.Location.Line, name)
}

// levelsAbove counts the leading "../" of a cleaned root-relative path.
func levelsAbove(p string) int {
	n := 0
	for p == ".." || strings.HasPrefix(p, "../") {
		n++
		p = strings.TrimPrefix(strings.TrimPrefix(p, ".."), "/")
	}
	return n
}

// stripQuery drops a bundler query or fragment ("./a.svg?url", "./w.js?worker").
func stripQuery(spec string) string {
	if i := strings.IndexAny(spec, "?#"); i > 0 {
		return spec[:i]
	}
	return spec
}

// sanitiseUTF8 replaces each byte that is not part of valid UTF-8 with a
// space, keeping every offset: the file is analysed rather than dropped,
// and the first bad offset is reported.
func sanitiseUTF8(b []byte) ([]byte, int) {
	first := -1
	out := make([]byte, len(b))
	copy(out, b)
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size <= 1 {
			if first < 0 {
				first = i
			}
			out[i] = ' '
			i++
			continue
		}
		i += size
	}
	return out, first
}

// assetImport reports an import of a file that is not code (a bundler
// loads it as a style, an image, a font or data): its absence hides no
// window, preload or channel.
func assetImport(spec string) bool {
	switch strings.ToLower(path.Ext(stripQuery(spec))) {
	case ".css", ".less", ".scss", ".sass", ".styl", ".pcss", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".avif", ".bmp",
		".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav", ".webm", ".ogg", ".md", ".txt", ".json", ".json5", ".yaml", ".yml", ".wasm", ".node":
		return true
	}
	return false
}
