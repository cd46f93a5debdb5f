package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// jsonFormat is the `mcpServers` shape shared by Claude Code, Claude
// Desktop, Cursor, Gemini CLI and Windsurf:
//
//	{"mcpServers": {"rea": {"command": "/abs/rea", "args": ["mcp"]}}}
//
// Claude Code also records the transport: "type": "stdio".
type jsonFormat struct {
	withType bool
	// under is the path of the object holding mcpServers when it is not
	// the root: Claude Code keeps local-scope servers under
	// projects.<dir>. Such entries are inspected, never written.
	under []string
}

// remoteKeys are members of a server entry that select another transport;
// a stdio registration must not keep them.
var remoteKeys = []string{"url", "httpUrl", "serverUrl"}

// jsonEntry is a new rea entry, in the member order clients write.
type jsonEntry struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func (f jsonFormat) name() string { return "json" }
func (f jsonFormat) key() string {
	return strings.Join(append(append([]string{}, f.under...), "mcpServers", ServerName), ".")
}

// inspect reports the registration in doc.
func (f jsonFormat) inspect(doc []byte, want []string) (Status, []string, string) {
	root, err := f.decode(doc)
	if err != nil {
		return StatusInvalid, nil, err.Error()
	}
	for _, k := range f.under {
		next, ok := root[k].(map[string]any)
		if !ok {
			return StatusMissing, nil, "no " + k + " entry"
		}
		root = next
	}
	servers, ok := root["mcpServers"]
	if !ok || servers == nil {
		return StatusMissing, nil, "no mcpServers entry"
	}
	sm, ok := servers.(map[string]any)
	if !ok {
		return StatusInvalid, nil, "mcpServers is not an object; fix it by hand, rea setup leaves it untouched"
	}
	entry, ok := sm[ServerName]
	if !ok {
		return StatusMissing, nil, "mcpServers has no rea entry"
	}
	em, ok := entry.(map[string]any)
	if !ok {
		return StatusStale, nil, "the rea entry is not an object"
	}
	for _, k := range remoteKeys {
		if _, ok := em[k]; ok {
			return StatusStale, nil, fmt.Sprintf("the rea entry is a remote server (%s); rea registers a stdio command", k)
		}
	}
	if t, ok := em["type"]; ok && t != "stdio" {
		return StatusStale, nil, fmt.Sprintf("the rea entry has transport type %v; rea registers stdio", t)
	}
	return compareVector(commandVector(em["command"], em["args"]), want)
}

// decode parses doc, which must be one JSON object.
func (f jsonFormat) decode(doc []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, errors.New("the file is empty; rea setup leaves it untouched — delete it or write {} into it")
	}
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		return nil, fmt.Errorf("not valid JSON (%v); fix it by hand, rea setup leaves it untouched", err)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v); fix it by hand, rea setup leaves it untouched", err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the top level is not a JSON object; fix it by hand, rea setup leaves it untouched")
	}
	return root, nil
}

// apply returns doc with the rea entry registering want. A missing file is
// passed as nil.
func (f jsonFormat) apply(doc []byte, want []string) ([]byte, error) {
	if len(f.under) > 0 {
		return nil, errors.New("nested registrations are inspected, never written")
	}
	entry := jsonEntry{Command: want[0], Args: want[1:]}
	if f.withType {
		entry.Type = "stdio"
	}
	if doc == nil {
		out, err := encodeJSON(map[string]any{"mcpServers": map[string]any{ServerName: entry}}, "", "  ", true)
		return append(out, '\n'), err
	}
	if _, err := f.decode(doc); err != nil {
		return nil, err
	}
	rootAt := skipSpace(doc, 0)
	members, _, err := jsonObject(doc, rootAt)
	if err != nil {
		return nil, err
	}
	servers, ok := lookupMember(members, "mcpServers")
	if !ok || string(doc[servers.valStart:servers.valEnd]) == "null" {
		return setJSONMember(doc, rootAt, "mcpServers", map[string]any{ServerName: entry})
	}
	if !servers.valueIsObjectStart {
		return nil, errors.New("mcpServers is not an object")
	}
	list, _, err := jsonObject(doc, servers.valStart)
	if err != nil {
		return nil, err
	}
	rea, ok := lookupMember(list, ServerName)
	if !ok || !rea.valueIsObjectStart {
		return setJSONMember(doc, servers.valStart, ServerName, entry)
	}
	// Update the existing entry member by member, so env, timeouts and
	// anything else the user added to it stay as they were.
	at := rea.valStart
	for _, k := range remoteKeys {
		if doc, err = deleteJSONMember(doc, at, k); err != nil {
			return nil, err
		}
	}
	if f.withType {
		doc, err = setJSONMember(doc, at, "type", "stdio")
	} else {
		doc, err = f.dropForeignType(doc, at)
	}
	if err != nil {
		return nil, err
	}
	if doc, err = setJSONMember(doc, at, "command", want[0]); err != nil {
		return nil, err
	}
	return setJSONMember(doc, at, "args", want[1:])
}

// dropForeignType removes a "type" other than "stdio" from the entry at
// doc[at].
func (f jsonFormat) dropForeignType(doc []byte, at int) ([]byte, error) {
	members, _, err := jsonObject(doc, at)
	if err != nil {
		return nil, err
	}
	if m, ok := lookupMember(members, "type"); ok && string(doc[m.valStart:m.valEnd]) != `"stdio"` {
		return deleteJSONMember(doc, at, "type")
	}
	return doc, nil
}

// sameOutsideEntry reports whether before and after are equal once the
// members rea manages are set aside: every other server and setting
// survived the edit. before is nil for a file that did not exist.
func (f jsonFormat) sameOutsideEntry(before, after []byte) error {
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
	stripManaged(b, "mcpServers")
	stripManaged(a, "mcpServers")
	if !reflect.DeepEqual(a, b) {
		return errors.New("the edit changed configuration outside the rea entry")
	}
	return nil
}

// managedKeys are the members of the rea entry that setup may write or
// remove.
var managedKeys = append([]string{"type", "command", "args"}, remoteKeys...)

// stripManaged removes what setup manages from a decoded configuration:
// the managed members of the rea entry, then the entry and the servers
// table when nothing else is left in them.
func stripManaged(root map[string]any, serversKey string) {
	servers, ok := root[serversKey].(map[string]any)
	if !ok {
		if v, present := root[serversKey]; present && v == nil {
			delete(root, serversKey)
		}
		return
	}
	if entry, ok := servers[ServerName].(map[string]any); ok {
		for _, k := range managedKeys {
			delete(entry, k)
		}
		if len(entry) == 0 {
			delete(servers, ServerName)
		}
	} else {
		delete(servers, ServerName)
	}
	if len(servers) == 0 {
		delete(root, serversKey)
	}
}

// commandVector joins a command and its args; nil when they are not
// strings.
func commandVector(command, args any) []string {
	cmd, ok := command.(string)
	if !ok {
		return nil
	}
	v := []string{cmd}
	switch a := args.(type) {
	case nil:
	case []any:
		for _, x := range a {
			s, ok := x.(string)
			if !ok {
				return nil
			}
			v = append(v, s)
		}
	default:
		return nil
	}
	return v
}

// sameFile reports whether two paths name the same existing file, so a
// registration through a symlink to this binary counts as aligned.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// compareVector classifies a registered command vector against want.
func compareVector(got, want []string) (Status, []string, string) {
	switch {
	case got == nil:
		return StatusStale, nil, "the rea entry has no usable command and args"
	case got[0] != want[0] && !sameFile(got[0], want[0]):
		reason := fmt.Sprintf("registered command %s is not this rea binary %s", got[0], want[0])
		if _, err := os.Stat(got[0]); err != nil {
			reason += " (and it no longer exists)"
		}
		return StatusStale, got, reason
	case !reflect.DeepEqual(got[1:], want[1:]):
		return StatusStale, got, fmt.Sprintf("registered arguments %q differ from %q", got[1:], want[1:])
	}
	return StatusAligned, got, ""
}
