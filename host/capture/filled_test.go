package capture

import (
	"errors"
	"testing"

	"rea/abi"
)

func TestFilledReportsTheDefaultsAndBoundsARunApplies(t *testing.T) {
	sh := "/bin/sh"
	got, err := Filled(Scenario{Executable: sh, PTY: true})
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{TimeoutMs: DefaultTimeoutMs, IdleMs: DefaultIdleMs, OutputBytes: DefaultOutputBytes, Processes: DefaultProcesses,
		Files: DefaultFiles, FileBytes: DefaultFileBytes, Depth: DefaultDepth}
	if *got.Limits != want || *got.SettleMs != DefaultSettleMs || *got.Cleanup != (Cleanup{DefaultGraceMs, DefaultCleanupMs}) ||
		*got.Terminal != (Terminal{DefaultCols, DefaultRows}) {
		t.Errorf("filled %+v %v %+v %+v", *got.Limits, *got.SettleMs, *got.Cleanup, *got.Terminal)
	}
	timeout := int64(1234)
	if got, err := Filled(Scenario{Executable: sh, Limits: &Limits{TimeoutMs: timeout}}); err != nil || got.Limits.TimeoutMs != timeout || got.Terminal != nil {
		t.Errorf("a given limit is kept, no terminal without pty: %+v %v", got, err)
	}
	for name, s := range map[string]Scenario{
		"too many args":    {Executable: sh, Args: make([]string, MaxArgs+1)},
		"timeout past max": {Executable: sh, Limits: &Limits{TimeoutMs: MaxTimeoutMs + 1}},
		"no executable":    {},
	} {
		var ae *abi.Error
		if _, err := Filled(s); !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
			t.Errorf("%s: %v, want invalid_request", name, err)
		}
	}
	if _, err := Filled(Scenario{Executable: sh, Args: make([]string, MaxArgs)}); err != nil {
		t.Errorf("%d args refused: %v", MaxArgs, err)
	}
}
