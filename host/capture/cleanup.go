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
	// CleanupUnattributed: nothing provably owned is left, but processes
	// this run may have started and cannot prove it did are alive (listed
	// in cleanup.unattributed, never signalled).
	CleanupUnattributed = "unattributed"
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

// Refusal is a process rea saw next to owned ones, or one it may have
// started, but never signalled.
type Refusal struct {
	PID  int    `json:"pid"`
	PGID int    `json:"process_group_id"`
	Comm string `json:"comm"`
	// Reason is environment-unreadable or run-token-mismatch (a member of
	// an owned process group that rea cannot prove it started), or
	// unattributed (a process rea adopted that started while several
	// captures ran, so nothing proves which one started it).
	Reason string `json:"reason"`
}

// Remaining is an owned process alive when cleanup ended.
type Remaining struct {
	PID   int    `json:"pid"`
	PGID  int    `json:"process_group_id"`
	Comm  string `json:"comm"`
	State string `json:"state"`
	// Reason is alive_at_deadline: owned and still alive when the cleanup
	// deadline passed.
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
	// Unattributed are processes alive at the end that this run may have
	// started but cannot prove it did (status unattributed).
	Unattributed []Refusal   `json:"unattributed"`
	Remaining    []Remaining `json:"remaining"`
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
	// Observed are processes seen owned earlier: they stay owned whatever
	// their environment says now.
	Observed []ProcessKey
	// Freeze stops every owned process (SIGSTOP to whole groups) before
	// killing them with SIGKILL, no SIGTERM and no grace: for a tree that
	// must not grow any more (the process limit).
	Freeze bool
}

type target struct {
	group bool
	id    int
}

// Reap ends every process that carries token in its environment (and
// their descendants) and waits until the process table is quiet; see reap.
// It is the cleanup of a run whose records are gone: a Run reaps with
// everything it tracked.
func Reap(token string, o ReapOptions) CleanupReport {
	ow := newOwner(token)
	for _, k := range o.Observed {
		ow.known[k] = true
	}
	return reap(ow, o)
}

// reap ends every process the owner proves owned. It signals a whole
// process group with kill(-pgid) only when every live member of the group
// is owned — wherever the group sits, so daemons that called setsid are
// found; in a group that also holds a process rea cannot prove it owns it
// signals the owned members one by one and never the others. SIGTERM
// first, SIGKILL after the grace (with Freeze: SIGSTOP until every owned
// process is stopped, then SIGKILL), rescanning every 50 ms until two
// consecutive scans find nothing owned (quiesced) or the deadline passes
// (alive_at_deadline). Every scan that finds owned processes signals them
// before the deadline is checked, so a slow scan still signals.
//
// reap deliberately takes no context: cancellation is what triggers it, and
// it must finish.
func reap(ow *owner, o ReapOptions) CleanupReport {
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
		Unattributed: []Refusal{}, Remaining: []Remaining{}, RemainingResourceKinds: []string{}}
	type sent struct {
		term, kill time.Time
	}
	signalled := map[target]*sent{}
	refused := map[ProcessKey]bool{}
	unattributed := map[ProcessKey]procEntry{}
	scan := func() (scanResult, bool) {
		res, err := ow.classify()
		rep.Scans++
		if err != nil {
			rep.Status, rep.Error = CleanupUnverifiable, err.Error()
			rep.RemainingResourceKinds = []string{ResourceProcess}
			return res, false
		}
		for _, m := range res.members {
			if m.Verdict != verdictOwned && !refused[m.key()] {
				refused[m.key()] = true
				rep.Refused = append(rep.Refused, Refusal{PID: m.PID, PGID: m.PGID, Comm: m.Comm, Reason: m.Verdict})
			}
		}
		for _, e := range res.unattributed {
			unattributed[e.key()] = e
		}
		return res, true
	}
	if o.Freeze {
		// Stop the tree first: a stopped process cannot fork, and a group
		// signal reaches every member, including one being forked.
		for round := 0; round < 50 && time.Since(start) < o.Deadline; round++ {
			res, ok := scan()
			if !ok {
				break
			}
			running := false
			for _, m := range res.members {
				running = running || m.Verdict == verdictOwned && m.State != 'T' && m.State != 't'
			}
			if !running {
				break
			}
			for _, t := range targetsOf(res.members, ow.ownGroup) {
				rep.record(o.Since(), t.target, sigStop, t.pids)
			}
			time.Sleep(PollInterval / 5)
		}
	}
	empty, rounds := 0, 0
	for rep.Status == "" {
		res, ok := scan()
		if !ok {
			break
		}
		if res.owned == 0 {
			empty++
			if empty >= 2 {
				rep.Status = CleanupQuiesced
				break
			}
		} else {
			empty = 0
		}
		if res.owned > 0 && rounds > 0 && time.Since(start) >= o.Deadline {
			rep.Status = CleanupAliveAtDeadline
			for _, m := range res.members {
				if m.Verdict == verdictOwned {
					rep.Remaining = append(rep.Remaining, Remaining{PID: m.PID, PGID: m.PGID, Comm: m.Comm, State: string(m.State), Reason: CleanupAliveAtDeadline})
				}
			}
			rep.RemainingResourceKinds = []string{ResourceProcess}
			break
		}
		rounds++
		now := time.Now()
		for _, t := range targetsOf(res.members, ow.ownGroup) {
			s := signalled[t.target]
			if s == nil {
				s = &sent{}
				signalled[t.target] = s
			}
			var sig syscall.Signal
			switch {
			case o.Freeze && s.kill.IsZero():
				sig, s.kill = syscall.SIGKILL, now
			case s.term.IsZero() && !o.Freeze:
				sig, s.term = syscall.SIGTERM, now
			case now.Sub(s.term) >= o.Grace && (s.kill.IsZero() || now.Sub(s.kill) >= o.Grace):
				sig, s.kill = syscall.SIGKILL, now
			default:
				continue
			}
			rep.record(o.Since(), t.target, sig, t.pids)
		}
		time.Sleep(PollInterval)
	}
	if rep.Status != CleanupUnverifiable {
		seen := make([]procEntry, 0, len(unattributed))
		for _, e := range unattributed {
			seen = append(seen, e)
		}
		slices.SortFunc(seen, func(a, b procEntry) int { return a.PID - b.PID })
		for _, e := range seen {
			now, err := readStat(e.PID)
			if err != nil || now.StartTicks != e.StartTicks || now.dead() || ow.knows(e.key()) {
				continue
			}
			rep.Unattributed = append(rep.Unattributed, Refusal{PID: e.PID, PGID: now.PGID, Comm: now.Comm, Reason: verdictUnattributed})
		}
		if rep.Status == CleanupQuiesced && len(rep.Unattributed) > 0 {
			rep.Status = CleanupUnattributed
		}
	}
	rep.DurationMs = time.Since(start).Milliseconds()
	return rep
}

type signalTarget struct {
	target
	pids []int
}

// targetsOf groups owned members into signal targets: a whole process
// group when every live member is owned (and it is not rea's own group),
// else each owned member by pid.
func targetsOf(members []member, ownGroup int) []signalTarget {
	groups := map[int][]member{}
	for _, m := range members {
		groups[m.PGID] = append(groups[m.PGID], m)
	}
	var out []signalTarget
	for _, pgid := range sortedKeys(groups) {
		ms := groups[pgid]
		all := true
		for _, m := range ms {
			all = all && m.Verdict == verdictOwned
		}
		if all && pgid > 1 && pgid != ownGroup {
			p := make([]int, len(ms))
			for i, m := range ms {
				p[i] = m.PID
			}
			out = append(out, signalTarget{target{group: true, id: pgid}, p})
			continue
		}
		for _, m := range ms {
			if m.Verdict == verdictOwned {
				out = append(out, signalTarget{target{id: m.PID}, []int{m.PID}})
			}
		}
	}
	return out
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
