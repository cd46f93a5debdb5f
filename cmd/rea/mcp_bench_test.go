package main_test

import (
	"context"
	"os"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/guidance/guidancetest"
	"rea/wasm/wasmtest"
)

// BenchmarkMCPStartToFirstToolsList measures process start, initialize and
// the first tools/list answer (target: median ≤ 100 ms).
func BenchmarkMCPStartToFirstToolsList(b *testing.B) {
	bin := wasmtest.ReaBinary(b)
	dir := wasmtest.ModuleDir(b)
	samples := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "mcp", "--log-level", "error")
		cmd.Env = append(os.Environ(), moduleEnv(dir)...)
		start := time.Now()
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pinnedProtocol})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.ListTools(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
		_ = s.Close()
	}
	reportQuantiles(b, samples)
}

// BenchmarkMCPSequentialSmallCalls times 100 sequential binary_session calls
// on one connection and reports p50/p99.
func BenchmarkMCPSequentialSmallCalls(b *testing.B) {
	cmd := exec.Command(wasmtest.ReaBinary(b), "mcp", "--log-level", "error")
	cmd.Env = append(os.Environ(), moduleEnv(wasmtest.ModuleDir(b))...)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pinnedProtocol})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < 100; j++ {
			start := time.Now()
			res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "binary_session", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
			samples = append(samples, time.Since(start))
		}
	}
	b.StopTimer()
	reportQuantiles(b, samples)
}

func reportQuantiles(b *testing.B, samples []time.Duration) {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(samples[len(samples)/2]), "p50-ms")
	b.ReportMetric(ms(samples[len(samples)*99/100]), "p99-ms")
}

// moduleEnv points a binary built without modules at dir; a binary built by
// make (REA_BIN) runs its embedded modules, as users run it.
func moduleEnv(dir string) []string {
	if os.Getenv("REA_BIN") != "" {
		return nil
	}
	return []string{"REA_MODULE_DIR=" + dir}
}

// BenchmarkMCPSearchGuidance times search_guidance over MCP stdio after
// warm-up, with queries the result cache has not seen: p50-ms paces them as
// an agent does (the model thinks between calls; here 20 ms), so the server
// has its next instance started when the call arrives — the number;
// burst-p50-ms sends them back to back; repeat-p50-ms is one query repeated
// (served from the result cache).
func BenchmarkMCPSearchGuidance(b *testing.B) {
	cmd := exec.Command(wasmtest.ReaBinary(b), "mcp", "--log-level", "error")
	cmd.Env = append(os.Environ(), append(moduleEnv(wasmtest.ModuleDir(b)), "REA_RESULT_CACHE_DIR=off")...)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pinnedProtocol})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	call := func(q string) time.Duration {
		start := time.Now()
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_guidance", Arguments: map[string]any{"query": q}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		return time.Since(start)
	}
	for range 5 { // warm-up: compile, first instances
		call("warm up")
	}
	var repeat []time.Duration
	paced, burst := guidancetest.PacedAndBurst(b, call, func() { repeat = append(repeat, call("preload contextBridge")) })
	reportQuantiles(b, paced)
	guidancetest.ReportMedian(b, burst, "burst-p50-ms")
	guidancetest.ReportMedian(b, repeat, "repeat-p50-ms")
}
