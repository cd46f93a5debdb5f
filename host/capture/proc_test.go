package capture

import (
	"slices"
	"testing"
)

// fakeOwner is an owner of a synthetic process table: pids above any
// pid_max, so no environment read can succeed, and a made-up rea pid.
func fakeOwner(t *testing.T, rootPID int, rootStart uint64) *owner {
	o := newOwner("00000000-0000-4000-8000-000000000000")
	o.self, o.ownGroup, o.ownSession = reaPID, reaPID, reaPID
	o.rootPID, o.rootStart, o.adopt = rootPID, rootStart, true
	o.known[ProcessKey{PID: rootPID, StartTicks: rootStart}] = true
	o.groups[rootPID] = 0
	ownersMu.Lock()
	owners[o] = true
	ownersMu.Unlock()
	t.Cleanup(o.release)
	return o
}

const reaPID = 90_000_000

func ownedPIDs(r scanResult) []int {
	var pids []int
	for _, m := range r.members {
		if m.Verdict == verdictOwned {
			pids = append(pids, m.PID)
		}
	}
	slices.Sort(pids)
	return pids
}

func pidsOf(es []procEntry) []int {
	var pids []int
	for _, e := range es {
		pids = append(pids, e.PID)
	}
	slices.Sort(pids)
	return pids
}

func TestOwnershipDoesNotRestOnTheEnvironment(t *testing.T) {
	const root = 90_000_100
	proc := func(pid, ppid, pgid, sid int, start uint64) procEntry {
		return procEntry{PID: pid, PPID: ppid, PGID: pgid, SID: sid, StartTicks: start, State: 'S', Comm: "p"}
	}
	cases := []struct {
		name  string
		procs []procEntry
		owned []int
	}{
		{"the root and its descendants, whatever their environment", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+1, root, root, reaPID, 101),
			proc(root+2, root+1, root+2, root+2, 102), // setsid
		}, []int{root, root + 1, root + 2}},
		{"a child older than its parent is a reused pid, not a descendant", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+1, root, 1, 1, 50),
		}, []int{root}},
		{"an orphan rea adopted while only this run ran", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+3, reaPID, root+3, root+3, 120),
		}, []int{root, root + 3}},
		{"a process adopted by rea that started before the run is not claimed", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+4, reaPID, root+4, root+4, 90),
		}, []int{root}},
		{"a child rea started elsewhere in its own session (a browser) is not an adopted orphan", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+6, reaPID, root+6, reaPID, 140),
			proc(root+7, root+6, root+6, reaPID, 141),
		}, []int{root}},
		{"a member of the root's group whose parent is elsewhere", []procEntry{
			proc(root, reaPID, root, reaPID, 100),
			proc(root+5, 1, root, reaPID, 130),
		}, []int{root, root + 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := fakeOwner(t, root, 100)
			if got := ownedPIDs(o.classifyEntries(c.procs)); !slices.Equal(got, c.owned) {
				t.Fatalf("owned %v, want %v", got, c.owned)
			}
		})
	}
}

func TestAKnownProcessStaysOwnedAfterItsParentChanges(t *testing.T) {
	const root = 90_000_200
	o := fakeOwner(t, root, 100)
	child := procEntry{PID: root + 1, PPID: root, PGID: root + 1, SID: root + 1, StartTicks: 110, State: 'S'}
	o.classifyEntries([]procEntry{{PID: root, PPID: reaPID, PGID: root, SID: reaPID, StartTicks: 100, State: 'S'}, child})
	// The root exits; the child, re-parented to init elsewhere (no
	// subreaper), is still the one the run saw.
	child.PPID = 1
	if got := ownedPIDs(o.classifyEntries([]procEntry{child})); !slices.Equal(got, []int{root + 1}) {
		t.Fatalf("owned %v", got)
	}
}

func TestAnOrphanAdoptedDuringTwoRunsIsUnattributedNotClaimed(t *testing.T) {
	a := fakeOwner(t, 90_000_300, 100)
	b := fakeOwner(t, 90_000_400, 200)
	procs := []procEntry{
		{PID: 90_000_300, PPID: reaPID, PGID: 90_000_300, SID: reaPID, StartTicks: 100, State: 'S'},
		{PID: 90_000_400, PPID: reaPID, PGID: 90_000_400, SID: reaPID, StartTicks: 200, State: 'S'},
		// Adopted after both roots started: either run's.
		{PID: 90_000_500, PPID: reaPID, PGID: 90_000_500, SID: 90_000_500, StartTicks: 300, State: 'S'},
		// Adopted between the roots: only a's.
		{PID: 90_000_600, PPID: reaPID, PGID: 90_000_600, SID: 90_000_600, StartTicks: 150, State: 'S'},
	}
	ra, rb := a.classifyEntries(procs), b.classifyEntries(procs)
	if got := ownedPIDs(ra); !slices.Equal(got, []int{90_000_300, 90_000_600}) {
		t.Fatalf("a owns %v", got)
	}
	if got := ownedPIDs(rb); !slices.Equal(got, []int{90_000_400}) {
		t.Fatalf("b owns %v (the other run's root must never be claimed)", got)
	}
	if !slices.Equal(pidsOf(ra.unattributed), []int{90_000_500}) || !slices.Equal(pidsOf(rb.unattributed), []int{90_000_500}) {
		t.Fatalf("unattributed: a %v b %v", pidsOf(ra.unattributed), pidsOf(rb.unattributed))
	}
}
