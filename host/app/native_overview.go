package app

import (
	"context"
	"encoding/json"
	"time"

	"rea/host/sandbox"
	"rea/modules/abi"
	"rea/modules/native/query"
)

// An overview of a large binary counts its strings in a second module
// instance while the first sweeps the code: a wasm instance runs on one
// core, and the string count (one pass over every data section, tens of
// MB in a large binary) is the part of an overview that needs nothing
// from the sweep. The result is byte-identical to one instance's, the
// fuel of both instances is added up (so it is the same on every
// machine), and under load, with no core to spare, it costs one more
// instance start and one more reading of the headers.
//
// Cutting the sweep itself into parts in parallel instances was tried
// and measured slower on a loaded 2-core machine (1.72 s against 1.20 s
// for one instance, load ~4): the parts and their assembly do more work
// in total, and the assembly runs after them.

// overviewBesideFrom is the file size from which an overview counts
// strings beside the sweep; below it the second instance's fixed cost
// outweighs the gain.
const overviewBesideFrom = 8 << 20

// runOverview runs binary_overview, counting strings beside the sweep
// for a large binary.
func (a *App) runOverview(ctx context.Context, in *nativeInput, params query.Params, out any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	if in.info.Size() < overviewBesideFrom {
		return a.runNativeWhole(ctx, in, query.OpOverview, params, out, progress)
	}
	return a.runOverviewBeside(ctx, in, params, out, progress)
}

// runOverviewBeside runs the overview without its string count in one
// instance and string_count in another at the same time, then fills the
// count in: the same result as one instance, sooner when a core is free,
// for little more work when none is.
func (a *App) runOverviewBeside(ctx context.Context, in *nativeInput, params query.Params, out any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	start := time.Now()
	var count query.StringCount
	var counted *sandbox.Outcome
	var countErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		p := params
		p.Offset, p.Limit = 0, 0 // a count answers no page
		counted, countErr = a.runNativeWhole(ctx, in, query.OpStringCount, p, &count, nil)
	}()
	p := params
	p.StringsElsewhere = true
	var ov query.Overview
	res, err := a.runNativeWhole(ctx, in, query.OpOverview, p, &ov, progress)
	<-done
	if err == nil {
		err = countErr // the sweep fails first in one instance too
	}
	if err != nil {
		return nil, err
	}
	ov.Strings = count.Count
	raw, err := json.Marshal(&ov)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "encoding the overview: %v", err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "decoding the overview: %v", err)
	}
	combined := *res
	combined.Result = raw
	combined.Usage.FuelUsed += counted.Usage.FuelUsed
	combined.Usage.PeakMemoryBytes += counted.Usage.PeakMemoryBytes // side by side
	combined.Usage.Wall = time.Since(start)
	combined.Cached = res.Cached && counted.Cached
	return &combined, nil
}
