package setup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

const runtimeGOOS = runtime.GOOS

// Plan is what setup would change, client by client.
type Plan struct {
	Executable string       `json:"executable"`
	Command    []string     `json:"command"`
	Clients    []ClientPlan `json:"clients"`
}

// ClientPlan is one client's current state and the actions setup takes.
type ClientPlan struct {
	ClientReport
	ConfigAction Action `json:"config_action"`
	SkillAction  Action `json:"skill_action,omitempty"`
	client       Client
}

// MakePlan inspects the clients and decides an action for each file.
func MakePlan(env Env, clients []Client) (*Plan, error) {
	reports, err := Inspect(env, clients)
	if err != nil {
		return nil, err
	}
	p := &Plan{Executable: env.Executable, Command: env.Command()}
	for i, r := range reports {
		cp := ClientPlan{ClientReport: r, client: clients[i], ConfigAction: actionFor(r.Registration.Status, r.Registration.Exists)}
		if r.Skill != nil {
			cp.SkillAction = actionFor(r.Skill.Status, r.Skill.Status != StatusMissing)
		}
		p.Clients = append(p.Clients, cp)
	}
	return p, nil
}

func actionFor(s Status, exists bool) Action {
	switch s {
	case StatusAligned:
		return ActionNone
	case StatusInvalid:
		return ActionSkip
	}
	if exists {
		return ActionUpdate
	}
	return ActionCreate
}

// Changes counts the files and directories applying the plan would write.
func (p *Plan) Changes() int {
	n := 0
	for _, c := range p.Clients {
		for _, a := range []Action{c.ConfigAction, c.SkillAction} {
			if a == ActionCreate || a == ActionUpdate {
				n++
			}
		}
	}
	return n
}

// Ready reports whether every registration and skill is already aligned.
func (p *Plan) Ready() bool {
	for _, c := range p.Clients {
		if c.ConfigAction != ActionNone || (c.SkillAction != "" && c.SkillAction != ActionNone) {
			return false
		}
	}
	return true
}

// Step is the outcome of one file or directory.
type Step struct {
	Path    string `json:"path"`
	Action  Action `json:"action"`
	Changed bool   `json:"changed"`
	// Backup is the copy of the file written before it was changed.
	Backup string `json:"backup,omitempty"`
	Before Status `json:"before"`
	After  Status `json:"after"`
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Ready reports whether the file or directory ended aligned.
func (s Step) Ready() bool { return s.After == StatusAligned }

// ClientResult is what applying a plan did for one client.
type ClientResult struct {
	Client string `json:"client"`
	Name   string `json:"name"`
	Config Step   `json:"config"`
	Skill  *Step  `json:"skill,omitempty"`
}

// Ready reports whether the client's registration and skill are aligned.
func (r ClientResult) Ready() bool {
	return r.Config.Ready() && (r.Skill == nil || r.Skill.Ready())
}

// Apply carries out the plan: every stale or missing registration is
// written (after a backup) and read back, every missing or stale rea skill
// installed. Invalid files are skipped. Apply re-reads each file, so a file
// that changed since the plan was made is judged afresh.
func Apply(env Env, p *Plan) ([]ClientResult, error) {
	if err := env.check(); err != nil {
		return nil, err
	}
	var out []ClientResult
	for _, cp := range p.Clients {
		c := cp.client
		res := ClientResult{Client: c.ID, Name: c.Name, Config: writeRegistration(env, c)}
		if c.SkillsDir != "" {
			s := applySkill(env, filepath.Join(c.SkillsDir, skillName))
			res.Skill = &s
		}
		out = append(out, res)
	}
	return out, nil
}

func applySkill(env Env, dir string) Step {
	before := inspectSkill(dir)
	st := Step{Path: dir, Before: before.Status, After: before.Status, Reason: before.Reason, Action: actionFor(before.Status, before.Status != StatusMissing)}
	if st.Action != ActionCreate && st.Action != ActionUpdate {
		return st
	}
	if err := installSkill(dir, env.Version); err != nil {
		st.Error = err.Error()
		st.After = inspectSkill(dir).Status
		return st
	}
	st.Changed, st.After, st.Reason = true, StatusAligned, ""
	return st
}

// writeRegistration makes the client's user-scope file register rea. It
// retries when the file changes underneath it (clients rewrite their own
// configuration while running).
func writeRegistration(env Env, c Client) Step {
	want := env.Command()
	st := Step{Path: c.Config}
	for attempt := 0; attempt < 3; attempt++ {
		reg := inspectRegistration(c.Config, "user", c.format, want)
		st.Before, st.After, st.Reason = reg.Status, reg.Status, reg.Reason
		st.Action = actionFor(reg.Status, reg.Exists)
		if st.Action == ActionNone || st.Action == ActionSkip {
			return st
		}
		backup, err := editConfig(env, c, want)
		st.Backup = backup
		if errors.Is(err, errConcurrentEdit) {
			continue
		}
		if err != nil {
			st.Error = err.Error()
			st.After = inspectRegistration(c.Config, "user", c.format, want).Status
			return st
		}
		st.Changed, st.After, st.Reason = true, StatusAligned, ""
		return st
	}
	st.Error = fmt.Sprintf("%s kept changing while rea setup edited it; close %s and run rea setup again", c.Config, c.Name)
	return st
}

var errConcurrentEdit = errors.New("file changed during the edit")

// editConfig performs one read–edit–backup–write–read-back cycle and
// returns the backup's path.
func editConfig(env Env, c Client, want []string) (string, error) {
	path := c.Config
	before, err := readConfig(path)
	if os.IsNotExist(err) {
		before, err = nil, nil
	}
	if err != nil {
		return "", err
	}
	after, err := c.format.apply(before, want)
	if err != nil {
		return "", fmt.Errorf("editing %s: %w", path, err)
	}
	// Verify the edit before anything touches the disk.
	if st, _, reason := c.format.inspect(after, want); st != StatusAligned {
		return "", fmt.Errorf("editing %s produced a %s registration (%s); nothing was written", path, st, reason)
	}
	if err := c.format.sameOutsideEntry(before, after); err != nil {
		return "", fmt.Errorf("editing %s: %w; nothing was written", path, err)
	}
	target := path
	mode := os.FileMode(0o600)
	if before != nil {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", err
		}
		if info, err := os.Stat(target); err == nil {
			mode = info.Mode().Perm()
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	var backup string
	if before != nil {
		if backup, err = writeBackup(path, before, mode, env); err != nil {
			return "", err
		}
	}
	tmp, err := writeTemp(target, after, mode)
	if err != nil {
		return backup, err
	}
	// A client may have rewritten its file since we read it; start over
	// rather than lose its change.
	now, err := os.ReadFile(target)
	if (before == nil && err == nil) || (before != nil && (err != nil || !bytes.Equal(now, before))) {
		os.Remove(tmp)
		if backup != "" {
			os.Remove(backup)
		}
		return "", errConcurrentEdit
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return backup, fmt.Errorf("replacing %s: %w", target, err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return backup, fmt.Errorf("reading %s back: %w", path, err)
	}
	if !bytes.Equal(got, after) {
		return backup, fmt.Errorf("%s reads back different from what was written; the previous content is in %s", path, backup)
	}
	if st, _, reason := c.format.inspect(got, want); st != StatusAligned {
		return backup, fmt.Errorf("%s reads back as %s (%s); the previous content is in %s", path, st, reason, backup)
	}
	return backup, nil
}

// writeBackup copies the current content beside the file, stamped with
// the time, never overwriting an earlier backup.
func writeBackup(path string, content []byte, mode os.FileMode, env Env) (string, error) {
	stamp := env.now().Format("20060102T150405Z")
	for i := 0; i < 100; i++ {
		name := path + ".rea-backup-" + stamp
		if i > 0 {
			name += fmt.Sprintf("-%d", i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("writing the backup of %s: %w", path, err)
		}
		_, err = f.Write(content)
		if serr := f.Sync(); err == nil {
			err = serr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("writing the backup of %s: %w", path, err)
		}
		return name, nil
	}
	return "", fmt.Errorf("too many backups of %s at %s; remove old ones", path, stamp)
}

// writeTemp writes content to a synced temporary file beside target.
func writeTemp(target string, content []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".rea-tmp-")
	if err != nil {
		return "", fmt.Errorf("writing beside %s: %w", target, err)
	}
	_, err = f.Write(content)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), mode)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing beside %s: %w", target, err)
	}
	return f.Name(), nil
}
