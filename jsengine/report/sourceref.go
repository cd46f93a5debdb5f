package report

import "rea/analysis/jssource/sourcewire"

// SourceRef is where a fact's code is, in the form read_javascript_source
// takes as it is (path, line, column and its unit, the file's digest).
// The host attaches it to windows, bridge APIs, IPC operations and
// findings after the analysis (AttachSourceRefs).
type SourceRef = sourcewire.SourceRef

// AttachSourceRefs gives every window, bridge API, IPC operation and
// finding with a location its source_ref. A column of a file esbuild
// normalised (parsed_by esbuild+goja) was mapped back through esbuild's
// source map and counts UTF-16 units; others count bytes. files are the
// inventory's digests of the other text files a fact may sit in (HTML,
// package.json); a module's own digest wins.
func AttachSourceRefs(r *Result, files map[string]string) {
	digest, unit := map[string]string{}, map[string]string{}
	for p, d := range files {
		digest[p] = d
	}
	for _, m := range r.Modules {
		digest[m.Path] = m.SHA256
		if m.ParsedBy == "esbuild+goja" {
			unit[m.Path] = "utf16"
		}
	}
	ref := func(l Location) *SourceRef {
		if l.File == "" || l.Line < 1 {
			return nil
		}
		u := unit[l.File]
		if u == "" {
			u = "byte"
		}
		return &SourceRef{Path: l.File, Line: l.Line, Column: max(1, l.Column), ColumnUnit: u, SHA256: digest[l.File]}
	}
	for i := range r.Windows {
		r.Windows[i].SourceRef = ref(r.Windows[i].Location)
	}
	for i := range r.ContextBridge {
		r.ContextBridge[i].SourceRef = ref(r.ContextBridge[i].Location)
	}
	for i := range r.IPC {
		r.IPC[i].SourceRef = ref(r.IPC[i].Location)
	}
	for i := range r.Findings {
		r.Findings[i].SourceRef = ref(r.Findings[i].Location)
	}
}
