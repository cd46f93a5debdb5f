package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/host/capture"
	"rea/host/operation"
)

// maxScenarioBytes bounds a scenario file; events carry at most 64 KiB of
// input each, so real scenarios are far smaller.
const maxScenarioBytes = 8 << 20

func (c *cli) captureCommand() *cobra.Command {
	return fromSpec(&cobra.Command{
		Long: `capture-process runs one executable with the arguments, working directory and
explicit environment of a scenario file (the arguments of the MCP tool
capture_process_scenario), on a pseudo-terminal ("pty": true) or plain pipes.
Scripted events (input, eof, resize, signal, checkpoint) fire at elapsed times
("at_ms") or when a literal appears in the output ("on_output"). Checkpoints
"before" and "after_settlement" snapshot the "filesystem_roots".

Limits end the run and are recorded as termination.reason: timeout_ms
(default 30000, at most 300000), idle_ms, output_bytes (default 1 MiB),
processes, and the snapshot bounds files, file_bytes and depth.

Every process rea starts runs in its own process group with
REA_PROCESS_RUN_ID=<run id> in its environment, and rea is the child
subreaper of all of them (a daemon's double fork is re-parented to rea).
A process is owned when rea started it or it descends from an owned process
(parent pid and start time), sits in a group or session an owned process
created, or carries the token; a process that rewrites its title or clears
its environment stays owned. Afterwards rea signals owned process groups
(daemons that detached included): SIGTERM, then SIGKILL after
cleanup.grace_ms, until two scans in a row find nothing. A run that exceeds
limits.processes is frozen (SIGSTOP) at once and then killed. A process rea
cannot prove it owns is never signalled; one it may have started but cannot
attribute (another capture ran at the same time) is listed in
cleanup.unattributed and the cleanup status is "unattributed", not
"quiesced". Snapshots read at most file_bytes of any file, stop at
timeout_ms, and do not enter pseudo-filesystems (proc, sysfs, devtmpfs,
cgroup, ...) that are not themselves a root.

Input marked "sensitive" is delivered but recorded as [redacted]. The result
is printed as an Evidence record (predicate rea.process-capture/v1).
SIGINT (Ctrl-C), SIGTERM or SIGHUP stop the run, clean up (processes and the
private working directory) and report cancelled with the partial observation.
Exit status: 0 captured (whatever the program did), 1 failure (including
cleanup_incomplete), 130 SIGINT, 143 SIGTERM, 129 SIGHUP.`,
		Example: `  echo '{"executable":"/bin/sh","args":["-c","echo hi"]}' | rea capture-process -
  rea capture-process scenario.json --format json > capture.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := c.readScenario(args[0])
			if err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.CaptureProcessScenario(cmd.Context(), s, c.progressPrinter("capture-process"))
			c.endProgress()
			if err != nil {
				return err
			}
			if c.format != "json" {
				printCaptureSummary(c.stderr, res.Capture)
			}
			return c.printJSON(res.Evidence)
		},
	}, operation.CaptureProcessScenario(), nil)
}

// readScenario decodes a scenario strictly: unknown fields and wrong types
// are invalid_request with the field named.
func (c *cli) readScenario(path string) (app.CaptureProcessRequest, error) {
	var s app.CaptureProcessRequest
	var r io.Reader = c.stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return s, abi.Errorf(abi.CodeInvalidRequest, "cannot read the scenario: %v", err).WithDetail("argument", "SCENARIO")
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxScenarioBytes+1))
	if err != nil {
		return s, abi.Errorf(abi.CodeInvalidRequest, "cannot read the scenario: %v", err).WithDetail("argument", "SCENARIO")
	}
	if len(raw) > maxScenarioBytes {
		return s, abi.Errorf(abi.CodeInvalidRequest, "the scenario is larger than %d bytes", maxScenarioBytes).WithDetail("argument", "SCENARIO")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		e := abi.Errorf(abi.CodeInvalidRequest, "the scenario is not valid JSON for capture_process_scenario: %v; see `rea capture-process --help`", err)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			e = e.WithDetail("field", te.Field)
		}
		return s, e
	}
	if dec.More() {
		return s, abi.Errorf(abi.CodeInvalidRequest, "the scenario file holds more than one JSON value")
	}
	return s, nil
}

// printCaptureSummary is the one-line human summary in text mode.
func printCaptureSummary(w io.Writer, r *capture.Result) {
	if r == nil {
		return
	}
	exit := "no exit observed"
	switch {
	case r.ExitCode != nil:
		exit = fmt.Sprintf("exit code %d", *r.ExitCode)
	case r.Signal != nil:
		exit = "killed by " + *r.Signal
	}
	trunc := ""
	if r.Output.Truncated {
		trunc = " (truncated)"
	}
	fmt.Fprintf(w, "capture %s: %s, %s, %d output bytes%s, %d processes, cleanup %s in %d ms\n",
		r.RunID, strings.ReplaceAll(r.Termination.Reason, "_", " "), exit, r.Output.TotalBytes, trunc,
		len(r.Processes), r.Cleanup.Status, r.Cleanup.DurationMs)
}
