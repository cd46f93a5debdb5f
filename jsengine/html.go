package jsengine

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"rea/jsengine/internal/digest"
)

// MaxHTMLElements is one HTML file's budget of recorded script and webview
// elements: a hostile page of a million tags degrades that page (its
// document says truncated), not the whole application's analysis.
const MaxHTMLElements = 10_000

// scanHTML extracts scripts, webviews and the CSP meta tag of an HTML file.
// It is a tolerant tag scanner, not a full HTML parser: it only needs tag
// names, attributes and the body of inline scripts.
func scanHTML(p, src string, resolve func(string) string) HTMLDocument {
	doc := HTMLDocument{Path: p, Scripts: []HTMLScript{}}
	starts := lineStarts(src)
	locAt := func(off int) Location {
		// The last line starting at or before off (binary search: a page
		// of 50,000 tags must not cost 50,000 scans of its lines).
		line := sort.Search(len(starts), func(k int) bool { return starts[k] > off }) - 1
		line = max(line, 0)
		return Location{File: p, Line: line + 1, Column: off - starts[line] + 1}
	}
	lower := strings.ToLower(src)
	// closeAt finds the next "</script" at or after an offset, searching
	// each byte at most once: 50,000 unclosed <script> tags would
	// otherwise search the rest of the page 50,000 times.
	nextClose, searchedTo := -1, 0
	closeAt := func(from int) int {
		if nextClose >= from {
			return nextClose
		}
		if searchedTo >= len(lower) && nextClose < from {
			return -1
		}
		from = max(from, searchedTo)
		k := strings.Index(lower[from:], "</script")
		if k < 0 {
			nextClose, searchedTo = -1, len(lower)
			return -1
		}
		nextClose, searchedTo = from+k, from+k
		return nextClose
	}
	i := 0
	for i < len(src) {
		lt := strings.IndexByte(src[i:], '<')
		if lt < 0 {
			break
		}
		start := i + lt
		if strings.HasPrefix(lower[start:], "<!--") {
			end := strings.Index(lower[start:], "-->")
			if end < 0 {
				break
			}
			i = start + end + 3
			continue
		}
		name, attrs, end := readTag(src, start)
		if end <= start {
			i = start + 1
			continue
		}
		i = end
		if len(doc.Scripts)+len(doc.Webviews) >= MaxHTMLElements && (name == "script" || name == "webview") {
			doc.Truncated = fmt.Sprintf("%s has more than %d script and webview elements; only the first %d were recorded", p, MaxHTMLElements, MaxHTMLElements)
			break
		}
		switch name {
		case "script":
			sc := HTMLScript{Location: locAt(start), Module: strings.EqualFold(attrs["type"], "module")}
			body := ""
			if c := closeAt(end); c >= 0 {
				body = src[end:c]
				i = c
			}
			if s, ok := attrs["src"]; ok {
				sc.Src = s
				if u := strings.ToLower(s); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "//") {
					sc.Remote = true
				} else {
					sc.Resolved = resolve(path.Join(path.Dir(p), strings.SplitN(s, "?", 2)[0]))
				}
			} else {
				sc.Inline = true
				sc.SHA256 = digest.HexString(body)
			}
			doc.Scripts = append(doc.Scripts, sc)
		case "meta":
			if strings.EqualFold(attrs["http-equiv"], "content-security-policy") {
				csp := attrs["content"]
				doc.CSP = &csp
				l := locAt(start)
				doc.CSPAt = &l
			}
		case "webview":
			wv := HTMLWebview{Location: locAt(start), Src: attrs["src"]}
			_, wv.AllowPopups = attrs["allowpopups"]
			_, wv.NodeIntegration = attrs["nodeintegration"]
			doc.Webviews = append(doc.Webviews, wv)
		}
	}
	return doc
}

// readTag parses the tag starting at src[start] == '<'. It returns the
// lower-case name, attributes (lower-case names) and the offset after '>'.
func readTag(src string, start int) (string, map[string]string, int) {
	j := start + 1
	for j < len(src) && isNameByte(src[j]) {
		j++
	}
	if j == start+1 {
		return "", nil, start
	}
	name := strings.ToLower(src[start+1 : j])
	attrs := map[string]string{}
	for j < len(src) {
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r' || src[j] == '/') {
			j++
		}
		if j >= len(src) {
			return name, attrs, j
		}
		if src[j] == '>' {
			return name, attrs, j + 1
		}
		k := j
		for k < len(src) && src[k] != '=' && src[k] != '>' && src[k] != ' ' && src[k] != '\t' && src[k] != '\n' && src[k] != '\r' && src[k] != '/' {
			k++
		}
		if k == j {
			j++
			continue
		}
		an := strings.ToLower(src[j:k])
		j = k
		val := ""
		if j < len(src) && src[j] == '=' {
			j++
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				q := src[j]
				e := strings.IndexByte(src[j+1:], q)
				if e < 0 {
					return name, attrs, len(src)
				}
				val = src[j+1 : j+1+e]
				j = j + 2 + e
			} else {
				k := j
				for k < len(src) && src[k] != ' ' && src[k] != '>' && src[k] != '\n' && src[k] != '\t' {
					k++
				}
				val = src[j:k]
				j = k
			}
		}
		if _, dup := attrs[an]; !dup {
			attrs[an] = val
		}
	}
	return name, attrs, j
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

// cspWeaknesses lists the script-relevant weaknesses of a CSP string.
func cspWeaknesses(csp string) []string {
	var weak []string
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(strings.TrimSpace(d))
		if len(f) == 0 {
			continue
		}
		directives[strings.ToLower(f[0])] = strings.ToLower(strings.Join(f[1:], " "))
	}
	src, ok := directives["script-src"]
	if !ok {
		src, ok = directives["default-src"]
	}
	if !ok {
		return []string{"no script-src or default-src directive"}
	}
	for _, tok := range strings.Fields(src) {
		switch tok {
		case "'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:", "data:":
			weak = append(weak, "script sources allow "+tok)
		}
	}
	return weak
}
