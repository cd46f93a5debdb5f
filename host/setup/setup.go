// Package setup registers rea with the agent clients installed on a machine
// and reports how their registrations drift.
//
// A client is found by its configuration files under a home directory that
// callers choose (tests use a temporary one). Each client gets a plan: the
// exact file, the command vector rea will register (the absolute path of
// this binary and "mcp") and the registration's status. Applying a plan is
// additive — other servers and settings stay byte for byte — writes a
// timestamped backup first, verifies the result by reading it back, and
// leaves invalid configuration untouched. Applying the same plan twice
// changes nothing the second time.
package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ServerName is the key rea is registered under in every client.
const ServerName = "rea"

// Status is the state of one registration or skill copy.
type Status string

const (
	// StatusAligned: registered with exactly the wanted command vector.
	StatusAligned Status = "aligned"
	// StatusStale: registered, but with another binary, other arguments
	// or another transport; setup rewrites it.
	StatusStale Status = "stale"
	// StatusMissing: not registered (or the file does not exist).
	StatusMissing Status = "missing"
	// StatusInvalid: the file cannot be read or edited safely; setup
	// reports it and leaves it untouched.
	StatusInvalid Status = "invalid"
)

// Action is what applying a plan does to one file or directory.
type Action string

const (
	ActionNone   Action = "none"   // already aligned
	ActionCreate Action = "create" // write a new file or directory
	ActionUpdate Action = "update" // edit an existing file or replace an old copy
	ActionSkip   Action = "skip"   // invalid: reported, left untouched
)

// Env is the machine setup works on. Every path derives from Home (or a
// client's own directory variable), so a test can point it at a temporary
// directory.
type Env struct {
	// Home is the user's home directory.
	Home string
	// GOOS selects per-platform locations (Claude Desktop); empty means
	// the running platform.
	GOOS string
	// WorkDir is where a project-scoped .mcp.json is looked for; empty
	// means none is inspected.
	WorkDir string
	// Executable is the absolute path of the rea binary to register.
	Executable string
	// Version is the rea version recorded in installed skills.
	Version string
	// Now stamps backups; nil means time.Now.
	Now func() time.Time
	// Getenv reads the variables that move a client's files
	// (CLAUDE_CONFIG_DIR, CODEX_HOME); nil means none are set.
	Getenv func(string) string
}

// dirFromEnv returns the absolute directory named by variable key, or def.
func (e Env) dirFromEnv(key, def string) string {
	if e.Getenv != nil {
		if v := e.Getenv(key); v != "" && filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
	}
	return def
}

// Command returns the command vector setup registers.
func (e Env) Command() []string { return []string{e.Executable, "mcp"} }

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now().UTC()
	}
	return time.Now().UTC()
}

func (e Env) goos() string {
	if e.GOOS != "" {
		return e.GOOS
	}
	return runtimeGOOS
}

func (e Env) check() error {
	if e.Home == "" || !filepath.IsAbs(e.Home) {
		return fmt.Errorf("setup: home directory %q is not an absolute path", e.Home)
	}
	if e.Executable == "" || !filepath.IsAbs(e.Executable) {
		return fmt.Errorf("setup: rea binary path %q is not absolute", e.Executable)
	}
	return nil
}

// configFormat reads, judges and edits one configuration file format.
type configFormat interface {
	name() string
	key() string
	inspect(doc []byte, want []string) (Status, []string, string)
	apply(doc []byte, want []string) ([]byte, error)
	sameOutsideEntry(before, after []byte) error
}

// Client is one supported agent client and where it keeps its
// configuration.
type Client struct {
	// ID is the name used by --client: claude-code, claude-desktop, codex,
	// cursor, gemini-cli, windsurf.
	ID string `json:"client"`
	// Name is the product's name.
	Name string `json:"name"`
	// Config is the user-scope file rea registers itself in.
	Config string `json:"config"`
	// Project is a project-scoped file that is inspected but never
	// written (it is usually shared; an absolute path would not travel).
	Project string `json:"project_config,omitempty"`
	// SkillsDir is where the client loads skills from; empty when the
	// client has no skills.
	SkillsDir string `json:"skills_dir,omitempty"`
	// markers are paths whose existence means the client is installed.
	markers []string
	format  configFormat
	// local reads a registration nested in Config that setup never writes.
	local configFormat
}

// Clients returns every supported client, in a stable order, with paths
// resolved under env.Home.
func Clients(env Env) []Client {
	h := env.Home
	desktop := filepath.Join(h, ".config", "Claude")
	switch env.goos() {
	case "darwin":
		desktop = filepath.Join(h, "Library", "Application Support", "Claude")
	case "windows":
		desktop = filepath.Join(h, "AppData", "Roaming", "Claude")
	}
	// CLAUDE_CONFIG_DIR moves both ~/.claude and ~/.claude.json into it.
	claudeDir := filepath.Join(h, ".claude")
	claudeJSON := filepath.Join(h, ".claude.json")
	if d := env.dirFromEnv("CLAUDE_CONFIG_DIR", ""); d != "" {
		claudeDir, claudeJSON = d, filepath.Join(d, ".claude.json")
	}
	codexDir := env.dirFromEnv("CODEX_HOME", filepath.Join(h, ".codex"))
	claudeCode := Client{
		ID: "claude-code", Name: "Claude Code",
		Config:    claudeJSON,
		SkillsDir: filepath.Join(claudeDir, "skills"),
		markers:   []string{claudeJSON, claudeDir},
		format:    jsonFormat{withType: true},
	}
	if env.WorkDir != "" {
		claudeCode.Project = filepath.Join(env.WorkDir, ".mcp.json")
		claudeCode.local = jsonFormat{withType: true, under: []string{"projects", env.WorkDir}}
	}
	return []Client{
		claudeCode,
		{
			ID: "claude-desktop", Name: "Claude Desktop",
			Config:  filepath.Join(desktop, "claude_desktop_config.json"),
			markers: []string{desktop},
			format:  jsonFormat{},
		},
		{
			ID: "codex", Name: "Codex",
			Config:  filepath.Join(codexDir, "config.toml"),
			markers: []string{codexDir},
			format:  tomlFormat{},
		},
		{
			ID: "cursor", Name: "Cursor",
			Config:  filepath.Join(h, ".cursor", "mcp.json"),
			markers: []string{filepath.Join(h, ".cursor")},
			format:  jsonFormat{},
		},
		{
			ID: "gemini-cli", Name: "Gemini CLI",
			Config:  filepath.Join(h, ".gemini", "settings.json"),
			markers: []string{filepath.Join(h, ".gemini")},
			format:  jsonFormat{},
		},
		{
			ID: "windsurf", Name: "Windsurf",
			Config:  filepath.Join(h, ".codeium", "windsurf", "mcp_config.json"),
			markers: []string{filepath.Join(h, ".codeium", "windsurf")},
			format:  jsonFormat{},
		},
	}
}

// ClientIDs lists the accepted --client names.
func ClientIDs(env Env) []string {
	var ids []string
	for _, c := range Clients(env) {
		ids = append(ids, c.ID)
	}
	return ids
}

// SelectClients returns the named clients (underscores are accepted for
// dashes: claude_code), or an error naming the accepted ones.
func SelectClients(env Env, names []string) ([]Client, error) {
	all := Clients(env)
	var out []Client
	for _, n := range names {
		id := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(n)), "_", "-")
		i := slices.IndexFunc(all, func(c Client) bool { return c.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("unknown client %q; supported clients: %s", n, strings.Join(ClientIDs(env), ", "))
		}
		if !slices.ContainsFunc(out, func(c Client) bool { return c.ID == id }) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// Detected reports whether the client appears installed: one of its
// configuration files or directories exists.
func (c Client) Detected() bool {
	for _, m := range c.markers {
		if _, err := os.Lstat(m); err == nil {
			return true
		}
	}
	return false
}

// Registration is the state of rea's entry in one configuration file.
type Registration struct {
	// Scope is "user" for the file setup writes, "project" for an
	// inspected project file.
	Scope  string `json:"scope"`
	Path   string `json:"path"`
	Format string `json:"format"`
	// Key is where the entry lives: mcpServers.rea or mcp_servers.rea.
	Key    string `json:"key"`
	Status Status `json:"status"`
	// Command is the registered command vector, when one is readable.
	Command []string `json:"command,omitempty"`
	// Want is the command vector setup registers.
	Want   []string `json:"want"`
	Reason string   `json:"reason,omitempty"`
	Exists bool     `json:"exists"`
}

// InspectRegistration reads one configuration file and judges rea's entry.
func inspectRegistration(path, scope string, f configFormat, want []string) Registration {
	r := Registration{Scope: scope, Path: path, Format: f.name(), Key: f.key(), Want: want}
	doc, err := readConfig(path)
	switch {
	case os.IsNotExist(err):
		r.Status, r.Reason = StatusMissing, "the file does not exist"
		return r
	case err != nil:
		r.Exists = true
		r.Status, r.Reason = StatusInvalid, err.Error()
		return r
	}
	r.Exists = true
	r.Status, r.Command, r.Reason = f.inspect(doc, want)
	return r
}

// readConfig reads a configuration file, refusing anything that is not a
// regular file (after following symlinks) or is implausibly large.
func readConfig(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; rea setup leaves it untouched", path)
	}
	if info.Size() > maxConfigBytes {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d rea setup edits; register rea by hand", path, info.Size(), maxConfigBytes)
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return doc, nil
}

// maxConfigBytes bounds a configuration file setup will read (Claude
// Code's ~/.claude.json grows with project history; 64 MiB is far beyond it).
const maxConfigBytes = 64 << 20

// ClientReport is what setup and doctor know about one client.
type ClientReport struct {
	Client   string `json:"client"`
	Name     string `json:"name"`
	Detected bool   `json:"detected"`
	// Registration is the user-scope entry setup writes.
	Registration Registration `json:"registration"`
	// Project is the project-scope entry, when a project file exists.
	Project *Registration `json:"project,omitempty"`
	// Local is Claude Code's local-scope entry for the working directory
	// (projects.<dir>.mcpServers.rea in ~/.claude.json), when present; it
	// takes precedence over the user-scope one.
	Local *Registration `json:"local,omitempty"`
	// Skill is the installed guidance skill, for clients with skills.
	Skill *SkillReport `json:"skill,omitempty"`
}

// Inspect reports every given client's registration and skill.
func Inspect(env Env, clients []Client) ([]ClientReport, error) {
	if err := env.check(); err != nil {
		return nil, err
	}
	want := env.Command()
	var out []ClientReport
	for _, c := range clients {
		rep := ClientReport{
			Client: c.ID, Name: c.Name, Detected: c.Detected(),
			Registration: inspectRegistration(c.Config, "user", c.format, want),
		}
		if c.Project != "" {
			if _, err := os.Stat(c.Project); err == nil {
				p := inspectRegistration(c.Project, "project", c.format, want)
				rep.Project = &p
			}
		}
		if c.local != nil {
			if l := inspectRegistration(c.Config, "local", c.local, want); l.Status != StatusMissing {
				rep.Local = &l
			}
		}
		if c.SkillsDir != "" {
			s := inspectSkill(filepath.Join(c.SkillsDir, skillName))
			rep.Skill = &s
		}
		out = append(out, rep)
	}
	return out, nil
}
