package setup

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// tomlFormat is Codex's shape:
//
//	[mcp_servers.rea]
//	command = "/abs/rea"
//	args = ["mcp"]
//
// The file is parsed with go-toml to judge it and verify edits, and edited
// as text so comments, ordering and every other table survive byte for
// byte. Only a [mcp_servers.rea] table is edited; a rea server written as an
// inline table or dotted keys is reported and left for the user.
type tomlFormat struct{}

// tomlManaged are the keys of [mcp_servers.rea] that setup writes or
// removes; the rest (env, startup_timeout_sec, ...) stay.
var tomlManaged = []string{"command", "args", "url"}

func (tomlFormat) name() string { return "toml" }
func (tomlFormat) key() string  { return "mcp_servers." + ServerName }

func (f tomlFormat) decode(doc []byte) (map[string]any, error) {
	var root map[string]any
	if err := toml.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("not valid TOML (%v); fix it by hand, rea setup leaves it untouched", err)
	}
	if root == nil {
		root = map[string]any{}
	}
	return root, nil
}

func (f tomlFormat) inspect(doc []byte, want []string) (Status, []string, string) {
	root, err := f.decode(doc)
	if err != nil {
		return StatusInvalid, nil, err.Error()
	}
	servers, ok := root["mcp_servers"]
	if !ok {
		return StatusMissing, nil, "no mcp_servers table"
	}
	sm, ok := servers.(map[string]any)
	if !ok {
		return StatusInvalid, nil, "mcp_servers is not a table; fix it by hand, rea setup leaves it untouched"
	}
	entry, ok := sm[ServerName]
	if !ok {
		return StatusMissing, nil, "mcp_servers has no rea table"
	}
	em, ok := entry.(map[string]any)
	if !ok {
		return StatusInvalid, nil, "mcp_servers.rea is not a table; fix it by hand, rea setup leaves it untouched"
	}
	if _, _, found := findTOMLTable(doc); !found {
		st, got, reason := f.judgeEntry(em, want)
		if st == StatusAligned {
			return st, got, reason
		}
		return StatusInvalid, got, "mcp_servers.rea is written as an inline table or dotted keys, which rea setup does not edit; " +
			"point it at " + strings.Join(want, " ") + " by hand or move it into a [mcp_servers.rea] table"
	}
	return f.judgeEntry(em, want)
}

func (f tomlFormat) judgeEntry(em map[string]any, want []string) (Status, []string, string) {
	if _, ok := em["url"]; ok {
		return StatusStale, nil, "the rea entry is a remote server (url); rea registers a stdio command"
	}
	return compareVector(commandVector(em["command"], em["args"]), want)
}

// tomlHeader matches the header of the rea server table in its bare or
// quoted spellings.
var tomlHeader = regexp.MustCompile(`^[ \t]*\[[ \t]*(?:mcp_servers|"mcp_servers"|'mcp_servers')[ \t]*\.[ \t]*(?:rea|"rea"|'rea')[ \t]*\][ \t]*(?:#.*)?$`)

// findTOMLTable returns the byte range of the [mcp_servers.rea] table's
// body: from the line after its header to the next table header.
func findTOMLTable(doc []byte) (bodyStart, bodyEnd int, found bool) {
	stmts := tomlStatements(doc, 0)
	for i, st := range stmts {
		if !st.header || !tomlHeader.MatchString(strings.TrimRight(string(doc[st.start:st.end]), "\r\n")) {
			continue
		}
		bodyEnd = len(doc)
		for _, next := range stmts[i+1:] {
			if next.header {
				bodyEnd = next.start
				break
			}
		}
		return st.end, bodyEnd, true
	}
	return 0, 0, false
}

// tomlStatement is one line-level construct of a table body.
type tomlStatement struct {
	start, end int // end is past the newline
	key        string
	header     bool
}

// tomlStatements splits doc from off into statements until the end of
// doc: blank and comment lines are skipped, table headers end a body.
func tomlStatements(doc []byte, off int) []tomlStatement {
	var out []tomlStatement
	for off < len(doc) {
		end := lineEnd(doc, off)
		trimmed := strings.TrimSpace(string(doc[off:end]))
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			off = end
			continue
		case strings.HasPrefix(trimmed, "["):
			out = append(out, tomlStatement{start: off, end: end, header: true})
			off = end
			continue
		}
		stEnd := tomlStatementEnd(doc, off)
		key := trimmed
		if i := strings.IndexByte(key, '='); i >= 0 {
			key = strings.Trim(strings.TrimSpace(key[:i]), `"'`)
		}
		out = append(out, tomlStatement{start: off, end: stEnd, key: key})
		off = stEnd
	}
	return out
}

// tomlStatementEnd returns the offset past the key/value statement that
// starts at off, following strings, arrays and inline tables across lines.
func tomlStatementEnd(doc []byte, off int) int {
	depth := 0
	i := off
	for i < len(doc) {
		c := doc[i]
		switch {
		case c == '#':
			i = lineEnd(doc, i)
			if depth == 0 {
				return i
			}
			continue
		case c == '\n':
			if depth == 0 {
				return i + 1
			}
		case bytes.HasPrefix(doc[i:], []byte(`"""`)):
			i = closeAfter(doc, i+3, `"""`, true)
			continue
		case bytes.HasPrefix(doc[i:], []byte(`'''`)):
			i = closeAfter(doc, i+3, `'''`, false)
			continue
		case c == '"':
			i = closeAfter(doc, i+1, `"`, true)
			continue
		case c == '\'':
			i = closeAfter(doc, i+1, `'`, false)
			continue
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
		i++
	}
	return len(doc)
}

// closeAfter returns the offset past the first delim at or after i,
// honouring backslash escapes in basic strings.
func closeAfter(doc []byte, i int, delim string, escapes bool) int {
	for i < len(doc) {
		if escapes && doc[i] == '\\' {
			i += 2
			continue
		}
		if bytes.HasPrefix(doc[i:], []byte(delim)) {
			end := i + len(delim)
			// A multi-line string may end with up to two extra quotes.
			for len(delim) == 3 && end < len(doc) && doc[end] == delim[0] {
				end++
			}
			return end
		}
		i++
	}
	return len(doc)
}

func lineEnd(doc []byte, off int) int {
	if i := bytes.IndexByte(doc[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(doc)
}

// tomlString encodes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlArray(v []string) string {
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = tomlString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (f tomlFormat) apply(doc []byte, want []string) ([]byte, error) {
	command := "command = " + tomlString(want[0]) + "\n"
	args := "args = " + tomlArray(want[1:]) + "\n"
	if doc == nil {
		return []byte("[mcp_servers." + ServerName + "]\n" + command + args), nil
	}
	root, err := f.decode(doc)
	if err != nil {
		return nil, err
	}
	bodyStart, bodyEnd, found := findTOMLTable(doc)
	if !found {
		if servers, ok := root["mcp_servers"].(map[string]any); ok {
			if _, ok := servers[ServerName]; ok {
				return nil, errors.New("mcp_servers.rea is not written as a [mcp_servers.rea] table; edit it by hand")
			}
		}
		sep := "\n"
		if len(doc) > 0 && doc[len(doc)-1] != '\n' {
			sep = "\n\n"
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			sep = ""
			doc = nil
		}
		out := append(append([]byte{}, doc...), sep+"[mcp_servers."+ServerName+"]\n"+command+args...)
		return out, nil
	}
	// Rewrite the managed statements of the table body in place.
	var out []byte
	out = append(out, doc[:bodyStart]...)
	wrote := map[string]bool{}
	off := bodyStart
	for _, st := range tomlStatements(doc[:bodyEnd], bodyStart) {
		out = append(out, doc[off:st.start]...)
		switch st.key {
		case "command":
			out = append(out, command...)
			wrote["command"] = true
		case "args":
			out = append(out, args...)
			wrote["args"] = true
		case "url":
		default:
			out = append(out, doc[st.start:st.end]...)
		}
		off = st.end
	}
	out = append(out, doc[off:bodyEnd]...)
	// Missing keys go right after the header.
	var missing string
	if !wrote["command"] {
		missing += command
	}
	if !wrote["args"] {
		missing += args
	}
	if missing != "" {
		out = append(out[:bodyStart], append([]byte(missing), out[bodyStart:]...)...)
	}
	if bodyStart > 0 && doc[bodyStart-1] != '\n' {
		// The header was the last line and had no newline.
		out = append(out[:bodyStart], append([]byte("\n"), out[bodyStart:]...)...)
	}
	return append(out, doc[bodyEnd:]...), nil
}

func (f tomlFormat) sameOutsideEntry(before, after []byte) error {
	a, err := f.decode(after)
	if err != nil {
		return err
	}
	b := map[string]any{}
	if before != nil {
		if b, err = f.decode(before); err != nil {
			return err
		}
	}
	stripTOML(a)
	stripTOML(b)
	if !reflect.DeepEqual(a, b) {
		return errors.New("the edit changed configuration outside the rea table")
	}
	return nil
}

func stripTOML(root map[string]any) {
	servers, ok := root["mcp_servers"].(map[string]any)
	if !ok {
		return
	}
	if entry, ok := servers[ServerName].(map[string]any); ok {
		for _, k := range tomlManaged {
			delete(entry, k)
		}
		if len(entry) == 0 {
			delete(servers, ServerName)
		}
	}
	if len(servers) == 0 {
		delete(root, "mcp_servers")
	}
}
