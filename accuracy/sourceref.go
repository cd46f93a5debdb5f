package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"rea/jsengine/report"
)

// CheckSourceRefs reads every finding's source_ref back with rea
// read-javascript-source, the way an agent would, and lists the findings
// whose page does not show the code that starts at their location in the
// shipped file (issue 23: every fact's source_ref reads back its code).
func CheckSourceRefs(rea, dir string, res report.Result) (checked int, problems []string) {
	seen := map[report.SourceRef]bool{}
	for _, f := range res.Findings {
		ref := f.SourceRef
		if ref == nil {
			if f.Location.File != "" {
				problems = append(problems, fmt.Sprintf("%s at %s:%d has no source_ref", f.RuleID, f.Location.File, f.Location.Line))
			}
			continue
		}
		if seen[*ref] {
			continue
		}
		seen[*ref] = true
		checked++
		if p := readBack(rea, dir, *ref); p != "" {
			problems = append(problems, f.RuleID+": "+p)
		}
	}
	return checked, problems
}

func readBack(rea, dir string, ref report.SourceRef) string {
	raw, _ := json.Marshal(ref)
	cmd := exec.Command(rea, "read-javascript-source", dir, "--source-ref", string(raw), "--format", "json", "--limit", "40")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Sprintf("%s:%d:%d: %v: %s", ref.Path, ref.Line, ref.Column, err, lastLines(stdout.String()+stderr.String(), 2))
	}
	var ev struct {
		NormalizedResult struct {
			Result struct {
				FocusLine int `json:"focus_line"`
				Offset    int `json:"offset"`
				Lines     []struct {
					Text    string `json:"text"`
					Shipped *struct {
						Offset int `json:"offset"`
					} `json:"shipped"`
				} `json:"lines"`
			} `json:"result"`
		} `json:"normalized_result"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &ev); err != nil {
		return fmt.Sprintf("%s:%d: the page does not decode: %v", ref.Path, ref.Line, err)
	}
	page := ev.NormalizedResult.Result
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref.Path)))
	if err != nil {
		return err.Error()
	}
	at := byteOffset(src, ref)
	want := wordAt(src, at)
	i := page.FocusLine - 1 - page.Offset
	if i < 0 || i >= len(page.Lines) {
		return fmt.Sprintf("%s:%d:%d: focus line %d not on the page", ref.Path, ref.Line, ref.Column, page.FocusLine)
	}
	text := page.Lines[i].Text
	if i+1 < len(page.Lines) {
		text += page.Lines[i+1].Text
	}
	if sh := page.Lines[i].Shipped; sh == nil || sh.Offset > at || !strings.Contains(text, want) {
		return fmt.Sprintf("%s:%d:%d: the code there starts with %q, the focus line reads %q", ref.Path, ref.Line, ref.Column, want, page.Lines[i].Text)
	}
	return ""
}

func byteOffset(src []byte, ref report.SourceRef) int {
	lines := strings.SplitAfter(string(src), "\n")
	off := 0
	for i := 0; i < ref.Line-1 && i < len(lines); i++ {
		off += len(lines[i])
	}
	if ref.Line-1 >= len(lines) {
		return off
	}
	if ref.ColumnUnit != "utf16" {
		return off + ref.Column - 1
	}
	units := 0
	for i, r := range lines[ref.Line-1] {
		if units >= ref.Column-1 {
			return off + i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return off + len(lines[ref.Line-1])
}

func wordAt(src []byte, off int) string {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	i := min(off, len(src))
	for i < len(src) && !word(src[i]) {
		i++
	}
	j := i
	for j < len(src) && word(src[j]) {
		j++
	}
	return string(src[i:j])
}
