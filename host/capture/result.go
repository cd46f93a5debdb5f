package capture

// Operation is the MCP tool and Evidence operation name.
const Operation = "capture_process_scenario"

// PredicateType marks capture Evidence.
const PredicateType = "rea.process-capture/v1"

// CodeProcessCaptureFailed is the error code of a capture that could not
// run (the executable would not start, the runtime directory could not be
// made). details.partial_observation keeps what was observed.
const CodeProcessCaptureFailed = "process_capture_failed"

// Termination reasons.
const (
	ReasonExited       = "exited"
	ReasonTimeout      = "timeout"
	ReasonIdle         = "idle"
	ReasonOutputLimit  = "output_limit"
	ReasonProcessLimit = "process_limit"
	ReasonFileLimit    = "file_limit"
	ReasonCancelled    = "cancelled"
	ReasonStartFailed  = "start_failed"
)

// Result is one capture: the normalized_result of its Evidence record, or
// details.partial_observation of a failure.
type Result struct {
	SchemaVersion int         `json:"schema_version"`
	RunID         string      `json:"run_id"`
	Termination   Termination `json:"termination"`
	// ExitCode, Signal and ElapsedMs describe the root process's exit; all
	// null when no exit was observed.
	ExitCode  *int    `json:"exit_code"`
	Signal    *string `json:"signal"`
	ElapsedMs *int64  `json:"elapsed_ms"`
	// DurationMs is the whole run, cleanup and final checkpoint included.
	DurationMs int64 `json:"duration_ms"`
	// EventJournal is monotonic in elapsed_ms and seq.
	EventJournal        []JournalEntry     `json:"event_journal"`
	EventJournalOmitted int                `json:"event_journal_omitted"`
	Output              Output             `json:"output"`
	Checkpoints         []Checkpoint       `json:"checkpoints"`
	FilesystemChanges   *FilesystemChanges `json:"filesystem_changes"`
	// Processes lists every owned process a scan observed (at most
	// limits.processes), in order of first observation.
	Processes      []ProcessObservation `json:"processes"`
	ProcessLineage Lineage              `json:"process_lineage"`
	Cleanup        CleanupReport        `json:"cleanup"`
	Manifest       Manifest             `json:"manifest"`
	Limits         Limits               `json:"limits"`
	Limitations    []string             `json:"limitations"`
}

// Termination says why the run ended.
type Termination struct {
	// Reason is exited, timeout, idle, output_limit, process_limit,
	// file_limit, cancelled or start_failed.
	Reason string `json:"reason"`
	AtMs   int64  `json:"at_ms"`
	// Settled is true when output stayed quiet for settle_ms after the root
	// process exited.
	Settled bool `json:"settled"`
}

// JournalEntry is one observed or performed event.
type JournalEntry struct {
	Seq       int            `json:"seq"`
	ElapsedMs int64          `json:"elapsed_ms"`
	Kind      string         `json:"kind"`
	Details   map[string]any `json:"details"`
}

// Output is the terminal (pty) or the merged stdout and stderr (pipes).
type Output struct {
	Mode string `json:"mode"`
	// Text holds the first limits.output_bytes bytes; invalid UTF-8 is
	// replaced by U+FFFD (ValidUTF8 says whether that happened).
	Text          string `json:"text"`
	ValidUTF8     bool   `json:"valid_utf8"`
	CapturedBytes int64  `json:"captured_bytes"`
	// TotalBytes counts every byte read, captured or not.
	TotalBytes int64 `json:"total_bytes"`
	Truncated  bool  `json:"truncated"`
	// SHA256 of the captured bytes (after sensitive input is scrubbed).
	SHA256 string `json:"sha256"`
	// Normalized is Text under the manifest's normalisation rules.
	Normalized string `json:"normalized"`
}

// Checkpoint is a named moment with filesystem snapshots of the roots.
type Checkpoint struct {
	Name      string         `json:"name"`
	ElapsedMs int64          `json:"elapsed_ms"`
	Roots     []RootSnapshot `json:"roots"`
}

// ProcessObservation is an owned process as first seen.
type ProcessObservation struct {
	PID         int    `json:"pid"`
	ParentPID   int    `json:"parent_pid"`
	PGID        int    `json:"process_group_id"`
	SID         int    `json:"session_id"`
	Comm        string `json:"comm"`
	FirstSeenMs int64  `json:"first_seen_ms"`
}

// Lineage is the process_lineage observation binary_session reports: the
// launcher (root) process and the owned descendants scans saw. It is a
// bounded historical view, not a claim that no short-lived process existed.
type Lineage struct {
	// Status is verified or unavailable.
	Status            string       `json:"status"`
	ObservedAt        string       `json:"observed_at"`
	SchemaVersion     int          `json:"schema_version"`
	LauncherPID       int          `json:"launcher_pid"`
	ProcessGroupID    int          `json:"process_group_id"`
	LauncherParentPID int          `json:"launcher_parent_pid"`
	Descendants       []Descendant `json:"descendants"`
	Reason            string       `json:"reason,omitempty"`
}

// Descendant is one owned process other than the launcher.
type Descendant struct {
	PID       int `json:"pid"`
	ParentPID int `json:"parent_pid"`
	PGID      int `json:"process_group_id"`
}

// Manifest commits to what ran and how it was observed.
type Manifest struct {
	SchemaVersion int                `json:"schema_version"`
	RunID         string             `json:"run_id"`
	Executable    ExecutableIdentity `json:"executable"`
	// ScenarioSHA256 is sha256(JCS(scenario with sensitive input redacted)).
	ScenarioSHA256 string `json:"scenario_sha256"`
	// NormalizationSHA256 is sha256(JCS(NormalizationRules)).
	NormalizationSHA256 string             `json:"normalization_sha256"`
	Normalization       NormalizationRules `json:"normalization"`
	// ComparisonContractSHA256 is sha256(JCS(ComparisonContract)): captures
	// with equal digests can be compared.
	ComparisonContractSHA256 string            `json:"comparison_contract_sha256"`
	Versions                 map[string]string `json:"versions"`
	Platform                 Platform          `json:"platform"`
	// PTYBackend is "creack/pty <version>" or "pipes".
	PTYBackend string `json:"pty_backend"`
	StartedAt  string `json:"started_at"`
	EndedAt    string `json:"ended_at"`
}

// ExecutableIdentity is the file that ran.
type ExecutableIdentity struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Format is elf or file; Architecture is x86, x86_64, arm, arm64 or "".
	Format       string `json:"format"`
	Architecture string `json:"architecture"`
}

// Platform is where the run happened.
type Platform struct {
	OS            string `json:"os"`
	Arch          string `json:"arch"`
	KernelRelease string `json:"kernel_release"`
}
