// Package guidancetest holds what the search_guidance benchmarks share,
// in process (host/app) and over MCP (cmd/rea): queries the result cache
// has not seen, and the schedule an agent's calls follow.
package guidancetest

import (
	"fmt"
	"sort"
	"testing"
	"time"
)

// Queries returns n distinct two-word queries over words the packaged
// guidance uses, so every one is a real search and none is a cache hit.
func Queries(n int) []string {
	words := []string{"preload", "contextBridge", "ipc", "evidence", "window", "sandbox", "asar", "integrity",
		"procedure", "capture", "process", "bundle", "webpack", "unknowns", "reconstruction", "session",
		"locator", "provider", "strings", "disassemble", "compare", "version", "channel", "handler"}
	var out []string
	for i := 0; len(out) < n; i++ {
		a, b := words[i%len(words)], words[(i/len(words)+i+1)%len(words)]
		if a != b {
			out = append(out, a+" "+b+fmt.Sprintf(" %c", 'a'+rune(i/(len(words)*len(words))%26)))
		}
	}
	return out
}

// PacedAndBurst times call on 100 new queries per b.N: 50 sent 20 ms
// apart, as an agent's calls arrive (the model thinks in between), then 50
// back to back. after, when not nil, runs after each back-to-back call.
func PacedAndBurst(b *testing.B, call func(query string) time.Duration, after func()) (paced, burst []time.Duration) {
	queries := Queries(100 * b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < 50; j++ {
			time.Sleep(20 * time.Millisecond)
			paced = append(paced, call(queries[i*100+j]))
		}
		for j := 50; j < 100; j++ {
			burst = append(burst, call(queries[i*100+j]))
			if after != nil {
				after()
			}
		}
	}
	b.StopTimer()
	return paced, burst
}

// ReportMedian reports the median of d in milliseconds as metric name.
func ReportMedian(b *testing.B, d []time.Duration, name string) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name)
}
