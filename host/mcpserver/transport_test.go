package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestDecodeLine(t *testing.T) {
	for _, c := range []struct {
		line string
		code int64 // 0: a valid message
		id   string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, 0, ""},
		{`{`, jsonrpc.CodeParseError, ""},
		{"\xff", jsonrpc.CodeParseError, ""},
		{strings.Repeat("[", 20_000), jsonrpc.CodeParseError, ""},
		{`[]`, jsonrpc.CodeInvalidRequest, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, ""},
		{`"x"`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":2.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 300) + `","method":"ping"}`, jsonrpc.CodeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":4,"method":5}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":4,"method":"x","params":1}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":4}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":4,"result":1,"error":{}}`, jsonrpc.CodeInvalidRequest, "4"},
	} {
		msg, id, code, why := decodeLine([]byte(c.line))
		if c.code == 0 {
			if msg == nil {
				t.Errorf("%.40q refused: %d %s", c.line, code, why)
			}
			continue
		}
		if msg != nil || code != c.code || string(id) != c.id || why == "" {
			t.Errorf("%.40q: msg %v, id %s, code %d (%s); want code %d id %q", c.line, msg, id, code, why, c.code, c.id)
		}
	}
}

// TestTransportKeepsTheSessionAndSilencesCancelledRequests drives the
// connection directly: bad lines are answered and skipped, a line over the
// bound is refused, and after notifications/cancelled neither the result
// nor progress of that request is written.
func TestTransportKeepsTheSessionAndSilencesCancelledRequests(t *testing.T) {
	in := strings.Join([]string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":9}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"t2"}}}`,
		strings.Repeat("x", 200),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	conn, _ := (&Transport{In: strings.NewReader(in), Out: &out, MaxLineBytes: 150}).Connect(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var methods []string
	for {
		msg, err := conn.Read(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		methods = append(methods, msg.(*jsonrpc.Request).Method)
	}
	if strings.Join(methods, ",") != "tools/call,tools/call,notifications/cancelled,ping" {
		t.Fatalf("read %v", methods)
	}
	progress := func(tok any) *jsonrpc.Request {
		p, _ := json.Marshal(map[string]any{"progressToken": tok, "progress": 1})
		return &jsonrpc.Request{Method: "notifications/progress", Params: p}
	}
	id := func(v any) jsonrpc.ID { i, _ := jsonrpc.MakeID(v); return i }
	for _, m := range []jsonrpc.Message{
		progress(9.0), progress("t2"),
		&jsonrpc.Response{ID: id(1.0), Result: json.RawMessage(`{"isError":true}`)},
		&jsonrpc.Response{ID: id(2.0), Result: json.RawMessage(`{}`)},
	} {
		if err := conn.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{`"code":-32700`, `"code":-32600`, `"progressToken":"t2"`, `"id":2,"result"`}
	if len(lines) != len(want) {
		t.Fatalf("wrote %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %s; want %s", i, lines[i], w)
		}
	}
}

// FuzzDecodeLine: any line is a message or a -32700/-32600 answer, never a
// panic.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{`, `[]`, `{"jsonrpc":"2.0","id":{"a":1}}`, "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(bytes.TrimSpace(b)) == 0 {
			return
		}
		msg, _, code, _ := decodeLine(b)
		if msg == nil && code != jsonrpc.CodeParseError && code != jsonrpc.CodeInvalidRequest {
			t.Fatalf("%q: code %d", b, code)
		}
	})
}
