package mcpserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A type error in request params is -32602 with data.issues[].path, like
// every semantic error, not Go's unmarshal text.
func TestParamTypeErrorsNameThePath(t *testing.T) {
	shapes := paramShapes()
	for _, tc := range []struct {
		line string
		path []any // nil: the params fit
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}}`, []any{"cursor"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{}}}`, []any{"name"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`, []any{"name"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"not checked here"}}`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":[1]}}}`, []any{"_meta", "progressToken"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":7}}}`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":{"feature":5}}}`, []any{"arguments", "feature"}},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":5}}`, []any{"arguments"}},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":5},"argument":{"name":"a","value":""}}}`, []any{"ref", "name"}},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""},"context":{"arguments":{"d":1}}}}`, []any{"context", "arguments", "d"}},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, []any{"protocolVersion"}},
		{`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":5}}`, []any{"level"}},
		{`{"jsonrpc":"2.0","id":1,"method":"some/newer/method","params":{"x":5}}`, nil},
	} {
		msg, _, _, why := decodeLine([]byte(tc.line))
		if msg == nil {
			t.Fatalf("%s: refused by decodeLine: %s", tc.line, why)
		}
		issues := paramIssues(shapes, msg.(*jsonrpc.Request))
		if tc.path == nil {
			if len(issues) != 0 {
				t.Errorf("%s: want no issues, got %+v", tc.line, issues)
			}
			continue
		}
		if len(issues) != 1 || !reflect.DeepEqual(issues[0].Path, tc.path) || !strings.HasPrefix(issues[0].Message, "params.") {
			t.Errorf("%s: want one issue at %v, got %+v", tc.line, tc.path, issues)
			continue
		}
		b, err := invalidParamsReply(msg.(*jsonrpc.Request).ID, msg.(*jsonrpc.Request).Method, issues)
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Error struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
				Data    struct {
					Issues []struct {
						Path []any `json:"path"`
					} `json:"issues"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &resp); err != nil || resp.Error.Code != jsonrpc.CodeInvalidParams || len(resp.Error.Data.Issues) != 1 ||
			strings.Contains(resp.Error.Message, "unmarshal") {
			t.Errorf("%s: reply %s", tc.line, b)
		}
	}
}
