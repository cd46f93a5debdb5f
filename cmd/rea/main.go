// Command rea is the CLI and MCP stdio server of rea. Commands here only
// turn flags into a call of an application service (host/app) and format
// the answer; everything else lives behind that line.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
)

// endingSignals end rea: each cancels the work in progress, which then
// cleans up what it owns (captured processes, temporary directories) before
// rea exits with 128 + the signal's number (see signalExitCode).
var endingSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, len(endingSignals))
	signal.Notify(sigs, endingSignals...)
	var got atomic.Value
	go func() {
		// The first signal cancels; later ones are absorbed, so a second
		// Ctrl-C does not cut short a cleanup (bounded by its deadline).
		s := <-sigs
		got.Store(s)
		cancel()
		for range sigs {
		}
	}()
	stop := startCPUProfile(os.Getenv("REA_CPUPROFILE"))
	code := execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if s, ok := got.Load().(os.Signal); ok {
		code = signalExitCode(s)
	}
	os.Exit(code)
}

// signalExitCode is the shell's convention, 128 + the signal number: 130
// for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
func signalExitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitInterrupted
}

// startCPUProfile writes the host's CPU profile to path (REA_CPUPROFILE,
// for `go tool pprof`) until the returned stop is called; guest code shows
// as _ExternalCode (wazero's compiled wasm). An empty path profiles nothing.
func startCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rea: REA_CPUPROFILE=%s: %v\n", path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
