//go:build unix

package capture

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rea/abi"
)

var helperBuild struct {
	once sync.Once
	path string
	err  error
	dir  string
}

// helper builds testdata/helper once per test binary and returns its path.
func helper(t testing.TB) string {
	t.Helper()
	helperBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "rea-capture-helper-")
		if err != nil {
			helperBuild.err = err
			return
		}
		helperBuild.dir = dir
		helperBuild.path = filepath.Join(dir, "helper")
		out, err := exec.Command("go", "build", "-o", helperBuild.path, "./testdata/helper").CombinedOutput()
		if err != nil {
			helperBuild.err = errors.New(string(out))
		}
	})
	if helperBuild.err != nil {
		t.Fatalf("building the helper: %v", helperBuild.err)
	}
	return helperBuild.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if helperBuild.dir != "" {
		_ = os.RemoveAll(helperBuild.dir)
	}
	os.Exit(code)
}

// tokenHolders scans /proc independently of the package's own scanner and
// returns the live (non-zombie) pids whose environment holds exactly
// REA_PROCESS_RUN_ID=token.
func tokenHolders(t testing.TB, token string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte(RunIDVariable + "=" + token)
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
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) && alive(pid) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// alive reports a process that exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// assertNoSurvivors fails when any process still carries the run token.
func assertNoSurvivors(t testing.TB, token string) {
	t.Helper()
	if token == "" {
		t.Fatal("no run token to check")
	}
	if pids := tokenHolders(t, token); len(pids) > 0 {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatalf("processes carrying the run token survived: %v", pids)
	}
}

// outsider starts a process outside rea with the given extra environment;
// it is killed at test end.
func outsider(t testing.TB, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(helper(t), "sleep")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
	})
	return cmd
}

func ms(n int64) *int64 { return &n }

// runOK runs a scenario that must succeed.
func runOK(t testing.TB, s Scenario) *Result {
	t.Helper()
	res, err := Run(context.Background(), s, Options{})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	assertNoSurvivors(t, res.RunID)
	return res
}

// typed asserts err is an *abi.Error with the code.
func typed(t testing.TB, err error, code string) *abi.Error {
	t.Helper()
	var e *abi.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not typed", err)
	}
	if e.Code != code {
		t.Fatalf("code %q, want %q: %s", e.Code, code, e.Message)
	}
	return e
}

// partial extracts details.partial_observation.
func partial(t testing.TB, e *abi.Error) *Result {
	t.Helper()
	r, ok := e.Details["partial_observation"].(*Result)
	if !ok {
		t.Fatalf("details.partial_observation is %T", e.Details["partial_observation"])
	}
	return r
}

// journalKinds lists the journal's kinds in order.
func journalKinds(r *Result) []string {
	out := make([]string, len(r.EventJournal))
	for i, e := range r.EventJournal {
		out[i] = e.Kind
	}
	return out
}

func indexOf(kinds []string, k string) int {
	for i, x := range kinds {
		if x == k {
			return i
		}
	}
	return -1
}

// waitFile waits for a file to appear and returns its contents.
func waitFile(t testing.TB, path string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
	return ""
}
