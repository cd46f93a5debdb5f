package app

import (
	"bytes"
	"context"
	"testing"

	"rea/abi"
	"rea/jsengine/jstest"
	"rea/jsengine/report"
)

func TestShardCountDependsOnTheInputOnly(t *testing.T) {
	for _, c := range []struct {
		bytes int64
		want  int
	}{{0, 1}, {8<<20 - 1, 1}, {8 << 20, 2}, {32<<20 - 1, 2}, {32 << 20, 4}, {52 << 20, 4}, {300 << 20, 8}, {4 << 30, 8}} {
		if got := shardCount(c.bytes); got != c.want {
			t.Errorf("shardCount(%d) = %d, want %d", c.bytes, got, c.want)
		}
	}
}

func TestLimitsThatWouldCutTheAnalysisKeepItInOneInstance(t *testing.T) {
	defaults, err := report.Options{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	raised := defaults
	raised.MaxASTNodes = report.LimitCaps.MaxASTNodes
	for _, c := range []struct {
		name   string
		files  int
		bytes  int64
		limits report.Options
		want   int
	}{
		{"default node limit, 52 MiB", 3000, 52 << 20, defaults, 1},
		{"raised node limit, 52 MiB", 3000, 52 << 20, raised, 4},
		{"raised node limit, more files than max_modules", 30000, 52 << 20, raised, 1},
		{"raised node limit, 1 MiB", 100, 1 << 20, raised, 1},
	} {
		if got := shardsFor(c.files, c.bytes, 0, c.limits); got != c.want {
			t.Errorf("%s: %d shards, want %d", c.name, got, c.want)
		}
	}
}

// TestTwoShardsBelow8MiBOnlyWhenEsbuildLeavesACoreIdle: between 2 and 8
// MiB an application is cut in two unless a third or more of its text goes
// to the normaliser (which then has the second core); beyond, the size
// alone decides.
func TestTwoShardsBelow8MiBOnlyWhenEsbuildLeavesACoreIdle(t *testing.T) {
	limits, err := report.Options{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	limits.MaxASTNodes = report.LimitCaps.MaxASTNodes
	for _, c := range []struct {
		name              string
		bytes, normalised int64
		want              int
	}{
		{"1 MiB of CommonJS", 1 << 20, 0, 1},
		{"just under 2 MiB", 2<<20 - 1, 0, 1},
		{"2 MiB of CommonJS", 2 << 20, 0, 2},
		{"7 MiB, a quarter TypeScript", 7 << 20, 7 << 18, 2},
		{"6 MiB, a third TypeScript", 6 << 20, 2 << 20, 1},
		{"7 MiB, half TypeScript", 7 << 20, 7 << 19, 1},
		{"9 MiB, all TypeScript", 9 << 20, 9 << 20, 2},
	} {
		if got := shardsFor(100, c.bytes, c.normalised, limits); got != c.want {
			t.Errorf("%s: %d shards, want %d", c.name, got, c.want)
		}
	}
}

// TestShardedServiceAnalysisEqualsOneInstance runs the service with the
// application cut into shards analysed by parallel jsapp instances and
// merged by another, and compares with one instance: the analysis must be
// byte-identical and the shards' work must show in the fuel.
func TestShardedServiceAnalysisEqualsOneInstance(t *testing.T) {
	dir := t.TempDir()
	if err := jstest.WriteDir(dir, jstest.App(30, 2<<10)); err != nil {
		t.Fatal(err)
	}
	a := newJSAppBenchApp(t)
	ctx := context.Background()
	req := AnalyzeApplicationRequest{InputPath: dir}
	analyse := func(shards int, req AnalyzeApplicationRequest) (*AnalyzeApplicationResult, uint64) {
		res, err := a.analyzeApplication(ctx, req, nil, jsappTuning{shards: shards})
		if err != nil {
			t.Fatal(err)
		}
		return res, analysisOf(t, res).Provenance.FuelUsed
	}
	one, oneFuel := analyse(1, req)
	if analysisOf(t, one).Application.Summary.IPC.MainHandlers != 30 || analysisOf(t, one).Coverage != "complete" {
		t.Fatalf("one instance found %+v, coverage %s", analysisOf(t, one).Application.Summary.IPC, analysisOf(t, one).Coverage)
	}
	want := resultJSON(t, analysisOf(t, one).Application)
	for _, n := range []int{2, 3} {
		res, fuel := analyse(n, req)
		if got := resultJSON(t, analysisOf(t, res).Application); !bytes.Equal(got, want) {
			t.Fatalf("%d shards differ from one instance:\n%.3000s\n%.3000s", n, got, want)
		}
		if fuel <= oneFuel {
			t.Fatalf("%d shards used %d fuel, one instance %d: the shards did not run", n, fuel, oneFuel)
		}
	}
}

// TestShardsReachingALimitAreAnalysedAgainInOneInstance: when a shard
// reaches a limit whose effect depends on the order of work, the merge
// refuses and the service answers what one instance answers.
func TestShardsReachingALimitAreAnalysedAgainInOneInstance(t *testing.T) {
	dir := t.TempDir()
	if err := jstest.WriteDir(dir, jstest.App(30, 2<<10)); err != nil {
		t.Fatal(err)
	}
	a := newJSAppBenchApp(t)
	req := AnalyzeApplicationRequest{InputPath: dir, Options: report.Options{MaxASTNodes: 5000}}
	one, err := a.analyzeApplication(context.Background(), req, nil, jsappTuning{shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	if analysisOf(t, one).Coverage != "partial" {
		t.Fatalf("the limit was not reached: %s", analysisOf(t, one).Coverage)
	}
	two, err := a.analyzeApplication(context.Background(), req, nil, jsappTuning{shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultJSON(t, analysisOf(t, two).Application), resultJSON(t, analysisOf(t, one).Application)) {
		t.Fatal("the sharded analysis that reached a limit differs from one instance")
	}
	if analysisOf(t, two).Provenance.FuelUsed <= analysisOf(t, one).Provenance.FuelUsed {
		t.Fatalf("fuel %d vs %d: the shards and the merge should have run before one instance", analysisOf(t, two).Provenance.FuelUsed, analysisOf(t, one).Provenance.FuelUsed)
	}
}

func TestShardProgressAddsUpTheAnalysisOfEveryShard(t *testing.T) {
	var got []abi.Progress
	p := newShardProgress(2, func(x abi.Progress) { got = append(got, x) })
	p.of(0)(abi.Progress{Phase: "read", Done: 5, Total: 10})
	p.of(1)(abi.Progress{Phase: "read", Done: 5, Total: 10}) // repeated by every shard: not shown twice
	p.of(0)(abi.Progress{Phase: "analyze", Done: 3, Total: 6})
	p.of(1)(abi.Progress{Phase: "analyze", Done: 2, Total: 4})
	p.of(0)(abi.Progress{Phase: "analyze", Done: 6, Total: 6})
	want := []abi.Progress{{Phase: "read", Done: 5, Total: 10}, {Phase: "analyze", Done: 3, Total: 6},
		{Phase: "analyze", Done: 5, Total: 10}, {Phase: "analyze", Done: 8, Total: 10}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
