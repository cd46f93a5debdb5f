package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registerTools defines every tool in scope and registers it with the
// go-sdk server in the background, on two goroutines, so that nothing of it
// stands between the start of `rea mcp` and its answer to initialize. The
// SDK's own checks of each schema (it decodes every one twice) are most of
// the work; until they are done, tools/list is answered from the
// definitions, which are what the SDK lists once they are registered (a
// test holds both answers equal), and tools/call waits. The server
// advertises no list changes, so a client connected during registration
// sees nothing of it.
func (s *Server) registerTools() {
	s.definitions = make([]*mcp.Tool, len(s.tools))
	s.defined, s.registered = make(chan struct{}), make(chan struct{})
	s.mcp.AddReceivingMiddleware(s.whileRegistering)
	evidence := encodeSchema(evidenceOutputSchema())
	var defined, registered sync.WaitGroup
	half := len(s.tools) / 2
	for _, part := range [][2]int{{0, half}, {half, len(s.tools)}} {
		defined.Add(1)
		registered.Add(1)
		go func() {
			defer registered.Done()
			for i := part[0]; i < part[1]; i++ {
				s.definitions[i] = s.registration(s.tools[i], evidence)
			}
			defined.Done()
			defined.Wait()
			for i := part[0]; i < part[1]; i++ {
				s.mcp.AddTool(s.definitions[i], s.handler(s.tools[i]))
			}
		}()
	}
	go func() {
		defined.Wait()
		close(s.defined)
		registered.Wait()
		close(s.registered)
	}()
}

// Registered is closed once every tool is registered with the go-sdk
// server (New starts the registration).
func (s *Server) Registered() <-chan struct{} { return s.registered }

// whileRegistering answers a first tools/list from the definitions while
// the go-sdk registration runs, and holds the other tool methods until it
// is done.
func (s *Server) whileRegistering(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !strings.HasPrefix(method, "tools/") {
			return next(ctx, method, req)
		}
		if method == "tools/list" {
			if err := wait(ctx, s.defined); err != nil {
				return nil, err
			}
			select {
			case <-s.registered:
			default:
				if list, ok := req.(*mcp.ListToolsRequest); ok && (list.Params == nil || list.Params.Cursor == "") && len(s.definitions) <= toolsPageSize {
					return s.listDefinitions(), nil
				}
			}
		}
		if err := wait(ctx, s.registered); err != nil {
			return nil, err
		}
		return next(ctx, method, req)
	}
}

// listDefinitions is the go-sdk's answer to a tools/list without a cursor
// (one page: toolsPageSize is above any catalog's size), built from the
// definitions it is given: sorted by name, in one page, cacheable as
// "public" (the SDK's default scope).
func (s *Server) listDefinitions() *mcp.ListToolsResult {
	res := &mcp.ListToolsResult{Tools: append([]*mcp.Tool{}, s.definitions...)}
	res.CacheScope = "public"
	return res
}

// wait returns when done is closed or ctx ends.
func wait(ctx context.Context, done <-chan struct{}) error {
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// registration is the tool definition handed to the go-sdk at start, with its
// schemas already encoded: the SDK re-encodes and decodes a schema given
// as a map (three passes over ≈ 180 KB of schemas for the full catalog),
// which was the largest part of the time from `rea mcp` start to the first
// tools/list. Tools share one output schema (Evidence), encoded once. The
// JSON is that of the maps (encoding/json sorts their keys).
func (s *Server) registration(t *Tool, evidence any) *mcp.Tool {
	adv := s.advertiseInput(t)
	adv.InputSchema = encodeSchema(adv.InputSchema)
	if t.Output == nil {
		adv.OutputSchema = evidence
	} else {
		adv.OutputSchema = encodeSchema(adv.OutputSchema)
	}
	return adv
}

// encodeSchema returns schema as JSON; a schema that does not encode is
// left for the SDK to report.
func encodeSchema(schema any) any {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as the SDK writes the maps
	if err := enc.Encode(schema); err != nil {
		return schema
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
