package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/wasm/wasmtest"
)

// lockedBuffer collects a child's stderr while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var compiledLine = regexp.MustCompile(`msg="module compiled" module=(\S+)`)

// compiledModules lists the modules the server's debug log says it loaded.
func compiledModules(log string) []string {
	var out []string
	for _, m := range compiledLine.FindAllStringSubmatch(log, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

// startLoggingMCP starts `rea mcp` with debug logs collected.
func startLoggingMCP(t *testing.T, env ...string) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "debug")
	cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t), "REA_RESULT_CACHE_DIR=off")
	cmd.Env = append(cmd.Env, env...)
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "rea-e2e", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pinnedProtocol})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, logs
}

// TestMCPAnswersToolsListBeforeLoadingAnyModule: initialize and tools/list
// load no module; a tool call loads the one module it needs, on first use.
func TestMCPAnswersToolsListBeforeLoadingAnyModule(t *testing.T) {
	// An idle period no test reaches: only requests load modules.
	s, logs := startLoggingMCP(t, "REA_MCP_WARM_IDLE_MS=600000")
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
	}
	if got := compiledModules(logs.String()); len(got) != 0 {
		t.Fatalf("modules loaded before the first tools/list answer: %v", got)
	}
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_guidance", Arguments: map[string]any{"query": "preload"}})
	if err != nil || res.IsError {
		t.Fatalf("search_guidance: %v %v", err, res)
	}
	if got := compiledModules(logs.String()); strings.Join(got, ",") != "guidance" {
		t.Fatalf("search_guidance loaded %v, want only the guidance module", got)
	}
}

// TestMCPLoadsEveryModuleWhenIdle: with the client quiet, the server loads
// every module, one after the other, without a request asking for it.
func TestMCPLoadsEveryModuleWhenIdle(t *testing.T) {
	s, logs := startLoggingMCP(t, "REA_MCP_WARM_IDLE_MS=0")
	if _, err := s.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(wasmtest.ModuleDir(t), "*.wasm"))
	var want []string
	for _, f := range files {
		want = append(want, strings.TrimSuffix(filepath.Base(f), ".wasm"))
	}
	sort.Strings(want)
	deadline := time.Now().Add(5 * time.Minute) // a bound for a loaded machine, not a measurement
	for {
		got := compiledModules(logs.String())
		if strings.Join(got, ",") == strings.Join(want, ",") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("idle server loaded %v, want every module %v\n%s", got, want, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestWarmIdleSettingIsValidatedAtStart(t *testing.T) {
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp")
	cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t), "REA_MCP_WARM_IDLE_MS=soon")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "REA_MCP_WARM_IDLE_MS") {
		t.Fatalf("a bad REA_MCP_WARM_IDLE_MS must stop the server naming the variable: %v\n%s", err, out)
	}
}
