package app

import (
	"context"
	"encoding/json"
	"time"

	"rea/abi"
	"rea/host/sandbox"
	"rea/wasm/module"
)

// ModuleList is the answer of `rea modules list`.
type ModuleList struct {
	Modules []module.Identity `json:"modules"`
	// ABIVersion is the envelope version this host speaks.
	ABIVersion int `json:"abi_version"`
}

// ListModules reports every module this rea can run.
func (a *App) ListModules() ModuleList {
	return ModuleList{Modules: a.Runner.Catalog().List(), ABIVersion: abi.Version}
}

// ModuleRunRequest is a raw module invocation: the envelope's operation and
// params plus optional read-only mounts of host directories.
type ModuleRunRequest struct {
	Module    string          `json:"module"`
	Operation string          `json:"operation"`
	Params    json.RawMessage `json:"params,omitempty"`
	// Mounts maps guest paths (e.g. "/in") to host directories.
	Mounts map[string]string `json:"mounts,omitempty"`
}

// ModuleRunResult is what `rea modules run` prints on success.
type ModuleRunResult struct {
	Module module.Identity `json:"module"`
	Result json.RawMessage `json:"result"`
	Usage  UsageReport     `json:"usage"`
	Limits LimitsReport    `json:"limits"`
}

// UsageReport is sandbox.Usage in stable JSON units.
type UsageReport struct {
	FuelUsed        uint64 `json:"fuel_used"`
	PeakMemoryBytes uint64 `json:"peak_memory_bytes"`
	WallMillis      int64  `json:"wall_ms"`
}

// LimitsReport is sandbox.Limits in stable JSON units; it goes into
// provenance so a run can be reproduced under the same limits.
type LimitsReport struct {
	MemoryBytes    uint64 `json:"memory_bytes"`
	Fuel           uint64 `json:"fuel"`
	DeadlineMillis int64  `json:"deadline_ms"`
	OutputBytes    int64  `json:"output_bytes"`
}

// ReportUsage converts sandbox usage.
func ReportUsage(u sandbox.Usage) UsageReport {
	return UsageReport{FuelUsed: u.FuelUsed, PeakMemoryBytes: u.PeakMemoryBytes, WallMillis: u.Wall.Milliseconds()}
}

// ReportLimits converts sandbox limits.
func ReportLimits(l sandbox.Limits) LimitsReport {
	return LimitsReport{MemoryBytes: l.MemoryBytes, Fuel: l.Fuel, DeadlineMillis: l.Deadline.Milliseconds(), OutputBytes: l.OutputBytes}
}

// RunModule runs any module under the configured limits.
func (a *App) RunModule(ctx context.Context, req ModuleRunRequest, progress func(abi.Progress)) (*ModuleRunResult, error) {
	if req.Module == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the module to run").WithDetail("field", "module")
	}
	mounts, closeMounts, err := a.dirMounts(req.Mounts)
	if err != nil {
		return nil, err
	}
	defer closeMounts()
	var params any
	if len(req.Params) > 0 {
		params = req.Params
	}
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    req.Module,
		Operation: req.Operation,
		Params:    params,
		Mounts:    mounts,
		Limits:    a.Config.Limits,
		Progress:  progress,
	})
	if err != nil {
		return nil, err
	}
	return &ModuleRunResult{Module: out.Module, Result: out.Result, Usage: ReportUsage(out.Usage), Limits: ReportLimits(out.Limits)}, nil
}

// WarmModules compiles every module into the disk cache and reports how
// long each took (a cache hit is ~0.3 s for the largest module).
func (a *App) WarmModules(ctx context.Context, each func(module.Identity, time.Duration, error)) error {
	var first error
	for _, id := range a.Runner.Catalog().List() {
		got, took, err := a.Runner.Compile(ctx, id.Name, a.Config.Limits)
		if each != nil {
			each(got, took, err)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}
