package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rea/abi"
	"rea/guidance/guidancetest"
	"rea/guidance/index"
	"rea/wasm/wasmtest"
)

func asTyped(t *testing.T, err error) *abi.Error {
	t.Helper()
	var e *abi.Error
	if !errors.As(err, &e) {
		t.Fatalf("want a typed *abi.Error, got %T: %v", err, err)
	}
	return e
}

func newGuidanceApp(t testing.TB) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, "guidance"), CacheDir: filepath.Join(os.TempDir(), "rea-guidance-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func TestSearchGuidanceThenReadTheSectionThroughTheSandbox(t *testing.T) {
	a := newGuidanceApp(t)
	ctx := context.Background()
	res, err := a.SearchGuidance(ctx, index.SearchParams{Query: "How do I pass a retained-evidence reference?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalMatches == 0 || len(res.Matches) == 0 || !strings.HasPrefix(res.BundleDigest, "sha256:") {
		t.Fatalf("no match for a question the skill answers: %+v", res)
	}
	for _, w := range []string{"how", "do", "i", "a"} {
		if !slices.Contains(res.IgnoredGenericWords, w) {
			t.Errorf("%q was not dropped as generic: %v", w, res.IgnoredGenericWords)
		}
	}
	m := res.Matches[0]
	read, err := a.ReadGuidance(ctx, index.ReadParams{Locator: m.Locator}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if read.Locator != m.Locator || read.ContentLength != m.ContentLength || !strings.Contains(strings.ToLower(read.Content), "retained-evidence") {
		t.Fatalf("read does not return the matched section: match %+v, read %+v", m, read)
	}
}

func TestGenericOnlyQueryReturnsNoMatchesThroughTheSandbox(t *testing.T) {
	res, err := newGuidanceApp(t).SearchGuidance(context.Background(), index.SearchParams{Query: "how do I use the tool"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalMatches != 0 || res.NoMatchReason != index.ReasonGenericOnly || !strings.Contains(res.Note, "says nothing about analysis capability") {
		t.Fatalf("generic-only query: %+v", res)
	}
}

func TestStaleAndUnknownLocatorsAreUnavailableWithoutContent(t *testing.T) {
	a := newGuidanceApp(t)
	ctx := context.Background()
	res, err := a.SearchGuidance(ctx, index.SearchParams{Query: "stack canary"}, nil)
	if err != nil || len(res.Matches) == 0 {
		t.Fatalf("search: %v %+v", err, res)
	}
	parts := strings.Split(res.Matches[0].Locator, ".")
	stale := parts[0] + "." + strings.Repeat("0", len(parts[1])) + "." + parts[2]
	unknown := parts[0] + "." + parts[1] + "." + strings.Repeat("f", len(parts[2]))
	for _, tc := range []struct{ locator, reason string }{{stale, index.ReasonStaleLocator}, {unknown, index.ReasonUnknownSection}} {
		out, err := a.ReadGuidance(ctx, index.ReadParams{Locator: tc.locator}, nil)
		if out != nil {
			t.Fatalf("%s: content served: %+v", tc.reason, out)
		}
		if e := asTyped(t, err); e.Code != abi.CodeUnavailable || e.Details["reason"] != tc.reason {
			t.Errorf("%s: got %v (%v)", tc.reason, e, e.Details)
		}
	}
	if _, err := a.ReadGuidance(ctx, index.ReadParams{}, nil); asTyped(t, err).Details["field"] != "locator" {
		t.Fatalf("empty locator: %v", err)
	}
}

func TestGuidanceServesOnlyThePackagedBundle(t *testing.T) {
	a := newGuidanceApp(t)
	_, err := a.SearchGuidance(context.Background(), index.SearchParams{Query: "x", BundleRoot: "/in"}, nil)
	if e := asTyped(t, err); e.Code != abi.CodeInvalidRequest || e.Details["field"] != "bundle_root" {
		t.Fatalf("bundle_root accepted: %v", err)
	}
}

// BenchmarkSearchGuidance is the CLI's in-process path after warm-up, with
// queries the result cache has not seen: p50-ms paced 20 ms apart (as an
// agent's calls are), burst-p50-ms back to back.
func BenchmarkSearchGuidance(b *testing.B) {
	a := newGuidanceApp(b)
	ctx := context.Background()
	for range 3 { // compile, then the first standby
		if _, err := a.SearchGuidance(ctx, index.SearchParams{Query: "warm"}, nil); err != nil {
			b.Fatal(err)
		}
	}
	timed := func(q string) time.Duration {
		start := time.Now()
		if _, err := a.SearchGuidance(ctx, index.SearchParams{Query: q}, nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	paced, burst := guidancetest.PacedAndBurst(b, timed, nil)
	guidancetest.ReportMedian(b, paced, "p50-ms")
	guidancetest.ReportMedian(b, burst, "burst-p50-ms")
}
