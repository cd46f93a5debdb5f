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

// A FIFO planted in an application directory hung rea for good: opening it
// waits for a writer, and the interrupt that cancels the analysis cannot
// end a blocked open(2). rea now refuses the input, naming the path.
func TestAnalyzeAndInspectRefuseAFIFOInsteadOfHanging(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"package.json": `{"main":"main.js"}`, "main.js": `require("electron")`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"analyze", "inspect-artifact"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, wasmtest.ReaBinary(t), command, dir)
		cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off", "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
		cmd.WaitDelay = time.Second
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Fatalf("%s hung on the FIFO", command)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "pipe.js") || !strings.Contains(stderr.String(), "named pipe") {
			t.Errorf("%s: %v\n%s", command, err, stderr.String())
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
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, wasmtest.ReaBinary(t), "analyze", input)
		cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off", "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
		cmd.WaitDelay = time.Second
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Fatalf("analyze %s hung", input)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "not a regular file") {
			t.Errorf("analyze %s: %v\n%s", input, err, stderr.String())
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
