//go:build unix

package capture

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// BenchmarkTrivialCapture measures a capture of /bin/true from start to the
// settled, cleaned-up result, next to running it directly. The difference
// is rea's overhead: settlement (settle_ms of quiet output), the quiesce
// scans (two empty scans 50 ms apart) and the two checkpoints.
func BenchmarkTrivialCapture(b *testing.B) {
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, settle := range []int64{0, DefaultSettleMs} {
		b.Run("capture/settle_ms="+strconv.FormatInt(settle, 10), func(b *testing.B) {
			var cleanup time.Duration
			for b.Loop() {
				res, err := Run(context.Background(), Scenario{Executable: "/bin/true", SettleMs: &settle}, Options{})
				if err != nil {
					b.Fatal(err)
				}
				cleanup += time.Duration(res.Cleanup.DurationMs) * time.Millisecond
			}
			b.ReportMetric(float64(cleanup.Milliseconds())/float64(b.N), "cleanup-ms/op")
		})
	}
}

// BenchmarkCancelToQuiesced measures cleanup latency after cancellation of
// a run whose root started a daemon that detached into its own session
// (target ≤ 200 ms).
func BenchmarkCancelToQuiesced(b *testing.B) {
	h := helper(b)
	var total, worst time.Duration
	for b.Loop() {
		dir := b.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		s := Scenario{Executable: h, Args: []string{"daemon-and-wait", dir + "/pid"}}
		done := make(chan error, 1)
		go func() {
			_, err := Run(ctx, s, Options{})
			done <- err
		}()
		waitFile(b, dir+"/pid")
		cancelledAt := time.Now()
		cancel()
		err := <-done
		took := time.Since(cancelledAt)
		if err == nil {
			b.Fatal("a cancelled run succeeded")
		}
		total += took
		worst = max(worst, took)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "cancel-to-result-ms/op")
	b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
}
