package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRun runs git in dir with a fixed identity, failing the test on error.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// mirror builds a bare mirror of a two-folder repository the way the fetch
// tool lays them out (<mirrors>/owner+name/repo) and returns its commit.
func mirror(t *testing.T, mirrors string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for the mirror tests: apt-get install git")
	}
	work := t.TempDir()
	gitRun(t, work, "init", "-q")
	for name, body := range map[string]string{
		"package.json":   `{"main":"src/main.js"}`,
		"src/main.js":    "require('electron')\n",
		"src/preload.js": "// preload\n",
		"docs/big.bin":   "asset",
	} {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, work, "add", "-A")
	gitRun(t, work, "commit", "-qm", "x")
	commit := gitRun(t, work, "rev-parse", "HEAD")
	dst := MirrorDir(mirrors, "owner/name")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, work, "clone", "-q", "--bare", work, dst)
	return commit
}

func TestMaterialiseFromMirror(t *testing.T) {
	mirrors, work := t.TempDir(), t.TempDir()
	commit := mirror(t, mirrors)
	a := App{Name: "app", Source: Source{Kind: "github", Repo: "owner/name", Commit: commit}, Include: []string{"src", "package.json"}}
	dir, err := Materialise(a, work, mirrors)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"package.json", "src/main.js", "src/preload.js"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s not materialised: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "docs/big.bin")); err == nil {
		t.Error("docs/big.bin is outside include but was materialised")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src/main.js")); string(b) != "require('electron')\n" {
		t.Errorf("src/main.js = %q", b)
	}
}

func TestMaterialiseMissingBlob(t *testing.T) {
	mirrors := t.TempDir()
	commit := mirror(t, mirrors)
	gitDir := MirrorDir(mirrors, "owner/name")
	// Drop one code blob and one asset blob from the mirror, as a partial
	// snapshot does.
	for _, p := range []string{"src/preload.js", "docs/big.bin"} {
		sha := gitRun(t, gitDir, "rev-parse", commit+":"+p)
		if err := os.Remove(filepath.Join(gitDir, "objects", sha[:2], sha[2:])); err != nil {
			t.Fatal(err)
		}
	}
	asset := App{Name: "asset", Source: Source{Kind: "github", Repo: "owner/name", Commit: commit}, Include: []string{"docs", "package.json"}}
	if _, err := Materialise(asset, t.TempDir(), mirrors); err != nil {
		t.Errorf("a missing asset should be skipped: %v", err)
	}
	code := App{Name: "code", Source: Source{Kind: "github", Repo: "owner/name", Commit: commit}}
	if _, err := Materialise(code, t.TempDir(), mirrors); err == nil || !strings.Contains(err.Error(), "src/preload.js") {
		t.Errorf("a missing code blob must fail and name the file, got %v", err)
	}
}

func TestMaterialiseNamesHowToGetAMissingMirror(t *testing.T) {
	a := App{Name: "x", Source: Source{Kind: "github", Repo: "electron/nothing", Commit: strings.Repeat("0", 40)}}
	_, err := Materialise(a, t.TempDir(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "git clone --bare https://github.com/electron/nothing") {
		t.Errorf("want the clone command in %v", err)
	}
}

func TestCheckLabels(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte(strings.Join([]string{
		"const { ipcMain, BrowserWindow } = require('electron')",
		"const win = new BrowserWindow({})",
		"ipcMain.on('ping', () => {})",
		"ipcMain.handle(CHANNELS.SAVE, save)",
		"contextBridge.exposeInMainWorld('api', {})",
	}, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	a := App{
		Windows: []WindowLabel{{File: "main.js", Line: 2}},
		Bridge:  []BridgeLabel{{File: "main.js", Line: 5, Key: "api"}},
		IPC: []IPCLabel{
			{Side: "main", Role: "listener", Channel: "ping", File: "main.js", Line: 3},
			{Side: "main", Role: "handler", Channel: "file:save", File: "main.js", Line: 4, Note: "channel CHANNELS.SAVE"},
			{Side: "main", Role: "listener", Channel: "x", File: "main.js", Line: 1, Shape: "forEach-constant-array"},
		},
	}
	if p := CheckLabels(a, dir); len(p) != 0 {
		t.Errorf("valid labels flagged: %v", p)
	}
	a.IPC = append(a.IPC, IPCLabel{Side: "main", Role: "listener", Channel: "pong", File: "main.js", Line: 3},
		IPCLabel{Side: "main", Role: "listener", Channel: "ping", File: "gone.js", Line: 3})
	a.Windows = append(a.Windows, WindowLabel{File: "main.js", Line: 5})
	a.Bridge = append(a.Bridge, BridgeLabel{File: "main.js", Line: 1, Key: "b"})
	if p := CheckLabels(a, dir); len(p) != 4 {
		t.Errorf("want 4 problems (wrong channel, missing file, no constructor, no expose), got %v", p)
	}
}
