// Package capture runs one program under a scripted, bounded scenario and
// observes it — terminal or pipe output, exit status, processes, filesystem
// checkpoints — then removes every process the run started. It is the engine
// of capture_process_scenario (MCP) and `rea capture-process` (CLI).
//
// Ownership is proven, never assumed, and never rests on the environment
// alone. Each run has a random token; the root process starts in its own
// process group (a session of its own on a pseudo-terminal) with
// REA_PROCESS_RUN_ID=<token> as the only variable rea adds to the
// scenario's explicit environment, and rea is the child subreaper of
// everything it starts, so an orphan (a daemon's double fork) is re-parented
// to rea rather than init. A process is owned (proc.go, owner) when the run
// saw it owned before (pid and start time), descends from an owned process
// (its parent started no later than it), sits in a group or session an
// owned process created, is an orphan rea adopted that left rea's session
// while this was the only run, or carries the token; only processes that started after the root are
// claimed, and only theirs have their environment read, so scans stay cheap
// and a process that rewrites its title or clears its environment stays
// owned. Cleanup (reap) signals a process group with kill(-pgid) only when
// each of its live members is owned; in a mixed group the owned members are
// signalled one by one and the others never. SIGTERM first, SIGKILL after
// the grace (a run over limits.processes is frozen with SIGSTOP first and
// then killed), rescans every 50 ms until two consecutive scans find nothing
// owned (quiesced) or the deadline passes (alive_at_deadline). An orphan
// adopted while several runs were active is listed as unattributed, never
// signalled, and the status says so. Whatever owned is left makes the run
// fail with cleanup_incomplete, which wins over every other outcome.
//
// Snapshots read at most file_bytes of any file, whatever its stat says,
// without blocking, stop at timeout_ms or cancellation, and do not enter a
// pseudo-filesystem (proc, sysfs, devtmpfs, cgroup, ...) that is not itself
// a root.
//
// Limits (timeout, idle, output bytes, processes, snapshot files) end a run
// with the reason recorded; cancellation ends it with cancelled. Both still
// clean up, and failures keep the observation in details.partial_observation.
//
// Capture is not a sandbox: the program runs with rea's user, filesystem and
// network. Linux only (it reads /proc).
package capture
