package mcpserver

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registerTools adds every tool in scope to the go-sdk server, on two
// goroutines: the SDK decodes each schema once more to check it, and the
// tools list is sorted by name whatever the order of registration.
func (s *Server) registerTools() {
	evidence := encodeSchema(evidenceOutputSchema())
	var wg sync.WaitGroup
	half := len(s.tools) / 2
	for _, part := range [][]*Tool{s.tools[:half], s.tools[half:]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, t := range part {
				s.mcp.AddTool(s.registered(t, evidence), s.handler(t))
			}
		}()
	}
	wg.Wait()
}

// registered is the tool definition handed to the go-sdk at start, with its
// schemas already encoded: the SDK re-encodes and decodes a schema given
// as a map (three passes over ≈ 180 KB of schemas for the full catalog),
// which was the largest part of the time from `rea mcp` start to the first
// tools/list. Tools share one output schema (Evidence), encoded once. The
// JSON is that of the maps (encoding/json sorts their keys).
func (s *Server) registered(t *Tool, evidence any) *mcp.Tool {
	adv := s.advertise(t)
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
