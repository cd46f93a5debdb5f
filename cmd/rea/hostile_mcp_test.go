package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"rea/wasm/wasmtest"
)

// hostileMCP is `rea mcp` driven line by line, as a hostile client would: no
// SDK between the test and the bytes.
type hostileMCP struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	got   []map[string]json.RawMessage
	more  chan struct{}
	done  chan struct{}
}

func startHostileMCP(t *testing.T) *hostileMCP {
	t.Helper()
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "error")
	cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t), "REA_RESULT_CACHE_DIR=off")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &hostileMCP{t: t, cmd: cmd, stdin: in, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var v map[string]json.RawMessage
				if json.Unmarshal(line, &v) != nil {
					t.Errorf("rea mcp wrote a line that is not a JSON object: %.300q", line)
				}
				m.mu.Lock()
				m.got = append(m.got, v)
				m.mu.Unlock()
				select {
				case m.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-m.done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
		if s := stderr.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") {
			t.Errorf("rea mcp crashed: %.2000s", s)
		}
	})
	m.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}`)
	m.waitFor(`"init"`, 60*time.Second)
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

func (m *hostileMCP) send(line string) {
	m.t.Helper()
	if _, err := io.WriteString(m.stdin, line+"\n"); err != nil {
		m.t.Fatalf("rea mcp stopped reading (the session ended): %v", err)
	}
}

// waitFor returns the message whose id is the raw JSON id, or fails.
func (m *hostileMCP) waitFor(id string, within time.Duration) map[string]json.RawMessage {
	m.t.Helper()
	deadline := time.After(within)
	for {
		m.mu.Lock()
		for _, v := range m.got {
			if string(v["id"]) == id && v["method"] == nil {
				m.mu.Unlock()
				return v
			}
		}
		m.mu.Unlock()
		select {
		case <-m.more:
		case <-m.done:
			m.t.Fatalf("the session ended before the answer to id %s", id)
		case <-deadline:
			m.t.Fatalf("no answer to id %s within %s", id, within)
		}
	}
}

// messages returns what arrived so far.
func (m *hostileMCP) messages() []map[string]json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), m.got...)
}

func errorCode(v map[string]json.RawMessage) int {
	var e struct {
		Code int `json:"code"`
	}
	json.Unmarshal(v["error"], &e)
	return e.Code
}

func TestHostileMCPLines(t *testing.T) {
	m := startHostileMCP(t)
	deep := strings.Repeat("[", 100_000)
	for i, c := range []struct {
		line string
		code int
	}{
		{`{`, -32700},
		{`not json`, -32700},
		{"\xff\xfe{\"jsonrpc\":\"2.0\"}", -32700},
		{deep, -32700},
		{`[]`, -32600},
		{`42`, -32600},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}`, -32600},
		{`{"jsonrpc":"2.0","id":3}`, -32600},
	} {
		before := len(m.messages())
		m.send(c.line)
		// Each bad line is answered, and the session still answers a ping.
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"ping-%d","method":"ping"}`, i))
		m.waitFor(fmt.Sprintf(`"ping-%d"`, i), 30*time.Second)
		found := false
		for _, v := range m.messages()[before:] {
			if v["error"] != nil && errorCode(v) == c.code {
				found = true
			}
		}
		if !found {
			t.Errorf("%.40q: no %d answer among %v", c.line, c.code, m.messages()[before:])
		}
	}
	// A line over 16 MiB is refused with an error, and the session goes on.
	before := len(m.messages())
	m.send(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":"` + strings.Repeat("a", 17<<20) + `"}}`)
	m.send(`{"jsonrpc":"2.0","id":"after-big","method":"ping"}`)
	m.waitFor(`"after-big"`, 60*time.Second)
	refused := false
	for _, v := range m.messages()[before:] {
		if errorCode(v) == -32600 {
			refused = true
		}
	}
	if !refused {
		t.Fatal("the oversized line was not refused with -32600")
	}
}

func TestHostileMCPCancelledRequestGetsNoAnswer(t *testing.T) {
	m := startHostileMCP(t)
	dir := bigSparseDir(t, 64<<30)
	m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"inspect_artifact","arguments":{"input_path":%q,"max_total_bytes":137438953472,"max_entry_bytes":137438953472},"_meta":{"progressToken":"tok"}}}`, dir))
	// Wait for the first progress, then cancel.
	deadline := time.Now().Add(60 * time.Second)
	for {
		started := false
		for _, v := range m.messages() {
			if string(v["method"]) == `"notifications/progress"` {
				started = true
			}
		}
		if started {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no progress within 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"test"}}`)
	cancelledAt := len(m.messages())
	// The work stops: a later call is answered, and the ledger is empty.
	m.send(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"get_evidence_bundle","arguments":{"detail":"summary"}}}`)
	m.waitFor(`"after"`, 60*time.Second)
	time.Sleep(2 * time.Second) // what would follow the cancel has had time to arrive
	for _, v := range m.messages()[cancelledAt:] {
		if string(v["id"]) == `"slow"` {
			t.Fatalf("the cancelled request was answered: %s", v["result"])
		}
		if string(v["method"]) == `"notifications/progress"` && strings.Contains(string(v["params"]), "failed") {
			t.Fatalf("a failed progress followed the cancel: %s", v["params"])
		}
	}
}

// TestHostileMCPResponseBudgetCountsTheWholeResponse: a result whose text
// fits the 10 MiB budget but whose text plus structuredContent does not is
// refused (it used to be sent, and clients dropped the connection).
func TestHostileMCPResponseBudgetCountsTheWholeResponse(t *testing.T) {
	m := startHostileMCP(t)
	// An inspect_artifact record of byteBoundedPagesDir holds three
	// byte-bounded pages (64 KiB of items each), about 400 KB on the wire
	// as text plus structuredContent; 36 of them make a bundle of about
	// 14 MB whose text alone (about 7 MB) fits the 10 MiB budget.
	dir := byteBoundedPagesDir(t)
	id := 0
	call := func(name string, args map[string]any) map[string]json.RawMessage {
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
		m.send(string(b))
		return m.waitFor(fmt.Sprint(id), 3*time.Minute)
	}
	for off := 0; off < 18; off++ {
		for _, lim := range []int{500, 499} {
			call("inspect_artifact", map[string]any{"input_path": dir, "occurrences": map[string]any{"offset": off, "limit": lim},
				"nodes": map[string]any{"offset": off, "limit": lim}, "edges": map[string]any{"offset": off, "limit": lim}})
		}
	}
	v := call("get_evidence_bundle", map[string]any{})
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(v["result"], &res)
	raw, _ := json.Marshal(v)
	if !res.IsError {
		if len(raw) > 10<<20 {
			t.Fatalf("a %d-byte response was sent over the 10 MiB budget", len(raw))
		}
		t.Fatalf("the bundle fitted (%d bytes): the case no longer tests the budget; add records", len(raw))
	}
	if len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "transport") {
		t.Fatalf("want resource_constraint/transport, got %.500s", raw)
	}
}

// TestHostileMCPExportCancelTellsTheTruth: cancels racing an export's
// publish. Whatever the timing, an answer that arrives says what happened
// to the destination: success means the new bundle is there, cancelled
// means the old file is intact.
func TestHostileMCPExportCancelTellsTheTruth(t *testing.T) {
	m := startHostileMCP(t)
	dir := t.TempDir()
	for i := 0; i < 12; i++ {
		// A destination per trial: an export of an earlier trial still
		// running on a loaded machine cannot publish over this one's.
		dest := filepath.Join(dir, fmt.Sprintf("bundle-%d.json", i))
		old := []byte(fmt.Sprintf("old %d", i))
		if err := os.WriteFile(dest, old, 0o644); err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf(`"exp-%d"`, i)
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"export_evidence_bundle","arguments":{"output_path":%q,"overwrite":true}}}`, id, dest))
		time.Sleep(time.Duration(i%4) * time.Millisecond)
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, id))
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"p-%d","method":"ping"}`, i))
		m.waitFor(fmt.Sprintf(`"p-%d"`, i), 30*time.Second)
		time.Sleep(200 * time.Millisecond)
		// The answers first, then the file: an answer sent meanwhile is
		// then compared with the file as it was when it was sent (a
		// success is sent after the publish).
		msgs := m.messages()
		now, _ := os.ReadFile(dest)
		for _, v := range msgs {
			if string(v["id"]) != id {
				continue
			}
			if v["error"] != nil {
				t.Fatalf("trial %d: a JSON-RPC error answered a cancelled export: %s", i, v["error"])
			}
			var res struct {
				IsError bool `json:"isError"`
			}
			json.Unmarshal(v["result"], &res)
			switch {
			case res.IsError && string(now) != string(old):
				t.Fatalf("trial %d: the reply says the export failed, but the destination was replaced", i)
			case !res.IsError && string(now) == string(old):
				t.Fatalf("trial %d: the reply says exported, but the destination is the old file", i)
			}
		}
	}
}
