package main_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	"rea/wasm/wasmtest"
)

func TestSetupOnATerminalAsksAndDefaultsToNo(t *testing.T) {
	cases := []struct {
		name, answer string
		code         int
		status       string
		changed      bool
	}{
		{"empty answer", "\n", 1, "declined", false},
		{"no", "no\n", 1, "declined", false},
		{"yes", "y\n", 0, "changed", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newSetupHome(t)
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer ptmx.Close()
			go io.Copy(io.Discard, ptmx) // drain the terminal's echo
			cmd := exec.Command(wasmtest.ReaBinary(t), "setup", "--client", "cursor", "--json")
			cmd.Env = append(os.Environ(), h.env(t)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			tty.Close()
			if _, err := ptmx.Write([]byte(tc.answer)); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var out setupOut
			decode(t, stdout.String(), &out)
			if code != tc.code || out.Status != tc.status {
				t.Fatalf("exit %d status %s\n%s", code, out.Status, stderr.String())
			}
			if !strings.Contains(stderr.String(), "[y/N]") {
				t.Fatalf("no prompt on stderr:\n%s", stderr.String())
			}
			_, err = os.Stat(filepath.Join(h.dir, ".cursor", "mcp.json"))
			if (err == nil) != tc.changed {
				t.Fatalf("cursor config written: %v, want %v", err == nil, tc.changed)
			}
		})
	}
}
