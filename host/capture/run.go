package capture

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/gowebpki/jcs"

	"rea/abi"
)

// Options are the caller's side of a run.
type Options struct {
	// Progress receives status observations: at most one every 100 ms plus
	// the terminal one; Done counts observations and strictly increases.
	Progress func(abi.Progress)
	// Version is rea's version for the manifest.
	Version string
}

// Run phases reported through progress.
const (
	PhasePrepare = "prepare"
	PhaseBefore  = "checkpoint_before"
	PhaseRunning = "running"
	PhaseSettle  = "settling"
	PhaseCleanup = "cleanup"
	PhaseAfter   = "checkpoint_after_settlement"
	PhaseDone    = "done"
)

const (
	tick         = 5 * time.Millisecond
	scanInterval = 100 * time.Millisecond
	chunkSize    = 32 << 10
	// outputJournal bounds output entries so the journal keeps room for
	// exits, limits and cleanup.
	outputJournal = MaxJournal / 2
)

// Run executes one scenario, then cleans up every process carrying the run
// token. A run that ends by a limit is a result (termination.reason says
// which); cancellation returns cancelled, a failed start
// process_capture_failed, and anything owned left behind cleanup_incomplete
// (which wins over the others). Every failure carries the observation made
// so far in details.partial_observation.
func Run(ctx context.Context, s Scenario, o Options) (*Result, error) {
	if e := platformSupported(); e != nil {
		return nil, e
	}
	p, err := validate(s)
	if err != nil {
		return nil, err
	}
	r := newRun(p, o)
	return r.execute(ctx)
}

// run is the state of one capture; only execute's goroutine touches it.
type run struct {
	p       *plan
	o       Options
	start   time.Time
	startAt time.Time
	token   string
	res     Result
	secrets secrets

	prog      progressor
	outBuf    bytes.Buffer
	outputN   int
	lastOut   time.Time
	fired     []bool
	matchFrom []int // per event: buffer offset after the last counted occurrence
	matchSeen []int

	seen     map[ProcessKey]bool
	lineage  map[int]Descendant
	rootPID  int
	rootPGID int
	cwd      string
	ownCwd   bool
	// cwdDir holds the private working directory open, so that rea finds
	// and removes it even after the program renamed it away.
	cwdDir *os.File
	owner  *owner
	// terminated is set when the run's end is decided (before cleanup).
	terminated bool
}

func newRun(p *plan, o Options) *run {
	r := &run{p: p, o: o, secrets: newSecrets(p.s.Events), seen: map[ProcessKey]bool{}, lineage: map[int]Descendant{}}
	r.token = newUUID()
	r.owner = newOwner(r.token)
	r.prog = progressor{fn: o.Progress}
	r.fired = make([]bool, len(p.s.Events))
	r.matchFrom = make([]int, len(p.s.Events))
	r.matchSeen = make([]int, len(p.s.Events))
	r.res = Result{SchemaVersion: 1, EventJournal: []JournalEntry{}, Checkpoints: []Checkpoint{}, Processes: []ProcessObservation{},
		Limits: p.limits, Limitations: []string{
			"Process capture is not a sandbox: the program ran with rea's user, filesystem and network access.",
		}}
	return r
}

func (r *run) elapsed() time.Duration { return time.Since(r.start) }

// journal appends an entry; entries are appended only from the run's
// goroutine, so elapsed_ms (monotonic clock) and seq never go backwards.
func (r *run) journal(kind string, details map[string]any) {
	r.journalAt(r.elapsed(), kind, details)
}

// journalAt appends an entry observed at elapsed (never earlier than the
// previous entry).
func (r *run) journalAt(elapsed time.Duration, kind string, details map[string]any) {
	if len(r.res.EventJournal) >= MaxJournal || (kind == "output" && r.outputN >= outputJournal) {
		r.res.EventJournalOmitted++
		return
	}
	if kind == "output" {
		r.outputN++
	}
	if details == nil {
		details = map[string]any{}
	}
	e := JournalEntry{Seq: len(r.res.EventJournal) + 1, ElapsedMs: elapsed.Milliseconds(), Kind: kind, Details: details}
	if n := len(r.res.EventJournal); n > 0 && e.ElapsedMs < r.res.EventJournal[n-1].ElapsedMs {
		e.ElapsedMs = r.res.EventJournal[n-1].ElapsedMs
	}
	r.res.EventJournal = append(r.res.EventJournal, e)
}

type chunk struct {
	stream string
	data   []byte
}

// execute is the whole lifecycle: prepare, before checkpoint, start, event
// loop, settle, cleanup, after_settlement checkpoint, result.
func (r *run) execute(ctx context.Context) (*Result, error) {
	r.start = time.Now()
	r.startAt = time.Now().UTC()
	r.prog.report(PhasePrepare, r.elapsed(), "")
	defer r.owner.release()
	r.res.RunID = r.token
	if err := subreaper(); err != nil {
		r.res.Limitations = append(r.res.Limitations, "rea could not become the child subreaper ("+err.Error()+
			"): a descendant whose parent exits before a scan saw it is found only by its run token.")
	}
	r.res.Manifest = r.manifest()

	exe, err := identifyExecutable(r.p.executable)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "the executable cannot be read: %v", err).WithDetail("field", "executable")
	}
	r.res.Manifest.Executable = exe

	r.cwd = r.p.cwd
	if r.cwd == "" {
		dir, err := os.MkdirTemp("", "rea-capture-")
		if err != nil {
			return nil, r.fail(ReasonStartFailed, abi.Errorf(CodeProcessCaptureFailed, "could not create the private working directory: %v; set cwd or free the temp directory", err))
		}
		r.cwd, r.ownCwd = dir, true
		if f, err := os.Open(dir); err == nil {
			r.cwdDir = f
		}
	}

	r.prog.report(PhaseBefore, r.elapsed(), "")
	if err := r.checkpoint(ctx, "before"); err != nil {
		return r.finish(ctx, ReasonCancelled, false)
	}
	if r.elapsed() >= time.Duration(r.p.limits.TimeoutMs)*time.Millisecond {
		// The before snapshot spent the run's time: the program never
		// starts.
		r.journal("limit", map[string]any{"reason": ReasonTimeout, "timeout_ms": r.p.limits.TimeoutMs, "phase": PhaseBefore})
		return r.finish(ctx, ReasonTimeout, false)
	}

	cmd, master, stdin, readers, err := r.startProcess()
	if err != nil {
		r.journal("start_failed", map[string]any{"error": err.Error()})
		return r.finish(ctx, ReasonStartFailed, false, abi.Errorf(CodeProcessCaptureFailed,
			"the executable did not start: %v; check that it runs on this platform and that cwd and env are what it needs", err))
	}
	r.rootPID = cmd.Process.Pid
	r.rootPGID = cmd.Process.Pid // Setpgid / Setsid make the root its group's leader
	r.journal("process_started", map[string]any{"pid": r.rootPID, "process_group_id": r.rootPGID,
		"executable": r.p.executable, "pty": r.p.s.PTY})

	chunks := make(chan chunk, 64)
	readersDone := make(chan struct{})
	go func() {
		done := make(chan struct{}, len(readers))
		for name, f := range readers {
			go func() {
				defer func() { done <- struct{}{} }()
				for {
					buf := make([]byte, chunkSize)
					n, err := f.Read(buf)
					if n > 0 {
						chunks <- chunk{stream: name, data: buf[:n]}
					}
					if err != nil {
						return
					}
				}
			}()
		}
		for range readers {
			<-done
		}
		close(readersDone)
	}()
	exited := make(chan *os.ProcessState, 1)
	go func() {
		_ = cmd.Wait()
		exited <- cmd.ProcessState
	}()

	writes := make(chan []byte, MaxEvents+1) // nil = eof
	writeResults := make(chan error, MaxEvents+1)
	go func() {
		for w := range writes {
			var err error
			switch {
			case w != nil:
				_, err = stdin.Write(w)
			case master != nil:
				_, err = stdin.Write([]byte{4})
			default:
				err = stdin.Close()
			}
			writeResults <- err
		}
	}()

	reason, settled, exitedEarly := r.loop(ctx, chunks, exited, writes, writeResults, master)
	close(writes)
	r.terminate(reason, settled)

	// Cleanup: every owned process, the root included. A tree that hit
	// the process limit is frozen first, then killed.
	r.prog.report(PhaseCleanup, r.elapsed(), "")
	r.res.Cleanup = reap(r.owner, ReapOptions{
		Grace:    time.Duration(r.p.graceMs) * time.Millisecond,
		Deadline: time.Duration(r.p.cleanupMs) * time.Millisecond,
		Since:    r.elapsed,
		Freeze:   reason == ReasonProcessLimit,
	})
	for _, a := range r.res.Cleanup.SignalAttempts {
		r.journalAt(time.Duration(a.ElapsedMs)*time.Millisecond, "cleanup_signal",
			map[string]any{"target": a.Target, "id": a.ID, "signal": a.Signal, "members": a.Members, "result": a.Result})
	}
	if !exitedEarly {
		select {
		case st := <-exited:
			r.recordExit(st, true)
		case <-time.After(time.Second):
			r.journal("exit_not_observed", map[string]any{"pid": r.rootPID})
		}
	}
	// Close the parent's ends so readers see EOF even if a process rea
	// could not prove it owns still holds the terminal, then drain.
	if master != nil {
		_ = master.Close()
	}
	for name, f := range readers {
		if name != "terminal" {
			_ = f.Close()
		}
	}
	if master == nil {
		_ = stdin.Close()
	}
	drain := time.After(500 * time.Millisecond)
draining:
	for {
		select {
		case c := <-chunks:
			r.output(c)
		case <-readersDone:
			for {
				select {
				case c := <-chunks:
					r.output(c)
				default:
					break draining
				}
			}
		case <-drain:
			r.res.Limitations = append(r.res.Limitations, "Output readers did not finish within 500 ms after cleanup; output may be incomplete.")
			break draining
		}
	}
	r.journal("cleanup", map[string]any{"status": r.res.Cleanup.Status, "scans": r.res.Cleanup.Scans,
		"duration_ms": r.res.Cleanup.DurationMs, "refused": len(r.res.Cleanup.Refused)})
	return r.finish(ctx, reason, settled)
}

// loop runs the scenario until the root exits and output settles, a limit
// is hit, or ctx is cancelled.
func (r *run) loop(ctx context.Context, chunks <-chan chunk, exited <-chan *os.ProcessState, writes chan<- []byte,
	writeResults <-chan error, master *os.File) (reason string, settled, exitedEarly bool) {
	r.prog.report(PhaseRunning, r.elapsed(), "")
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	r.lastOut = time.Now()
	var exitAt time.Time
	nextScan := time.Now()
	timeout := time.Duration(r.p.limits.TimeoutMs) * time.Millisecond
	idle := time.Duration(r.p.limits.IdleMs) * time.Millisecond
	settle := time.Duration(r.p.settleMs) * time.Millisecond
	end := func(why string, details map[string]any) (string, bool, bool) {
		if details == nil {
			details = map[string]any{}
		}
		details["reason"] = why
		r.journal("limit", details)
		return why, false, !exitAt.IsZero()
	}
	for {
		select {
		case <-ctx.Done():
			r.journal("cancelled", nil)
			return ReasonCancelled, false, !exitAt.IsZero()
		case c := <-chunks:
			r.output(c)
			if r.res.Output.Truncated {
				return end(ReasonOutputLimit, map[string]any{"output_bytes": r.p.limits.OutputBytes})
			}
			if exitAt.IsZero() {
				if why := r.matchEvents(ctx, writes, master); why != "" {
					return end(why, map[string]any{"files": r.p.limits.Files})
				}
			}
		case st := <-exited:
			r.recordExit(st, false)
			exitAt = time.Now()
			r.prog.report(PhaseSettle, r.elapsed(), "")
		case err := <-writeResults:
			if err != nil {
				r.journal("input_failed", map[string]any{"error": err.Error()})
			}
		case now := <-ticker.C:
			if !exitAt.IsZero() {
				quietSince := r.lastOut
				if exitAt.After(quietSince) {
					quietSince = exitAt
				}
				if now.Sub(quietSince) >= settle {
					r.journal("settled", map[string]any{"settle_ms": r.p.settleMs})
					return ReasonExited, true, true
				}
			}
			if r.elapsed() >= timeout {
				if !exitAt.IsZero() {
					r.journal("settle_interrupted", map[string]any{"reason": ReasonTimeout})
					return ReasonExited, false, true
				}
				return end(ReasonTimeout, map[string]any{"timeout_ms": r.p.limits.TimeoutMs})
			}
			if exitAt.IsZero() && now.Sub(r.lastOut) >= idle {
				return end(ReasonIdle, map[string]any{"idle_ms": r.p.limits.IdleMs})
			}
			if exitAt.IsZero() {
				if why := r.timedEvents(ctx, writes, master); why != "" {
					return end(why, map[string]any{"files": r.p.limits.Files})
				}
			}
			if !now.Before(nextScan) {
				nextScan = now.Add(scanInterval)
				if n := r.scan(); n > r.p.limits.Processes {
					// Cleanup starts at once and freezes the tree before
					// killing it.
					return end(ReasonProcessLimit, map[string]any{"processes": r.p.limits.Processes, "observed": n})
				}
				r.prog.report(r.prog.phase, r.elapsed(), fmt.Sprintf("%d owned processes, %d output bytes", len(r.res.Processes), r.res.Output.TotalBytes))
			}
		}
	}
}

// output records a chunk: bounded raw capture, journal entry.
func (r *run) output(c chunk) {
	r.lastOut = time.Now()
	r.res.Output.TotalBytes += int64(len(c.data))
	room := r.p.limits.OutputBytes - int64(r.outBuf.Len())
	take := c.data
	if int64(len(take)) > room {
		take = take[:max(room, 0)]
		r.res.Output.Truncated = true
	}
	offset := r.outBuf.Len()
	r.outBuf.Write(take)
	r.journal("output", map[string]any{"stream": c.stream, "offset": offset, "bytes": len(c.data)})
}

// matchEvents fires output-triggered events whose literal has now been seen
// the required number of times in the captured output; it returns a reason
// when a checkpoint hit the file limit.
func (r *run) matchEvents(ctx context.Context, writes chan<- []byte, master *os.File) string {
	buf := r.outBuf.Bytes()
	for i, e := range r.p.s.Events {
		if r.fired[i] || e.OnOutput == nil {
			continue
		}
		lit := []byte(e.OnOutput.Literal)
		want := max(e.OnOutput.Occurrence, 1)
		for r.matchSeen[i] < want {
			j := bytes.Index(buf[r.matchFrom[i]:], lit)
			if j < 0 {
				break
			}
			r.matchFrom[i] += j + len(lit)
			r.matchSeen[i]++
		}
		if r.matchSeen[i] >= want {
			r.fired[i] = true
			r.journal("output_match", map[string]any{"event": i, "literal": e.OnOutput.Literal, "occurrence": want,
				"offset": r.matchFrom[i] - len(lit)})
			if why := r.perform(ctx, i, writes, master); why != "" {
				return why
			}
		}
	}
	return ""
}

// timedEvents fires events whose at_ms has passed; it returns a reason
// when a checkpoint hit the file limit.
func (r *run) timedEvents(ctx context.Context, writes chan<- []byte, master *os.File) string {
	now := r.elapsed().Milliseconds()
	for i, e := range r.p.s.Events {
		if r.fired[i] || e.AtMs == nil || *e.AtMs > now {
			continue
		}
		r.fired[i] = true
		if why := r.perform(ctx, i, writes, master); why != "" {
			return why
		}
	}
	return ""
}

// perform carries out event i and journals it.
func (r *run) perform(ctx context.Context, i int, writes chan<- []byte, master *os.File) string {
	e := r.p.s.Events[i]
	d := map[string]any{"event": i}
	switch e.Action {
	case ActionInput:
		d["bytes"] = len(e.Data)
		d["sensitive"] = e.Sensitive
		if e.Sensitive {
			d["data"] = Redacted
		} else {
			d["data"] = e.Data
		}
		writes <- []byte(e.Data)
	case ActionEOF:
		writes <- nil
	case ActionResize:
		err := pty.Setsize(master, &pty.Winsize{Cols: uint16(e.Cols), Rows: uint16(e.Rows)})
		d["cols"], d["rows"] = e.Cols, e.Rows
		d["result"] = deliveryResult(err)
	case ActionSignal:
		err := kill(r.rootPID, r.p.signals[i])
		d["signal"], d["pid"] = signalName(r.p.signals[i]), r.rootPID
		d["result"] = deliveryResult(err)
	case ActionCheckpoint:
		name := e.Name
		if name == "" {
			name = fmt.Sprintf("event_%d", i)
		}
		d["name"] = name
		r.journal(e.Action, d)
		if err := r.checkpoint(ctx, name); err != nil {
			return ""
		}
		last := r.res.Checkpoints[len(r.res.Checkpoints)-1]
		for _, rs := range last.Roots {
			if slices.Contains(rs.Truncated, "files") {
				return ReasonFileLimit
			}
		}
		return ""
	}
	r.journal(e.Action, d)
	return ""
}

func deliveryResult(err error) string {
	switch {
	case err == nil:
		return "delivered"
	case alreadyExited(err):
		return "already_exited"
	default:
		return "failed: " + err.Error()
	}
}

// scan observes owned processes: lineage, process list, count.
func (r *run) scan() int {
	res, err := r.owner.classify()
	if err != nil {
		r.journal("process_scan_failed", map[string]any{"error": err.Error()})
		return 0
	}
	owned := 0
	for _, m := range res.members {
		if m.Verdict != verdictOwned {
			continue
		}
		owned++
		key := ProcessKey{PID: m.PID, StartTicks: m.StartTicks}
		if r.seen[key] {
			continue
		}
		r.seen[key] = true
		if m.PID != r.rootPID {
			r.lineage[m.PID] = Descendant{PID: m.PID, ParentPID: m.PPID, PGID: m.PGID}
		}
		r.res.ProcessLineage.ObservedAt = time.Now().UTC().Format(time.RFC3339Nano)
		if len(r.res.Processes) < r.p.limits.Processes {
			obs := ProcessObservation{PID: m.PID, ParentPID: m.PPID, PGID: m.PGID, SID: m.SID, Comm: m.Comm, FirstSeenMs: r.elapsed().Milliseconds()}
			r.res.Processes = append(r.res.Processes, obs)
			r.journal("process_observed", map[string]any{"pid": m.PID, "parent_pid": m.PPID, "process_group_id": m.PGID,
				"session_id": m.SID, "comm": m.Comm})
		}
	}
	return owned
}

// recordExit notes the root's exit status.
func (r *run) recordExit(st *os.ProcessState, duringCleanup bool) {
	if st == nil {
		return
	}
	el := r.elapsed().Milliseconds()
	r.res.ElapsedMs = &el
	d := map[string]any{"pid": r.rootPID, "during_cleanup": duringCleanup}
	if sig, ok := signalledBy(st.Sys()); ok {
		name := signalName(sig)
		r.res.Signal = &name
		d["signal"] = name
	} else {
		code := st.ExitCode()
		r.res.ExitCode = &code
		d["exit_code"] = code
	}
	r.journal("exit", d)
}

// checkpoint snapshots the roots under a name.
func (r *run) checkpoint(ctx context.Context, name string) error {
	at := r.elapsed().Milliseconds()
	// Snapshots share the run's timeout; the final one, taken after the
	// run's time may be spent, gets timeout_ms of its own.
	timeout := time.Duration(r.p.limits.TimeoutMs) * time.Millisecond
	deadline := r.start.Add(timeout)
	if name == "after_settlement" {
		deadline = time.Now().Add(timeout)
	}
	roots, err := snapshotRoots(ctx, r.p.roots, r.p.limits, deadline)
	if err != nil {
		return err
	}
	r.res.Checkpoints = append(r.res.Checkpoints, Checkpoint{Name: name, ElapsedMs: at, Roots: roots})
	files := 0
	for _, rs := range roots {
		files += len(rs.Files)
	}
	if name != "before" && name != "after_settlement" {
		return nil
	}
	r.journal("checkpoint", map[string]any{"name": name, "roots": len(roots), "files": files})
	return nil
}

// startProcess launches the root on a pty or pipes, in its own process
// group (Setsid implies one) and with the run token in its environment.
func (r *run) startProcess() (cmd *exec.Cmd, master *os.File, stdin io.WriteCloser, readers map[string]*os.File, err error) {
	cmd = &exec.Cmd{Path: r.p.executable, Args: append([]string{r.p.s.Executable}, r.p.s.Args...), Dir: r.cwd, Env: r.environment()}
	if r.p.s.PTY {
		m, tty, err := pty.Open()
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("opening a pseudo-terminal: %w", err)
		}
		if err := pty.Setsize(m, &pty.Winsize{Cols: uint16(r.p.cols), Rows: uint16(r.p.rows)}); err != nil {
			m.Close()
			tty.Close()
			return nil, nil, nil, nil, fmt.Errorf("sizing the pseudo-terminal: %w", err)
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.SysProcAttr = terminalSession()
		err = r.owner.startRoot(func() (int, error) { return startedPID(cmd) })
		tty.Close()
		if err != nil {
			m.Close()
			return nil, nil, nil, nil, err
		}
		return cmd, m, m, map[string]*os.File{"terminal": m}, nil
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, nil, nil, nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = ownGroup()
	err = r.owner.startRoot(func() (int, error) { return startedPID(cmd) })
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		for _, f := range []*os.File{inW, outR, errR} {
			f.Close()
		}
		return nil, nil, nil, nil, err
	}
	return cmd, nil, inW, map[string]*os.File{"stdout": outR, "stderr": errR}, nil
}

// startedPID starts cmd and returns its pid.
func startedPID(cmd *exec.Cmd) (int, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

// environment is exactly the scenario's env plus the run token.
func (r *run) environment() []string {
	env := make([]string, 0, len(r.p.s.Env)+1)
	for k, v := range r.p.s.Env {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return append(env, RunIDVariable+"="+r.token)
}

// finish completes the result after cleanup: after_settlement checkpoint,
// output forms, lineage, manifest times, and the error (if any) with the
// partial observation. cleanup_incomplete takes precedence.
func (r *run) finish(ctx context.Context, reason string, settled bool, failure ...*abi.Error) (*Result, error) {
	r.terminate(reason, settled)
	if r.res.Cleanup.Status == "" {
		// Nothing was started, but a token could still have leaked only if a
		// process ran; scan once anyway so the report is honest.
		r.res.Cleanup = reap(r.owner, ReapOptions{Grace: time.Duration(r.p.graceMs) * time.Millisecond,
			Deadline: time.Duration(r.p.cleanupMs) * time.Millisecond, Since: r.elapsed})
	}
	if reason != ReasonCancelled && ctx.Err() == nil {
		r.prog.report(PhaseAfter, r.elapsed(), "")
		if err := r.checkpoint(ctx, "after_settlement"); err == nil && len(r.res.Checkpoints) > 0 {
			first, last := r.res.Checkpoints[0], r.res.Checkpoints[len(r.res.Checkpoints)-1]
			if first.Name == "before" && last.Name == "after_settlement" {
				ch := diffSnapshots(first.Roots, last.Roots)
				r.res.FilesystemChanges = &ch
			}
		}
	}
	if r.ownCwd {
		if err := removePrivateDir(r.cwd, r.cwdDir); err != nil {
			r.res.Cleanup.RemainingResourceKinds = append(r.res.Cleanup.RemainingResourceKinds, ResourceRuntimeDirectory)
			r.res.Cleanup.Error = strings.TrimSpace(r.res.Cleanup.Error + " removing the runtime directory: " + err.Error())
		}
	}
	if n := len(r.res.Cleanup.Unattributed); n > 0 {
		r.res.Limitations = append(r.res.Limitations, fmt.Sprintf("%d process(es) this run may have started could not be attributed to it (another capture ran at the same time) and were never signalled; see cleanup.unattributed.", n))
	}
	for i, f := range r.fired {
		if !f {
			r.journal("event_not_fired", map[string]any{"event": i, "action": r.p.s.Events[i].Action})
		}
	}
	r.finishOutput()
	r.finishLineage()
	r.res.DurationMs = r.elapsed().Milliseconds()
	r.res.Manifest.EndedAt = time.Now().UTC().Format(time.RFC3339Nano)
	if n := len(r.res.Cleanup.Refused); n > 0 {
		r.res.Limitations = append(r.res.Limitations, fmt.Sprintf("%d process(es) in an owned process group did not carry the run token and were never signalled; see cleanup.refused.", n))
	}
	r.prog.final(r.elapsed(), "cleanup "+r.res.Cleanup.Status)

	var err *abi.Error
	switch {
	case len(r.res.Cleanup.RemainingResourceKinds) > 0:
		err = abi.Errorf(abi.CodeCleanupIncomplete, "the run left owned resources behind (%s, cleanup %s); they carry %s=%s — stop them and remove the directory, then retry",
			strings.Join(r.res.Cleanup.RemainingResourceKinds, ", "), r.res.Cleanup.Status, RunIDVariable, r.token).
			WithDetail("remaining_resource_kinds", r.res.Cleanup.RemainingResourceKinds).
			WithDetail("run_id", r.token)
	case reason == ReasonCancelled:
		err = abi.Errorf(abi.CodeCancelled, "the capture was cancelled after %d ms; cleanup %s; the partial observation is in details.partial_observation", r.res.Termination.AtMs, r.res.Cleanup.Status)
	case len(failure) > 0 && failure[0] != nil:
		err = failure[0]
	}
	if err != nil {
		return nil, err.WithDetail("partial_observation", &r.res).WithDetail("operation", Operation)
	}
	res := r.res
	return &res, nil
}

// terminate records why and when the run ended, once: before cleanup, so
// termination.at_ms never follows cleanup.started_at_ms.
func (r *run) terminate(reason string, settled bool) {
	if r.terminated {
		return
	}
	r.terminated = true
	r.res.Termination = Termination{Reason: reason, AtMs: r.elapsed().Milliseconds(), Settled: settled}
}

// fail is finish for errors before the process could start.
func (r *run) fail(reason string, e *abi.Error) error {
	_, err := r.finish(context.Background(), reason, false, e)
	return err
}

// finishOutput fills the captured text, its hash and normalised form, with
// sensitive input scrubbed first.
func (r *run) finishOutput() {
	raw := r.secrets.scrub(bytes.Clone(r.outBuf.Bytes()))
	o := &r.res.Output
	o.Mode = "pipes"
	if r.p.s.PTY {
		o.Mode = "pty"
	}
	o.CapturedBytes = int64(r.outBuf.Len())
	o.ValidUTF8 = utf8.Valid(raw)
	o.Text = strings.ToValidUTF8(string(raw), "\uFFFD")
	sum := sha256.Sum256(raw)
	o.SHA256 = hex.EncodeToString(sum[:])
	pids := make([]int, 0, len(r.res.Processes))
	for _, p := range r.res.Processes {
		pids = append(pids, p.PID)
	}
	if r.rootPID != 0 && !slices.Contains(pids, r.rootPID) {
		pids = append([]int{r.rootPID}, pids...)
	}
	n := newNormalizer(r.p.executable, r.cwd, r.p.roots, r.p.s.Env, r.token, pids)
	o.Normalized = strings.ToValidUTF8(string(n.apply(raw)), "\uFFFD")
}

func (r *run) finishLineage() {
	l := &r.res.ProcessLineage
	l.SchemaVersion = 1
	l.LauncherPID, l.ProcessGroupID, l.LauncherParentPID = r.rootPID, r.rootPGID, os.Getpid()
	l.Descendants = []Descendant{}
	for _, pid := range sortedKeys(r.lineage) {
		l.Descendants = append(l.Descendants, r.lineage[pid])
	}
	rootSeen := false
	for _, p := range r.res.Processes {
		rootSeen = rootSeen || p.PID == r.rootPID
	}
	switch {
	case r.rootPID == 0:
		l.Status, l.Reason = "unavailable", "no process was started"
	case !rootSeen:
		l.Status, l.Reason = "unavailable", "the launcher exited before a process scan could verify it"
	default:
		l.Status = "verified"
	}
	if l.ObservedAt == "" {
		l.ObservedAt = time.Now().UTC().Format(time.RFC3339Nano)
	}
}

// manifest fills everything known before the run.
func (r *run) manifest() Manifest {
	m := Manifest{SchemaVersion: 1, RunID: r.token, Normalization: Rules(), StartedAt: r.startAt.Format(time.RFC3339Nano),
		Versions: map[string]string{"rea": r.o.Version, "go": runtime.Version(), "capture": "1"},
		Platform: Platform{OS: runtime.GOOS, Arch: runtime.GOARCH, KernelRelease: kernelRelease()}}
	if m.Versions["rea"] == "" {
		m.Versions["rea"] = "dev"
	}
	ptyVersion := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/creack/pty" {
				ptyVersion = d.Version
			}
		}
	}
	m.Versions["creack/pty"] = ptyVersion
	m.PTYBackend = "pipes"
	if r.p.s.PTY {
		m.PTYBackend = "creack/pty " + ptyVersion
	}
	m.ScenarioSHA256 = canonicalDigest(Redact(r.p.s))
	m.NormalizationSHA256 = canonicalDigest(m.Normalization)
	m.ComparisonContractSHA256 = canonicalDigest(contractOf(r.p, m.NormalizationSHA256))
	return m
}

// canonicalDigest is hex(sha256(JCS(json(v)))).
func canonicalDigest(v any) string {
	b, err := json.Marshal(v)
	if err == nil {
		b, err = jcs.Transform(b)
	}
	if err != nil {
		// Marshal of these plain structs cannot fail; keep the digest honest
		// if it ever does.
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// identifyExecutable hashes the executable and reads its ELF machine.
func identifyExecutable(path string) (ExecutableIdentity, error) {
	f, err := os.Open(path)
	if err != nil {
		return ExecutableIdentity{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return ExecutableIdentity{}, err
	}
	id := ExecutableIdentity{Path: path, SHA256: hex.EncodeToString(h.Sum(nil)), Size: n, Format: "file"}
	if ef, err := elf.NewFile(f); err == nil {
		id.Format = "elf"
		switch ef.Machine {
		case elf.EM_X86_64:
			id.Architecture = "x86_64"
		case elf.EM_386:
			id.Architecture = "x86"
		case elf.EM_AARCH64:
			id.Architecture = "arm64"
		case elf.EM_ARM:
			id.Architecture = "arm"
		}
	}
	return id, nil
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// newUUID is a random (version 4) UUID: the run token.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// progressor rate-limits progress to one observation per 100 ms, always
// letting the terminal one through.
type progressor struct {
	fn    func(abi.Progress)
	last  time.Time
	n     int64
	phase string
}

func (p *progressor) report(phase string, elapsed time.Duration, extra string) {
	p.phase = phase
	if p.fn == nil || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.emit(phase, elapsed, extra)
}

func (p *progressor) final(elapsed time.Duration, extra string) {
	p.phase = PhaseDone
	if p.fn != nil {
		p.emit(PhaseDone, elapsed, extra)
	}
}

func (p *progressor) emit(phase string, elapsed time.Duration, extra string) {
	p.last = time.Now()
	p.n++
	msg := fmt.Sprintf("phase %s, elapsed %d ms", phase, elapsed.Milliseconds())
	if extra != "" {
		msg += ", " + extra
	}
	p.fn(abi.Progress{Phase: phase, Done: p.n, Message: msg})
}
