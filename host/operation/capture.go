package operation

// The process capture: one executable run under a scripted scenario. The
// CLI reads the same arguments from a SCENARIO.json file (or stdin), so the
// parameters are declared without flags; the bounds are the ones
// host/capture's validation enforces.

// Process capture bounds the spec advertises; host/capture enforces them.
const (
	captureMaxTimeoutMs = 300_000
	captureMaxCleanupMs = 60_000
	captureMaxTerminal  = 1000
	captureMaxArgs      = 4096
)

// CaptureProcessScenario runs a program under a scenario and captures it.
func CaptureProcessScenario() Spec {
	size := func(name, what string, required bool) Param {
		return Param{Name: name, Type: Integer, Min: 1, Max: captureMaxTerminal, Required: required, Description: what + ", 1..1000."}
	}
	return Spec{
		Name:   "capture_process_scenario",
		Title:  "Run a program under a scenario and capture it",
		Family: "process",
		Description: "Run one executable with explicit arguments, working directory and environment, on a pseudo-terminal or pipes, drive it with " +
			"scripted events (input with sensitive redaction, resize, signal, checkpoints) at times or on output matches, snapshot declared " +
			"filesystem roots, and stop at the first limit (timeout 30 s by default, idle, output, processes, files). Every process it starts " +
			"carries a run token; cleanup signals only token-owned process groups and reports cleanup_incomplete if anything owned remains. " +
			"Returns the capture as Evidence (authority controlled-replay). This executes the program: it is not a sandbox.",
		Effects: Effects{MutatesSession: true, LaunchesProcess: true, ExecutesForeignCode: true, WritesFilesystem: true},
		Params: []Param{
			{Name: "executable", Type: String, Required: true,
				Description: "Absolute path, path relative to cwd, or a bare name looked up in env.PATH (never rea's own PATH)."},
			{Name: "args", Type: Array, MaxItems: captureMaxArgs, Items: &Param{Type: String, Description: "One argument, passed as it is (no shell)."},
				Description: "Arguments after the program name (at most 4096)."},
			{Name: "cwd", Type: String, Description: "Working directory; omitted means a fresh private directory removed after the run."},
			{Name: "env", Type: Map,
				Description: "The complete environment; nothing is inherited except REA_PROCESS_RUN_ID, which rea always adds."},
			{Name: "pty", Type: Boolean, Description: "Run on a pseudo-terminal (true) or plain pipes (false, default)."},
			{Name: "terminal", Type: Object, Description: "Pseudo-terminal size (default 80x24); only with pty true.",
				Fields: []Param{size("cols", "Columns", true), size("rows", "Rows", true)}},
			{Name: "events", Type: Array, MaxItems: 1000,
				Description: "Scripted interactions, each with exactly one trigger: at_ms or on_output (at most 1000).",
				Items: &Param{Type: Object, Description: "One scripted interaction: an action and exactly one trigger.", Fields: []Param{
					{Name: "at_ms", Type: Integer, Min: 0, Max: captureMaxTimeoutMs, Description: "Fire at this many milliseconds after start (at most 300000)."},
					{Name: "on_output", Type: Object, Description: "Fire when a literal has appeared in the output the given number of times.",
						Fields: []Param{
							{Name: "literal", Type: String, Required: true, MaxLength: 4096,
								Description: "Exact bytes to find in the raw output (escape sequences included), at most 4096."},
							{Name: "occurrence", Type: Integer, Min: 0, Max: 1_000_000, Default: 1,
								Description: "Which occurrence fires the event, counting from 1 (default 1, also for 0; at most 1000000)."},
						}},
					{Name: "action", Type: String, Required: true, Enum: []string{"input", "eof", "resize", "signal", "checkpoint"},
						Description: "What the event does: write input, close input (eof), resize the terminal, send a signal, or take a checkpoint."},
					{Name: "data", Type: String, MaxLength: 64 << 10, Description: "Bytes written by input (at most 64 KiB)."},
					{Name: "sensitive", Type: Boolean, Description: "Deliver the input but record it only as [redacted]."},
					size("cols", "New terminal columns of resize", false),
					size("rows", "New terminal rows of resize", false),
					{Name: "signal", Type: String, Description: "Signal sent to the root process by signal, e.g. SIGINT."},
					{Name: "name", Type: String, Description: "Label of a checkpoint."},
				}}},
			{Name: "filesystem_roots", Type: Array, MaxItems: 16, Items: &Param{Type: String, Description: "A directory path, absolute or relative to rea's working directory."},
				Description: "Directories snapshotted (paths, sizes, sha256) at the before and after_settlement checkpoints and at checkpoint events (at most 16)."},
			{Name: "limits", Type: Object, Description: "Limits that end the run with their reason recorded in termination.reason.",
				Fields: []Param{
					{Name: "timeout_ms", Type: Integer, Min: 1, Max: captureMaxTimeoutMs, Default: 30_000,
						Description: "Whole-run limit (default 30000, at most 300000)."},
					{Name: "idle_ms", Type: Integer, Min: 1, Max: captureMaxTimeoutMs, Default: 30_000,
						Description: "Longest time without output while the root runs (default 30000, at most 300000)."},
					{Name: "output_bytes", Type: Integer, Min: 1, Max: 4 << 20, Default: 1 << 20,
						Description: "Output captured before the run ends (default 1048576, at most 4194304)."},
					{Name: "processes", Type: Integer, Min: 1, Max: 100_000, Default: 1000,
						Description: "Owned processes alive at once (default 1000, at most 100000)."},
					{Name: "files", Type: Integer, Min: 1, Max: 1_000_000, Default: 10_000,
						Description: "Entries per snapshot (default 10000, at most 1000000)."},
					{Name: "file_bytes", Type: Integer, Min: 1, Max: 1 << 40, Default: 10_000_000,
						Description: "Largest file hashed in a snapshot (default 10000000, at most 1 TiB)."},
					{Name: "depth", Type: Integer, Min: 1, Max: 64, Default: 16,
						Description: "Deepest directory level in a snapshot (default 16, at most 64)."},
				}},
			{Name: "settle_ms", Type: Integer, Min: 0, Max: 10_000, Default: 100,
				Description: "Quiet output time after the root exits before the run is settled (default 100, at most 10000)."},
			{Name: "cleanup", Type: Object,
				Description: "SIGTERM then SIGKILL after grace_ms (default 500), until quiesced or deadline_ms (default 5000).",
				Fields: []Param{
					{Name: "grace_ms", Type: Integer, Min: 1, Max: captureMaxCleanupMs, Default: 500,
						Description: "Time between SIGTERM and SIGKILL (default 500, at most 60000); at or beyond deadline_ms means SIGTERM only."},
					{Name: "deadline_ms", Type: Integer, Min: 1, Max: captureMaxCleanupMs, Default: 5000,
						Description: "Time after which cleanup reports what is left (default 5000, at most 60000)."},
				}},
		},
		Examples: []map[string]any{{"executable": "/bin/sh", "args": []any{"-c", "echo hello"}, "env": map[string]any{"PATH": "/usr/bin:/bin"}}},
		CLI: &Command{Name: "capture-process", Args: []Arg{{Name: "SCENARIO.json|-"}}, Synopsis: "SCENARIO.json|-",
			Short: "Run a program under a scripted scenario and capture what it does, then clean up everything it started"},
	}
}
