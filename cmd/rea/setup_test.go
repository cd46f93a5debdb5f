package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// setupHome is a temporary home directory with a Claude Code configuration
// that already holds another server, and a Codex configuration with one.
type setupHome struct {
	dir                string
	claudeJSON, codex  string
	claudeOrig, codexO string
}

const otherClaudeServer = `"other": {"command": "npx", "args": ["-y", "other@1.0"], "env": {"TOKEN": "keep"}}`

func newSetupHome(t *testing.T) setupHome {
	t.Helper()
	h := setupHome{dir: t.TempDir()}
	h.claudeJSON = filepath.Join(h.dir, ".claude.json")
	h.claudeOrig = "{\n  \"numStartups\": 7,\n  \"mcpServers\": {\n    " + otherClaudeServer + "\n  }\n}\n"
	h.codex = filepath.Join(h.dir, ".codex", "config.toml")
	h.codexO = "model = \"o4\"\n\n[mcp_servers.other]\ncommand = \"other\"\n"
	mustWrite(t, h.claudeJSON, h.claudeOrig)
	mustWrite(t, h.codex, h.codexO)
	return h
}

// env runs rea with this home; the compiled-module cache stays the
// caller's so modules are not compiled from scratch for every test.
func (h setupHome) env(t *testing.T) []string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	return []string{"HOME=" + h.dir, "XDG_CACHE_HOME=" + cache, "XDG_CONFIG_HOME=", "REA_FORMAT=", "CLAUDE_CONFIG_DIR=", "CODEX_HOME="}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type setupOut struct {
	Status     string   `json:"status"`
	Executable string   `json:"executable"`
	Command    []string `json:"command"`
	Home       string   `json:"home"`
	Plan       []struct {
		Client       string `json:"client"`
		Detected     bool   `json:"detected"`
		ConfigAction string `json:"config_action"`
		SkillAction  string `json:"skill_action"`
		Registration struct {
			Path    string   `json:"path"`
			Status  string   `json:"status"`
			Command []string `json:"command"`
			Want    []string `json:"want"`
		} `json:"registration"`
	} `json:"plan"`
	Results []struct {
		Client string `json:"client"`
		Config struct {
			Path    string `json:"path"`
			Changed bool   `json:"changed"`
			Backup  string `json:"backup"`
			After   string `json:"after"`
		} `json:"config"`
		Skill *struct {
			Path    string `json:"path"`
			Changed bool   `json:"changed"`
			After   string `json:"after"`
		} `json:"skill"`
	} `json:"results"`
}

func TestSetupDryRunShowsThePlanAndWritesNothing(t *testing.T) {
	h := newSetupHome(t)
	bin := wasmtest.ReaBinary(t)
	r := rea(t, "", h.env(t), "setup", "--dry-run", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var out setupOut
	decode(t, r.stdout, &out)
	if out.Status != "dry_run" || out.Home != h.dir || strings.Join(out.Command, " ") != bin+" mcp" {
		t.Fatalf("report %+v", out)
	}
	var clients []string
	for _, p := range out.Plan {
		clients = append(clients, p.Client+":"+p.Registration.Status+":"+p.ConfigAction)
		if strings.Join(p.Registration.Want, " ") != bin+" mcp" || !strings.HasPrefix(p.Registration.Path, h.dir+string(filepath.Separator)) {
			t.Errorf("plan for %s: %+v", p.Client, p.Registration)
		}
	}
	if strings.Join(clients, " ") != "claude-code:missing:update codex:missing:update" {
		t.Fatalf("planned %v (only detected clients, each missing rea)", clients)
	}
	// The plan for the human went to stderr, beside where a prompt would be.
	if !strings.Contains(r.stderr, h.claudeJSON) || !strings.Contains(r.stderr, bin+" mcp") {
		t.Fatalf("stderr lacks the plan:\n%s", r.stderr)
	}
	if mustRead(t, h.claudeJSON) != h.claudeOrig || mustRead(t, h.codex) != h.codexO {
		t.Fatal("dry run changed a file")
	}
	if entries, _ := os.ReadDir(h.dir); len(entries) != 2 {
		t.Fatalf("dry run created files: %v", entries)
	}
}

func TestSetupWithoutYesOnAPipeChangesNothing(t *testing.T) {
	h := newSetupHome(t)
	// Even a "y" on a non-terminal stdin is not consent.
	r := rea(t, "y\n", h.env(t), "setup", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	var out setupOut
	decode(t, r.stdout, &out)
	if out.Status != "needs_confirmation" || len(out.Results) != 0 {
		t.Fatalf("report %+v", out)
	}
	if !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("stderr does not say how to proceed:\n%s", r.stderr)
	}
	if mustRead(t, h.claudeJSON) != h.claudeOrig || mustRead(t, h.codex) != h.codexO {
		t.Fatal("setup changed a file without confirmation")
	}
	if _, err := os.Stat(filepath.Join(h.dir, ".claude", "skills")); err == nil {
		t.Fatal("setup installed the skill without confirmation")
	}
}

func TestSetupYesRegistersClaudeCodeOnceAndDoctorSeesIt(t *testing.T) {
	h := newSetupHome(t)
	bin := wasmtest.ReaBinary(t)

	// Before: detected, not registered — a warning, not a failure.
	before := doctorJSON(t, h, 0, "--skip-compile")
	if c := before.client("claude-code"); c.Registration.Status != "missing" || !c.Detected || before.check("client:claude-code").State != "warn" {
		t.Fatalf("before setup: %+v %+v", c, before.check("client:claude-code"))
	}

	r := rea(t, "", h.env(t), "setup", "--yes", "--client", "claude-code", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var out setupOut
	decode(t, r.stdout, &out)
	if out.Status != "changed" || len(out.Results) != 1 || out.Results[0].Client != "claude-code" {
		t.Fatalf("report %+v", out)
	}
	res := out.Results[0]
	if !res.Config.Changed || res.Config.After != "aligned" || res.Skill == nil || !res.Skill.Changed || res.Skill.After != "aligned" {
		t.Fatalf("result %+v skill %+v", res.Config, res.Skill)
	}
	after := mustRead(t, h.claudeJSON)
	if !strings.Contains(after, otherClaudeServer) || !strings.Contains(after, `"numStartups": 7`) {
		t.Fatalf("other settings did not survive byte for byte:\n%s", after)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(after), &cfg); err != nil {
		t.Fatal(err)
	}
	if e := cfg.MCPServers["rea"]; e.Type != "stdio" || e.Command != bin || strings.Join(e.Args, " ") != "mcp" {
		t.Fatalf("rea entry %+v", e)
	}
	if res.Config.Backup == "" || mustRead(t, res.Config.Backup) != h.claudeOrig {
		t.Fatalf("backup %q does not hold the original", res.Config.Backup)
	}
	skill := mustRead(t, filepath.Join(h.dir, ".claude", "skills", "reverse-engineer-anything", "SKILL.md"))
	if !strings.HasPrefix(skill, "---\nname: reverse-engineer-anything\n") {
		t.Fatalf("SKILL.md:\n%.200s", skill)
	}
	if mustRead(t, h.codex) != h.codexO {
		t.Fatal("setup --client claude-code touched Codex")
	}

	// A second run changes nothing and says so.
	info, _ := os.Stat(h.claudeJSON)
	r = rea(t, "", h.env(t), "setup", "--yes", "--client", "claude-code", "--json")
	var again setupOut
	decode(t, r.stdout, &again)
	if r.code != 0 || again.Status != "ready" || len(again.Results) != 0 {
		t.Fatalf("second run: exit %d %+v", r.code, again)
	}
	info2, _ := os.Stat(h.claudeJSON)
	backups, _ := filepath.Glob(h.claudeJSON + ".rea-backup-*")
	if mustRead(t, h.claudeJSON) != after || !info2.ModTime().Equal(info.ModTime()) || len(backups) != 1 {
		t.Fatalf("second run rewrote the file (backups %v)", backups)
	}

	// After: aligned, modules compile, live server unknown.
	doc := doctorJSON(t, h, 0)
	if c := doc.client("claude-code"); c.Registration.Status != "aligned" || strings.Join(c.Registration.Command, " ") != bin+" mcp" || c.Skill.Status != "aligned" {
		t.Fatalf("after setup: %+v", c)
	}
	if doc.check("client:claude-code").State != "ok" || doc.check("modules").State != "ok" || doc.Live.State != "unknown" {
		t.Fatalf("checks %+v live %+v", doc.Checks, doc.Live)
	}
	for _, m := range doc.Modules {
		if m.Compiled == nil || !*m.Compiled || (m.Cache != "warm" && m.Cache != "cold") {
			t.Errorf("module %+v", m)
		}
	}
	if len(doc.Modules) == 0 {
		t.Fatal("doctor listed no modules")
	}
}

func TestDoctorFailsOnStaleAndInvalidRegistrations(t *testing.T) {
	h := setupHome{dir: t.TempDir()}
	mustWrite(t, filepath.Join(h.dir, ".cursor", "mcp.json"), `{"mcpServers": {"rea": {"command": "/old/rea", "args": ["mcp"]}}}`)
	mustWrite(t, filepath.Join(h.dir, ".codex", "config.toml"), "[mcp_servers.rea\n")
	doc := doctorJSON(t, h, 1, "--skip-compile")
	if doc.Healthy {
		t.Fatal("healthy with a stale registration")
	}
	cursor := doc.client("cursor")
	if cursor.Registration.Status != "stale" || strings.Join(cursor.Registration.Command, " ") != "/old/rea mcp" || doc.check("client:cursor").State != "fail" {
		t.Fatalf("cursor %+v", cursor)
	}
	if !strings.Contains(doc.check("client:cursor").Remediation, "rea setup --client cursor") {
		t.Fatalf("remediation %q", doc.check("client:cursor").Remediation)
	}
	if doc.client("codex").Registration.Status != "invalid" || doc.check("client:codex").State != "fail" {
		t.Fatalf("codex %+v", doc.client("codex"))
	}
	// setup --yes fixes the stale one and leaves the invalid one alone.
	r := rea(t, "", h.env(t), "setup", "--yes", "--json")
	var out setupOut
	decode(t, r.stdout, &out)
	if r.code != 1 || out.Status != "incomplete" {
		t.Fatalf("exit %d status %s", r.code, out.Status)
	}
	if got := mustRead(t, filepath.Join(h.dir, ".codex", "config.toml")); got != "[mcp_servers.rea\n" {
		t.Fatalf("invalid TOML was touched: %q", got)
	}
	doc = doctorJSON(t, h, 1, "--skip-compile", "--client", "cursor", "--client", "codex")
	if len(doc.Clients) != 2 || doc.client("cursor").Registration.Status != "aligned" {
		t.Fatalf("after setup: %+v", doc.Clients)
	}
}

type doctorOut struct {
	Healthy bool             `json:"healthy"`
	Checks  []doctorCheckOut `json:"checks"`
	Clients []doctorClient   `json:"clients"`
	Modules []struct {
		Name     string `json:"name"`
		Cache    string `json:"cache"`
		Compiled *bool  `json:"compiled"`
	} `json:"modules"`
	Live struct {
		State string `json:"state"`
	} `json:"live_server"`
}

type doctorCheckOut struct {
	Name        string `json:"name"`
	State       string `json:"state"`
	Detail      string `json:"detail"`
	Remediation string `json:"remediation"`
}

type doctorClient struct {
	Client       string `json:"client"`
	Detected     bool   `json:"detected"`
	Registration struct {
		Status  string   `json:"status"`
		Command []string `json:"command"`
	} `json:"registration"`
	Skill *struct {
		Status string `json:"status"`
	} `json:"skill"`
}

func (d doctorOut) client(id string) doctorClient {
	for _, x := range d.Clients {
		if x.Client == id {
			return x
		}
	}
	return doctorClient{}
}

func (d doctorOut) check(name string) doctorCheckOut {
	for _, x := range d.Checks {
		if x.Name == name {
			return x
		}
	}
	return doctorCheckOut{}
}

func doctorJSON(t *testing.T, h setupHome, wantCode int, args ...string) doctorOut {
	t.Helper()
	r := rea(t, "", h.env(t), append([]string{"doctor", "--json"}, args...)...)
	if r.code != wantCode {
		t.Fatalf("doctor exit %d, want %d\n%s\n%s", r.code, wantCode, r.stdout, r.stderr)
	}
	var d doctorOut
	decode(t, r.stdout, &d)
	return d
}

func TestDoctorLiveChecksTheServerIdentity(t *testing.T) {
	h := setupHome{dir: t.TempDir()}
	r := rea(t, "", h.env(t), "doctor", "--json", "--skip-compile", "--live")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var d struct {
		Healthy bool `json:"healthy"`
		Live    struct {
			State  string `json:"state"`
			Report struct {
				Healthy       bool   `json:"healthy"`
				CatalogDigest string `json:"catalog_digest"`
				Tools         int    `json:"tools"`
			} `json:"report"`
		} `json:"live_server"`
	}
	decode(t, r.stdout, &d)
	if !d.Healthy || d.Live.State != "ok" || !d.Live.Report.Healthy || !strings.HasPrefix(d.Live.Report.CatalogDigest, "sha256:") || d.Live.Report.Tools == 0 {
		t.Fatalf("live %+v", d.Live)
	}
}
