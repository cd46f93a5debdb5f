package setup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

const reaPath = "/opt/rea/bin/rea"

func testEnv(t *testing.T) Env {
	t.Helper()
	return Env{
		Home:       t.TempDir(),
		GOOS:       "linux",
		Executable: reaPath,
		Version:    "9.9.9-test",
		Now:        func() time.Time { return time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC) },
	}
}

func client(t *testing.T, env Env, id string) Client {
	t.Helper()
	cs, err := SelectClients(env, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	return cs[0]
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// backups lists the rea backups written beside path.
func backups(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".rea-backup-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// reaEntry decodes mcpServers.rea from a JSON configuration.
func reaEntry(t *testing.T, doc string) map[string]any {
	t.Helper()
	var root struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, doc)
	}
	return root.MCPServers["rea"]
}

func TestApplyRegistersReaAdditivelyInEveryFormat(t *testing.T) {
	otherJSON := `"other": {
      "command": "npx",   "args": ["-y", "other-server@1.50"],
      "env": {"TOKEN": "keep-me", "RATIO": 1.50}
    }`
	cases := []struct {
		name     string
		client   string
		existing string // "" means no file
		before   Status
		after    Status
		// keep are byte sequences of the original that must survive.
		keep  []string
		check func(t *testing.T, after string)
	}{
		{
			name: "missing file is created", client: "cursor",
			before: StatusMissing, after: StatusAligned,
			check: func(t *testing.T, after string) {
				e := reaEntry(t, after)
				if e["command"] != reaPath || len(e["args"].([]any)) != 1 || e["args"].([]any)[0] != "mcp" {
					t.Fatalf("entry %v", e)
				}
				if _, ok := e["type"]; ok {
					t.Fatalf("cursor entry got a type: %v", e)
				}
			},
		},
		{
			name: "claude code entry names the stdio transport", client: "claude-code",
			existing: "{\n  \"numStartups\": 42,\n  \"projects\": {\"/src\": {\"allowedTools\": []}}\n}\n",
			before:   StatusMissing, after: StatusAligned,
			keep: []string{"{\n  \"numStartups\": 42,\n  \"projects\": {\"/src\": {\"allowedTools\": []}}"},
			check: func(t *testing.T, after string) {
				if e := reaEntry(t, after); e["type"] != "stdio" || e["command"] != reaPath {
					t.Fatalf("entry %v", e)
				}
			},
		},
		{
			name: "another server survives byte for byte", client: "gemini-cli",
			existing: "{\n  \"theme\": \"Default\",\n  \"mcpServers\": {\n    " + otherJSON + "\n  }\n}\n",
			before:   StatusMissing, after: StatusAligned,
			keep: []string{otherJSON, "\"theme\": \"Default\""},
		},
		{
			name: "stale rea path is rewritten and its env kept", client: "windsurf",
			existing: `{"mcpServers": {"rea": {"command": "/old/rea", "args": ["mcp", "--log-level", "debug"], "env": {"REA_FUEL": "5"}}, "other": {"command": "x"}}}`,
			before:   StatusStale, after: StatusAligned,
			keep: []string{`"env": {"REA_FUEL": "5"}`, `"other": {"command": "x"}`},
			check: func(t *testing.T, after string) {
				if strings.Contains(after, "/old/rea") || strings.Contains(after, "debug") {
					t.Fatalf("stale vector left behind:\n%s", after)
				}
			},
		},
		{
			name: "remote rea entry becomes a stdio command", client: "claude-desktop",
			existing: "{\n  \"mcpServers\": {\n    \"rea\": {\n      \"url\": \"http://localhost:9/mcp\",\n      \"timeout\": 30\n    }\n  }\n}\n",
			before:   StatusStale, after: StatusAligned,
			check: func(t *testing.T, after string) {
				e := reaEntry(t, after)
				if _, ok := e["url"]; ok || e["timeout"] != float64(30) {
					t.Fatalf("entry %v", e)
				}
			},
		},
		{
			name: "compact file stays compact", client: "cursor",
			existing: `{"mcpServers":{"other":{"command":"x"}}}`,
			before:   StatusMissing, after: StatusAligned,
			keep: []string{`{"mcpServers":{"other":{"command":"x"}`},
			check: func(t *testing.T, after string) {
				if strings.Count(after, "\n") > 1 {
					t.Fatalf("compact file was reflowed:\n%s", after)
				}
			},
		},
		{
			name: "empty servers object is filled", client: "cursor",
			existing: "{\n  \"mcpServers\": {}\n}\n",
			before:   StatusMissing, after: StatusAligned,
		},
		{
			name: "codex table is appended after comments and other servers", client: "codex",
			existing: "# my codex settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"npx\" # trailing\nargs = [\n  \"-y\",\n  \"other\",\n]\n",
			before:   StatusMissing, after: StatusAligned,
			keep: []string{"# my codex settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"npx\" # trailing\nargs = [\n  \"-y\",\n  \"other\",\n]\n"},
		},
		{
			name: "stale codex table is rewritten in place", client: "codex",
			existing: "[mcp_servers.rea]\n# pinned\ncommand = \"/old/rea\"\nargs = [\n  \"mcp\",\n  \"--fuel\", \"1\",\n]\nstartup_timeout_sec = 20\n\n[mcp_servers.rea.env]\nREA_LOG_LEVEL = \"warn\"\n\n[profiles.fast]\nmodel = \"x\"\n",
			before:   StatusStale, after: StatusAligned,
			keep: []string{"[mcp_servers.rea]\n# pinned\n", "startup_timeout_sec = 20\n\n[mcp_servers.rea.env]\nREA_LOG_LEVEL = \"warn\"\n\n[profiles.fast]\nmodel = \"x\"\n"},
			check: func(t *testing.T, after string) {
				var root struct {
					MCPServers map[string]struct {
						Command string            `toml:"command"`
						Args    []string          `toml:"args"`
						Env     map[string]string `toml:"env"`
					} `toml:"mcp_servers"`
				}
				if err := toml.Unmarshal([]byte(after), &root); err != nil {
					t.Fatalf("result is not TOML: %v\n%s", err, after)
				}
				r := root.MCPServers["rea"]
				if r.Command != reaPath || strings.Join(r.Args, " ") != "mcp" || r.Env["REA_LOG_LEVEL"] != "warn" {
					t.Fatalf("rea table %+v\n%s", r, after)
				}
			},
		},
		{
			name: "codex table missing its command gains one", client: "codex",
			existing: "[mcp_servers.rea]\nenv = { A = \"1\" }",
			before:   StatusStale, after: StatusAligned,
			keep: []string{"env = { A = \"1\" }"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, env, tc.client)
			if tc.existing != "" {
				writeFile(t, c.Config, tc.existing)
			}
			plan, err := MakePlan(env, []Client{c})
			if err != nil {
				t.Fatal(err)
			}
			if got := plan.Clients[0].Registration.Status; got != tc.before {
				t.Fatalf("planned status %s (%s), want %s", got, plan.Clients[0].Registration.Reason, tc.before)
			}
			res, err := Apply(env, plan)
			if err != nil {
				t.Fatal(err)
			}
			step := res[0].Config
			if step.After != tc.after || !step.Changed || step.Error != "" {
				t.Fatalf("step %+v", step)
			}
			after := readFile(t, c.Config)
			for _, k := range tc.keep {
				if !strings.Contains(after, k) {
					t.Errorf("lost original bytes %q:\n%s", k, after)
				}
			}
			if tc.check != nil {
				tc.check(t, after)
			}
			// The backup holds exactly the original.
			if tc.existing == "" {
				if step.Backup != "" || len(backups(t, c.Config)) != 0 {
					t.Fatalf("backup of a file that did not exist: %q", step.Backup)
				}
			} else if step.Backup == "" || readFile(t, step.Backup) != tc.existing {
				t.Fatalf("backup %q does not hold the original", step.Backup)
			}
			// Read-back: a fresh inspection agrees.
			reps, err := Inspect(env, []Client{c})
			if err != nil {
				t.Fatal(err)
			}
			if reps[0].Registration.Status != StatusAligned || strings.Join(reps[0].Registration.Command, " ") != reaPath+" mcp" {
				t.Fatalf("re-inspected %+v", reps[0].Registration)
			}
			// Idempotence: a second run changes nothing.
			plan2, err := MakePlan(env, []Client{c})
			if err != nil {
				t.Fatal(err)
			}
			if plan2.Clients[0].ConfigAction != ActionNone {
				t.Fatalf("second plan wants %s", plan2.Clients[0].ConfigAction)
			}
			res2, err := Apply(env, plan2)
			if err != nil {
				t.Fatal(err)
			}
			if res2[0].Config.Changed || readFile(t, c.Config) != after || len(backups(t, c.Config)) > 1 {
				t.Fatalf("second run changed something: %+v", res2[0].Config)
			}
		})
	}
}

func TestApplyLeavesInvalidConfigurationUntouched(t *testing.T) {
	cases := []struct {
		name, client, content, reason string
	}{
		{"malformed json", "cursor", "{\"mcpServers\": {\"other\": {\"command\": \"x\",}}}", "not valid JSON"},
		{"json comments", "gemini-cli", "{\n  // my settings\n  \"theme\": \"x\"\n}\n", "not valid JSON"},
		{"top level array", "windsurf", "[1, 2]", "not a JSON object"},
		{"servers not an object", "claude-desktop", "{\"mcpServers\": [\"rea\"]}", "mcpServers is not an object"},
		{"empty file", "claude-code", "  \n", "empty"},
		{"malformed toml", "codex", "[mcp_servers.rea\ncommand = \"/old/rea\"\n", "not valid TOML"},
		{"rea as inline table", "codex", "[mcp_servers]\nrea = { command = \"/old/rea\", args = [\"mcp\"] }\n", "inline table"},
		{"rea as dotted keys", "codex", "mcp_servers.rea.command = \"/old/rea\"\n", "inline table or dotted keys"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, env, tc.client)
			writeFile(t, c.Config, tc.content)
			plan, err := MakePlan(env, []Client{c})
			if err != nil {
				t.Fatal(err)
			}
			reg := plan.Clients[0].Registration
			if reg.Status != StatusInvalid || !strings.Contains(reg.Reason, tc.reason) || plan.Clients[0].ConfigAction != ActionSkip {
				t.Fatalf("plan %+v action %s", reg, plan.Clients[0].ConfigAction)
			}
			res, err := Apply(env, plan)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Config.Changed || res[0].Config.After != StatusInvalid || res[0].Ready() {
				t.Fatalf("step %+v", res[0].Config)
			}
			if readFile(t, c.Config) != tc.content || len(backups(t, c.Config)) != 0 {
				t.Fatal("invalid file was touched")
			}
		})
	}
}

func TestAlignedRegistrationIsNotRewritten(t *testing.T) {
	env := testEnv(t)
	c := client(t, env, "cursor")
	content := "{\"mcpServers\":{\"rea\":{\"args\":[\"mcp\"],\"command\":\"" + reaPath + "\"}}}"
	writeFile(t, c.Config, content)
	info0, _ := os.Stat(c.Config)
	plan, err := MakePlan(env, []Client{c})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Ready() || plan.Changes() != 0 {
		t.Fatalf("plan %+v", plan.Clients[0])
	}
	res, _ := Apply(env, plan)
	info1, _ := os.Stat(c.Config)
	if res[0].Config.Changed || readFile(t, c.Config) != content || !info1.ModTime().Equal(info0.ModTime()) {
		t.Fatal("an aligned file was rewritten")
	}
}

func TestWriteThroughSymlinkKeepsTheLink(t *testing.T) {
	env := testEnv(t)
	c := client(t, env, "cursor")
	real := filepath.Join(env.Home, "dotfiles", "cursor-mcp.json")
	writeFile(t, real, "{}")
	if err := os.MkdirAll(filepath.Dir(c.Config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, c.Config); err != nil {
		t.Fatal(err)
	}
	plan, _ := MakePlan(env, []Client{c})
	if _, err := Apply(env, plan); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(c.Config); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if reaEntry(t, readFile(t, real))["command"] != reaPath {
		t.Fatal("the link's target was not updated")
	}
}

func TestNewFilesArePrivateAndExistingModesKept(t *testing.T) {
	env := testEnv(t)
	cursor, codex := client(t, env, "cursor"), client(t, env, "codex")
	writeFile(t, codex.Config, "model = \"x\"\n") // 0640
	plan, _ := MakePlan(env, []Client{cursor, codex})
	if _, err := Apply(env, plan); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{cursor.Config: 0o600, codex.Config: 0o640} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestProjectRegistrationIsInspectedButNeverWritten(t *testing.T) {
	env := testEnv(t)
	env.WorkDir = t.TempDir()
	c := client(t, env, "claude-code")
	project := "{\"mcpServers\": {\"rea\": {\"command\": \"/elsewhere/rea\", \"args\": [\"mcp\"]}}}"
	writeFile(t, c.Project, project)
	plan, _ := MakePlan(env, []Client{c})
	if p := plan.Clients[0].Project; p == nil || p.Status != StatusStale || p.Command[0] != "/elsewhere/rea" {
		t.Fatalf("project %+v", p)
	}
	if _, err := Apply(env, plan); err != nil {
		t.Fatal(err)
	}
	if readFile(t, c.Project) != project {
		t.Fatal("setup wrote the project file")
	}
}

func TestClaudeCodeLocalScopeIsInspected(t *testing.T) {
	env := testEnv(t)
	env.WorkDir = "/src/app"
	c := client(t, env, "claude-code")
	content := `{"mcpServers": {"rea": {"command": "` + reaPath + `", "args": ["mcp"]}},
 "projects": {"/src/app": {"mcpServers": {"rea": {"type": "stdio", "command": "/old/rea", "args": ["mcp"]}}},
              "/src/other": {"mcpServers": {"rea": {"command": "/other/rea", "args": ["mcp"]}}}}}`
	writeFile(t, c.Config, content)
	reps, err := Inspect(env, []Client{c})
	if err != nil {
		t.Fatal(err)
	}
	r := reps[0]
	if r.Registration.Status != StatusAligned {
		t.Fatalf("user scope %+v (an entry without a type is stdio)", r.Registration)
	}
	if r.Local == nil || r.Local.Status != StatusStale || r.Local.Command[0] != "/old/rea" || r.Local.Key != "projects./src/app.mcpServers.rea" {
		t.Fatalf("local %+v", r.Local)
	}
	// Setup leaves the local entry alone: it is the user's per-project choice.
	plan, _ := MakePlan(env, []Client{c})
	if _, err := Apply(env, plan); err != nil {
		t.Fatal(err)
	}
	if readFile(t, c.Config) != content {
		t.Fatal("setup rewrote an aligned user scope or the local scope")
	}
	env.WorkDir = "/src/none"
	if reps, _ := Inspect(env, []Client{client(t, env, "claude-code")}); reps[0].Local != nil {
		t.Fatalf("local entry for a project without one: %+v", reps[0].Local)
	}
}

func TestDetectionFollowsConfigurationFiles(t *testing.T) {
	env := testEnv(t)
	for _, c := range Clients(env) {
		if c.Detected() {
			t.Fatalf("%s detected in an empty home", c.ID)
		}
	}
	writeFile(t, filepath.Join(env.Home, ".codex", "config.toml"), "")
	if err := os.MkdirAll(filepath.Join(env.Home, ".config", "Claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, c := range Clients(env) {
		if c.Detected() {
			found = append(found, c.ID)
		}
	}
	if strings.Join(found, ",") != "claude-desktop,codex" {
		t.Fatalf("detected %v", found)
	}
}

func TestClaudeDesktopLocationFollowsThePlatform(t *testing.T) {
	env := testEnv(t)
	env.GOOS = "darwin"
	c := client(t, env, "claude_desktop")
	want := filepath.Join(env.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	if c.Config != want {
		t.Fatalf("darwin config %s", c.Config)
	}
}

func TestSelectClientsRejectsUnknownNames(t *testing.T) {
	_, err := SelectClients(testEnv(t), []string{"cursor", "vim"})
	if err == nil || !strings.Contains(err.Error(), `"vim"`) || !strings.Contains(err.Error(), "claude-code") {
		t.Fatalf("err %v", err)
	}
}

func TestSkillInstallUpdatesOnlyRea(t *testing.T) {
	bundleSkill := func(t *testing.T) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", "guidance", "bundle", skillName, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		before  Status
		after   Status
		changed bool
	}{
		{"missing skill is installed", func(*testing.T, string) {}, StatusMissing, StatusAligned, true},
		{"old copy rea installed is replaced", func(t *testing.T, dir string) {
			files := map[string][]byte{"SKILL.md": []byte("---\nname: reverse-engineer-anything\n---\nold\n")}
			writeFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: reverse-engineer-anything\n---\nold\n")
			m, _ := json.Marshal(SkillMarker{InstalledBy: "rea setup", ReaVersion: "0.0.1", Digest: filesDigest(files)})
			writeFile(t, filepath.Join(dir, skillMarker), string(m))
		}, StatusStale, StatusAligned, true},
		{"edited copy is left alone", func(t *testing.T, dir string) {
			files := map[string][]byte{"SKILL.md": []byte("old\n")}
			writeFile(t, filepath.Join(dir, "SKILL.md"), "old, then edited by hand\n")
			m, _ := json.Marshal(SkillMarker{InstalledBy: "rea setup", ReaVersion: "0.0.1", Digest: filesDigest(files)})
			writeFile(t, filepath.Join(dir, skillMarker), string(m))
		}, StatusInvalid, StatusInvalid, false},
		{"foreign skill of the same name is left alone", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "SKILL.md"), "someone else's\n")
		}, StatusInvalid, StatusInvalid, false},
		{"identical copy without a marker is aligned", func(t *testing.T, dir string) {
			// Copy the bundle by hand.
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "guidance", "bundle", skillName))); err != nil {
				t.Fatal(err)
			}
		}, StatusAligned, StatusAligned, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, env, "claude-code")
			dir := filepath.Join(c.SkillsDir, skillName)
			tc.prepare(t, dir)
			var snapshot map[string][]byte
			if _, err := os.Stat(dir); err == nil {
				snapshot, _ = bundleFiles(os.DirFS(dir))
			}
			plan, _ := MakePlan(env, []Client{c})
			if plan.Clients[0].Skill.Status != tc.before {
				t.Fatalf("planned %+v", plan.Clients[0].Skill)
			}
			res, err := Apply(env, plan)
			if err != nil {
				t.Fatal(err)
			}
			s := res[0].Skill
			if s.After != tc.after || s.Changed != tc.changed || s.Error != "" {
				t.Fatalf("skill step %+v", s)
			}
			if tc.changed {
				if got := readFile(t, filepath.Join(dir, "SKILL.md")); got != string(bundleSkill(t)) {
					t.Fatal("installed SKILL.md differs from the bundle")
				}
				var m SkillMarker
				if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, skillMarker))), &m); err != nil || m.ReaVersion != env.Version || m.Digest != BundleDigest() {
					t.Fatalf("marker %+v %v", m, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "references", "native-binaries.md")); err != nil {
					t.Fatal("references were not installed")
				}
			} else if snapshot != nil {
				now, _ := bundleFiles(os.DirFS(dir))
				if filesDigest(now) != filesDigest(snapshot) {
					t.Fatal("a skill setup does not own was changed")
				}
			}
			// Nothing but the skill is left in the skills directory.
			entries, _ := os.ReadDir(c.SkillsDir)
			if len(entries) != 1 || entries[0].Name() != skillName {
				t.Fatalf("skills dir holds %v", entries)
			}
			res2, _ := Apply(env, plan)
			if res2[0].Skill.Changed {
				t.Fatal("second run changed the skill")
			}
		})
	}
}

func TestConcurrentEditIsDetected(t *testing.T) {
	// editConfig refuses to replace a file that changed after it was read.
	env := testEnv(t)
	c := client(t, env, "cursor")
	writeFile(t, c.Config, "{}")
	c.format = racingFormat{jsonFormat{}, c.Config}
	_, err := editConfig(env, c, env.Command())
	if err != errConcurrentEdit {
		t.Fatalf("err %v", err)
	}
	if got := readFile(t, c.Config); got != `{"raced": true}` || len(backups(t, c.Config)) != 0 {
		t.Fatalf("file %q backups %v", got, backups(t, c.Config))
	}
}

// racingFormat rewrites the file, as a running client would, while setup
// prepares its edit.
type racingFormat struct {
	jsonFormat
	path string
}

func (r racingFormat) apply(doc []byte, want []string) ([]byte, error) {
	if err := os.WriteFile(r.path, []byte(`{"raced": true}`), 0o600); err != nil {
		return nil, err
	}
	return r.jsonFormat.apply(doc, want)
}

func TestJSONMemberEdits(t *testing.T) {
	cases := []struct {
		name, doc, want string
		edit            func(doc []byte) ([]byte, error)
	}{
		{"append indented", "{\n    \"a\": 1\n}", "{\n    \"a\": 1,\n    \"b\": [\n        \"x\"\n    ]\n}",
			func(d []byte) ([]byte, error) { return setJSONMember(d, 0, "b", []string{"x"}) }},
		{"replace keeps neighbours", `{"a": 1, "b": 2, "c": 3}`, `{"a": 1, "b": "two", "c": 3}`,
			func(d []byte) ([]byte, error) { return setJSONMember(d, 0, "b", "two") }},
		{"last duplicate wins", `{"a": 1, "a": 2}`, `{"a": 1, "a": 3}`,
			func(d []byte) ([]byte, error) { return setJSONMember(d, 0, "a", 3) }},
		{"delete first", `{"a": 1, "b": 2}`, `{"b": 2}`,
			func(d []byte) ([]byte, error) { return deleteJSONMember(d, 0, "a") }},
		{"delete middle", "{\n  \"a\": 1,\n  \"b\": {\"}\": \"]\"},\n  \"c\": 3\n}", "{\n  \"a\": 1,\n  \"c\": 3\n}",
			func(d []byte) ([]byte, error) { return deleteJSONMember(d, 0, "b") }},
		{"delete only", `{"a": 1}`, `{}`,
			func(d []byte) ([]byte, error) { return deleteJSONMember(d, 0, "a") }},
		{"escaped key", `{"a\"b": 1}`, `{"a\"b": 2}`,
			func(d []byte) ([]byte, error) { return setJSONMember(d, 0, "a\"b", 2) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.edit([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Fatal("result is not JSON")
			}
		})
	}
}

func TestTOMLStatementsFollowMultiLineValues(t *testing.T) {
	doc := "a = \"\"\"\n[not.a.header]\n\"\"\"\nb = [\n  \"]\", # ]\n  'x',\n]\n[real]\n"
	var keys []string
	for _, st := range tomlStatements([]byte(doc), 0) {
		if st.header {
			keys = append(keys, "["+strings.TrimSpace(doc[st.start:st.end])+"]")
		} else {
			keys = append(keys, st.key)
		}
	}
	if got := strings.Join(keys, " "); got != "a b [[real]]" {
		t.Fatalf("statements %q", got)
	}
}

func TestTOMLStringRoundTrips(t *testing.T) {
	for _, s := range []string{`C:\Program Files\rea\rea.exe`, "/a \"quoted\" path", "tab\there", "ünïcode"} {
		var v struct{ S string }
		if err := toml.Unmarshal([]byte("S = "+tomlString(s)), &v); err != nil || v.S != s {
			t.Errorf("%q -> %s -> %q (%v)", s, tomlString(s), v.S, err)
		}
	}
}

func TestBackupNamesNeverCollide(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, "f.json")
	a, err := writeBackup(path, []byte("1"), 0o600, env)
	if err != nil {
		t.Fatal(err)
	}
	b, err := writeBackup(path, []byte("2"), 0o600, env)
	if err != nil {
		t.Fatal(err)
	}
	if a == b || readFile(t, a) != "1" || readFile(t, b) != "2" || !bytes.HasSuffix([]byte(a), []byte("20261130T010203Z")) {
		t.Fatalf("backups %s %s", a, b)
	}
}

func TestClientDirectoryVariablesMoveTheirFiles(t *testing.T) {
	env := testEnv(t)
	claudeDir, codexDir := filepath.Join(env.Home, "cc"), filepath.Join(env.Home, "cx")
	vars := map[string]string{"CLAUDE_CONFIG_DIR": claudeDir, "CODEX_HOME": codexDir}
	env.Getenv = func(k string) string { return vars[k] }
	cc, cx := client(t, env, "claude-code"), client(t, env, "codex")
	if cc.Config != filepath.Join(claudeDir, ".claude.json") || cc.SkillsDir != filepath.Join(claudeDir, "skills") || cx.Config != filepath.Join(codexDir, "config.toml") {
		t.Fatalf("claude %s %s codex %s", cc.Config, cc.SkillsDir, cx.Config)
	}
	vars["CODEX_HOME"] = "relative/dir" // not absolute: ignored
	if cx = client(t, env, "codex"); cx.Config != filepath.Join(env.Home, ".codex", "config.toml") {
		t.Fatalf("codex %s", cx.Config)
	}
}

func TestRegistrationThroughASymlinkToThisBinaryIsAligned(t *testing.T) {
	env := testEnv(t)
	bin := filepath.Join(env.Home, "opt", "rea")
	writeFile(t, bin, "#!/bin/sh\n")
	link := filepath.Join(env.Home, "bin", "rea")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	env.Executable = bin
	c := client(t, env, "cursor")
	cases := []struct {
		command string
		status  Status
		reason  string
	}{
		{link, StatusAligned, ""},
		{filepath.Join(env.Home, "gone", "rea"), StatusStale, "no longer exists"},
		{"/bin/sh", StatusStale, "is not this rea binary"},
	}
	for _, tc := range cases {
		writeFile(t, c.Config, `{"mcpServers": {"rea": {"command": "`+tc.command+`", "args": ["mcp"]}}}`)
		reps, err := Inspect(env, []Client{c})
		if err != nil {
			t.Fatal(err)
		}
		r := reps[0].Registration
		if r.Status != tc.status || !strings.Contains(r.Reason, tc.reason) || strings.Contains(r.Reason, "no longer") != (tc.reason == "no longer exists") {
			t.Errorf("%s: %s (%s)", tc.command, r.Status, r.Reason)
		}
	}
}
