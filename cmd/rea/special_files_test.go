package main_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rea/wasm/wasmtest"
)

// reaWithin runs rea and fails the test if it has not ended within a
// minute: the failure these tests guard against is a hang.
func reaWithin(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, wasmtest.ReaBinary(t), args...)
	cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off", "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rea %s hung", strings.Join(args, " "))
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stderr: stderr.String(), code: code}
}

// A FIFO planted in an application directory hung rea for good: opening it
// waits for a writer, and the interrupt that cancels the analysis cannot
// end a blocked open(2). rea now refuses the input, naming the path.
func TestAnalyzeAndInspectRefuseAFIFOInsteadOfHanging(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"package.json": `{"main":"main.js"}`, "main.js": `require("electron")`})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"analyze", "inspect-artifact"} {
		r := reaWithin(t, command, dir)
		if r.code != 1 || !strings.Contains(r.stderr, "pipe.js") || !strings.Contains(r.stderr, "named pipe") {
			t.Errorf("%s: exit %d\n%s", command, r.code, r.stderr)
		}
	}
}

// The binary tools read the file named by the request: a FIFO blocked its
// open and /dev/zero never ended.
func TestBinaryToolsRefuseAFIFOOrDeviceInsteadOfHanging(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "tool")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{fifo, "/dev/zero"} {
		r := reaWithin(t, "analyze", input)
		if r.code != 1 || !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("analyze %s: exit %d\n%s", input, r.code, r.stderr)
		}
	}
}

// Over MCP too: open_binary on a FIFO or a device is an invalid_request at
// once, and the session stays usable.
func TestOpenBinaryRefusesAFIFOOrDeviceOverMCP(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "tool")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	c := startMCP(t)
	for _, input := range []string{fifo, "/dev/zero"} {
		e := toolError(t, c.call(t, "open_binary", map[string]any{"input_path": input}))
		if e["code"] != "invalid_request" || !strings.Contains(fmt.Sprint(e["message"]), "not a regular file") {
			t.Errorf("open_binary %s: %v", input, e)
		}
	}
	if res := c.call(t, "binary_session", map[string]any{}); res.IsError {
		t.Fatalf("the session is unusable after the refusals: %s", text(res))
	}
}
