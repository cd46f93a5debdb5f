//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rea/wasm/wasmtest"
)

// tokenHolders returns the live pids whose environment holds exactly
// REA_PROCESS_RUN_ID=runID, scanning /proc directly.
func tokenHolders(t *testing.T, runID string) []int {
	t.Helper()
	want := []byte("REA_PROCESS_RUN_ID=" + runID)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

type captureRecord struct {
	EvidenceID       string `json:"evidence_id"`
	PredicateType    string `json:"predicate_type"`
	NormalizedResult struct {
		RunID  string `json:"run_id"`
		Output struct {
			Text       string `json:"text"`
			Normalized string `json:"normalized"`
		} `json:"output"`
		Cleanup struct {
			Status         string `json:"status"`
			SignalAttempts []struct {
				Target string `json:"target"`
				Signal string `json:"signal"`
				Result string `json:"result"`
			} `json:"signal_attempts"`
		} `json:"cleanup"`
	} `json:"normalized_result"`
}

func TestCaptureProcessCommandPrintsEvidenceAndLeavesNoOwnedProcess(t *testing.T) {
	// A process outside rea with the same command line as the daemon the
	// scenario starts: it must be untouched.
	lookalike := exec.Command("/usr/bin/sleep", "31")
	lookalike.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := lookalike.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lookalike.Process.Kill(); _, _ = lookalike.Process.Wait() })

	scenario := filepath.Join(wasmtest.RepoRoot(t), "testdata", "capture", "detached-daemon.json")
	cmd := exec.Command(wasmtest.ReaBinary(t), "capture-process", scenario)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("rea capture-process: %v\n%s", err, stderr.String())
	}
	var rec captureRecord
	if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
		t.Fatalf("stdout is not an Evidence record: %v\n%s", err, stdout.String())
	}
	r := rec.NormalizedResult
	if rec.PredicateType != "rea.process-capture/v1" || !strings.HasPrefix(rec.EvidenceID, "ev_") || r.RunID == "" {
		t.Fatalf("record %+v", rec)
	}
	if !strings.Contains(r.Output.Text, "done") || !strings.Contains(r.Output.Normalized, "started in <cwd>") ||
		!strings.Contains(r.Output.Normalized, "127.0.0.1:<port>") {
		t.Fatalf("output %+v", r.Output)
	}
	if r.Cleanup.Status != "quiesced" || len(r.Cleanup.SignalAttempts) == 0 || r.Cleanup.SignalAttempts[0].Result != "delivered" {
		t.Fatalf("cleanup %+v", r.Cleanup)
	}
	if pids := tokenHolders(t, r.RunID); len(pids) > 0 {
		t.Fatalf("processes with the run token survived: %v", pids)
	}
	if err := lookalike.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the look-alike process outside rea was killed: %v", err)
	}
	if !strings.Contains(stderr.String(), "cleanup quiesced") {
		t.Fatalf("no summary on stderr: %s", stderr.String())
	}
}

func TestCaptureProcessCommandSIGINTCancelsAndCleansUp(t *testing.T) {
	scenario := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(scenario, []byte(`{"executable":"/bin/sh","args":["-c","sleep 30 & echo ready; wait"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(wasmtest.ReaBinary(t), "--format", "json", "capture-process", scenario)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the scenario's processes run (a child of rea carrying a
	// run token), then interrupt rea as a terminal would.
	deadline := time.Now().Add(2 * time.Minute) // a bound for a loaded machine, not a measurement
	for {
		if hasChildren(cmd.Process.Pid) {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("rea never started the scenario")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	took := time.Since(sent)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Error struct {
			Code    string `json:"code"`
			Details struct {
				Partial struct {
					RunID    string  `json:"run_id"`
					ExitCode *int    `json:"exit_code"`
					Signal   *string `json:"signal"`
					Cleanup  struct {
						Status         string `json:"status"`
						SignalAttempts []any  `json:"signal_attempts"`
					} `json:"cleanup"`
				} `json:"partial_observation"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout: %v\n%s", err, stdout.String())
	}
	p := doc.Error.Details.Partial
	if doc.Error.Code != "cancelled" || p.RunID == "" || p.Cleanup.Status != "quiesced" || len(p.Cleanup.SignalAttempts) == 0 || p.ExitCode != nil {
		t.Fatalf("error %+v", doc.Error)
	}
	if pids := tokenHolders(t, p.RunID); len(pids) > 0 {
		t.Fatalf("processes with the run token survived SIGINT: %v", pids)
	}
	t.Logf("SIGINT to rea exit: %v", took)
}

// hasChildren reports whether any thread of pid has a child process (Go
// forks from whichever thread runs the goroutine).
func hasChildren(pid int) bool {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		if b, _ := os.ReadFile(f); len(bytes.TrimSpace(b)) > 0 {
			return true
		}
	}
	return false
}

func TestCaptureProcessCommandRejectsUnknownScenarioFields(t *testing.T) {
	scenario := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(scenario, []byte(`{"executable":"/bin/true","timeout":5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(wasmtest.ReaBinary(t), "--format", "json", "capture-process", scenario).Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
		t.Fatalf("exit %v", err)
	}
	if !strings.Contains(string(out), `"invalid_request"`) || !strings.Contains(string(out), "timeout") {
		t.Fatalf("output %s", out)
	}
}
