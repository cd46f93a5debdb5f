package fuel_test

import (
	"testing"
	"time"

	"rea/wasm/fuel"
)

// BenchmarkMeteredVsUnmetered runs CPU-bound Go guests under wazero's
// compiler, uninstrumented and instrumented, both within each iteration (in
// alternating order) so both see the same machine load, and reports the
// time ratio as "metered/unmetered" (1.25 = 25 % overhead).
func BenchmarkMeteredVsUnmetered(b *testing.B) {
	for _, w := range []struct {
		name, guest string
		args        []string
	}{
		{"sha256-16MiB", "sha", []string{"4194304", "4"}},
		{"sieve-fib", "sieve", []string{"5000000", "27"}},
		{"sieve", "sieve", []string{"5000000", "1"}},
	} {
		b.Run(w.name, func(b *testing.B) {
			sb := newSandbox(b)
			plain := sb.compile(b, guest(b, w.guest))
			metered := sb.compile(b, meteredGuest(b, w.guest))
			var tPlain, tMetered time.Duration
			var used uint64
			const budget = 1 << 60
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var p, m outcome
				runPlain := func() {
					start := time.Now()
					p = sb.run(b, plain, runOpts{args: w.args})
					tPlain += time.Since(start)
				}
				runMetered := func() {
					start := time.Now()
					m = sb.run(b, metered, runOpts{args: w.args, budget: budget})
					tMetered += time.Since(start)
				}
				if i%2 == 0 { // alternate the order so neither run always goes first
					runPlain()
					runMetered()
				} else {
					runMetered()
					runPlain()
				}
				if p.err != nil || m.err != nil || p.stdout != m.stdout {
					b.Fatalf("runs differ: %v %q / %v %q", p.err, p.stdout, m.err, m.stdout)
				}
				used = budget - m.left
			}
			b.ReportMetric(float64(tMetered)/float64(tPlain), "metered/unmetered")
			b.ReportMetric(float64(tPlain.Milliseconds())/float64(b.N), "unmetered-ms/op")
			b.ReportMetric(float64(tMetered.Milliseconds())/float64(b.N), "metered-ms/op")
			b.ReportMetric(float64(used), "fuel/op")
		})
	}
}

// BenchmarkInstrument measures the instrumenter itself on a Go guest.
func BenchmarkInstrument(b *testing.B) {
	bin := guest(b, "sha")
	b.SetBytes(int64(len(bin)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := fuel.Instrument(bin); err != nil {
			b.Fatal(err)
		}
	}
}
