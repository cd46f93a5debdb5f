package sourcemap

import (
	"encoding/base64"
	"io/fs"
	"net/url"
	"path"
	"strings"
)

// The maps an application ships, found and named the one way the analysis
// (jsengine) and the source reader (analysis/jssource) both use.

// DeclaredURL is the last sourceMappingURL a file declares, whole ("" when
// none).
func DeclaredURL(src string) string {
	// The comment ends the file. Most files declare none, and only their
	// last 4 KiB are read (a scan of the whole file costs fuel in wasm); a
	// tail that is one run of base64 is the end of a long inline map.
	tail := strings.TrimRight(src, " \t\r\n")
	if len(tail) > 4096 {
		tail = tail[len(tail)-4096:]
	}
	if !strings.Contains(tail, "sourceMappingURL=") && !isBase64Run(tail) {
		return ""
	}
	i := strings.LastIndex(src, "sourceMappingURL=")
	if i < 2 || (src[i-2:i] != "# " && src[i-2:i] != "@ ") {
		return ""
	}
	rest := src[i+len("sourceMappingURL="):]
	if j := strings.IndexAny(rest, " \t\r\n*"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// isBase64Run reports whether s is made of base64 characters only.
func isBase64Run(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return len(s) > 0
}

// Locate finds the map file p (a slash path of the root) declares: an
// inline data: URL (its bytes, and p as the map's path), a
// sourceMappingURL naming a file of the root, or else p+".map". exists
// says whether a path names a file of the root; nothing outside the root
// and nothing over a network is ever named.
func Locate(p, src string, exists func(string) bool) (mapPath string, inline []byte, ok bool) {
	u := DeclaredURL(src)
	switch {
	case strings.HasPrefix(u, "data:"):
		meta, payload, ok := strings.Cut(u, ",")
		if !ok || !strings.Contains(meta, ";base64") {
			return "", nil, false
		}
		b, err := base64.StdEncoding.DecodeString(payload)
		return p, b, err == nil
	case u != "" && !strings.Contains(u, "://"):
		if dec, err := url.PathUnescape(strings.SplitN(u, "?", 2)[0]); err == nil {
			if mp := path.Join(path.Dir(p), dec); fs.ValidPath(mp) && exists(mp) {
				return mp, nil, true
			}
		}
	}
	if exists(p + ".map") {
		return p + ".map", nil, true
	}
	return "", nil, false
}

// SourceName reports a map's source as rea names it: webpack://,
// webpack-internal://, vite:// and rollup:// dropped (webpack://<app
// name>/./src/x.ts: the app name is no directory), file:// stripped, then
// relative to the map's directory (and a relative sourceRoot), cleaned. A
// name that leaves the root keeps its "../"; absolute names and other URLs
// stay as they are.
func SourceName(mapDir, root, src string) string {
	for _, scheme := range []string{"webpack://", "webpack-internal://", "vite://", "rollup://"} {
		if rest, ok := strings.CutPrefix(src, scheme); ok {
			if _, after, ok := strings.Cut(rest, "/"); ok {
				return path.Clean(strings.TrimPrefix(after, "./"))
			}
			return path.Clean(rest)
		}
	}
	if strings.HasPrefix(src, "file://") {
		return strings.TrimPrefix(src, "file://")
	}
	if strings.Contains(src, "://") || strings.HasPrefix(src, "/") {
		return src
	}
	if root != "" && !strings.Contains(root, "://") && !strings.HasPrefix(root, "/") {
		return path.Join(mapDir, root, src)
	}
	return path.Join(mapDir, src)
}
