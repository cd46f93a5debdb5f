package capture

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"rea/abi"
)

// Defaults and ceilings of a scenario. They bound what one capture can cost
// the host; the values follow Process Capture v4.
const (
	DefaultTimeoutMs   = 30_000
	MaxTimeoutMs       = 300_000
	DefaultIdleMs      = 30_000
	DefaultSettleMs    = 100
	MaxSettleMs        = 10_000
	DefaultOutputBytes = 1 << 20
	MaxOutputBytes     = 4 << 20
	DefaultProcesses   = 1000
	DefaultFiles       = 10_000
	DefaultFileBytes   = 10_000_000
	DefaultDepth       = 16
	DefaultCols        = 80
	DefaultRows        = 24
	DefaultGraceMs     = 500
	DefaultCleanupMs   = 5_000
	MaxCleanupMs       = 60_000
	MaxEvents          = 1000
	MaxRoots           = 16
	MaxArgs            = 4096
	MaxJournal         = 10_000
	maxInputBytes      = 64 << 10
	maxLiteralBytes    = 4096
)

// RunIDVariable is the environment variable that carries a run's ownership
// token into every process the run starts (and their descendants, unless
// they drop their environment).
const RunIDVariable = "REA_PROCESS_RUN_ID"

// Scenario is the request of capture_process_scenario. Its JSON names are the
// MCP argument names; the CLI reads the same document from a file.
type Scenario struct {
	// Executable is an absolute path, a path relative to Cwd, or a bare name
	// looked up in Env's PATH (never rea's own PATH).
	Executable string   `json:"executable" jsonschema:"absolute path, path relative to cwd, or a bare name looked up in env.PATH (never rea's own PATH)"`
	Args       []string `json:"args,omitempty" jsonschema:"arguments after the program name"`
	// Cwd is the working directory; empty means a fresh private directory
	// that rea removes after the run.
	Cwd string `json:"cwd,omitempty" jsonschema:"working directory; omitted means a fresh private directory removed after the run"`
	// Env is the complete environment: nothing is inherited from rea except
	// the run token, which is always added.
	Env map[string]string `json:"env,omitempty" jsonschema:"the complete environment; nothing is inherited except REA_PROCESS_RUN_ID, which rea always adds"`
	// PTY runs the process on a pseudo-terminal (its own session, the
	// terminal as stdin/stdout/stderr) instead of plain pipes.
	PTY      bool      `json:"pty,omitempty" jsonschema:"run on a pseudo-terminal (true) or plain pipes (false, default)"`
	Terminal *Terminal `json:"terminal,omitempty" jsonschema:"pseudo-terminal size (default 80x24); only with pty true"`
	// Events are scripted interactions, each at an elapsed time or on a
	// terminal-output match.
	Events []Event `json:"events,omitempty" jsonschema:"scripted interactions, each with exactly one trigger: at_ms or on_output (at most 1000)"`
	// FilesystemRoots are snapshotted at every checkpoint (always "before"
	// and "after_settlement").
	FilesystemRoots []string `json:"filesystem_roots,omitempty" jsonschema:"directories snapshotted (paths, sizes, sha256) at the before and after_settlement checkpoints and at checkpoint events"`
	Limits          *Limits  `json:"limits,omitempty" jsonschema:"limits that end the run with their reason recorded in termination.reason"`
	// SettleMs is how long output must stay quiet after the root process
	// exits before the run is considered settled.
	SettleMs *int64   `json:"settle_ms,omitempty" jsonschema:"quiet output time after the root exits before the run is settled (default 100, at most 10000)"`
	Cleanup  *Cleanup `json:"cleanup,omitempty" jsonschema:"SIGTERM then SIGKILL after grace_ms (default 500), until quiesced or deadline_ms (default 5000)"`
}

// Terminal is the pseudo-terminal size.
type Terminal struct {
	Cols int `json:"cols" jsonschema:"columns, 1..1000"`
	Rows int `json:"rows" jsonschema:"rows, 1..1000"`
}

// Event actions.
const (
	ActionInput      = "input"
	ActionEOF        = "eof"
	ActionResize     = "resize"
	ActionSignal     = "signal"
	ActionCheckpoint = "checkpoint"
)

// Event is one scripted interaction. Exactly one trigger: AtMs (elapsed
// since start) or OnOutput (a literal seen in the output for the given
// occurrence).
type Event struct {
	AtMs     *int64      `json:"at_ms,omitempty" jsonschema:"fire at this many milliseconds after start"`
	OnOutput *OutputTrig `json:"on_output,omitempty" jsonschema:"fire when a literal has appeared in the output the given number of times"`
	// Action is input, eof, resize, signal or checkpoint.
	Action string `json:"action" jsonschema:"input, eof, resize, signal or checkpoint"`
	// Data is written by input. Sensitive data is delivered to the process
	// but never recorded: the journal, the parameters and the output carry
	// "[redacted]" instead.
	Data      string `json:"data,omitempty" jsonschema:"bytes written by input (at most 64 KiB)"`
	Sensitive bool   `json:"sensitive,omitempty" jsonschema:"deliver the input but record it only as [redacted]"`
	// Cols and Rows are the new size for resize.
	Cols int `json:"cols,omitempty"`
	Rows int `json:"rows,omitempty"`
	// Signal names the signal sent to the root process, e.g. SIGINT.
	Signal string `json:"signal,omitempty" jsonschema:"signal sent to the root process by signal, e.g. SIGINT"`
	// Name labels a checkpoint.
	Name string `json:"name,omitempty" jsonschema:"label of a checkpoint"`
}

// OutputTrig fires when Literal has been seen Occurrence times (default 1)
// in the raw terminal output (escape sequences included).
type OutputTrig struct {
	Literal    string `json:"literal" jsonschema:"exact bytes to find in the raw output (escape sequences included)"`
	Occurrence int    `json:"occurrence,omitempty" jsonschema:"which occurrence fires the event (default 1)"`
}

// Limits end a run when hit; the reason is recorded in termination.
type Limits struct {
	TimeoutMs   int64 `json:"timeout_ms,omitempty" jsonschema:"whole-run limit (default 30000, at most 300000)"`
	IdleMs      int64 `json:"idle_ms,omitempty" jsonschema:"longest time without output while the root runs (default 30000)"`
	OutputBytes int64 `json:"output_bytes,omitempty" jsonschema:"output captured before the run ends (default 1048576)"`
	Processes   int   `json:"processes,omitempty" jsonschema:"owned processes alive at once (default 1000)"`
	// Files, FileBytes and Depth bound each filesystem snapshot: files
	// listed, bytes hashed per file, directory depth.
	Files     int   `json:"files,omitempty" jsonschema:"entries per snapshot (default 10000)"`
	FileBytes int64 `json:"file_bytes,omitempty" jsonschema:"largest file hashed in a snapshot (default 10000000)"`
	Depth     int   `json:"depth,omitempty" jsonschema:"deepest directory level in a snapshot (default 16)"`
}

// Cleanup tunes ownership-verified cleanup: SIGTERM, then SIGKILL after
// GraceMs, until quiesced or DeadlineMs. A grace at or beyond the deadline
// means SIGTERM only: whatever ignores it is reported, not killed.
type Cleanup struct {
	GraceMs    int64 `json:"grace_ms,omitempty" jsonschema:"time between SIGTERM and SIGKILL (default 500); at or beyond deadline_ms means SIGTERM only"`
	DeadlineMs int64 `json:"deadline_ms,omitempty" jsonschema:"time after which cleanup reports what is left (default 5000, at most 60000)"`
}

// Redacted replaces sensitive input wherever it would be recorded.
const Redacted = "[redacted]"

// Issue is one field-level problem of a request, in the shape of
// invalid_request's details.issues.
type Issue struct {
	Path     []any  `json:"path"`
	Reason   string `json:"reason"`
	Expected string `json:"expected,omitempty"`
	Message  string `json:"message"`
}

type validator struct{ issues []Issue }

func (v *validator) add(reason, expected, msg string, path ...any) {
	v.issues = append(v.issues, Issue{Path: path, Reason: reason, Expected: expected, Message: msg})
}

// plan is a validated scenario with defaults filled and paths resolved.
type plan struct {
	s          Scenario
	executable string
	cwd        string // "" = make a private run directory
	roots      []string
	limits     Limits
	settleMs   int64
	graceMs    int64
	cleanupMs  int64
	cols, rows int
	signals    []syscall.Signal // per event, for signal actions
}

// portableSignals are the signals a scenario may send on every system;
// platformSignals adds the Unix-only ones.
var portableSignals = map[string]syscall.Signal{
	"SIGHUP": syscall.SIGHUP, "SIGINT": syscall.SIGINT, "SIGQUIT": syscall.SIGQUIT, "SIGKILL": syscall.SIGKILL,
	"SIGPIPE": syscall.SIGPIPE, "SIGALRM": syscall.SIGALRM, "SIGTERM": syscall.SIGTERM, "SIGABRT": syscall.SIGABRT,
}

// signalByName resolves a scenario's signal name.
func signalByName(name string) (syscall.Signal, bool) {
	if s, ok := portableSignals[name]; ok {
		return s, true
	}
	s, ok := platformSignals[name]
	return s, ok
}

// signalName is the inverse of signalByName for reporting.
func signalName(sig syscall.Signal) string {
	for _, table := range []map[string]syscall.Signal{portableSignals, platformSignals} {
		for n, s := range table {
			if s == sig {
				return n
			}
		}
	}
	return fmt.Sprintf("SIG%d", int(sig))
}

// validate checks a scenario and resolves it into a plan, or returns an
// invalid_request listing every issue with its field path.
func validate(s Scenario) (*plan, error) {
	v := &validator{}
	p := &plan{s: s}
	if s.Cwd != "" {
		abs, err := filepath.Abs(s.Cwd)
		if err != nil {
			v.add("invalid_value", "a directory", err.Error(), "cwd")
		} else if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			v.add("invalid_value", "an existing directory", fmt.Sprintf("cwd %q is not an existing directory", s.Cwd), "cwd")
		} else {
			p.cwd = abs
		}
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			v.add("invalid_format", "a name without '=' or NUL", fmt.Sprintf("environment name %q is not valid", k), "env", k)
		} else if k == RunIDVariable {
			v.add("invalid_value", "", RunIDVariable+" is set by rea for every run; remove it from env", "env", k)
		} else if strings.ContainsRune(s.Env[k], 0) {
			v.add("invalid_format", "a value without NUL", fmt.Sprintf("environment value of %q contains NUL", k), "env", k)
		}
	}
	if len(s.Args) > MaxArgs {
		v.add("maximum", fmt.Sprint(MaxArgs), fmt.Sprintf("at most %d args", MaxArgs), "args")
	}
	for i, a := range s.Args {
		if strings.ContainsRune(a, 0) {
			v.add("invalid_format", "an argument without NUL", "arguments cannot contain NUL", "args", i)
		}
	}
	switch {
	case s.Executable == "":
		v.add("missing_argument", "a path or a name found in env PATH", "name the executable to run", "executable")
	case strings.ContainsRune(s.Executable, 0):
		v.add("invalid_format", "a path", "the executable path contains NUL", "executable")
	default:
		exe, err := resolveExecutable(s.Executable, p.cwd, s.Env["PATH"])
		if err != nil {
			v.add("invalid_value", "an executable file", err.Error(), "executable")
		}
		p.executable = exe
	}
	p.cols, p.rows = DefaultCols, DefaultRows
	if s.Terminal != nil {
		if !s.PTY {
			v.add("invalid_value", "pty: true", "terminal applies only with pty: true", "terminal")
		}
		if s.Terminal.Cols < 1 || s.Terminal.Cols > 1000 {
			v.add("invalid_value", "1..1000", "terminal.cols must be between 1 and 1000", "terminal", "cols")
		}
		if s.Terminal.Rows < 1 || s.Terminal.Rows > 1000 {
			v.add("invalid_value", "1..1000", "terminal.rows must be between 1 and 1000", "terminal", "rows")
		}
		p.cols, p.rows = s.Terminal.Cols, s.Terminal.Rows
	}
	p.limits = Limits{TimeoutMs: DefaultTimeoutMs, IdleMs: DefaultIdleMs, OutputBytes: DefaultOutputBytes,
		Processes: DefaultProcesses, Files: DefaultFiles, FileBytes: DefaultFileBytes, Depth: DefaultDepth}
	if l := s.Limits; l != nil {
		setLimit(v, &p.limits.TimeoutMs, l.TimeoutMs, 1, MaxTimeoutMs, "limits", "timeout_ms")
		setLimit(v, &p.limits.IdleMs, l.IdleMs, 1, MaxTimeoutMs, "limits", "idle_ms")
		setLimit(v, &p.limits.OutputBytes, l.OutputBytes, 1, MaxOutputBytes, "limits", "output_bytes")
		setLimit(v, &p.limits.Processes, l.Processes, 1, 100_000, "limits", "processes")
		setLimit(v, &p.limits.Files, l.Files, 1, 1_000_000, "limits", "files")
		setLimit(v, &p.limits.FileBytes, l.FileBytes, 1, 1<<40, "limits", "file_bytes")
		setLimit(v, &p.limits.Depth, l.Depth, 1, 64, "limits", "depth")
	}
	p.settleMs = DefaultSettleMs
	if s.SettleMs != nil {
		if *s.SettleMs < 0 || *s.SettleMs > MaxSettleMs {
			v.add("maximum", fmt.Sprintf("0..%d", MaxSettleMs), fmt.Sprintf("settle_ms must be between 0 and %d", MaxSettleMs), "settle_ms")
		} else {
			p.settleMs = *s.SettleMs
		}
	}
	p.graceMs, p.cleanupMs = DefaultGraceMs, DefaultCleanupMs
	if c := s.Cleanup; c != nil {
		setLimit(v, &p.graceMs, c.GraceMs, 1, MaxCleanupMs, "cleanup", "grace_ms")
		setLimit(v, &p.cleanupMs, c.DeadlineMs, 1, MaxCleanupMs, "cleanup", "deadline_ms")
	}
	if len(s.FilesystemRoots) > MaxRoots {
		v.add("maximum", fmt.Sprint(MaxRoots), fmt.Sprintf("at most %d filesystem_roots", MaxRoots), "filesystem_roots")
	}
	for i, r := range s.FilesystemRoots {
		abs, err := filepath.Abs(r)
		if r == "" || err != nil {
			v.add("invalid_value", "a path", "filesystem root must be a path", "filesystem_roots", i)
			continue
		}
		p.roots = append(p.roots, abs)
	}
	if len(s.Events) > MaxEvents {
		v.add("maximum", fmt.Sprint(MaxEvents), fmt.Sprintf("at most %d events", MaxEvents), "events")
	}
	p.signals = make([]syscall.Signal, len(s.Events))
	for i, e := range s.Events {
		validateEvent(v, p, i, e)
	}
	if len(v.issues) > 0 {
		msgs := make([]string, 0, 3)
		for _, is := range v.issues[:min(3, len(v.issues))] {
			msgs = append(msgs, is.Message)
		}
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the scenario is not valid: %s; correct the named fields and retry", strings.Join(msgs, "; ")).
			WithDetail("issues", v.issues).WithDetail("operation", Operation)
	}
	return p, nil
}

func validateEvent(v *validator, p *plan, i int, e Event) {
	if (e.AtMs == nil) == (e.OnOutput == nil) {
		v.add("invalid_value", "exactly one of at_ms, on_output", "give each event exactly one trigger: at_ms or on_output", "events", i)
	}
	if e.AtMs != nil && (*e.AtMs < 0 || *e.AtMs > MaxTimeoutMs) {
		v.add("maximum", fmt.Sprintf("0..%d", MaxTimeoutMs), "at_ms must be between 0 and the longest timeout", "events", i, "at_ms")
	}
	if t := e.OnOutput; t != nil {
		if t.Literal == "" || len(t.Literal) > maxLiteralBytes {
			v.add("invalid_value", fmt.Sprintf("1..%d bytes", maxLiteralBytes), "on_output.literal must be a non-empty string of at most 4096 bytes", "events", i, "on_output", "literal")
		}
		if t.Occurrence < 0 || t.Occurrence > 1_000_000 {
			v.add("invalid_value", "1..1000000", "on_output.occurrence counts from 1", "events", i, "on_output", "occurrence")
		}
	}
	switch e.Action {
	case ActionInput:
		if e.Data == "" || len(e.Data) > maxInputBytes {
			v.add("invalid_value", "1..65536 bytes", "input needs data of at most 64 KiB", "events", i, "data")
		}
	case ActionEOF:
	case ActionResize:
		if !p.s.PTY {
			v.add("invalid_value", "pty: true", "resize needs a pseudo-terminal; set pty: true", "events", i, "action")
		}
		if e.Cols < 1 || e.Cols > 1000 || e.Rows < 1 || e.Rows > 1000 {
			v.add("invalid_value", "cols and rows 1..1000", "resize needs cols and rows between 1 and 1000", "events", i)
		}
	case ActionSignal:
		sig, ok := signalByName(strings.ToUpper(e.Signal))
		if !ok {
			var names []string
			for _, table := range []map[string]syscall.Signal{portableSignals, platformSignals} {
				for n := range table {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			v.add("invalid_value", strings.Join(names, ", "), fmt.Sprintf("signal %q is not one rea sends", e.Signal), "events", i, "signal")
		}
		p.signals[i] = sig
	case ActionCheckpoint:
	default:
		v.add("invalid_value", "input, eof, resize, signal or checkpoint", fmt.Sprintf("action %q is unknown", e.Action), "events", i, "action")
	}
	if e.Sensitive && e.Action != ActionInput {
		v.add("invalid_value", "action input", "sensitive applies only to input", "events", i, "sensitive")
	}
}

type number interface{ ~int | ~int64 }

// setLimit overrides a default with a given non-zero value in [lo, hi];
// path names the field (its last element is the field name).
func setLimit[T number](v *validator, dst *T, got T, lo, hi T, path ...any) {
	if got == 0 {
		return
	}
	if got < lo || got > hi {
		v.add("maximum", fmt.Sprintf("%d..%d", lo, hi), fmt.Sprintf("%v must be between %d and %d, got %d", path[len(path)-1], lo, hi, got), path...)
		return
	}
	*dst = got
}

// resolveExecutable finds the file to run without consulting rea's own
// environment: a path with a slash is taken relative to cwd, a bare name is
// looked up in the scenario's PATH.
func resolveExecutable(name, cwd, path string) (string, error) {
	check := func(p string) error {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("%s is not an executable file", p)
		}
		return nil
	}
	if strings.ContainsRune(name, '/') {
		p := name
		if !filepath.IsAbs(p) {
			base := cwd
			if base == "" {
				return "", fmt.Errorf("executable %q is relative but no cwd is given; give an absolute path or a cwd", name)
			}
			p = filepath.Join(base, p)
		}
		if err := check(p); err != nil {
			return "", fmt.Errorf("executable %q cannot run: %v", name, err)
		}
		return p, nil
	}
	if path == "" {
		return "", fmt.Errorf("executable %q is a bare name but env has no PATH; give an absolute path or set env.PATH", name)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		if p := filepath.Join(dir, name); check(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("executable %q was not found in env PATH %q", name, path)
}

// Filled is the scenario with every default a run applies filled in
// (limits, settle_ms, cleanup, terminal when pty is true), or the
// invalid_request a run would return. It reports the defaults the
// capture_process_scenario spec declares.
func Filled(s Scenario) (Scenario, error) {
	p, err := validate(s)
	if err != nil {
		return Scenario{}, err
	}
	out := s
	limits, settle := p.limits, p.settleMs
	out.Limits, out.SettleMs = &limits, &settle
	out.Cleanup = &Cleanup{GraceMs: p.graceMs, DeadlineMs: p.cleanupMs}
	if s.PTY {
		out.Terminal = &Terminal{Cols: p.cols, Rows: p.rows}
	}
	return out, nil
}

// Redact returns the scenario as it may be recorded: sensitive input
// replaced by "[redacted]". It is the Evidence parameters and what the
// manifest's scenario_sha256 commits to.
func Redact(s Scenario) Scenario {
	out := s
	out.Events = make([]Event, len(s.Events))
	for i, e := range s.Events {
		if e.Sensitive {
			e.Data = Redacted
		}
		out.Events[i] = e
	}
	if s.Events == nil {
		out.Events = nil
	}
	return out
}
