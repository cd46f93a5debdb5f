package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// CheckLabels holds each label against the materialised source, so a label
// edited by hand cannot drift from the code it describes: an IPC label's
// channel (or the constant its note names) must be written within
// LineSlack lines of its line, a window's line must hold a constructor
// (`new …BrowserWindow(`, BrowserView, WebContentsView) or
// overrideBrowserWindowOptions, a bridge key's line an exposeInMainWorld.
// Channels that come from iterating a constant collection are written
// elsewhere and are not checked here. It returns one line per problem.
func CheckLabels(a App, dir string) []string {
	files := map[string][]string{}
	read := func(f string) []string {
		if l, ok := files[f]; ok {
			return l
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		var l []string
		if err == nil {
			l = strings.Split(string(b), "\n")
		}
		files[f] = l
		return l
	}
	around := func(f string, line int) (string, bool) {
		l := read(f)
		if l == nil {
			return "", false
		}
		lo, hi := max(0, line-1-LineSlack), min(len(l), line+LineSlack)
		if lo >= hi {
			return "", true
		}
		return strings.Join(l[lo:hi], "\n"), true
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, op := range a.IPC {
		switch op.Shape {
		case "forEach-constant-array", "for-of-constant-array", "object-map-channel":
			continue
		}
		text, ok := around(op.File, op.Line)
		if !ok {
			bad("ipc %s:%d: no such file", op.File, op.Line)
			continue
		}
		keys := []string{op.Channel}
		if m := constNote.FindStringSubmatch(op.Note); m != nil {
			keys = append(keys, strings.TrimPrefix(m[1], "const."))
		}
		if !containsAny(text, keys) {
			bad("ipc %s:%d: neither %q nor its constant is written there", op.File, op.Line, op.Channel)
		}
	}
	for _, w := range a.Windows {
		text, ok := around(w.File, w.Line)
		if !ok {
			bad("window %s:%d: no such file", w.File, w.Line)
		} else if !windowCtor.MatchString(text) {
			bad("window %s:%d: no window constructor there", w.File, w.Line)
		}
	}
	for _, b := range a.Bridge {
		text, ok := around(b.File, b.Line)
		if !ok {
			bad("bridge %s:%d: no such file", b.File, b.Line)
		} else if !strings.Contains(text, "exposeInMainWorld") && !strings.Contains(text, "exposeInIsolatedWorld") {
			bad("bridge %s:%d: no exposeInMainWorld there", b.File, b.Line)
		}
	}
	return problems
}

var (
	constNote  = regexp.MustCompile(`channel ((?:\w+\.)?\w+\.\w+|const\.\w+)`)
	windowCtor = regexp.MustCompile(`new [\w.]*(BrowserWindow|BrowserView|WebContentsView)\b|overrideBrowserWindowOptions`)
)

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if k != "" && strings.Contains(s, k) {
			return true
		}
	}
	return false
}
