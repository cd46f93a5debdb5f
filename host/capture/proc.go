package capture

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// procEntry is one process as /proc showed it at one scan.
type procEntry struct {
	PID, PPID, PGID, SID int
	Comm                 string
	State                byte
	// StartTicks (stat field 22, clock ticks since boot) tells a reused pid
	// from the process seen before, and a child from a process older than
	// its parent.
	StartTicks uint64
}

func (e procEntry) key() ProcessKey { return ProcessKey{PID: e.PID, StartTicks: e.StartTicks} }

func (e procEntry) dead() bool { return e.State == 'Z' || e.State == 'X' }

// Ownership verdicts of one process.
const (
	verdictOwned      = "owned"
	verdictMismatch   = "run-token-mismatch"
	verdictUnreadable = "environment-unreadable"
	// verdictUnattributed: a child rea adopted as subreaper that started
	// while more than one capture ran, so nothing proves which run it
	// belongs to.
	verdictUnattributed = "unattributed"
)

// member is a process with its ownership verdict.
type member struct {
	procEntry
	Verdict string
}

// procRoot is where the process table lives.
const procRoot = "/proc"

// listProcesses reads every process's stat line (and nothing else: scans
// must stay cheap while a fork tree grows). Processes that vanish mid-scan
// are skipped; zombies are included (dead() tells them) so that rea can reap
// the ones it adopted.
func listProcesses() ([]procEntry, error) {
	d, err := os.Open(procRoot)
	if err != nil {
		return nil, fmt.Errorf("reading the process table: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("reading the process table: %w", err)
	}
	self := os.Getpid()
	out := make([]procEntry, 0, len(names))
	buf := make([]byte, 1024)
	for _, n := range names {
		if n == "" || n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		e, err := readStatInto(pid, buf)
		if err != nil {
			continue // exited between readdir and read
		}
		out = append(out, e)
	}
	return out, nil
}

// readStat parses /proc/<pid>/stat.
func readStat(pid int) (procEntry, error) { return readStatInto(pid, make([]byte, 1024)) }

// readStatInto parses /proc/<pid>/stat read into buf. The command name sits
// in parentheses and may itself contain spaces and parentheses, so fields
// are counted from the last ')'.
func readStatInto(pid int, buf []byte) (procEntry, error) {
	f, err := os.Open(procRoot + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntry{}, err
	}
	n, err := f.Read(buf)
	f.Close()
	if err != nil {
		return procEntry{}, err
	}
	b := buf[:n]
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open || closing+2 > len(b) {
		return procEntry{}, fmt.Errorf("malformed stat for pid %d", pid)
	}
	fs := strings.Fields(string(b[closing+2:]))
	// fs[0]=state fs[1]=ppid fs[2]=pgrp fs[3]=session … fs[19]=starttime
	if len(fs) < 20 || len(fs[0]) != 1 {
		return procEntry{}, fmt.Errorf("malformed stat for pid %d", pid)
	}
	e := procEntry{PID: pid, Comm: string(b[open+1 : closing]), State: fs[0][0]}
	e.PPID, _ = strconv.Atoi(fs[1])
	e.PGID, _ = strconv.Atoi(fs[2])
	e.SID, _ = strconv.Atoi(fs[3])
	e.StartTicks, _ = strconv.ParseUint(fs[19], 10, 64)
	return e, nil
}

// tokenEntry is the exact environment entry that proves ownership.
func tokenEntry(token string) []byte { return []byte(RunIDVariable + "=" + token) }

// verdict reads /proc/<pid>/environ (NUL-separated) and decides whether the
// process carries exactly this run's token. An unreadable environment (a
// process of another user, a kernel thread, one that exited, one that
// rewrote its title over it) proves nothing.
func verdict(pid int, entry []byte) (string, error) {
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return verdictUnreadable, err
	}
	if len(b) == 0 {
		return verdictUnreadable, errors.New("empty environment")
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return verdictOwned, nil
		}
	}
	return verdictMismatch, nil
}

// owner decides which processes belong to one run. The token in the
// environment is only one proof: a process is owned when
//   - the run saw it owned before (same pid and start time): a process
//     that blanks or replaces its environment stays owned;
//   - its parent is owned and started no later than it (ancestry; with rea
//     as child subreaper an orphan's parent is rea, see below);
//   - it started after the root and sits in a process group or session an
//     owned process created and that has had owned members ever since;
//   - it is a child rea adopted as subreaper (PPID is rea) that left
//     rea's session and started after the root while this was the only
//     capture running;
//   - it started after the root and carries the token.
//
// Only processes that started at or after the root are ever claimed, and
// only those have their environment read, so a scan costs one stat read
// per process plus one environ read per new process.
type owner struct {
	token []byte
	self  int
	// rootStart is the root's start time; 0 for a token-only owner (Reap
	// without a run), which then reads every environment.
	rootStart uint64
	rootPID   int
	// adopt lets the owner claim children rea adopted as subreaper.
	adopt bool
	// ownGroup and ownSession are rea's own, never claimed as a whole.
	ownGroup, ownSession int

	// The rest is guarded by ownersMu: owners read each other's records
	// to attribute adopted children.
	known map[ProcessKey]bool
	// groups and sessions map an id to the scan that last saw an owned
	// member in it: a group that had owned members in the previous scan
	// cannot have been emptied and reused in between (within one poll).
	groups   map[int]int
	sessions map[int]int
	scans    int
}

func newOwner(token string) *owner {
	return &owner{token: tokenEntry(token), self: os.Getpid(), ownGroup: ownProcessGroup(), ownSession: ownSessionID(),
		known: map[ProcessKey]bool{}, groups: map[int]int{}, sessions: map[int]int{}}
}

// startRoot starts the run's root with start and records it, all under
// the owners' lock, so that no other run's scan can see the new child of
// rea before it is known as this run's root. The root is rea's child and
// cannot be reaped before rea waits for it, so the stat read is its own.
func (o *owner) startRoot(start func() (int, error)) error {
	ownersMu.Lock()
	defer ownersMu.Unlock()
	pid, err := start()
	if err != nil {
		return err
	}
	e, err := readStat(pid)
	if err != nil {
		return fmt.Errorf("reading the started process's start time: %w", err)
	}
	o.rootPID, o.rootStart, o.adopt = pid, e.StartTicks, true
	o.known[e.key()] = true
	o.groups[e.PGID] = 0
	if e.SID == e.PID {
		o.sessions[e.SID] = 0 // pty mode: the root leads its own session
	}
	owners[o] = true
	return nil
}

// knows reports whether the owner has proven k owned.
func (o *owner) knows(k ProcessKey) bool {
	ownersMu.Lock()
	defer ownersMu.Unlock()
	return o.known[k]
}

// scanResult is one classification of the process table.
type scanResult struct {
	// members are the live owned processes plus every other live member of
	// their process groups (with why it is not owned).
	members []member
	// unattributed are live processes this run may have started but cannot
	// prove it did.
	unattributed []procEntry
	owned        int
}

// classify scans the process table once and updates what the owner knows.
func (o *owner) classify() (scanResult, error) {
	procs, err := listProcesses()
	if err != nil {
		return scanResult{}, err
	}
	return o.classifyEntries(procs), nil
}

func (o *owner) classifyEntries(procs []procEntry) scanResult {
	ownersMu.Lock()
	defer ownersMu.Unlock()
	o.scans++
	byPID := make(map[int]*procEntry, len(procs))
	for i := range procs {
		byPID[procs[i].PID] = &procs[i]
	}
	const (
		unknown = iota
		visiting
		yes
		no
	)
	state := make(map[int]int, len(procs))
	verdicts := map[int]string{}
	var owns func(e *procEntry) bool
	owns = func(e *procEntry) bool {
		switch state[e.PID] {
		case yes:
			return true
		case no, visiting:
			return false
		}
		state[e.PID] = visiting
		ok := o.known[e.key()]
		if !ok && e.PPID != o.self {
			if p := byPID[e.PPID]; p != nil && p.StartTicks <= e.StartTicks && owns(p) {
				ok = true
			}
		}
		if !ok && e.StartTicks >= o.rootStart {
			if s, in := o.groups[e.PGID]; in && s >= o.scans-1 {
				ok = true
			} else if s, in := o.sessions[e.SID]; in && s >= o.scans-1 {
				ok = true
			}
		}
		// An adopted orphan left rea's session (setsid, as daemons do): a
		// child rea started elsewhere (a browser for DevTools) stays in
		// rea's session and is never taken for one.
		if !ok && o.adopt && e.PPID == o.self && e.SID != o.ownSession && e.StartTicks >= o.rootStart {
			switch adoptedBy(e.key(), o) {
			case o:
				ok = true
			case nil:
			default:
				verdicts[e.PID] = verdictMismatch
			case ambiguous:
				verdicts[e.PID] = verdictUnattributed
			}
		}
		if !ok && e.StartTicks >= o.rootStart && !e.dead() && verdicts[e.PID] == "" {
			v, _ := verdict(e.PID, o.token)
			ok = v == verdictOwned
			verdicts[e.PID] = v
		}
		if ok {
			state[e.PID] = yes
		} else {
			state[e.PID] = no
		}
		return ok
	}
	var res scanResult
	groups := map[int]bool{}
	for i := range procs {
		e := &procs[i]
		if !owns(e) {
			continue
		}
		o.known[e.key()] = true
		if e.dead() {
			if e.PPID == o.self && e.PID != o.rootPID {
				reapAdopted(e.PID)
			}
			continue
		}
		if e.PGID != o.ownGroup {
			o.groups[e.PGID] = o.scans
		}
		if _, in := o.sessions[e.SID]; (in || e.SID == e.PID) && e.SID != o.ownSession {
			o.sessions[e.SID] = o.scans
		}
		groups[e.PGID] = true
		res.owned++
	}
	for i := range procs {
		e := &procs[i]
		if e.dead() {
			continue
		}
		if state[e.PID] == yes {
			res.members = append(res.members, member{procEntry: *e, Verdict: verdictOwned})
			continue
		}
		v := verdicts[e.PID]
		if v == verdictUnattributed {
			res.unattributed = append(res.unattributed, *e)
		}
		if groups[e.PGID] {
			if v == "" {
				v = verdictUnreadable
			}
			res.members = append(res.members, member{procEntry: *e, Verdict: v})
		}
	}
	return res
}

// The owners of the captures running in this process. rea is the child
// subreaper of everything it starts, so an orphan whose parent exited
// becomes rea's child; which run it came from is then known only from the
// runs' own records, or from timing when a single run was active.
var (
	ownersMu sync.Mutex
	owners   = map[*owner]bool{}
)

// ambiguous is adoptedBy's answer when several runs could own a process.
var ambiguous = &owner{}

// release forgets the owner once its run is over.
func (o *owner) release() { ownersMu.Lock(); delete(owners, o); ownersMu.Unlock() }

// adoptedBy names the run an adopted child belongs to: the run that knows
// it, else the only run whose root started before it, else ambiguous (or
// nil when no run could own it). The caller holds ownersMu.
func adoptedBy(k ProcessKey, self *owner) *owner {
	var candidates []*owner
	for o := range owners {
		if o == self {
			if o.rootStart <= k.StartTicks && o.rootPID != 0 {
				candidates = append(candidates, o)
			}
			continue
		}
		knows, root, start := o.known[k], o.rootPID, o.rootStart
		if knows || k.PID == root {
			return o
		}
		if root != 0 && start <= k.StartTicks {
			candidates = append(candidates, o)
		}
	}
	switch len(candidates) {
	case 0:
		return nil
	case 1:
		return candidates[0]
	}
	if slices.Contains(candidates, self) {
		return ambiguous
	}
	return nil
}
