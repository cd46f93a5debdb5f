package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK decodes request params into Go structs and answers a type error
// with -32602 whose message is Go's unmarshal text ("cannot unmarshal …
// into Go struct field mcp.ListToolsParams.cursor"). The transport checks
// the params of the methods rea serves against their MCP shapes first, so
// a type error is answered like every semantic one: -32602 with
// data.issues[] naming the path, the reason and the expected type.

// paramShapes are the MCP request params rea serves, typed the way the
// specification (2025-11-25 schema) types them. Objects stay open: a
// client may send fields of a newer revision.
func paramShapes() map[string]Schema {
	open := func(props map[string]Schema, required ...string) Schema {
		s := object("", props, required...)
		delete(s, "additionalProperties")
		return s
	}
	strs := Schema{"type": "object", "additionalProperties": Schema{"type": "string"}}
	meta := open(map[string]Schema{"progressToken": {"type": []string{"string", "integer"}}})
	cursor := open(map[string]Schema{"cursor": {"type": "string"}, "_meta": meta})
	implementation := open(map[string]Schema{"name": {"type": "string"}, "version": {"type": "string"}, "title": {"type": "string"}}, "name", "version")
	return map[string]Schema{
		"initialize": open(map[string]Schema{"protocolVersion": {"type": "string"}, "capabilities": {"type": "object"},
			"clientInfo": implementation, "_meta": meta}, "protocolVersion"),
		"ping":                     open(map[string]Schema{"_meta": meta}),
		"tools/list":               cursor,
		"prompts/list":             cursor,
		"resources/list":           cursor,
		"resources/templates/list": cursor,
		"tools/call":               open(map[string]Schema{"name": {"type": "string"}, "_meta": meta}, "name"),
		"prompts/get":              open(map[string]Schema{"name": {"type": "string"}, "arguments": strs, "_meta": meta}, "name"),
		"resources/read":           open(map[string]Schema{"uri": {"type": "string"}, "_meta": meta}, "uri"),
		"logging/setLevel":         open(map[string]Schema{"level": {"type": "string"}, "_meta": meta}, "level"),
		"completion/complete": open(map[string]Schema{
			"ref":      open(map[string]Schema{"type": {"type": "string"}, "name": {"type": "string"}, "uri": {"type": "string"}}, "type"),
			"argument": open(map[string]Schema{"name": {"type": "string"}, "value": {"type": "string"}}, "name", "value"),
			"context":  open(map[string]Schema{"arguments": strs}),
			"_meta":    meta,
		}, "ref", "argument"),
	}
}

// paramIssues checks a request's params against its method's shape; nil
// when they fit or the method has no shape here (the SDK answers it).
func paramIssues(shapes map[string]Schema, req *jsonrpc.Request) []Issue {
	shape, ok := shapes[req.Method]
	if !ok {
		return nil
	}
	raw := bytes.TrimSpace(req.Params)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil // decodeLine admitted only valid JSON
	}
	var issues []Issue
	check(shape, v, nil, &issues)
	for i := range issues {
		// Paths are relative to params: say so, rather than "arguments".
		where := "params"
		if len(issues[i].Path) > 0 {
			where += "." + pathString(issues[i].Path)
		}
		_, rest, _ := strings.Cut(issues[i].Message, ": ")
		issues[i].Message = where + ": " + rest
	}
	return issues
}

// invalidParamsReply is the -32602 answer to params that do not fit their
// method's shape.
func invalidParamsReply(id jsonrpc.ID, method string, issues []Issue) ([]byte, error) {
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = is.Message
	}
	data, err := json.Marshal(map[string]any{"issues": issues})
	if err != nil {
		return nil, err
	}
	return jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidParams,
		Message: "invalid params for " + method + ": " + strings.Join(msgs, "; "),
		Data:    data,
	}})
}

// answerInvalidParams answers a request whose params do not fit its
// method's shape and reports whether it did.
func (c *lineConn) answerInvalidParams(msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return false
	}
	issues := paramIssues(c.shapes, req)
	if len(issues) == 0 {
		return false
	}
	b, err := invalidParamsReply(req.ID, req.Method, issues)
	if err == nil {
		err = c.writeLine(b)
	}
	if err != nil {
		c.log.Warn("could not answer invalid params", "method", req.Method, "error", err)
	}
	return true
}
