package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/setup"
)

// setupReport is the machine answer of `rea setup --json`.
type setupReport struct {
	// Status: ready (nothing to change), changed (changes written and
	// everything requested is ready), dry_run, needs_confirmation,
	// declined, incomplete (something requested is not ready) or
	// no_clients.
	Status     string               `json:"status"`
	Message    string               `json:"message"`
	Executable string               `json:"executable"`
	Command    []string             `json:"command"`
	Home       string               `json:"home"`
	Plan       []setup.ClientPlan   `json:"plan"`
	Results    []setup.ClientResult `json:"results,omitempty"`
}

func (c *cli) setupCommand() *cobra.Command {
	var clients []string
	var dryRun, yes, asJSON bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Register rea with your agent clients and install its guidance skill",
		Long: `Find the agent clients installed for this user (Claude Code, Claude Desktop,
Codex, Cursor, Gemini CLI, Windsurf) by their configuration files, show the plan
— each file and the command vector registered: this binary's absolute path and
"mcp" — and ask before changing anything (default No).

Writes are additive: other servers and settings stay as they were, a
timestamped backup (FILE.rea-backup-YYYYMMDDTHHMMSSZ) is written first, and
every file is read back and verified. Invalid configuration is reported and
left untouched. Where a client loads skills (Claude Code), the guidance bundle
is installed as the reverse-engineer-anything skill. Running setup again
changes nothing once everything is aligned.

Without a terminal on standard input, setup changes nothing unless --yes is
given, and exits 1 with status needs_confirmation. Prompts and progress go to
standard error; --json prints the report on standard output.`,
		Example: `  rea setup --dry-run
  rea setup --client claude-code --client codex
  rea setup --yes --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if c.format == "json" {
				asJSON = true
			}
			return c.runSetup(clients, dryRun, yes, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&clients, "client", nil, "client to set up (repeatable): "+strings.Join(setup.ClientIDs(setup.Env{Home: "/"}), ", ")+"; default: every detected client")
	f.BoolVar(&dryRun, "dry-run", false, "show the plan and change nothing")
	f.BoolVarP(&yes, "yes", "y", false, "apply the plan without asking")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON on standard output")
	return cmd
}

// setupEnv describes this machine and binary to package setup.
func setupEnv() (setup.Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return setup.Env{}, abi.Errorf(abi.CodeUnavailable, "cannot find your home directory (%v); set HOME", err)
	}
	home, err = filepath.Abs(home)
	if err != nil {
		return setup.Env{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return setup.Env{}, abi.Errorf(abi.CodeUnavailable, "cannot find the path of this rea binary: %v", err)
	}
	exe, err = filepath.Abs(exe)
	if err != nil {
		return setup.Env{}, err
	}
	wd, _ := os.Getwd()
	return setup.Env{Home: home, WorkDir: wd, Executable: exe, Version: version, Getenv: os.Getenv}, nil
}

func (c *cli) runSetup(names []string, dryRun, yes, asJSON bool) error {
	env, err := setupEnv()
	if err != nil {
		return err
	}
	var clients []setup.Client
	if len(names) > 0 {
		if clients, err = setup.SelectClients(env, names); err != nil {
			return abi.Errorf(abi.CodeInvalidRequest, "--client: %v", err).WithDetail("flag", "--client")
		}
	} else {
		for _, cl := range setup.Clients(env) {
			if cl.Detected() {
				clients = append(clients, cl)
			}
		}
	}
	rep := &setupReport{Executable: env.Executable, Command: env.Command(), Home: env.Home, Plan: []setup.ClientPlan{}}
	finish := func(status, message string, ok bool) error {
		rep.Status, rep.Message = status, message
		if asJSON {
			if err := c.printJSON(rep); err != nil {
				return err
			}
			// One JSON document on stdout: the failure line goes to stderr.
			c.format = "text"
		} else if ok {
			fmt.Fprintln(c.stdout, message)
		}
		if ok {
			return nil
		}
		return abi.Errorf("setup_"+status, "%s", message)
	}
	if len(clients) == 0 {
		return finish("no_clients", "no supported agent client found under "+env.Home+"; name one with --client ("+strings.Join(setup.ClientIDs(env), ", ")+")", false)
	}
	plan, err := setup.MakePlan(env, clients)
	if err != nil {
		return err
	}
	rep.Plan = plan.Clients
	// The plan is for the human deciding: stdout in text mode, stderr
	// beside the prompt in JSON mode.
	planOut := c.stdout
	if asJSON {
		planOut = c.stderr
	}
	printPlan(planOut, plan)
	switch {
	case plan.Changes() == 0 && plan.Ready():
		return finish("ready", "everything is ready; nothing to change", true)
	case plan.Changes() == 0:
		return finish("incomplete", "nothing setup can change; fix the invalid configuration above by hand", false)
	case dryRun:
		return finish("dry_run", fmt.Sprintf("dry run: %d change(s) planned, nothing written", plan.Changes()), true)
	}
	if !yes {
		if !isTerminal(c.stdin) {
			return finish("needs_confirmation", "nothing changed: standard input is not a terminal; run `rea setup --yes` to apply the plan", false)
		}
		if !confirm(c.stdin, c.stderr, fmt.Sprintf("Apply %d change(s)? [y/N] ", plan.Changes())) {
			return finish("declined", "nothing changed", false)
		}
	}
	results, err := setup.Apply(env, plan)
	if err != nil {
		return err
	}
	rep.Results = results
	ready := true
	for _, r := range results {
		reportProgress(c.stderr, r)
		ready = ready && r.Ready()
	}
	if !ready {
		return finish("incomplete", "some clients are not ready; see the reasons above", false)
	}
	return finish("changed", "rea is registered; restart your agent clients to load it, and check with `rea doctor`", true)
}

func printPlan(w io.Writer, p *setup.Plan) {
	fmt.Fprintf(w, "rea setup registers the command: %s\n", strings.Join(p.Command, " "))
	for _, cp := range p.Clients {
		detected := ""
		if !cp.Detected {
			detected = " (not detected; requested)"
		}
		fmt.Fprintf(w, "\n%s [%s]%s\n", cp.Name, cp.Client, detected)
		reg := cp.Registration
		fmt.Fprintf(w, "  config  %s (%s %s)\n          %s -> %s", reg.Path, reg.Format, reg.Key, reg.Status, cp.ConfigAction)
		if reg.Reason != "" {
			fmt.Fprintf(w, ": %s", reg.Reason)
		}
		fmt.Fprintln(w)
		if cp.Skill != nil {
			fmt.Fprintf(w, "  skill   %s\n          %s -> %s", cp.Skill.Path, cp.Skill.Status, cp.SkillAction)
			if cp.Skill.Reason != "" {
				fmt.Fprintf(w, ": %s", cp.Skill.Reason)
			}
			fmt.Fprintln(w)
		}
		if cp.Project != nil {
			fmt.Fprintf(w, "  project %s is %s (inspected, never written)\n", cp.Project.Path, cp.Project.Status)
		}
		if cp.Local != nil {
			fmt.Fprintf(w, "  local   %s in %s is %s (inspected, never written; it overrides the user entry)\n", cp.Local.Key, cp.Local.Path, cp.Local.Status)
		}
	}
	fmt.Fprintln(w)
}

func reportProgress(w io.Writer, r setup.ClientResult) {
	steps := []*setup.Step{&r.Config}
	if r.Skill != nil {
		steps = append(steps, r.Skill)
	}
	for _, s := range steps {
		switch {
		case s.Error != "":
			fmt.Fprintf(w, "%s: %s: FAILED: %s\n", r.Client, s.Path, s.Error)
		case s.Changed && s.Backup != "":
			fmt.Fprintf(w, "%s: wrote %s (backup %s)\n", r.Client, s.Path, s.Backup)
		case s.Changed:
			fmt.Fprintf(w, "%s: wrote %s\n", r.Client, s.Path)
		case s.After != setup.StatusAligned:
			fmt.Fprintf(w, "%s: left %s untouched (%s: %s)\n", r.Client, s.Path, s.After, s.Reason)
		}
	}
}

// confirm asks on w and reads one line from r; only y or yes agrees.
func confirm(r io.Reader, w io.Writer, question string) bool {
	fmt.Fprint(w, question)
	line, _ := bufio.NewReader(r).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
