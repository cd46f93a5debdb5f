package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/setup"
)

// Check states of `rea doctor`. Only fail makes the doctor unhealthy.
const (
	checkOK      = "ok"
	checkWarn    = "warn"
	checkFail    = "fail"
	checkUnknown = "unknown"
)

// healthCheck is one line of the doctor's verdict.
type healthCheck struct {
	Name        string `json:"name"`
	State       string `json:"state"`
	Detail      string `json:"detail"`
	Remediation string `json:"remediation,omitempty"`
}

// machineDoctorReport is `rea doctor --json`.
type machineDoctorReport struct {
	Healthy bool          `json:"healthy"`
	Checks  []healthCheck `json:"checks"`
	Rea     struct {
		Version    string   `json:"version"`
		Executable string   `json:"executable"`
		Command    []string `json:"command"`
		Go         string   `json:"go"`
		Platform   string   `json:"platform"`
	} `json:"rea"`
	Home      string               `json:"home"`
	Clients   []setup.ClientReport `json:"clients"`
	Modules   []moduleHealth       `json:"modules"`
	Cache     cacheHealth          `json:"compile_cache"`
	Providers []providerHealth     `json:"providers"`
	// Live is the running MCP server: state unknown unless --live
	// started one and asked for its identity.
	Live liveHealth `json:"live_server"`
}

type moduleHealth struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Source string `json:"source"`
	// Cache is warm when an earlier run compiled this exact module into
	// the on-disk cache, cold otherwise (measured before this compile).
	Cache         string `json:"cache"`
	Compiled      *bool  `json:"compiled"`
	CompileMillis int64  `json:"compile_ms,omitempty"`
	Error         string `json:"error,omitempty"`
}

type cacheHealth struct {
	Dir      string `json:"dir"`
	Writable bool   `json:"writable"`
	Error    string `json:"error,omitempty"`
}

type providerHealth struct {
	ID          string `json:"id"`
	Available   bool   `json:"available"`
	Reason      string `json:"reason,omitempty"`
	Remediation string `json:"remediation,omitempty"`
}

type liveHealth struct {
	State  string        `json:"state"`
	Detail string        `json:"detail"`
	Report *doctorReport `json:"report,omitempty"`
}

func (c *cli) doctorCommand() *cobra.Command {
	var clients []string
	var asJSON, live, skipCompile bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check client registrations, modules, the compile cache and providers",
		Long: `Inspect how each supported agent client registers rea and report its command
vector against this binary as aligned, stale (another rea binary or other
arguments), missing or invalid; check that the module catalog loads and every
module compiles (reporting whether the compile cache was warm or cold), that
the compile cache directory is writable, and which optional provider engines
are available, with remediation.

The live server stays "unknown" unless --live starts this binary as an MCP
server and checks its identity, as ` + "`rea mcp doctor`" + ` does.

Exits 1 when a check fails: a stale or invalid registration, a module that does
not load or compile, an unwritable cache, or a failed live check. A missing
registration is a warning; ` + "`rea setup`" + ` fixes it.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if c.format == "json" {
				asJSON = true
			}
			rep, err := c.doctor(clients, live, !skipCompile)
			if err != nil {
				return err
			}
			if asJSON {
				if err := c.printJSON(rep); err != nil {
					return err
				}
				c.format = "text" // one JSON document on stdout
			} else {
				printDoctor(c.stdout, rep)
			}
			if !rep.Healthy {
				return abi.Errorf("doctor_unhealthy", "one or more checks failed; see the remediation above")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&clients, "client", nil, "inspect only this client (repeatable); default: every supported client")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON on standard output")
	f.BoolVar(&live, "live", false, "also start `rea mcp` and check the live server's identity (as `rea mcp doctor`)")
	f.BoolVar(&skipCompile, "skip-compile", false, "report the compile cache as warm or cold without compiling modules")
	return cmd
}

func (c *cli) doctor(names []string, live, compile bool) (*machineDoctorReport, error) {
	env, err := setupEnv()
	if err != nil {
		return nil, err
	}
	rep := &machineDoctorReport{Home: env.Home, Clients: []setup.ClientReport{}, Modules: []moduleHealth{}, Providers: []providerHealth{}}
	rep.Rea.Version, rep.Rea.Executable, rep.Rea.Command = version, env.Executable, env.Command()
	rep.Rea.Go, rep.Rea.Platform = runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH
	add := func(name, state, detail, fix string) {
		rep.Checks = append(rep.Checks, healthCheck{name, state, detail, fix})
	}
	add("runtime", checkOK, fmt.Sprintf("rea %s built with %s for %s", version, rep.Rea.Go, rep.Rea.Platform), "")

	clients := setup.Clients(env)
	if len(names) > 0 {
		if clients, err = setup.SelectClients(env, names); err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "--client: %v", err).WithDetail("flag", "--client")
		}
	}
	reports, err := setup.Inspect(env, clients)
	if err != nil {
		return nil, err
	}
	rep.Clients = reports
	for _, r := range reports {
		state, detail, fix := clientHealth(r)
		add("client:"+r.Client, state, detail, fix)
	}

	c.checkModules(rep, compile, add)
	c.checkProviders(rep, add)

	rep.Live = liveHealth{State: checkUnknown, Detail: "not checked; run `rea doctor --live` or `rea mcp doctor`"}
	if live {
		mrep, err := c.mcpDoctor()
		switch {
		case err != nil:
			rep.Live = liveHealth{State: checkFail, Detail: err.Error()}
		case mrep.Healthy:
			rep.Live = liveHealth{State: checkOK, Detail: fmt.Sprintf("%v %v, catalog %s, %d tools", mrep.Server["name"], mrep.Server["version"], mrep.CatalogDigest, mrep.Tools), Report: mrep}
		default:
			rep.Live = liveHealth{State: checkFail, Detail: "the started server failed a check; see report.checks", Report: mrep}
		}
	}
	fix := ""
	if rep.Live.State == checkFail {
		fix = "run `rea mcp doctor` for the failing MCP check"
	}
	add("live-server", rep.Live.State, rep.Live.Detail, fix)

	rep.Healthy = true
	for _, ch := range rep.Checks {
		rep.Healthy = rep.Healthy && ch.State != checkFail
	}
	return rep, nil
}

// clientHealth turns one client's registrations into a verdict.
func clientHealth(r setup.ClientReport) (state, detail, fix string) {
	setupFix := "run `rea setup --client " + r.Client + "`"
	reg := r.Registration
	state = checkOK
	var parts []string
	worsen := func(s string) {
		if s == checkFail || (s == checkWarn && state == checkOK) {
			state = s
		}
	}
	switch reg.Status {
	case setup.StatusAligned:
		parts = append(parts, "registered "+strings.Join(reg.Command, " ")+" in "+reg.Path)
	case setup.StatusStale:
		worsen(checkFail)
		parts = append(parts, "stale in "+reg.Path+": "+reg.Reason)
		fix = setupFix
	case setup.StatusInvalid:
		worsen(checkFail)
		parts = append(parts, "invalid "+reg.Path+": "+reg.Reason)
		fix = "fix " + reg.Path + " by hand, then " + setupFix
	case setup.StatusMissing:
		if !r.Detected {
			parts = append(parts, "not installed")
		} else {
			worsen(checkWarn)
			parts = append(parts, "not registered in "+reg.Path)
			fix = setupFix
		}
	}
	// Project and local entries override the user-scope one in Claude
	// Code; setup never writes them, so drift there is the user's to fix.
	for _, p := range []*setup.Registration{r.Project, r.Local} {
		if p == nil || p.Status == setup.StatusMissing {
			continue
		}
		where := p.Scope + " " + p.Path
		if p.Scope == "local" {
			where = "local " + p.Key + " in " + p.Path
		}
		switch p.Status {
		case setup.StatusAligned:
			parts = append(parts, where+" aligned")
		default:
			worsen(checkFail)
			parts = append(parts, fmt.Sprintf("%s %s: %s", where, p.Status, p.Reason))
			if fix == "" {
				fix = "edit " + p.Key + " in " + p.Path + " to run " + strings.Join(p.Want, " ") + " (rea setup never writes " + p.Scope + "-scope entries)"
			}
		}
	}
	if s := r.Skill; s != nil && (r.Detected || s.Status != setup.StatusMissing) {
		switch s.Status {
		case setup.StatusAligned:
			parts = append(parts, "skill up to date")
		default:
			worsen(checkWarn)
			reason := s.Reason
			parts = append(parts, fmt.Sprintf("skill %s: %s", s.Status, reason))
			if fix == "" {
				fix = setupFix
				if s.Status == setup.StatusInvalid {
					fix = "move " + s.Path + " away, then " + setupFix
				}
			}
		}
	}
	return state, strings.Join(parts, "; "), fix
}

// compiledCacheDir is where the sandbox keeps compiled modules by default
// (sandbox.Options.CacheDir == ""): <user cache dir>/rea/wazero.
func compiledCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "rea", "wazero"), nil
}

func (c *cli) checkModules(rep *machineDoctorReport, compile bool, add func(name, state, detail, fix string)) {
	dir, err := compiledCacheDir()
	rep.Cache.Dir = dir
	if err == nil {
		err = probeWritable(dir)
	}
	if err != nil {
		rep.Cache.Error = err.Error()
		add("compile-cache", checkFail, err.Error(), "make "+dir+" writable, or set XDG_CACHE_HOME to a writable directory; without it every start compiles modules again")
	} else {
		rep.Cache.Writable = true
		add("compile-cache", checkOK, dir+" is writable", "")
	}

	a, err := c.application()
	if err != nil {
		add("modules", checkFail, "the module catalog does not load: "+err.Error(), "rebuild rea with `make`, or fix --module-dir / REA_MODULE_DIR")
		return
	}
	list := a.ListModules().Modules
	if len(list) == 0 {
		add("modules", checkFail, "this binary holds no modules", "build rea with `make` (it embeds the modules) or pass --module-dir")
		return
	}
	failed, cold := 0, 0
	for _, id := range list {
		m := moduleHealth{Name: id.Name, SHA256: id.SHA256, Size: id.Size, Source: string(id.Source), Cache: "cold"}
		if rep.Cache.Dir != "" {
			if _, err := os.Stat(filepath.Join(rep.Cache.Dir, "rea-seen-"+id.SHA256)); err == nil {
				m.Cache = "warm"
			}
		}
		if m.Cache == "cold" {
			cold++
		}
		if compile {
			if m.Cache == "cold" {
				fmt.Fprintf(c.stderr, "compiling module %s (cold cache; this takes seconds once)...\n", id.Name)
			}
			_, took, err := a.Runner.Compile(c.ctx, id.Name, a.Config.Limits)
			ok := err == nil
			m.Compiled, m.CompileMillis = &ok, took.Milliseconds()
			if err != nil {
				m.Error = err.Error()
				failed++
			}
		}
		rep.Modules = append(rep.Modules, m)
		if c.ctx.Err() != nil {
			break // interrupted: report what was checked
		}
	}
	detail := fmt.Sprintf("%d modules, compile cache %d warm / %d cold before this check", len(list), len(list)-cold, cold)
	switch {
	case failed > 0:
		add("modules", checkFail, fmt.Sprintf("%s; %d did not compile", detail, failed), "rebuild the modules with `make modules` and rebuild rea")
	case !compile:
		add("modules", checkOK, detail+"; not compiled (--skip-compile)", "")
	default:
		add("modules", checkOK, detail+"; all compile", "")
	}
}

// probeWritable creates and removes a file in dir.
func probeWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".rea-doctor-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func (c *cli) checkProviders(rep *machineDoctorReport, add func(name, state, detail, fix string)) {
	a, err := c.application()
	if err != nil {
		return // reported by the modules check
	}
	pr, err := a.Providers("auto")
	if err != nil {
		add("providers", checkWarn, "provider discovery failed: "+err.Error(), "see `rea providers`")
		return
	}
	var avail, unavail []string
	for _, cand := range pr.Candidates {
		ph := providerHealth{ID: cand.ID, Available: cand.Availability.Usable()}
		if !ph.Available {
			ph.Reason, ph.Remediation = cand.Availability.Reason, cand.Availability.Remediation
			unavail = append(unavail, cand.ID)
		} else {
			avail = append(avail, cand.ID)
		}
		rep.Providers = append(rep.Providers, ph)
	}
	detail := "available: " + orNone(avail)
	if len(unavail) > 0 {
		detail += "; optional engines not available: " + strings.Join(unavail, ", ") + " (see providers[].remediation)"
	}
	add("providers", checkOK, detail, "")
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func printDoctor(w io.Writer, rep *machineDoctorReport) {
	fmt.Fprintf(w, "rea %s at %s (%s, %s)\n\n", rep.Rea.Version, rep.Rea.Executable, rep.Rea.Go, rep.Rea.Platform)
	for _, ch := range rep.Checks {
		fmt.Fprintf(w, "%-7s %-20s %s\n", strings.ToUpper(ch.State), ch.Name, ch.Detail)
		if ch.Remediation != "" {
			fmt.Fprintf(w, "        %-20s -> %s\n", "", ch.Remediation)
		}
	}
	for _, m := range rep.Modules {
		compiled := "not compiled"
		if m.Compiled != nil && *m.Compiled {
			compiled = fmt.Sprintf("compiled in %s", (time.Duration(m.CompileMillis) * time.Millisecond).String())
		} else if m.Error != "" {
			compiled = "FAILED: " + m.Error
		}
		fmt.Fprintf(w, "        module %-10s %s… %s cache, %s\n", m.Name, m.SHA256[:12], m.Cache, compiled)
	}
	for _, p := range rep.Providers {
		if !p.Available && p.Remediation != "" {
			fmt.Fprintf(w, "        provider %-10s unavailable: %s -> %s\n", p.ID, p.Reason, p.Remediation)
		}
	}
	verdict := "healthy"
	if !rep.Healthy {
		verdict = "UNHEALTHY"
	}
	fmt.Fprintf(w, "\n%s.", verdict)
	if rep.Live.State == checkUnknown {
		fmt.Fprint(w, " The live MCP server was not checked: `rea doctor --live` or `rea mcp doctor`.")
	}
	fmt.Fprintln(w)
}
