package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/app"
)

// TestToolsListDuringRegistrationIsTheSDKsList holds the answer given to a
// tools/list while the tools are still being registered with the go-sdk
// (listDefinitions) byte-equal, on the wire, to the go-sdk's own answer
// once they are, for every protocol version rea negotiates and schema
// profile; and a tools/call asked during registration waits for it.
func TestToolsListDuringRegistrationIsTheSDKsList(t *testing.T) {
	a, err := app.New(app.Config{CacheDir: "off", ResultCacheDir: "off"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	for _, profile := range []string{"full", "compact", "strict"} {
		srv, err := New(a, Options{SchemaProfile: profile})
		if err != nil {
			t.Fatal(err)
		}
		<-srv.Registered()
		// The same server, frozen before its registration: definitions
		// built, nothing registered with a fresh go-sdk server.
		early := &Server{app: srv.app, opts: srv.opts, log: srv.log, tools: srv.tools, sessions: map[*mcp.ServerSession]*Session{},
			definitions: srv.definitions, defined: make(chan struct{}), registered: make(chan struct{}), catalogDigest: srv.catalogDigest}
		close(early.defined)
		early.mcp = early.sdkServer()
		early.mcp.AddReceivingMiddleware(early.whileRegistering)
		for _, version := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
			want := rawExchange(t, srv.MCP(), version, "tools/list", map[string]any{})
			got := rawExchange(t, early.mcp, version, "tools/list", map[string]any{})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, %s: tools/list during registration differs from the go-sdk's:\n got %.300s\nwant %.300s", profile, version, got, want)
			}
			if n := bytes.Count(want, []byte(`"name":`)); n < len(srv.tools) {
				t.Fatalf("%s, %s: the go-sdk listed %d names for %d tools", profile, version, n, len(srv.tools))
			}
		}
		// A cursor goes to the go-sdk, which waits for the registration.
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		res, err := early.whileRegistering(func(context.Context, string, mcp.Request) (mcp.Result, error) {
			t.Fatal("a tool method passed before the registration ended")
			return nil, nil
		})(ctx, "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "binary_session"}})
		cancel()
		if res != nil || err == nil {
			t.Fatalf("tools/call during registration: %v, %v; want it held until the context ends", res, err)
		}
	}
}

// rawExchange initialises a session on srv at version and returns the raw
// result of one request.
func rawExchange(t *testing.T, srv *mcp.Server, version, method string, params any) json.RawMessage {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(id int64, method string, params any) json.RawMessage {
		b, _ := json.Marshal(params)
		rid, _ := jsonrpc.MakeID(float64(id))
		if err := conn.Write(ctx, &jsonrpc.Request{ID: rid, Method: method, Params: b}); err != nil {
			t.Fatal(err)
		}
		for {
			msg, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := msg.(*jsonrpc.Response); ok {
				if r.Error != nil {
					t.Fatalf("%s: %v", method, r.Error)
				}
				return r.Result
			}
		}
	}
	call(1, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	if err := conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	return call(2, method, params)
}
