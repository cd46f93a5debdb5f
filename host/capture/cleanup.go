package capture

import (
	"slices"
	"syscall"
	"time"
)

// Cleanup statuses.
const (
	// CleanupQuiesced: two consecutive scans found no process carrying the
	// token.
	CleanupQuiesced = "quiesced"
	// CleanupAliveAtDeadline: owned processes were still alive when the
	// deadline passed.
	CleanupAliveAtDeadline = "alive_at_deadline"
	// CleanupUnverifiable: the process table could not be read, so nothing
	// can be said about what is left.
	CleanupUnverifiable = "unverifiable"
)

// Owned resource kinds a cleanup can leave behind.
const (
	ResourceProcess          = "process"
	ResourceRuntimeDirectory = "runtime_directory"
)

// PollInterval is how often cleanup rescans the process table.
const PollInterval = 50 * time.Millisecond

// maxAttempts bounds the recorded signal attempts; the rest are counted.
const maxAttempts = 1000

// SignalAttempt is one signal rea sent during cleanup and what the kernel
// said.
type SignalAttempt struct {
	ElapsedMs int64 `json:"elapsed_ms"`
	// Target is process_group (kill(-pgid)) or process (kill(pid), used
	// when a group also holds processes rea cannot prove it owns).
	Target  string `json:"target"`
	ID      int    `json:"id"`
	Signal  string `json:"signal"`
	Members []int  `json:"members"`
	// Result is delivered, already_exited or failed: <errno>.
	Result string `json:"result"`
}

// Refusal is a process rea saw next to owned ones but never signalled.
type Refusal struct {
	PID  int    `json:"pid"`
	PGID int    `json:"process_group_id"`
	Comm string `json:"comm"`
	// Reason is environment-unreadable or run-token-mismatch.
	Reason string `json:"reason"`
}

// Remaining is an owned process alive when cleanup ended.
type Remaining struct {
	PID   int    `json:"pid"`
	PGID  int    `json:"process_group_id"`
	Comm  string `json:"comm"`
	State string `json:"state"`
	// Reason is alive_at_deadline (still carries the token), or
	// run-token-lost: a process the run observed carrying the token (same
	// pid and start time) that no longer does — it exec'd with another
	// environment or overwrote it. rea does not signal it, but reports it.
	Reason string `json:"reason"`
}

// ProcessKey identifies one process across pid reuse.
type ProcessKey struct {
	PID        int
	StartTicks uint64
}

// CleanupReport says what cleanup did and what it left.
type CleanupReport struct {
	Status      string `json:"status"`
	StartedAtMs int64  `json:"started_at_ms"`
	DurationMs  int64  `json:"duration_ms"`
	Scans       int    `json:"scans"`
	// SignalAttempts lists every signal in order (up to 1000; the rest are
	// counted in SignalAttemptsOmitted).
	SignalAttempts        []SignalAttempt `json:"signal_attempts"`
	SignalAttemptsOmitted int             `json:"signal_attempts_omitted"`
	Refused               []Refusal       `json:"refused"`
	Remaining             []Remaining     `json:"remaining"`
	// RemainingResourceKinds lists only owned resource kinds still present.
	RemainingResourceKinds []string `json:"remaining_resource_kinds"`
	// Error says why the table was unverifiable.
	Error string `json:"error,omitempty"`
}

// ReapOptions tune Reap. Zero values take the defaults.
type ReapOptions struct {
	Grace    time.Duration
	Deadline time.Duration
	// Since gives the elapsed time recorded in attempts (the run's clock);
	// nil means time since Reap started.
	Since func() time.Duration
	// Observed are processes seen carrying the token earlier; any still
	// alive without it is reported as remaining (run-token-lost).
	Observed []ProcessKey
}

type target struct {
	group bool
	id    int
}

// Reap ends every process that carries token in its environment and waits
// until the process table is quiet. It signals a whole process group with
// kill(-pgid) only when every live member of the group carries the token —
// wherever the group sits, so daemons that called setsid are found; in a
// group that also holds a process without the token it signals the owned
// members one by one and never the others. SIGTERM first, SIGKILL after the
// grace, rescanning every 50 ms until two consecutive scans find nothing
// owned (quiesced) or the deadline passes (alive_at_deadline).
//
// Reap deliberately takes no context: cancellation is what triggers it, and
// it must finish.
func Reap(token string, o ReapOptions) CleanupReport {
	if o.Grace <= 0 {
		o.Grace = DefaultGraceMs * time.Millisecond
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultCleanupMs * time.Millisecond
	}
	start := time.Now()
	if o.Since == nil {
		o.Since = func() time.Duration { return time.Since(start) }
	}
	rep := CleanupReport{StartedAtMs: o.Since().Milliseconds(), SignalAttempts: []SignalAttempt{}, Refused: []Refusal{},
		Remaining: []Remaining{}, RemainingResourceKinds: []string{}}
	type sent struct {
		term, kill time.Time
	}
	signalled := map[target]*sent{}
	// rea's own group is never signalled as a whole: a child in rea's
	// session could have joined it, and rea itself carries no token.
	ownGroup := ownProcessGroup()
	refused := map[[2]int]bool{}
	empty := 0
	for {
		members, err := classify(token)
		rep.Scans++
		if err != nil {
			rep.Status, rep.Error = CleanupUnverifiable, err.Error()
			rep.RemainingResourceKinds = []string{ResourceProcess}
			break
		}
		groups := map[int][]member{}
		owned := 0
		for _, m := range members {
			groups[m.PGID] = append(groups[m.PGID], m)
			if m.Verdict == verdictOwned {
				owned++
			} else if !refused[[2]int{m.PID, int(m.StartTicks)}] {
				refused[[2]int{m.PID, int(m.StartTicks)}] = true
				rep.Refused = append(rep.Refused, Refusal{PID: m.PID, PGID: m.PGID, Comm: m.Comm, Reason: m.Verdict})
			}
		}
		if owned == 0 {
			empty++
			if empty >= 2 {
				rep.Status = CleanupQuiesced
				break
			}
		} else {
			empty = 0
		}
		if owned > 0 && time.Since(start) >= o.Deadline {
			rep.Status = CleanupAliveAtDeadline
			for _, m := range members {
				if m.Verdict == verdictOwned {
					rep.Remaining = append(rep.Remaining, Remaining{PID: m.PID, PGID: m.PGID, Comm: m.Comm, State: string(m.State), Reason: CleanupAliveAtDeadline})
				}
			}
			rep.RemainingResourceKinds = []string{ResourceProcess}
			break
		}
		now := time.Now()
		for _, pgid := range sortedKeys(groups) {
			ms := groups[pgid]
			all := true
			for _, m := range ms {
				all = all && m.Verdict == verdictOwned
			}
			var targets []target
			var pids [][]int
			if all && pgid > 1 && pgid != ownGroup {
				targets = []target{{group: true, id: pgid}}
				p := make([]int, len(ms))
				for i, m := range ms {
					p[i] = m.PID
				}
				pids = [][]int{p}
			} else {
				for _, m := range ms {
					if m.Verdict == verdictOwned {
						targets = append(targets, target{id: m.PID})
						pids = append(pids, []int{m.PID})
					}
				}
			}
			for i, t := range targets {
				s := signalled[t]
				if s == nil {
					s = &sent{}
					signalled[t] = s
				}
				var sig syscall.Signal
				switch {
				case s.term.IsZero():
					sig, s.term = syscall.SIGTERM, now
				case now.Sub(s.term) >= o.Grace && (s.kill.IsZero() || now.Sub(s.kill) >= o.Grace):
					sig, s.kill = syscall.SIGKILL, now
				default:
					continue
				}
				rep.record(o.Since(), t, sig, pids[i])
			}
		}
		time.Sleep(PollInterval)
	}
	if rep.Status != CleanupUnverifiable {
		entry := tokenEntry(token)
		for _, k := range o.Observed {
			e, err := readStat(k.PID)
			if err != nil || e.StartTicks != k.StartTicks || e.State == 'Z' || e.State == 'X' {
				continue
			}
			if v, _ := verdict(k.PID, entry); v == verdictOwned {
				continue // already counted above
			}
			rep.Remaining = append(rep.Remaining, Remaining{PID: e.PID, PGID: e.PGID, Comm: e.Comm, State: string(e.State), Reason: "run-token-lost"})
			rep.RemainingResourceKinds = []string{ResourceProcess}
		}
	}
	rep.DurationMs = time.Since(start).Milliseconds()
	return rep
}

// record sends one signal and notes the attempt.
func (r *CleanupReport) record(elapsed time.Duration, t target, sig syscall.Signal, members []int) {
	id := t.id
	kind := "process"
	if t.group {
		id, kind = -t.id, "process_group"
	}
	err := kill(id, sig)
	result := "delivered"
	switch {
	case err == nil:
	case alreadyExited(err):
		result = "already_exited"
	default:
		result = "failed: " + err.Error()
	}
	if len(r.SignalAttempts) >= maxAttempts {
		r.SignalAttemptsOmitted++
		return
	}
	r.SignalAttempts = append(r.SignalAttempts, SignalAttempt{ElapsedMs: elapsed.Milliseconds(), Target: kind, ID: t.id,
		Signal: signalName(sig), Members: members, Result: result})
}

func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
