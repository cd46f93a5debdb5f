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
			wv.Attributes = webviewAttributes(attrs)
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
// 'unsafe-inline' is ignored by browsers when a nonce, a hash or
// 'strict-dynamic' is present, and 'strict-dynamic' makes host and scheme
// sources ignored too (CSP Level 3): neither is then a weakness.
func cspWeaknesses(csp string) []string {
	var weak []string
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(strings.TrimSpace(d))
		if len(f) == 0 {
			continue
		}
		if _, dup := directives[strings.ToLower(f[0])]; !dup {
			directives[strings.ToLower(f[0])] = strings.ToLower(strings.Join(f[1:], " "))
		}
	}
	src, ok := directives["script-src"]
	if !ok {
		src, ok = directives["default-src"]
	}
	if !ok {
		return []string{"no script-src or default-src directive"}
	}
	toks := strings.Fields(src)
	nonceOrHash, strictDynamic := false, false
	for _, tok := range toks {
		switch {
		case strings.HasPrefix(tok, "'nonce-"), strings.HasPrefix(tok, "'sha256-"), strings.HasPrefix(tok, "'sha384-"), strings.HasPrefix(tok, "'sha512-"):
			nonceOrHash = true
		case tok == "'strict-dynamic'":
			strictDynamic = true
		}
	}
	for _, tok := range toks {
		switch tok {
		case "'unsafe-inline'":
			if !nonceOrHash && !strictDynamic {
				weak = append(weak, "script sources allow "+tok)
			}
		case "'unsafe-eval'":
			weak = append(weak, "script sources allow "+tok)
		case "*", "http:", "https:", "data:":
			if !strictDynamic {
				weak = append(weak, "script sources allow "+tok)
			}
		default:
			if !strictDynamic && scriptGadgetHost(tok) {
				weak = append(weak, "script sources allow "+tok+", which serves JSONP endpoints or script libraries that bypass the policy")
			}
		}
	}
	return weak
}

// gadgetHosts serve JSONP endpoints or old AngularJS builds that let a page
// run arbitrary script through an allow-listed host (the best known of CSP
// Evaluator's bypass list).
var gadgetHosts = []string{"ajax.googleapis.com", "cdnjs.cloudflare.com", "cdn.jsdelivr.net", "unpkg.com",
	"www.google.com", "www.googleapis.com", "accounts.google.com", "code.angularjs.org", "*.googleapis.com"}

func scriptGadgetHost(tok string) bool {
	h := strings.TrimPrefix(strings.TrimPrefix(tok, "https://"), "http://")
	h = strings.SplitN(h, "/", 2)[0]
	for _, g := range gadgetHosts {
		if h == g {
			return true
		}
	}
	return false
}

// webviewAttributes keeps the security-relevant attributes of a <webview>.
func webviewAttributes(attrs map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"src", "webpreferences", "disablewebsecurity", "nodeintegrationinsubframes",
		"enableblinkfeatures", "blinkfeatures", "disableblinkfeatures", "preload", "partition", "allowpopups", "nodeintegration"} {
		if v, ok := attrs[k]; ok {
			out[k] = v
		}
	}
	return out
}
