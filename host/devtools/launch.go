package devtools

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"rea/abi"
)

// Owned is a browser (or Electron app) process that rea started with a
// DevTools port of its own on loopback. Close ends its whole process group
// and removes its private profile folder.
type Owned struct {
	Endpoint Endpoint
	cmd      *exec.Cmd
	profile  string
	done     chan struct{}
}

// Cleanup says what Close ended and removed.
type Cleanup struct {
	ProcessGroupKilled bool   `json:"process_group_killed"`
	ProfileRemoved     bool   `json:"profile_removed"`
	Error              string `json:"error,omitempty"`
}

var devtoolsListening = regexp.MustCompile(`DevTools listening on ws://(127\.0\.0\.1|\[::1\]|localhost):(\d+)/`)

// FindChromium returns the browser to launch: REA_CHROMIUM, else chromium
// or chromium-browser on PATH.
func FindChromium() (string, error) {
	if p := os.Getenv("REA_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", abi.Errorf(abi.CodeCapabilityUnavailable, "no Chromium to launch: install it (Debian: apt-get install chromium) or set REA_CHROMIUM to its path").
		WithDetail("reason", "executable_missing")
}

// ChromiumArgs are the flags rea launches a headless Chromium with: no
// first-run work, no background networking, no sync.
func ChromiumArgs() []string {
	args := []string{"--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--disable-default-apps", "--mute-audio"}
	if os.Geteuid() == 0 {
		// Chromium refuses to start as root with its sandbox on.
		args = append(args, "--no-sandbox")
	}
	return args
}

// Launch starts executable with args plus a private --user-data-dir and a
// DevTools port chosen by the program on loopback, and waits (at most
// startup) for the program to say where it listens.
func Launch(ctx context.Context, executable string, args []string, startup time.Duration) (*Owned, error) {
	profile, err := os.MkdirTemp("", "rea-browser-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "browser profile folder: %v", err)
	}
	all := append([]string{"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=" + profile}, args...)
	cmd := exec.Command(executable, all...)
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(profile)
		return nil, abi.Errorf(abi.CodeInternal, "browser stderr: %v", err)
	}
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "cannot start %s: %v", executable, err).WithDetail("field", "executable_path").WithDetail("reason", "executable_missing")
	}
	o := &Owned{cmd: cmd, profile: profile, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 64<<10)
		sent := false
		for sc.Scan() {
			if m := devtoolsListening.FindStringSubmatch(sc.Text()); m != nil && !sent {
				host := m[1]
				if host == "localhost" {
					host = "127.0.0.1"
				}
				found <- host + ":" + m[2]
				sent = true
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() { _ = cmd.Wait(); close(o.done) }()
	timer := time.NewTimer(startup)
	defer timer.Stop()
	select {
	case hp := <-found:
		ep, err := ParseEndpoint("executable_path", hp)
		if err != nil {
			o.Close()
			return nil, err
		}
		o.Endpoint = ep
		return o, nil
	case <-o.done:
		o.Close()
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "%s exited before opening its DevTools port; does it accept --remote-debugging-port?", executable).WithDetail("field", "executable_path")
	case <-timer.C:
		o.Close()
		return nil, abi.Errorf(abi.CodeResourceConstraint, "%s did not open its DevTools port within %s", executable, startup).WithDetail("resource", "deadline")
	case <-ctx.Done():
		o.Close()
		return nil, ctx.Err()
	}
}

// Close ends the process group and removes the profile, whatever state the
// program is in.
func (o *Owned) Close() Cleanup {
	var c Cleanup
	if err := killProcessGroup(o.cmd); err != nil {
		c.Error = err.Error()
	}
	select {
	case <-o.done:
		c.ProcessGroupKilled = true
	case <-time.After(10 * time.Second):
		c.Error = strings.TrimSpace(c.Error + " the browser did not exit within 10 s of SIGKILL")
	}
	// A browser's helpers can still write for a moment after it exits.
	for i := 0; i < 50; i++ {
		if err := os.RemoveAll(o.profile); err == nil {
			c.ProfileRemoved = true
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !c.ProfileRemoved {
		c.Error = strings.TrimSpace(c.Error + fmt.Sprintf(" the profile folder %s could not be removed", o.profile))
	}
	return c
}
