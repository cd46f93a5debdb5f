// Package capture runs one program under a scripted, bounded scenario and
// observes it — terminal or pipe output, exit status, processes, filesystem
// checkpoints — then removes every process the run started. It is the engine
// of capture_process_scenario (MCP) and `rea capture-process` (CLI).
//
// Ownership is proven, never assumed. Each run has a random token; the root
// process starts in its own process group (a session of its own on a
// pseudo-terminal) with REA_PROCESS_RUN_ID=<token> as the only variable rea
// adds to the scenario's explicit environment, and descendants inherit it.
// Cleanup (Reap) reads /proc/<pid>/environ of every process and signals a
// process group with kill(-pgid) only when each of its live members carries
// that exact entry — wherever the group is, so daemons that double-forked and
// called setsid are found. Members without the token (another token, none, an
// unreadable environment) are never signalled; in a mixed group the owned
// members are signalled one by one. SIGTERM first, SIGKILL after the grace,
// rescans every 50 ms until two consecutive scans find nothing owned
// (quiesced) or the deadline passes (alive_at_deadline). A process the run saw
// carrying the token that later dropped it (exec with a clean environment) is
// reported, not signalled. Whatever owned is left makes the run fail with
// cleanup_incomplete, which wins over every other outcome.
//
// Limits (timeout, idle, output bytes, processes, snapshot files) end a run
// with the reason recorded; cancellation ends it with cancelled. Both still
// clean up, and failures keep the observation in details.partial_observation.
//
// Capture is not a sandbox: the program runs with rea's user, filesystem and
// network. Linux only (it reads /proc).
package capture
