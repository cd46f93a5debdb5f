//go:build unix

package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rea/abi"
)

func TestDaemonThatDetachesIntoItsOwnSessionIsKilledByToken(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	res := runOK(t, Scenario{Executable: helper(t), Args: []string{"daemon", pidFile}})
	daemon, err := strconv.Atoi(waitFile(t, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode == nil || *res.ExitCode != 0 || res.Termination.Reason != ReasonExited {
		t.Fatalf("root: exit %v reason %s", res.ExitCode, res.Termination.Reason)
	}
	if alive(daemon) {
		_ = syscall.Kill(daemon, syscall.SIGKILL)
		t.Fatalf("daemon %d survived cleanup", daemon)
	}
	if res.Cleanup.Status != CleanupQuiesced {
		t.Fatalf("cleanup %s", res.Cleanup.Status)
	}
	// The middle process called setsid, so the daemon sits in a group and
	// session of its own, detached from the root's; cleanup must have
	// signalled that group, not the root's.
	var hit bool
	for _, a := range res.Cleanup.SignalAttempts {
		if a.Target == "process_group" && a.ID != res.ProcessLineage.ProcessGroupID && slices.Contains(a.Members, daemon) && a.Result == "delivered" {
			hit = true
		}
		if a.ID == res.ProcessLineage.ProcessGroupID {
			t.Errorf("signalled the root's group %d although the root had exited: %+v", a.ID, a)
		}
	}
	if !hit {
		t.Fatalf("no delivered group signal to the daemon %d: %+v", daemon, res.Cleanup.SignalAttempts)
	}
	if len(res.Cleanup.RemainingResourceKinds) != 0 {
		t.Fatalf("remaining %v", res.Cleanup.RemainingResourceKinds)
	}
	t.Logf("cleanup of the detached daemon: %d ms, %d scans", res.Cleanup.DurationMs, res.Cleanup.Scans)
}

func TestProcessesWithoutTheExactTokenAreNeverSignalled(t *testing.T) {
	none := outsider(t, "PATH=/usr/bin")
	other := outsider(t, RunIDVariable+"=00000000-0000-4000-8000-000000000000")
	res := runOK(t, Scenario{Executable: helper(t), Args: []string{"sleep"}, Limits: &Limits{TimeoutMs: 300}})
	// A token that merely starts like this run's must not count either.
	prefix := outsider(t, RunIDVariable+"="+res.RunID+"0")
	if res.Termination.Reason != ReasonTimeout {
		t.Fatalf("reason %s", res.Termination.Reason)
	}
	if res.Signal == nil || *res.Signal != "SIGTERM" {
		t.Fatalf("root should have ended by cleanup's SIGTERM, got signal %v exit %v", res.Signal, res.ExitCode)
	}
	for _, c := range []int{none.Process.Pid, other.Process.Pid} {
		if !alive(c) {
			t.Fatalf("unrelated process %d was killed", c)
		}
		for _, a := range res.Cleanup.SignalAttempts {
			if slices.Contains(a.Members, c) || a.ID == c {
				t.Fatalf("unrelated process %d was signalled: %+v", c, a)
			}
		}
	}
	// Reap with this run's token now, while a process with a longer token
	// lives: it must be left alone.
	rep := Reap(res.RunID, ReapOptions{})
	if rep.Status != CleanupQuiesced || len(rep.SignalAttempts) != 0 || !alive(prefix.Process.Pid) {
		t.Fatalf("reap touched a process with a different token: %+v", rep)
	}
}

func TestDescendantWithoutTheTokenIsStillOwnedAndKilled(t *testing.T) {
	// Ownership does not rest on the environment alone: a child the root
	// started with an environment of its own is a descendant (parent pid
	// and start time), so cleanup ends it with its group.
	pidFile := filepath.Join(t.TempDir(), "stripped.pid")
	res, err := Run(context.Background(), Scenario{Executable: helper(t), Args: []string{"strip-token", pidFile},
		Limits: &Limits{TimeoutMs: 400}}, Options{})
	stripped, aerr := strconv.Atoi(waitFile(t, pidFile))
	if aerr != nil {
		t.Fatal(aerr)
	}
	t.Cleanup(func() { _ = syscall.Kill(stripped, syscall.SIGKILL) })
	if err != nil {
		t.Fatal(err)
	}
	assertNoSurvivors(t, res.RunID)
	if alive(stripped) {
		t.Fatalf("descendant %d without the token survived cleanup", stripped)
	}
	if res.Cleanup.Status != CleanupQuiesced || len(res.Cleanup.Refused) != 0 {
		t.Fatalf("cleanup %+v", res.Cleanup)
	}
	var group bool
	for _, a := range res.Cleanup.SignalAttempts {
		group = group || a.Target == "process_group" && slices.Contains(a.Members, stripped)
	}
	if !group {
		t.Fatalf("the root's group (with the stripped descendant) was not signalled as a whole: %+v", res.Cleanup.SignalAttempts)
	}
}

func TestLimitsEndTheRunWithTheirReason(t *testing.T) {
	h := helper(t)
	full := t.TempDir()
	cases := []struct {
		name   string
		s      Scenario
		reason string
		check  func(t *testing.T, r *Result)
	}{
		{"timeout", Scenario{Executable: h, Args: []string{"silent"}, Limits: &Limits{TimeoutMs: 300}}, ReasonTimeout,
			func(t *testing.T, r *Result) {
				if r.Termination.AtMs < 300 || r.Termination.AtMs > 5000 {
					t.Errorf("ended at %d ms", r.Termination.AtMs)
				}
			}},
		{"idle", Scenario{Executable: h, Args: []string{"silent"}, Limits: &Limits{TimeoutMs: 10_000, IdleMs: 200}}, ReasonIdle,
			func(t *testing.T, r *Result) {
				if r.Termination.AtMs < 200 || r.Termination.AtMs > 5000 {
					t.Errorf("ended at %d ms", r.Termination.AtMs)
				}
			}},
		{"output 100 MB against 1 MiB", Scenario{Executable: h, Args: []string{"flood", "100000000"}}, ReasonOutputLimit,
			func(t *testing.T, r *Result) {
				if !r.Output.Truncated || r.Output.CapturedBytes != DefaultOutputBytes || len(r.Output.Text) != DefaultOutputBytes {
					t.Errorf("output: truncated %v captured %d text %d", r.Output.Truncated, r.Output.CapturedBytes, len(r.Output.Text))
				}
				if r.Output.TotalBytes >= 100_000_000 {
					t.Errorf("the flood was read to the end (%d bytes) instead of being stopped", r.Output.TotalBytes)
				}
			}},
		{"files at a checkpoint", Scenario{Executable: "/bin/sh", Args: []string{"-c", "cd \"$1\" && touch a b c d e && echo made && exec sleep 30", "sh", full},
			FilesystemRoots: []string{full}, Limits: &Limits{Files: 3},
			Events: []Event{{OnOutput: &OutputTrig{Literal: "made"}, Action: ActionCheckpoint, Name: "made"}}}, ReasonFileLimit,
			func(t *testing.T, r *Result) {
				if len(r.Checkpoints) < 2 || r.Checkpoints[1].Name != "made" {
					t.Errorf("checkpoints %+v", r.Checkpoints)
				}
			}},
		{"processes", Scenario{Executable: h, Args: []string{"forks", "5"}, Limits: &Limits{Processes: 3}}, ReasonProcessLimit,
			func(t *testing.T, r *Result) {
				if len(r.Processes) > 3 {
					t.Errorf("%d processes listed, limit 3", len(r.Processes))
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runOK(t, c.s)
			if r.Termination.Reason != c.reason {
				t.Fatalf("reason %s, want %s", r.Termination.Reason, c.reason)
			}
			k := journalKinds(r)
			li := indexOf(k, "limit")
			if li < 0 || r.EventJournal[li].Details["reason"] != c.reason {
				t.Fatalf("no limit entry with reason %s in %v", c.reason, k)
			}
			if r.Cleanup.Status != CleanupQuiesced {
				t.Fatalf("cleanup %s", r.Cleanup.Status)
			}
			c.check(t, r)
		})
	}
}

func TestProcessIgnoringSIGTERMIsKilledAfterTheGrace(t *testing.T) {
	res := runOK(t, Scenario{Executable: helper(t), Args: []string{"ignore-term"}, Limits: &Limits{TimeoutMs: 300},
		Cleanup: &Cleanup{GraceMs: 200, DeadlineMs: 3000}})
	var term, kill *SignalAttempt
	for i, a := range res.Cleanup.SignalAttempts {
		switch a.Signal {
		case "SIGTERM":
			term = &res.Cleanup.SignalAttempts[i]
		case "SIGKILL":
			kill = &res.Cleanup.SignalAttempts[i]
		}
	}
	if term == nil || kill == nil {
		t.Fatalf("want SIGTERM then SIGKILL: %+v", res.Cleanup.SignalAttempts)
	}
	if kill.ElapsedMs-term.ElapsedMs < 200 {
		t.Fatalf("SIGKILL %d ms after SIGTERM, grace is 200", kill.ElapsedMs-term.ElapsedMs)
	}
	if res.Signal == nil || *res.Signal != "SIGKILL" {
		t.Fatalf("root ended by %v", res.Signal)
	}
}

func TestExitCodeOrSignalIsRecorded(t *testing.T) {
	h := helper(t)
	r := runOK(t, Scenario{Executable: h, Args: []string{"exit", "7"}})
	if r.ExitCode == nil || *r.ExitCode != 7 || r.Signal != nil || r.ElapsedMs == nil {
		t.Fatalf("exit 7: code %v signal %v elapsed %v", r.ExitCode, r.Signal, r.ElapsedMs)
	}
	r = runOK(t, Scenario{Executable: h, Args: []string{"die-signal"}})
	if r.Signal == nil || *r.Signal != "SIGKILL" || r.ExitCode != nil {
		t.Fatalf("die-signal: code %v signal %v", r.ExitCode, r.Signal)
	}
	if !r.Termination.Settled || r.Termination.Reason != ReasonExited {
		t.Fatalf("termination %+v", r.Termination)
	}
}

func TestTerminalMatchEventsFireInOrder(t *testing.T) {
	for _, pty := range []bool{true, false} {
		t.Run("pty="+strconv.FormatBool(pty), func(t *testing.T) {
			r := runOK(t, Scenario{Executable: helper(t), Args: []string{"ready-then-wait"}, PTY: pty,
				Events: []Event{
					{OnOutput: &OutputTrig{Literal: "ready", Occurrence: 2}, Action: ActionInput, Data: "hello\n"},
					{OnOutput: &OutputTrig{Literal: "echo:hello"}, Action: ActionEOF},
				}})
			if !strings.Contains(r.Output.Text, "echo:hello") || !strings.Contains(r.Output.Text, "eof") {
				t.Fatalf("output %q", r.Output.Text)
			}
			if r.ExitCode == nil || *r.ExitCode != 0 {
				t.Fatalf("exit %v signal %v", r.ExitCode, r.Signal)
			}
			var matches []JournalEntry
			for _, e := range r.EventJournal {
				if e.Kind == "output_match" {
					matches = append(matches, e)
				}
			}
			if len(matches) != 2 || matches[0].Details["occurrence"] != 2 || matches[1].Details["literal"] != "echo:hello" {
				t.Fatalf("matches %+v", matches)
			}
			k := journalKinds(r)
			if !(indexOf(k, "output_match") < indexOf(k, "input") && indexOf(k, "input") < indexOf(k, "eof") && indexOf(k, "eof") < indexOf(k, "exit")) {
				t.Fatalf("journal order %v", k)
			}
			for i := 1; i < len(r.EventJournal); i++ {
				if r.EventJournal[i].ElapsedMs < r.EventJournal[i-1].ElapsedMs || r.EventJournal[i].Seq != i+1 {
					t.Fatalf("journal not monotonic at %d: %+v", i, r.EventJournal[i-1:i+1])
				}
			}
			if r.Manifest.PTYBackend == "" || (pty != strings.HasPrefix(r.Manifest.PTYBackend, "creack/pty")) {
				t.Fatalf("pty backend %q", r.Manifest.PTYBackend)
			}
		})
	}
}

func TestSensitiveInputIsDeliveredButNeverRecorded(t *testing.T) {
	const secret = "hunter2-correct-horse"
	got := filepath.Join(t.TempDir(), "received")
	s := Scenario{Executable: helper(t), Args: []string{"prompt", got}, PTY: true,
		Events: []Event{{OnOutput: &OutputTrig{Literal: "Password:"}, Action: ActionInput, Data: secret + "\n", Sensitive: true}}}
	r := runOK(t, s)
	b, err := os.ReadFile(got)
	if err != nil || string(b) != secret+"\n" {
		t.Fatalf("the process received %q (%v)", b, err)
	}
	// The terminal echoes typed input: the output must still not hold it.
	doc, _ := json.Marshal(r)
	if strings.Contains(string(doc), secret) {
		t.Fatal("the secret appears in the result")
	}
	if !strings.Contains(r.Output.Text, "got "+strconv.Itoa(len(secret)+1)+" bytes") {
		t.Fatalf("output %q", r.Output.Text)
	}
	var in *JournalEntry
	for i, e := range r.EventJournal {
		if e.Kind == "input" {
			in = &r.EventJournal[i]
		}
	}
	if in == nil || in.Details["data"] != Redacted || in.Details["sensitive"] != true {
		t.Fatalf("input entry %+v", in)
	}
	if r.Manifest.ScenarioSHA256 != testDigest(Redact(s)) || r.Manifest.ScenarioSHA256 == testDigest(s) {
		t.Fatal("the scenario commitment must cover the redacted scenario, not the secret")
	}
}

func TestCheckpointSnapshotsSeeFilesTheProcessCreated(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "existing.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runOK(t, Scenario{Executable: helper(t), Args: []string{"write-files", root, "3"}, FilesystemRoots: []string{root}})
	if len(r.Checkpoints) != 2 || r.Checkpoints[0].Name != "before" || r.Checkpoints[1].Name != "after_settlement" {
		t.Fatalf("checkpoints %+v", r.Checkpoints)
	}
	before, after := r.Checkpoints[0].Roots[0].Files, r.Checkpoints[1].Roots[0].Files
	if len(before) != 2 || len(after) != 5 {
		t.Fatalf("before %d entries, after %d", len(before), len(after))
	}
	want := []string{filepath.Join(root, "f000.txt"), filepath.Join(root, "f001.txt"), filepath.Join(root, "f002.txt")}
	if r.FilesystemChanges == nil || !slices.Equal(r.FilesystemChanges.Created, want) ||
		len(r.FilesystemChanges.Modified) != 0 || len(r.FilesystemChanges.Deleted) != 0 {
		t.Fatalf("changes %+v", r.FilesystemChanges)
	}
	sum := sha256.Sum256([]byte("file 0\n"))
	for _, f := range after {
		if f.Path == "f000.txt" && (f.SHA256 == nil || *f.SHA256 != hex.EncodeToString(sum[:]) || f.Size != 7) {
			t.Fatalf("f000.txt %+v", f)
		}
	}
}

func TestSnapshotsAreBoundedByFilesDepthAndFileBytes(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "big.bin"), filepath.Join(deep, "x")} {
		if err := os.WriteFile(p, make([]byte, 100), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name      string
		l         Limits
		truncated []string
		entries   int
	}{
		{"depth 2 stops under a/b", Limits{Files: 100, FileBytes: 1000, Depth: 2}, []string{"depth"}, 4},
		{"three files", Limits{Files: 3, FileBytes: 1000, Depth: 16}, []string{"files"}, 3},
		{"everything", Limits{Files: 100, FileBytes: 1000, Depth: 16}, []string{}, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := snapshotRoots(context.Background(), []string{root}, c.l, time.Now().Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got[0].Truncated, c.truncated) || len(got[0].Files) != c.entries {
				t.Fatalf("truncated %v entries %d: %+v", got[0].Truncated, len(got[0].Files), got[0].Files)
			}
		})
	}
	got, _ := snapshotRoots(context.Background(), []string{root}, Limits{Files: 100, FileBytes: 99, Depth: 16}, time.Now().Add(time.Minute))
	for _, f := range got[0].Files {
		if f.Kind == "file" && (f.SHA256 != nil || f.HashSkipped != "file_bytes") {
			t.Fatalf("a 100-byte file under a 99-byte limit was hashed: %+v", f)
		}
	}
}

func TestResizeReachesThePseudoTerminal(t *testing.T) {
	r := runOK(t, Scenario{Executable: helper(t), Args: []string{"winsize"}, PTY: true, Terminal: &Terminal{Cols: 100, Rows: 30},
		Events: []Event{{OnOutput: &OutputTrig{Literal: "waiting"}, Action: ActionResize, Cols: 120, Rows: 40}}})
	if !strings.Contains(r.Output.Text, "resized") {
		t.Fatalf("output %q", r.Output.Text)
	}
}

func TestSignalEventIsDeliveredToTheRoot(t *testing.T) {
	r := runOK(t, Scenario{Executable: helper(t), Args: []string{"silent"},
		Events: []Event{{AtMs: ms(100), Action: ActionSignal, Signal: "SIGHUP"}}})
	if r.Signal == nil || *r.Signal != "SIGHUP" || r.Termination.Reason != ReasonExited {
		t.Fatalf("signal %v termination %+v", r.Signal, r.Termination)
	}
	for _, e := range r.EventJournal {
		if e.Kind == "signal" && e.Details["result"] != "delivered" {
			t.Fatalf("signal entry %+v", e)
		}
	}
}

func TestCancellationCleansUpAndReturnsThePartialObservation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := filepath.Join(t.TempDir(), "ready")
	var mu sync.Mutex
	var progress []abi.Progress
	var at []time.Time
	// Cancel once the children run (the ready file) and a process scan has
	// reported root and children: a fixed wait after the file could, on a
	// loaded machine, come before any scan had seen them.
	_, err := Run(ctx, Scenario{Executable: helper(t), Args: []string{"forks", "3", ready}}, Options{Progress: func(p abi.Progress) {
		mu.Lock()
		defer mu.Unlock()
		progress = append(progress, p)
		at = append(at, time.Now())
		owned := 0
		if i := strings.Index(p.Message, " owned processes"); i > 0 {
			fields := strings.Fields(p.Message[:i])
			owned, _ = strconv.Atoi(fields[len(fields)-1])
		}
		if _, err := os.Stat(ready); err == nil && owned >= 4 {
			cancel()
		}
	}})
	e := typed(t, err, abi.CodeCancelled)
	r := partial(t, e)
	assertNoSurvivors(t, r.RunID)
	if r.Termination.Reason != ReasonCancelled || r.Cleanup.Status != CleanupQuiesced {
		t.Fatalf("termination %+v cleanup %s", r.Termination, r.Cleanup.Status)
	}
	if r.ExitCode != nil {
		t.Fatalf("exit_code %v for a process that was killed", *r.ExitCode)
	}
	if len(r.Cleanup.SignalAttempts) == 0 {
		t.Fatal("no signal attempts recorded")
	}
	// Scans sample the process table every 250 ms; on a loaded machine a
	// scan can also catch a transient process (a fork not yet exec'd), so
	// the property is that root and all three children were seen.
	if len(r.Processes) < 4 {
		t.Fatalf("observed %d processes, want root + 3", len(r.Processes))
	}
	if r.ProcessLineage.Status != "verified" || len(r.ProcessLineage.Descendants) < 3 {
		t.Fatalf("lineage %+v", r.ProcessLineage)
	}
	t.Logf("cancel to quiesced: cleanup %d ms", r.Cleanup.DurationMs)
	// Progress: Done strictly increases, intermediate updates ≥100 ms
	// apart, the last one is terminal and names the cleanup status.
	for i := 1; i < len(progress); i++ {
		if progress[i].Done <= progress[i-1].Done {
			t.Fatalf("progress not increasing: %+v", progress)
		}
		if i < len(progress)-1 && at[i].Sub(at[i-1]) < 95*time.Millisecond {
			t.Fatalf("progress updates %v apart", at[i].Sub(at[i-1]))
		}
	}
	last := progress[len(progress)-1]
	if last.Phase != PhaseDone || !strings.Contains(last.Message, "cleanup quiesced") {
		t.Fatalf("last progress %+v", last)
	}
}

func TestStartFailureIsProcessCaptureFailedWithPartialObservation(t *testing.T) {
	bogus := filepath.Join(t.TempDir(), "not-a-program")
	if err := os.WriteFile(bogus, []byte("\x00\x01garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Scenario{Executable: bogus}, Options{})
	r := partial(t, typed(t, err, CodeProcessCaptureFailed))
	if r.Termination.Reason != ReasonStartFailed || r.ExitCode != nil || r.ElapsedMs != nil || len(r.Checkpoints) == 0 {
		t.Fatalf("partial %+v", r)
	}
}

func TestInvalidScenariosNameTheirFields(t *testing.T) {
	h := helper(t)
	cases := []struct {
		name string
		s    Scenario
		path []any
	}{
		{"no executable", Scenario{}, []any{"executable"}},
		{"bare name without PATH", Scenario{Executable: "sh"}, []any{"executable"}},
		{"token in env", Scenario{Executable: h, Env: map[string]string{RunIDVariable: "x"}}, []any{"env", RunIDVariable}},
		{"timeout over 300 s", Scenario{Executable: h, Limits: &Limits{TimeoutMs: 300_001}}, []any{"limits", "timeout_ms"}},
		{"two triggers", Scenario{Executable: h, Events: []Event{{AtMs: ms(1), OnOutput: &OutputTrig{Literal: "x"}, Action: ActionEOF}}}, []any{"events", 0}},
		{"resize without pty", Scenario{Executable: h, Events: []Event{{AtMs: ms(1), Action: ActionResize, Cols: 10, Rows: 10}}}, []any{"events", 0, "action"}},
		{"unknown signal", Scenario{Executable: h, Events: []Event{{AtMs: ms(1), Action: ActionSignal, Signal: "SIGFOO"}}}, []any{"events", 0, "signal"}},
		{"sensitive checkpoint", Scenario{Executable: h, Events: []Event{{AtMs: ms(1), Action: ActionCheckpoint, Sensitive: true}}}, []any{"events", 0, "sensitive"}},
		{"cleanup deadline over 60 s", Scenario{Executable: h, Cleanup: &Cleanup{DeadlineMs: 60_001}}, []any{"cleanup", "deadline_ms"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.s, Options{})
			e := typed(t, err, abi.CodeInvalidRequest)
			issues, _ := e.Details["issues"].([]Issue)
			for _, is := range issues {
				if slices.Equal(is.Path, c.path) {
					return
				}
			}
			t.Fatalf("no issue at %v: %+v", c.path, issues)
		})
	}
}

func TestBareNameIsFoundInTheScenarioPATHAndTheEnvironmentIsExplicit(t *testing.T) {
	t.Setenv("REA_CAPTURE_LEAK_CHECK", "leaked")
	r := runOK(t, Scenario{Executable: "sh", Args: []string{"-c", "env | sort"}, Env: map[string]string{"PATH": "/usr/bin:/bin", "ONLY": "this"}})
	if strings.Contains(r.Output.Text, "REA_CAPTURE_LEAK_CHECK") || !strings.Contains(r.Output.Text, "ONLY=this") ||
		!strings.Contains(r.Output.Text, RunIDVariable+"="+r.RunID) {
		t.Fatalf("environment %q", r.Output.Text)
	}
	if !strings.Contains(r.Output.Normalized, RunIDVariable+"=<run_id>") {
		t.Fatalf("normalized %q", r.Output.Normalized)
	}
	if r.Manifest.Executable.Format != "elf" || len(r.Manifest.Executable.SHA256) != 64 {
		t.Fatalf("executable %+v", r.Manifest.Executable)
	}
}

func TestOwnedProcessLeftAtTheDeadlineIsCleanupIncompleteEvenWhenCancelled(t *testing.T) {
	// SIGTERM only (grace beyond the deadline) against a process that
	// ignores it: cleanup must give up and say what is left.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := Run(ctx, Scenario{Executable: helper(t), Args: []string{"ignore-term"},
		Cleanup: &Cleanup{GraceMs: 10_000, DeadlineMs: 300}}, Options{})
	e := typed(t, err, abi.CodeCleanupIncomplete)
	r := partial(t, e)
	t.Cleanup(func() { Reap(r.RunID, ReapOptions{Grace: time.Millisecond, Deadline: 5 * time.Second}) })
	if kinds, _ := e.Details["remaining_resource_kinds"].([]string); !slices.Equal(kinds, []string{ResourceProcess}) {
		t.Fatalf("remaining kinds %v", e.Details["remaining_resource_kinds"])
	}
	if r.Cleanup.Status != CleanupAliveAtDeadline || len(r.Cleanup.Remaining) != 1 || r.Cleanup.Remaining[0].PID != r.ProcessLineage.LauncherPID {
		t.Fatalf("cleanup %+v", r.Cleanup)
	}
	if r.Termination.Reason != ReasonCancelled {
		t.Fatalf("termination %+v", r.Termination)
	}
	if holders := tokenHolders(t, r.RunID); !slices.Equal(holders, []int{r.ProcessLineage.LauncherPID}) {
		t.Fatalf("token holders %v, want the launcher only", holders)
	}
	for _, a := range r.Cleanup.SignalAttempts {
		if a.Signal != "SIGTERM" {
			t.Fatalf("sent %s although the grace outlasts the deadline", a.Signal)
		}
	}
	if rep := Reap(r.RunID, ReapOptions{Grace: time.Millisecond, Deadline: 5 * time.Second}); rep.Status != CleanupQuiesced {
		t.Fatalf("the survivor could not be reaped afterwards: %+v", rep)
	}
	assertNoSurvivors(t, r.RunID)
}

func TestProcessThatDropsItsTokenAfterBeingSeenIsStillKilled(t *testing.T) {
	res, err := Run(context.Background(), Scenario{Executable: helper(t), Args: []string{"exec-clean"},
		Limits: &Limits{TimeoutMs: 800}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := res.ProcessLineage.LauncherPID
	t.Cleanup(func() { _ = syscall.Kill(root, syscall.SIGKILL) })
	if alive(root) {
		t.Fatal("the process that dropped its token survived cleanup")
	}
	if res.Cleanup.Status != CleanupQuiesced || res.Signal == nil {
		t.Fatalf("cleanup %+v signal %v", res.Cleanup, res.Signal)
	}
}
