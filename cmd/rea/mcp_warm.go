package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/app"
)

// defaultWarmIdle is how long `rea mcp` waits with no request in flight
// before it loads the next module into memory (from the compile cache). On
// two cores, loading the 17 MB jsapp module takes a core for 0.3–1 s: done
// at start, it doubled the time to the first tools/list, so it waits until
// the client is quiet, and a request that needs a module not loaded yet
// loads it itself.
const defaultWarmIdle = 300 * time.Millisecond

// warmIdleFromEnvironment reads REA_MCP_WARM_IDLE_MS: a number of
// milliseconds, or "off" to load modules only on first use.
func warmIdleFromEnvironment(getenv func(string) string) (time.Duration, bool, error) {
	v := getenv("REA_MCP_WARM_IDLE_MS")
	switch v {
	case "":
		return defaultWarmIdle, true, nil
	case "off":
		return 0, false, nil
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms < 0 {
		return 0, false, fmt.Errorf("REA_MCP_WARM_IDLE_MS=%q: want a number of milliseconds ≥ 0 or \"off\"", v)
	}
	return time.Duration(ms) * time.Millisecond, true, nil
}

// idleWarmer loads modules one at a time while the server is idle: after
// idle has passed with no request in flight, it loads the next module, then
// waits for idleness again. Requests never wait for it except when they
// need the very module it is loading (the load is shared, not repeated).
type idleWarmer struct {
	a    *app.App
	idle time.Duration
	ctx  context.Context

	mu       sync.Mutex
	inFlight int
	timer    *time.Timer
	steps    []func(context.Context)
	busy     bool // a step is running
}

func newIdleWarmer(ctx context.Context, a *app.App, idle time.Duration) *idleWarmer {
	w := &idleWarmer{a: a, idle: idle, ctx: ctx}
	// Guidance searches are small and frequent: its standby instance
	// comes first, then every module in catalog order.
	w.steps = append(w.steps, func(ctx context.Context) {
		_ = a.Runner.StartStandby(ctx, app.GuidanceModule, a.Config.Limits)
	})
	for _, name := range a.Runner.Catalog().Names() {
		w.steps = append(w.steps, func(ctx context.Context) {
			_, _, _ = a.Runner.Compile(ctx, name, a.Config.Limits)
		})
	}
	// The timer is first armed when the first request (initialize) ends:
	// a client that has not spoken yet is about to.
	return w
}

// middleware counts requests in flight and re-arms the idle timer when the
// last one ends.
func (w *idleWarmer) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		w.mu.Lock()
		w.inFlight++
		if w.timer != nil {
			w.timer.Stop()
		}
		w.mu.Unlock()
		defer func() {
			w.mu.Lock()
			w.inFlight--
			w.arm()
			w.mu.Unlock()
		}()
		return next(ctx, method, req)
	}
}

// arm starts the idle timer when nothing is in flight and steps remain;
// callers hold w.mu.
func (w *idleWarmer) arm() {
	if w.inFlight > 0 || w.busy || len(w.steps) == 0 {
		return
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(w.idle, w.step)
		return
	}
	w.timer.Reset(w.idle)
}

// step runs the next warm-up step if the server is still idle.
func (w *idleWarmer) step() {
	w.mu.Lock()
	if w.inFlight > 0 || w.busy || len(w.steps) == 0 || w.ctx.Err() != nil {
		w.mu.Unlock()
		return
	}
	next := w.steps[0]
	w.steps = w.steps[1:]
	w.busy = true
	w.mu.Unlock()
	next(context.WithoutCancel(w.ctx))
	w.mu.Lock()
	w.busy = false
	w.arm()
	w.mu.Unlock()
}

// warmModulesWhenIdle installs the idle warmer on srv unless
// REA_MCP_WARM_IDLE_MS=off.
func warmModulesWhenIdle(ctx context.Context, a *app.App, srv *mcp.Server) error {
	idle, on, err := warmIdleFromEnvironment(os.Getenv)
	if err != nil || !on {
		return err
	}
	srv.AddReceivingMiddleware(newIdleWarmer(ctx, a, idle).middleware)
	return nil
}
