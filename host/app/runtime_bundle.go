package app

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"rea/abi"
	"rea/host/devtools"
	"rea/jsengine/report"
)

// WebBundleScript ties a file of the analysed tree to the script it holds.
type WebBundleScript struct {
	File   string `json:"file"`
	URL    string `json:"url"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Inline bool   `json:"inline"`
}

// WebBundleAnalysis is what analyze_web_bundle records: the scripts a live
// page loaded, analysed statically as one application.
type WebBundleAnalysis struct {
	Target      devtools.TargetRef `json:"target"`
	Scripts     []WebBundleScript  `json:"scripts"`
	Application report.Result      `json:"application"`
	Coverage    string             `json:"coverage"`
	Limitations []string           `json:"limitations"`
}

// AnalyzeWebBundle reads the scripts a page in scope has parsed (as
// inspect_web_page does) and runs the static JavaScript analysis over them
// in the sandbox — they are parsed, never executed. Each script becomes a
// file named after its URL path under a private folder, so findings point
// at the script's URL.
func (a *App) AnalyzeWebBundle(ctx context.Context, kind RuntimeKind, req RuntimeTargetRequest, progress func(abi.Progress)) (*RuntimeResult, error) {
	l, err := runtimeLimits(req)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	s, t, workers, err := a.attachInScope(cctx, kind, req)
	if err != nil {
		cancel()
		return nil, err
	}
	ins, err := devtools.Inspect(cctx, s, t, workers, l)
	s.Close()
	cancel()
	if err != nil {
		return nil, runtimeCallError(cctx, err)
	}
	dir, err := os.MkdirTemp("", "rea-web-bundle-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "web bundle folder: %v", err)
	}
	defer os.RemoveAll(dir)
	res := &WebBundleAnalysis{Target: t.Ref(), Scripts: []WebBundleScript{}, Limitations: append([]string{}, ins.Limitations...)}
	used := map[string]bool{}
	for i, sc := range ins.Scripts {
		if sc.SHA256 == "" {
			continue
		}
		name := scriptFileName(sc.URL, i, sc.Inline)
		for used[name] {
			name = strings.TrimSuffix(name, ".js") + fmt.Sprintf("-%d.js", i+1)
		}
		used[name] = true
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, abi.Errorf(abi.CodeInternal, "web bundle folder: %v", err)
		}
		if err := os.WriteFile(p, []byte(sc.Source), 0o600); err != nil {
			return nil, abi.Errorf(abi.CodeInternal, "web bundle folder: %v", err)
		}
		res.Scripts = append(res.Scripts, WebBundleScript{File: name, URL: sc.URL, SHA256: sc.SHA256, Bytes: sc.Bytes, Inline: sc.Inline})
	}
	if len(res.Scripts) == 0 {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "target %s has parsed no script rea could read; nothing to analyse", t.ID).WithDetail("field", "target_id")
	}
	an, err := a.AnalyzeJavaScriptApplication(ctx, AnalyzeApplicationRequest{InputPath: dir, Format: "directory", IntegrityPolicy: "fail"}, progress)
	if err != nil {
		return nil, err
	}
	analysis, err := an.Analysis()
	if err != nil {
		return nil, err
	}
	res.Application = analysis.Application
	res.Coverage = analysis.Coverage
	res.Limitations = append(res.Limitations, analysis.Limitations...)
	if !ins.Complete {
		res.Coverage = "partial"
	}
	rec, err := runtimeEvidence(kind, "analyze_web_bundle", redactedRuntimeParams(req), res, res.Limitations)
	if err != nil {
		return nil, err
	}
	return &RuntimeResult{Evidence: rec}, nil
}

// scriptFileName is a safe relative file name for a script URL: its path
// segments cleaned of anything but [A-Za-z0-9._-], ending in .js; inline
// scripts are inline-N.js.
func scriptFileName(raw string, i int, inline bool) string {
	if inline {
		return fmt.Sprintf("inline/inline-%d.js", i+1)
	}
	u, err := url.Parse(raw)
	p := raw
	if err == nil {
		p = u.Host + "/" + u.Path
		if u.Scheme == "node" {
			p = "node/" + u.Opaque
		}
	}
	var segs []string
	for _, seg := range strings.Split(path.Clean("/"+p), "/") {
		var b strings.Builder
		for _, r := range seg {
			if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		if s := strings.Trim(b.String(), "."); s != "" {
			segs = append(segs, s)
		}
	}
	if len(segs) == 0 {
		return fmt.Sprintf("script-%d.js", i+1)
	}
	if len(segs) > 8 {
		segs = segs[len(segs)-8:]
	}
	name := strings.Join(segs, "/")
	if ext := path.Ext(name); ext != ".js" && ext != ".mjs" && ext != ".cjs" {
		name += ".js"
	}
	return name
}
