package jsengine

import (
	"io/fs"
	"regexp"
	"strings"

	"rea/jsengine/report"
)

// crossReference gives every finding its equivalents (the rule table's,
// narrowed to the source type of the finding's file) and marks the
// findings a suppression comment covers. It runs once over the merged
// findings, where the whole root is readable.
func (e *engine) crossReference() {
	sources := map[string][]string{} // file → lines, read once
	lines := func(p string) []string {
		if ls, ok := sources[p]; ok {
			return ls
		}
		var ls []string
		if e.files[p] && textKind(p) != "" {
			if info, err := fs.Stat(e.fsys, p); err == nil && info.Size() <= int64(e.opts.MaxTextFileBytes) {
				if b, err := fs.ReadFile(e.fsys, p); err == nil {
					ls = strings.Split(string(b), "\n")
				}
			}
		}
		sources[p] = ls
		return ls
	}
	guarded := map[Location]bool{}
	for _, o := range e.obs {
		if o.Kind == "ipc-channel-guard" {
			guarded[o.Location] = true
		}
	}
	kept := e.findings[:0]
	for _, f := range e.findings {
		if f.RuleID == "ipc-dynamic-channel" && guarded[f.Location] {
			continue // an allow-list or a constant list fixes the channel set
		}
		kept = append(kept, f)
	}
	e.findings = kept
	for i := range e.findings {
		f := &e.findings[i]
		if f.Equivalents == nil {
			f.Equivalents = narrowEquivalents(*f, report.EquivalentsFor(f.RuleID, sourceKind(f.Location.File)))
		}
		if f.Suppressed == nil {
			f.Suppressed = suppressionOf(*f, lines(f.Location.File))
		}
	}
}

// sourceKind is the source type of a file as Electronegativity's checks
// divide them.
func sourceKind(p string) string {
	switch {
	case strings.HasSuffix(strings.ToLower(p), ".json"):
		return "json"
	case textKind(p) == "html":
		return "html"
	}
	return "javascript"
}

var (
	// rea-disable RULE[,RULE] [-- reason], in a // or /* */ or <!-- -->
	// comment.
	reaDisableRe = regexp.MustCompile(`(?://|/\*|<!--)[ \t]*rea-disable[ \t]+([A-Za-z0-9_, \t-]+?)(?:[ \t]+--[ \t]*(.*?))?[ \t]*(?:\*/|-->|$)`)
	// Electronegativity's own syntax (src/util/exceptions.js): check ids or
	// class names separated by commas or blanks.
	engDisableRe = regexp.MustCompile(`(?:/\*|//|<!--)[ \t]*eng-disable[ \t]+([\w \t,]+)`)
)

// suppressionOf finds the comment that suppresses f: rea-disable on the
// finding's line or the line before; eng-disable naming one of f's
// Electronegativity equivalents on the finding's line or on the file's
// first line (Electronegativity's file-wide form).
func suppressionOf(f Finding, lines []string) *report.Suppression {
	if len(lines) == 0 || f.Location.Line < 1 || f.Location.Line > len(lines) {
		return nil
	}
	at := func(line int) Location { return Location{File: f.Location.File, Line: line, Column: 1} }
	for _, line := range []int{f.Location.Line, f.Location.Line - 1} {
		if line < 1 {
			continue
		}
		text := lines[line-1]
		if !strings.Contains(text, "rea-disable") {
			continue
		}
		for _, m := range reaDisableRe.FindAllStringSubmatch(text, -1) {
			for _, id := range splitRuleList(m[1]) {
				if id == f.RuleID {
					loc := at(line)
					loc.Column = strings.Index(text, "rea-disable") + 1
					return &report.Suppression{Kind: "rea-disable", Reason: strings.TrimSpace(m[2]), Location: loc, Comment: truncateUTF8(strings.TrimSpace(m[0]), 300)}
				}
			}
		}
	}
	var checks []string
	for _, eq := range f.Equivalents {
		if eq.Kind == report.Electronegativity {
			checks = append(checks, eq.ID)
		}
	}
	if len(checks) == 0 {
		return nil
	}
	for _, line := range []int{f.Location.Line, 1} {
		text := lines[line-1]
		if !strings.Contains(text, "eng-disable") {
			continue
		}
		for _, m := range engDisableRe.FindAllStringSubmatch(text, -1) {
			for _, name := range splitRuleList(m[1]) {
				for _, c := range checks {
					if engNames(c, name) {
						loc := at(line)
						loc.Column = strings.Index(text, "eng-disable") + 1
						return &report.Suppression{Kind: "eng-disable", Reason: "Electronegativity " + c + " disabled in the source",
							Location: loc, Comment: truncateUTF8(strings.TrimSpace(m[0]), 300)}
					}
				}
			}
		}
	}
	return nil
}

// engNames reports whether an eng-disable directive names check c: by its
// id (CONTEXT_ISOLATION_JS_CHECK) or its class name
// (ContextIsolationJSCheck), case-insensitively.
func engNames(c, directive string) bool {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	return norm(c) == norm(directive)
}

func splitRuleList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// narrowEquivalents keeps, for a rule that covers several
// Electronegativity checks of one source type, the check the finding is
// an instance of.
func narrowEquivalents(f Finding, eqs []report.Equivalent) []report.Equivalent {
	keep := ""
	if f.RuleID == "certificate-verification-override" {
		keep = "CERTIFICATE_VERIFY_PROC_JS_CHECK"
		if strings.Contains(f.Message, "certificate-error") {
			keep = "CERTIFICATE_ERROR_EVENT_JS_CHECK"
		}
	}
	if keep == "" {
		return eqs
	}
	out := []report.Equivalent{}
	for _, e := range eqs {
		if e.Kind != report.Electronegativity || e.ID == keep {
			out = append(out, e)
		}
	}
	return out
}
