package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes bounds one inbound line (one JSON-RPC message).
const DefaultMaxLineBytes = 16 << 20

// maxIDBytes bounds a request id: the response budget reserves room for
// the id in the envelope, so an id may not be arbitrarily long.
const maxIDBytes = 256

// Transport is the newline-delimited JSON-RPC transport of `rea mcp`. The
// SDK's stdio transport ends the whole session on the first line that is
// not a valid message (`{`, `42`, a batch, invalid UTF-8, a line over 16
// MiB); this one reads every line under a bound, answers what is not a
// valid request with the JSON-RPC error the specification names (-32700
// parse error, -32600 invalid request) and goes on. It also keeps the
// promise of notifications/cancelled: once a request is cancelled nothing
// more is sent for it, neither its result nor its progress.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// MaxLineBytes bounds one line; 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	Log          *slog.Logger
}

// Connect implements mcp.Transport; it is called once per session.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	log := t.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &lineConn{in: t.In, out: t.Out, max: max, log: log,
		lines: make(chan inboundLine), closed: make(chan struct{}),
		inflight: map[jsonrpc.ID]string{}, cancelled: map[jsonrpc.ID]bool{}, cancelledTokens: map[string]bool{},
		shapes: paramShapes()}
	go c.readLines()
	return c, nil
}

// inboundLine is one line read, or why reading stopped.
type inboundLine struct {
	data    []byte
	tooLong bool
	err     error
}

type lineConn struct {
	in  io.Reader
	out io.Writer
	max int
	log *slog.Logger

	lines     chan inboundLine
	closed    chan struct{}
	shapes    map[string]Schema // paramcheck.go
	closeOnce sync.Once

	writeMu sync.Mutex

	// mu guards the cancellation state: requests in flight (id → progress
	// token, "" for none), cancelled ones, and their progress tokens.
	mu              sync.Mutex
	inflight        map[jsonrpc.ID]string
	cancelled       map[jsonrpc.ID]bool
	cancelledTokens map[string]bool
}

// readLines reads lines of at most max bytes; a longer line is skipped to
// its end and reported, never buffered whole.
func (c *lineConn) readLines() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		var line []byte
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = r.ReadSlice('\n')
			if !tooLong {
				if len(line)+len(chunk) > c.max {
					tooLong, line = true, nil
				} else {
					line = append(line, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if tooLong {
			if !c.send(inboundLine{tooLong: true}) {
				return
			}
		} else if len(bytes.TrimSpace(line)) > 0 {
			if !c.send(inboundLine{data: line}) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.send(inboundLine{err: err})
			return
		}
	}
}

func (c *lineConn) send(l inboundLine) bool {
	select {
	case c.lines <- l:
		return true
	case <-c.closed:
		return false
	}
}

// Read returns the next valid message, answering every invalid line on
// the way.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l inboundLine
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, l.err
		}
		if l.tooLong {
			c.log.Warn("refused an inbound line over the limit", "max_bytes", c.max)
			c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: a message of more than %d bytes was refused", c.max))
			continue
		}
		msg, id, code, why := decodeLine(l.data)
		if msg == nil {
			c.log.Warn("answered an invalid inbound message", "code", code, "reason", why)
			c.reply(id, code, why)
			continue
		}
		if c.answerInvalidParams(msg) {
			continue
		}
		c.track(msg)
		return msg, nil
	}
}

// decodeLine validates one line as a JSON-RPC 2.0 request, notification or
// response. For an invalid line it returns the id to answer (nil: null),
// the error code and why.
func decodeLine(line []byte) (jsonrpc.Message, json.RawMessage, int64, string) {
	line = bytes.TrimSpace(line)
	if !utf8.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "Parse error: the message is not valid UTF-8"
	}
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "Parse error: the message is not valid JSON (or nests deeper than 10,000 levels)"
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line"
	default:
		return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a message must be a JSON object"
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, nil, jsonrpc.CodeParseError, "Parse error: " + err.Error()
	}
	var id json.RawMessage
	rawID, hasID := fields["id"]
	if hasID {
		switch {
		case len(rawID) > maxIDBytes:
			return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: an id of more than %d bytes", maxIDBytes)
		case rawID[0] == '"':
			id = rawID
		case rawID[0] == '-' || rawID[0] >= '0' && rawID[0] <= '9':
			var n int64
			if err := json.Unmarshal(rawID, &n); err != nil || n < -(1<<53) || n > 1<<53 {
				return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a numeric id must be an integer"
			}
			id = rawID
		default:
			return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: the id must be a string or an integer"
		}
	}
	if v, ok := fields["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, id, jsonrpc.CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`
	}
	if m, ok := fields["method"]; ok {
		var s string
		if json.Unmarshal(m, &s) != nil || s == "" {
			return nil, id, jsonrpc.CodeInvalidRequest, "Invalid Request: the method must be a non-empty string"
		}
		if p, ok := fields["params"]; ok && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return nil, id, jsonrpc.CodeInvalidRequest, "Invalid Request: params must be an object"
		}
	} else {
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if !hasID || hasResult == hasError {
			return nil, id, jsonrpc.CodeInvalidRequest, "Invalid Request: a message needs a method, or an id with one result or error"
		}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, id, jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
	}
	return msg, nil, 0, ""
}

// reply writes a JSON-RPC error response.
func (c *lineConn) reply(id json.RawMessage, code int64, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err := c.writeLine(b); err != nil {
		c.log.Warn("could not answer an invalid message", "error", err)
	}
}

// track records requests in flight with their progress tokens, and
// cancellations of them.
func (c *lineConn) track(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.IsCall() {
		var p struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(req.Params, &p)
		c.inflight[req.ID] = canonicalToken(p.Meta.ProgressToken)
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	if token, ok := c.inflight[id]; ok {
		c.cancelled[id] = true
		if token != "" {
			c.cancelledTokens[token] = true
		}
	}
}

// canonicalToken spells a progress token the same way whichever side wrote
// it (1 and 1.0 are one token).
func canonicalToken(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Write sends a message unless it answers, or reports progress of, a
// request the client cancelled.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if c.suppressed(msg) {
		return nil
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(b)
}

func (c *lineConn) suppressed(msg jsonrpc.Message) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Response:
		token, inflight := c.inflight[m.ID]
		if !inflight {
			return false
		}
		delete(c.inflight, m.ID)
		if token != "" {
			delete(c.cancelledTokens, token)
		}
		if c.cancelled[m.ID] {
			delete(c.cancelled, m.ID)
			return true
		}
	case *jsonrpc.Request:
		if m.Method != "notifications/progress" || len(c.cancelledTokens) == 0 {
			return false
		}
		var p struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		}
		if json.Unmarshal(m.Params, &p) == nil && c.cancelledTokens[canonicalToken(p.ProgressToken)] {
			return true
		}
	}
	return false
}

func (c *lineConn) writeLine(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Close ends the session; a Read waiting for input returns.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			_ = cl.Close()
		}
	})
	return nil
}

func (c *lineConn) SessionID() string { return "" }
