package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rea/abi"
	"rea/host/capture"
	"rea/host/evidence"
)

func captureApp(t *testing.T) *App {
	t.Helper()
	a, err := New(Config{CacheDir: "off", ResultCacheDir: "off"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

func TestCaptureProcessScenarioIsVerifiableEvidenceWithoutTheSecret(t *testing.T) {
	const secret = "s3cret-value-42"
	got := filepath.Join(t.TempDir(), "got")
	at := int64(0)
	req := CaptureProcessRequest{Executable: "/bin/sh", Args: []string{"-c", `IFS= read -r line; printf '%s' "$line" > "$1"; echo done`, "sh", got},
		Events: []capture.Event{{AtMs: &at, Action: capture.ActionInput, Data: secret + "\n", Sensitive: true}}}
	res, err := captureApp(t).CaptureProcessScenario(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got); string(b) != secret {
		t.Fatalf("the process received %q", b)
	}
	rec := res.Evidence
	if rec.PredicateType != capture.PredicateType || rec.Operation != capture.Operation || rec.Authority != evidence.AuthorityControlledReplay {
		t.Fatalf("record %s %s %s", rec.PredicateType, rec.Operation, rec.Authority)
	}
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(sh)
	if rec.Subject == nil || rec.Subject.Digest.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("subject %+v", rec.Subject)
	}
	doc, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), secret) {
		t.Fatal("the secret is in the Evidence record")
	}
	if !strings.Contains(string(rec.Parameters), capture.Redacted) {
		t.Fatalf("parameters %s", rec.Parameters)
	}
	back, err := evidence.Parse(doc)
	if err != nil || back.EvidenceID != rec.EvidenceID {
		t.Fatalf("parse: %v (%s vs %s)", err, back.EvidenceID, rec.EvidenceID)
	}
	var nr capture.Result
	if err := json.Unmarshal(rec.NormalizedResult, &nr); err != nil || nr.RunID != res.Capture.RunID || !strings.Contains(nr.Output.Text, "done") {
		t.Fatalf("normalized_result: %v %+v", err, nr.Output)
	}
}

func TestCaptureProcessScenarioCancellationKeepsThePartialObservation(t *testing.T) {
	// Cancelled once the scenario's processes run (they write a file): a
	// fixed deadline could, on a loaded machine, end the call before the
	// launch, leaving nothing to signal.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := filepath.Join(t.TempDir(), "ready")
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(ready); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := captureApp(t).CaptureProcessScenario(ctx, CaptureProcessRequest{Executable: "/bin/sh", Args: []string{"-c", "sleep 30 & /usr/bin/touch " + ready + "; sleep 30"}}, nil)
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeCancelled {
		t.Fatalf("error %v", err)
	}
	p, ok := e.Details["partial_observation"].(*capture.Result)
	if !ok || p.Cleanup.Status != capture.CleanupQuiesced || len(p.Cleanup.SignalAttempts) == 0 {
		t.Fatalf("partial observation %#v", e.Details["partial_observation"])
	}
	if rep := capture.Reap(p.RunID, capture.ReapOptions{}); len(rep.SignalAttempts) != 0 {
		t.Fatalf("processes with the run token outlived the capture: %+v", rep.SignalAttempts)
	}
}

func TestCompareProcessCapturesLinksBothCapturesAndRejectsOtherEvidence(t *testing.T) {
	a := captureApp(t)
	run := func(word string) evidence.Record {
		res, err := a.CaptureProcessScenario(context.Background(), CaptureProcessRequest{Executable: "/bin/echo", Args: []string{word}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Evidence
	}
	left, right := run("one"), run("two")
	cmp, err := a.CompareProcessCaptures(context.Background(), left, right)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Comparison.Verdict != "divergent" || cmp.Comparison.FirstDivergence == nil || cmp.Comparison.FirstDivergence.Dimension != "terminal" {
		t.Fatalf("comparison %+v", cmp.Comparison)
	}
	links := cmp.Evidence.EvidenceLinks
	if len(links) != 2 || links[0] != left.EvidenceID || links[1] != right.EvidenceID || cmp.Evidence.Confidence != evidence.ConfidenceDerived {
		t.Fatalf("record links %v confidence %s", links, cmp.Evidence.Confidence)
	}
	_, err = a.CompareProcessCaptures(context.Background(), cmp.Evidence, right)
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeInvalidRequest || e.Details["field"] != "left" {
		t.Fatalf("comparison Evidence accepted as a capture: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.CompareProcessCaptures(ctx, left, right); !errors.As(err, &e) || e.Code != abi.CodeCancelled {
		t.Fatalf("cancelled comparison: %v", err)
	}
}
