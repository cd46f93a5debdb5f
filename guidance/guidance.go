// Package guidance holds rea's packaged guidance bundle — a skill document and
// reference documents that teach an agent how to investigate with rea — and
// tells the rest of rea which tools that guidance names.
//
// The bundle is markdown under bundle/reverse-engineer-anything, embedded into
// the binary. Package rea/guidance/index searches it; `rea setup` installs a
// copy as a skill for clients that support skills.
//
// # Notation
//
// The bundle writes names so code can tell them apart, and a catalog test can
// fail when guidance names a tool the catalog lacks:
//
//   - a tool is an inline code span holding only a lower-case snake_case
//     identifier: `analyze_javascript_application`;
//   - an argument or result field starts with a dot: `.input_path`;
//   - a value is JSON: `"record-and-continue"`;
//   - a CLI command starts with "rea ": `rea analyze PATH`;
//   - an example call is a fenced json block holding an MCP request
//     {"method": "tools/call", "params": {"name": …, "arguments": {…}}}.
package guidance

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"rea/guidance/markdown"
)

// SkillName is the directory name of the skill, as installed by `rea setup`.
const SkillName = "reverse-engineer-anything"

//go:embed bundle
var embedded embed.FS

// The search-index snapshot of the packaged bundle; regenerate it with
// `make` or `go generate ./guidance` after editing the bundle (a test fails
// while it is stale).
//
//go:generate go run ./internal/snapshotgen -bundle bundle/reverse-engineer-anything -out bundle.index
//go:embed bundle.index
var snapshot string

// Snapshot returns the search-index snapshot of the packaged bundle, for
// rea/guidance/index.Open.
func Snapshot() string { return snapshot }

// Bundle returns the packaged guidance bundle, rooted at the skill directory
// (SKILL.md, references/*.md).
func Bundle() fs.FS {
	sub, err := fs.Sub(embedded, "bundle/"+SkillName)
	if err != nil {
		panic(fmt.Sprintf("guidance: embedded bundle missing: %v", err)) // a build defect
	}
	return sub
}

// toolName is the shape of a tool reference in prose.
var toolName = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$`)

// ToolCall is one example MCP tools/call request found in the bundle.
type ToolCall struct {
	// Path and Line locate the opening fence (line is 1-based).
	Path string
	Line int
	// Tool is params.name; Arguments are the top-level keys of
	// params.arguments, sorted.
	Tool      string
	Arguments []string
}

// ReferencedTools returns the tool names the packaged bundle mentions, sorted
// and de-duplicated: every code span written as a bare tool name plus the tool
// of every example call.
func ReferencedTools() []string {
	tools, err := ReferencedToolsIn(Bundle())
	if err != nil {
		panic(fmt.Sprintf("guidance: packaged bundle is malformed: %v", err)) // caught by this package's tests
	}
	return tools
}

// ToolCalls returns the example tool calls of the packaged bundle, so a
// catalog test can check each argument against the tool's input schema.
func ToolCalls() []ToolCall {
	calls, err := ToolCallsIn(Bundle())
	if err != nil {
		panic(fmt.Sprintf("guidance: packaged bundle is malformed: %v", err))
	}
	return calls
}

// ReferencedToolsIn is ReferencedTools over any bundle.
func ReferencedToolsIn(fsys fs.FS) ([]string, error) {
	var names []string
	err := eachDocument(fsys, func(p string, src []byte, doc markdown.Document) error {
		for _, s := range doc.CodeSpans(src) {
			if toolName.MatchString(s.Text) {
				names = append(names, s.Text)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	calls, err := ToolCallsIn(fsys)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		names = append(names, c.Tool)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// ToolCallsIn is ToolCalls over any bundle. A json block that does not parse
// is an error; json blocks that are not tools/call requests are skipped.
func ToolCallsIn(fsys fs.FS) ([]ToolCall, error) {
	var calls []ToolCall
	err := eachDocument(fsys, func(p string, src []byte, doc markdown.Document) error {
		for _, b := range doc.Blocks {
			if b.Info != "json" {
				continue
			}
			var req struct {
				Method string `json:"method"`
				Params struct {
					Name      string                     `json:"name"`
					Arguments map[string]json.RawMessage `json:"arguments"`
				} `json:"params"`
			}
			if err := json.Unmarshal([]byte(b.Content), &req); err != nil {
				return fmt.Errorf("%s:%d: json example does not parse: %w", p, b.Open+1, err)
			}
			if req.Method != "tools/call" {
				continue
			}
			if !toolName.MatchString(req.Params.Name) {
				return fmt.Errorf("%s:%d: tools/call example names no tool", p, b.Open+1)
			}
			args := make([]string, 0, len(req.Params.Arguments))
			for k := range req.Params.Arguments {
				args = append(args, k)
			}
			slices.Sort(args)
			calls = append(calls, ToolCall{Path: p, Line: b.Open + 1, Tool: req.Params.Name, Arguments: args})
		}
		return nil
	})
	return calls, err
}

func eachDocument(fsys fs.FS, fn func(p string, src []byte, doc markdown.Document) error) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(path.Ext(p), ".md") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return fn(p, src, markdown.Scan(src))
	})
}
