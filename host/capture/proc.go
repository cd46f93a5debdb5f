package capture

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procEntry is one live process as /proc showed it at one scan.
type procEntry struct {
	PID, PPID, PGID, SID int
	Comm                 string
	State                byte
	// StartTicks tells a reused pid from the process seen before.
	StartTicks uint64
}

// Ownership verdicts of one process against a run token.
const (
	verdictOwned      = "owned"
	verdictMismatch   = "run-token-mismatch"
	verdictUnreadable = "environment-unreadable"
)

// member is a process with its ownership verdict.
type member struct {
	procEntry
	Verdict string
}

// procRoot is where the process table lives.
const procRoot = "/proc"

// listProcesses reads every live process's stat line. Processes that vanish
// mid-scan are skipped; zombies are skipped because they hold no resources
// but a pid and cannot be signalled away.
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
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		e, err := readStat(pid)
		if err != nil {
			continue // exited between readdir and read
		}
		if e.State == 'Z' || e.State == 'X' {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// readStat parses /proc/<pid>/stat. The command name sits in parentheses
// and may itself contain spaces and parentheses, so fields are counted
// from the last ')'.
func readStat(pid int) (procEntry, error) {
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntry{}, err
	}
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open || closing+2 > len(b) {
		return procEntry{}, fmt.Errorf("malformed stat for pid %d", pid)
	}
	f := strings.Fields(string(b[closing+2:]))
	// f[0]=state f[1]=ppid f[2]=pgrp f[3]=session … f[19]=starttime
	if len(f) < 20 || len(f[0]) != 1 {
		return procEntry{}, fmt.Errorf("malformed stat for pid %d", pid)
	}
	e := procEntry{PID: pid, Comm: string(b[open+1 : closing]), State: f[0][0]}
	e.PPID, _ = strconv.Atoi(f[1])
	e.PGID, _ = strconv.Atoi(f[2])
	e.SID, _ = strconv.Atoi(f[3])
	e.StartTicks, _ = strconv.ParseUint(f[19], 10, 64)
	return e, nil
}

// tokenEntry is the exact environment entry that proves ownership.
func tokenEntry(token string) []byte { return []byte(RunIDVariable + "=" + token) }

// verdict reads /proc/<pid>/environ (NUL-separated) and decides whether the
// process carries exactly this run's token. An unreadable environment (a
// process of another user, a kernel thread, one that exited) is never owned.
func verdict(pid int, entry []byte) (string, error) {
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return verdictUnreadable, err
	}
	if len(b) == 0 {
		// Kernel threads and processes whose memory is gone read as empty.
		return verdictUnreadable, errors.New("empty environment")
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return verdictOwned, nil
		}
	}
	return verdictMismatch, nil
}

// classify scans the process table and returns every process that carries
// the token, plus every other member of the process groups those processes
// belong to (with why it is not owned). Processes outside those groups are
// none of this run's business and are not reported.
func classify(token string) ([]member, error) {
	procs, err := listProcesses()
	if err != nil {
		return nil, err
	}
	entry := tokenEntry(token)
	verdicts := make(map[int]string, len(procs))
	groups := map[int]bool{}
	for _, p := range procs {
		v, _ := verdict(p.PID, entry)
		verdicts[p.PID] = v
		if v == verdictOwned {
			groups[p.PGID] = true
		}
	}
	var out []member
	for _, p := range procs {
		if groups[p.PGID] {
			out = append(out, member{procEntry: p, Verdict: verdicts[p.PID]})
		}
	}
	return out, nil
}
