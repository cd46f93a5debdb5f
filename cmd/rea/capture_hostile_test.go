//go:build linux

package main_test

// End-to-end regression tests of process capture against hostile programs
// (issue 19, points 1–6): each drives bin/rea with real processes (perl,
// bash, sh) and asserts on outcomes — what was signalled, what is left in
// the process table and in the temporary directory, the exit status —
// never on how long anything took. Every test marks the processes it makes
// rea start (an environment marker or a pid file) and kills whatever
// carries the mark in t.Cleanup, so a failing test leaves nothing behind.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rea/wasm/wasmtest"
)

// hangGuard bounds one rea invocation: a run that has not ended by then
// hung (every scenario here ends by its own limits far sooner).
const hangGuard = 3 * time.Minute

// newMarker is a random string that tags the processes of one test.
func newMarker(t *testing.T) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "rea-hostile-" + hex.EncodeToString(b[:])
}

// marked lists live (non-zombie) processes whose environment or command
// line contains marker, or whose pid is in one of pidFiles (for programs
// that overwrite both).
func marked(marker string, pidFiles ...string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !liveProcess(pid) {
			continue
		}
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if bytes.Contains(env, []byte(marker)) || bytes.Contains(cmdline, []byte(marker)) {
			pids = append(pids, pid)
		}
	}
	for _, f := range pidFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || !liveProcess(pid) || slices.Contains(pids, pid) {
			continue
		}
		// A pid file can outlive its process; only what these tests run
		// (perl retitled "x", sh exec'ing sleep) is taken for it.
		if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); slices.Contains([]string{"x", "perl", "sh", "sleep"}, strings.TrimSpace(string(comm))) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// liveProcess reports whether pid exists and is not a zombie.
func liveProcess(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] != 'Z' && stat[i+2] != 'X'
}

// killMarked is the safety net of every test here: it stops and kills
// every marked process (a fork tree included) until none is left.
func killMarked(t *testing.T, marker string, pidFiles ...string) {
	t.Cleanup(func() {
		for range 200 {
			pids := marked(marker, pidFiles...)
			if len(pids) == 0 {
				return
			}
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGSTOP)
			}
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("marked processes could not be killed: %v", marked(marker, pidFiles...))
	})
}

// needTool fails (never skips) when a program a test runs is missing.
func needTool(t *testing.T, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is needed by this test: install it (apt-get install %s)", path, pkg)
	}
}

// hostileResult is the part of a capture result these tests read.
type hostileResult struct {
	RunID       string `json:"run_id"`
	Termination struct {
		Reason string `json:"reason"`
		AtMs   int64  `json:"at_ms"`
	} `json:"termination"`
	Signal      *string `json:"signal"`
	Checkpoints []struct {
		Name  string `json:"name"`
		Roots []struct {
			Root      string   `json:"root"`
			Status    string   `json:"status"`
			Truncated []string `json:"truncated"`
			Files     []struct {
				Path        string  `json:"path"`
				Kind        string  `json:"kind"`
				SHA256      *string `json:"sha256"`
				HashSkipped string  `json:"hash_skipped"`
			} `json:"files"`
		} `json:"roots"`
	} `json:"checkpoints"`
	Processes []struct {
		PID int `json:"pid"`
	} `json:"processes"`
	ProcessLineage struct {
		LauncherPID int `json:"launcher_pid"`
	} `json:"process_lineage"`
	Cleanup struct {
		Status         string `json:"status"`
		StartedAtMs    int64  `json:"started_at_ms"`
		SignalAttempts []struct {
			Target  string `json:"target"`
			ID      int    `json:"id"`
			Signal  string `json:"signal"`
			Members []int  `json:"members"`
			Result  string `json:"result"`
		} `json:"signal_attempts"`
		Remaining              []any    `json:"remaining"`
		Unattributed           []any    `json:"unattributed"`
		RemainingResourceKinds []string `json:"remaining_resource_kinds"`
	} `json:"cleanup"`
}

// captureRun is one `rea capture-process` invocation.
type captureRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	tmp            string
}

// startCapture starts `rea --format json capture-process` on scenario with
// TMPDIR set to a fresh directory (where rea makes private working
// directories), in a process group of its own.
func startCapture(t *testing.T, scenario map[string]any) *captureRun {
	t.Helper()
	return startCaptureIn(t, t.TempDir(), scenario)
}

// startCaptureIn is startCapture with TMPDIR=tmp.
func startCaptureIn(t *testing.T, tmp string, scenario map[string]any) *captureRun {
	t.Helper()
	raw, err := json.Marshal(scenario)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "scenario.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	c := &captureRun{tmp: tmp}
	c.cmd = exec.Command(wasmtest.ReaBinary(t), "--format", "json", "capture-process", path)
	c.cmd.Env = append(os.Environ(), "TMPDIR="+c.tmp)
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			_ = c.cmd.Wait()
		}
	})
	return c
}

// wait waits for rea to exit (failing the test if it hangs) and returns
// its exit status.
func (c *captureRun) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &exit):
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				t.Fatalf("rea was killed by %v instead of exiting\n%s", ws.Signal(), c.stderr.String())
			}
			return exit.ExitCode()
		default:
			t.Fatal(err)
		}
	case <-time.After(hangGuard):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("rea did not end within %v (hung)\n%s", hangGuard, c.stderr.String())
	}
	return -1
}

// result decodes the capture from stdout: the Evidence record's
// normalized_result, or the partial observation of a failure.
func (c *captureRun) result(t *testing.T) (hostileResult, string) {
	t.Helper()
	var doc struct {
		NormalizedResult *hostileResult `json:"normalized_result"`
		Error            *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details struct {
				Partial *hostileResult `json:"partial_observation"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(c.stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s\n%s", err, c.stdout.String(), c.stderr.String())
	}
	switch {
	case doc.NormalizedResult != nil:
		return *doc.NormalizedResult, ""
	case doc.Error != nil && doc.Error.Details.Partial != nil:
		return *doc.Error.Details.Partial, doc.Error.Code
	case doc.Error != nil:
		t.Fatalf("error without a partial observation: %s %s", doc.Error.Code, doc.Error.Message)
	}
	t.Fatalf("no result: %s", c.stdout.String())
	return hostileResult{}, ""
}

// tmpLeftovers lists what is left in the run's TMPDIR.
func (c *captureRun) tmpLeftovers(t *testing.T) []string {
	entries, err := os.ReadDir(c.tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// waitFor polls cond until it holds, failing after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s never happened", what)
}

func signalsSent(r hostileResult) []string {
	var s []string
	for _, a := range r.Cleanup.SignalAttempts {
		if !slices.Contains(s, a.Signal) {
			s = append(s, a.Signal)
		}
	}
	return s
}

// Point 1: a root that rewrites its title blanks /proc/PID/environ; rea
// started it and must kill it anyway.
func TestCaptureKillsARootThatRewritesItsTitle(t *testing.T) {
	needTool(t, "/usr/bin/perl", "perl")
	marker := newMarker(t)
	pidFile := filepath.Join(t.TempDir(), "perl.pid")
	killMarked(t, marker, pidFile)
	c := startCapture(t, map[string]any{
		"executable": "/usr/bin/perl",
		"args":       []string{"-e", `open(F, ">", $ARGV[0]) or die; print F $$; close F; $0 = "x"; print "titled\n"; sleep 300`, pidFile},
		"env":        map[string]string{"REA_TEST_MARKER": marker},
		"limits":     map[string]any{"timeout_ms": 1500},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	if survivors := marked(marker, pidFile); len(survivors) > 0 {
		t.Fatalf("the title-rewriting root %v survived; cleanup %+v", survivors, r.Cleanup)
	}
	if r.Termination.Reason != "timeout" || r.Cleanup.Status != "quiesced" || len(r.Cleanup.SignalAttempts) == 0 ||
		r.Cleanup.SignalAttempts[0].ID != r.ProcessLineage.LauncherPID || r.Cleanup.SignalAttempts[0].Result != "delivered" {
		t.Fatalf("termination %+v cleanup %+v", r.Termination, r.Cleanup)
	}
	if r.Signal == nil {
		t.Fatalf("the root's end by a signal was not observed")
	}
}

// Point 2: a bash fork tree against limits.processes: frozen at once,
// then killed, whole.
func TestCaptureProcessLimitFreezesAndKillsAForkTree(t *testing.T) {
	needTool(t, "/bin/bash", "bash")
	marker := newMarker(t)
	killMarked(t, marker)
	c := startCapture(t, map[string]any{
		"executable": "/bin/bash",
		// 2^10-1 processes at depth 9 when unchecked; the leaves sleep, so
		// the tree cannot finish on its own before the limit is enforced
		// (on a quiet machine a tree of short-lived leaves had ended by
		// then, and nothing was left to signal).
		"args":   []string{"-c", `f(){ if [ "$1" -lt 9 ]; then f $(($1+1)) & f $(($1+1)) & else sleep 30; fi; wait; }; f 0`},
		"env":    map[string]string{"REA_TEST_MARKER": marker},
		"limits": map[string]any{"processes": 20, "timeout_ms": 60000},
	})
	code := c.wait(t)
	survivors := marked(marker)
	r, errCode := c.result(t)
	if len(survivors) > 0 {
		t.Fatalf("%d processes of the fork tree survived (cleanup %s, %d signal attempts)", len(survivors), r.Cleanup.Status, len(r.Cleanup.SignalAttempts))
	}
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	if r.Termination.Reason != "process_limit" || r.Cleanup.Status != "quiesced" || len(r.Cleanup.Remaining) != 0 {
		t.Fatalf("termination %+v cleanup status %s remaining %v", r.Termination, r.Cleanup.Status, r.Cleanup.Remaining)
	}
	if sent := signalsSent(r); !slices.Contains(sent, "SIGSTOP") || !slices.Contains(sent, "SIGKILL") || slices.Contains(sent, "SIGTERM") {
		t.Fatalf("the tree was not frozen then killed: signals %v", sent)
	}
	t.Logf("fork tree: %d processes observed, %d cleanup signal attempts", len(r.Processes), len(r.Cleanup.SignalAttempts))
}

// Point 3: a /proc/PID root named explicitly is walked, but no file is
// read past file_bytes whatever its stat says (pagemap stats as 0 bytes
// and reads as hundreds of gigabytes).
func TestCaptureSnapshotReadsAtMostFileBytesOfProcFiles(t *testing.T) {
	sleeper := exec.Command("/bin/sleep", "300")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	root := "/proc/" + strconv.Itoa(sleeper.Process.Pid)
	c := startCapture(t, map[string]any{
		"executable":       "/bin/true",
		"filesystem_roots": []string{root},
		"limits":           map[string]any{"file_bytes": 4096, "depth": 1, "files": 500, "timeout_ms": 60000},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	var pagemap bool
	for _, f := range r.Checkpoints[0].Roots[0].Files {
		if f.Path == "pagemap" {
			pagemap = true
			if f.SHA256 != nil || f.HashSkipped != "file_bytes" {
				t.Fatalf("pagemap (larger than file_bytes when read) was hashed or skipped for another reason: %+v", f)
			}
		}
	}
	if !pagemap {
		t.Fatalf("the named /proc root was not walked: %+v", r.Checkpoints[0].Roots[0])
	}
}

// Point 3: a snapshot of / lists /proc and /sys but does not enter them.
func TestCaptureSnapshotOfRootSkipsPseudoFilesystems(t *testing.T) {
	c := startCapture(t, map[string]any{
		"executable":       "/bin/true",
		"filesystem_roots": []string{"/"},
		"limits":           map[string]any{"file_bytes": 1, "depth": 2, "files": 100000, "timeout_ms": 120000},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	for _, cp := range r.Checkpoints {
		skipped := map[string]string{}
		for _, f := range cp.Roots[0].Files {
			if strings.HasPrefix(f.Path, "proc/") || strings.HasPrefix(f.Path, "sys/") {
				t.Fatalf("checkpoint %s entered a pseudo-filesystem: %s", cp.Name, f.Path)
			}
			if f.Path == "proc" || f.Path == "sys" {
				skipped[f.Path] = f.HashSkipped
			}
		}
		if skipped["proc"] != "pseudo_filesystem:proc" || skipped["sys"] != "pseudo_filesystem:sysfs" {
			t.Fatalf("checkpoint %s: /proc and /sys not listed as skipped pseudo-filesystems: %v (truncated %v)", cp.Name, skipped, cp.Roots[0].Truncated)
		}
	}
}

// Point 3: a snapshot of /proc obeys timeout_ms and ends the run as a
// timeout instead of hanging.
func TestCaptureSnapshotOfProcObeysTimeout(t *testing.T) {
	c := startCapture(t, map[string]any{
		"executable":       "/bin/true",
		"filesystem_roots": []string{"/proc"},
		"limits":           map[string]any{"timeout_ms": 1500, "files": 1000000, "depth": 64},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	if len(r.Checkpoints) == 0 || !slices.Contains(r.Checkpoints[0].Roots[0].Truncated, "timeout") {
		t.Fatalf("the before snapshot of /proc did not stop at the timeout: %d checkpoints, first truncated %v", len(r.Checkpoints), r.Checkpoints[0].Roots[0].Truncated)
	}
	if r.Termination.Reason != "timeout" {
		t.Fatalf("termination %+v", r.Termination)
	}
}

// Point 3: Ctrl-C during a /proc snapshot ends rea (cancelled, 130): the
// snapshot of a process's /proc directory reaches its pagemap at once
// (readable without bound before the fix, and deaf to the signal).
func TestCaptureSIGINTDuringAProcSnapshotEndsTheRun(t *testing.T) {
	sleeper := exec.Command("/bin/sleep", "300")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	marker := newMarker(t)
	killMarked(t, marker)
	c := startCapture(t, map[string]any{
		"executable":       "/bin/sleep",
		"args":             []string{"300"},
		"env":              map[string]string{"REA_TEST_MARKER": marker},
		"filesystem_roots": []string{"/proc/" + strconv.Itoa(sleeper.Process.Pid)},
		"limits":           map[string]any{"timeout_ms": 300000, "depth": 1},
	})
	// Interrupt once rea is inside the before checkpoint (it holds a file
	// of the sleeper's /proc directory open), or past it (the scenario's
	// process runs): earlier, on a loaded machine, the signal could arrive
	// before rea had started at all.
	inside := "/proc/" + strconv.Itoa(sleeper.Process.Pid) + "/"
	waitFor(t, "the before checkpoint", func() bool {
		fds, _ := os.ReadDir("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/fd")
		for _, fd := range fds {
			if to, err := os.Readlink("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/fd/" + fd.Name()); err == nil && strings.HasPrefix(to, inside) {
				return true
			}
		}
		return len(marked(marker)) > 0
	})
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	code := c.wait(t)
	_, errCode := c.result(t)
	if code != 130 || errCode != "cancelled" {
		t.Fatalf("exit %d error %q\n%s", code, errCode, c.stderr.String())
	}
	if left := marked(marker); len(left) > 0 {
		t.Fatalf("processes survived: %v", left)
	}
}

// Point 4: every signal that ends `rea capture-process` cancels the run,
// cleans up the processes and the private working directory, and exits
// 128 + the signal.
func TestCaptureSignalsCancelCleanUpAndExitWithTheirCode(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			marker := newMarker(t)
			killMarked(t, marker)
			run := startCapture(t, map[string]any{
				"executable": "/bin/sh",
				"args":       []string{"-c", "sleep 300 & echo ready; wait"},
				"env":        map[string]string{"PATH": "/usr/bin:/bin", "REA_TEST_MARKER": marker},
			})
			waitFor(t, "the scenario's sleep", func() bool { return len(marked(marker)) >= 2 })
			if err := run.cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			code := run.wait(t)
			if left := marked(marker); len(left) > 0 {
				t.Fatalf("processes survived %v to rea: %v", c.sig, left)
			}
			if left := run.tmpLeftovers(t); len(left) > 0 {
				t.Fatalf("left in TMPDIR after %v: %v", c.sig, left)
			}
			r, errCode := run.result(t)
			if code != c.code || errCode != "cancelled" || r.Cleanup.Status != "quiesced" {
				t.Fatalf("%v: exit %d (want %d), error %q, cleanup %s\n%s", c.sig, code, c.code, errCode, r.Cleanup.Status, run.stderr.String())
			}
		})
	}
}

// Point 4 for `rea mcp`: a signal during a capture_process_scenario call
// cancels the call, which cleans up, then rea exits 128 + the signal.
func TestMCPSignalsCancelCapturesInFlightAndExitWithTheirCode(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGINT, 130}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			marker := newMarker(t)
			killMarked(t, marker)
			tmp := t.TempDir()
			cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "warn")
			cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t), "TMPDIR="+tmp)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			t.Cleanup(func() {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				select {
				case <-exited:
				case <-time.After(10 * time.Second):
				}
			})
			lines := bufio.NewScanner(stdout)
			lines.Buffer(make([]byte, 1<<20), 64<<20)
			send := func(v any) {
				b, _ := json.Marshal(v)
				if _, err := stdin.Write(append(b, '\n')); err != nil {
					t.Fatal(err)
				}
			}
			send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
				"protocolVersion": pinnedProtocol, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "signal-test", "version": "1"}}})
			if !lines.Scan() {
				t.Fatalf("no initialize answer: %v\n%s", lines.Err(), stderr.String())
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
			send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
				"name": "capture_process_scenario", "arguments": map[string]any{
					"executable": "/bin/sh", "args": []string{"-c", "sleep 300 & echo ready; wait"},
					"env": map[string]string{"PATH": "/usr/bin:/bin", "REA_TEST_MARKER": marker}}}})
			go func() {
				for lines.Scan() {
				}
				exited <- cmd.Wait()
			}()
			waitFor(t, "the scenario's sleep", func() bool { return len(marked(marker)) >= 2 })
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			var werr error
			select {
			case werr = <-exited:
			case <-time.After(hangGuard):
				t.Fatalf("rea mcp did not end within %v of %v (the capture went on)\n%s", hangGuard, c.sig, stderr.String())
			}
			var exit *exec.ExitError
			code := 0
			if errors.As(werr, &exit) {
				if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					t.Fatalf("rea mcp was killed by %v instead of exiting", ws.Signal())
				}
				code = exit.ExitCode()
			} else if werr != nil {
				t.Fatal(werr)
			}
			if left := marked(marker); len(left) > 0 {
				t.Fatalf("processes survived %v to rea mcp: %v", c.sig, left)
			}
			entries, _ := os.ReadDir(tmp)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "rea-capture-") {
					t.Fatalf("private working directory %s left after %v", e.Name(), c.sig)
				}
			}
			if code != c.code {
				t.Fatalf("rea mcp exit %d after %v, want %d\n%s", code, c.sig, c.code, stderr.String())
			}
		})
	}
}

// Point 5: a daemon that double-forks into its own session and drops the
// run token before the first scan is still found (rea is its subreaper)
// and killed.
func TestCaptureFindsADetachedDaemonThatDroppedTheToken(t *testing.T) {
	needTool(t, "/usr/bin/setsid", "util-linux")
	marker := newMarker(t)
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	killMarked(t, marker, pidFile)
	// The root waits until the daemon has written its pid, then exits.
	script := fmt.Sprintf(`( setsid env -u REA_PROCESS_RUN_ID sh -c 'echo $$ > %[1]s.tmp; mv %[1]s.tmp %[1]s; exec sleep 300' %[2]s & ); `+
		`while [ ! -s %[1]s ]; do sleep 0.01; done; echo detached`, pidFile, marker)
	c := startCapture(t, map[string]any{
		"executable": "/bin/sh",
		"args":       []string{"-c", script},
		"env":        map[string]string{"PATH": "/usr/bin:/bin"},
		"limits":     map[string]any{"timeout_ms": 20000},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if left := marked(marker, pidFile); len(left) > 0 {
		t.Fatalf("the detached daemon %v survived; cleanup %s", left, r.Cleanup.Status)
	}
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the daemon never ran: %v", err)
	}
	daemon, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	var signalled bool
	for _, a := range r.Cleanup.SignalAttempts {
		signalled = signalled || slices.Contains(a.Members, daemon)
	}
	if !signalled || r.Cleanup.Status != "quiesced" {
		t.Fatalf("daemon %d not signalled by cleanup: %+v", daemon, r.Cleanup)
	}
}

// Point 6: the run ends before its cleanup starts, and a private working
// directory the program renamed away is removed where it went.
func TestCaptureTerminationPrecedesCleanupAndARenamedPrivateDirIsRemoved(t *testing.T) {
	marker := newMarker(t)
	killMarked(t, marker)
	// rea makes the private directory in its TMPDIR; the program moves it
	// next to it, under another name.
	tmp := t.TempDir()
	c := startCaptureIn(t, tmp, map[string]any{
		"executable": "/bin/sh",
		"args":       []string{"-c", `mv "$PWD" "$DEST" && echo moved; exec sleep 300`},
		"env":        map[string]string{"PATH": "/usr/bin:/bin", "DEST": filepath.Join(tmp, "moved"), "REA_TEST_MARKER": marker},
		"limits":     map[string]any{"timeout_ms": 1500},
	})
	code := c.wait(t)
	r, errCode := c.result(t)
	if code != 0 || errCode != "" {
		t.Fatalf("exit %d, error %q\n%s", code, errCode, c.stderr.String())
	}
	if r.Termination.AtMs > r.Cleanup.StartedAtMs {
		t.Fatalf("termination.at_ms %d after cleanup.started_at_ms %d", r.Termination.AtMs, r.Cleanup.StartedAtMs)
	}
	if left := c.tmpLeftovers(t); len(left) > 0 {
		t.Fatalf("left in TMPDIR: %v (cleanup %+v)", left, r.Cleanup)
	}
}
