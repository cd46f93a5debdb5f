// Package app holds rea's application services: one per operation, shared
// by the CLI (cmd/rea) and the MCP server (host/mcpserver), so both faces
// run the same code with the same limits and the same errors.
package app

import (
	"context"
	"log/slog"

	"rea/host/sandbox"
	"rea/wasm/embedded"
	"rea/wasm/module"
)

// Config is what both faces collect from flags and environment.
type Config struct {
	// ModuleDir overrides embedded modules of the same name.
	ModuleDir string
	// Limits for every module run; zero fields take sandbox defaults.
	Limits sandbox.Limits
	// CacheDir for compiled modules ("" = user cache dir, "off" = none).
	CacheDir string
	// ResultCacheDir for module results ("" = beside CacheDir, "off" =
	// memory only).
	ResultCacheDir string
	// ReleaseModules (one-shot commands) closes a module's compiled code as
	// soon as the command is done with it; MaxRetainedModuleBytes (a
	// long-lived server) bounds what stays compiled. See sandbox.Options.
	ReleaseModules         bool
	MaxRetainedModuleBytes int64
	// AnalyseAfterInventory starts a directory's analysis only once its
	// inventory is done, instead of beside it on the result-cache key's
	// walk (jsapp_early.go): one module instance at a time, the same answer.
	AnalyseAfterInventory bool
	Logger                *slog.Logger
}

// App is the set of services over one sandbox Runner.
type App struct {
	Config Config
	Runner *sandbox.Runner
	log    *slog.Logger
	// Notes are the analyst notes native results show when a request
	// brings none of its own (the CLI's --notes bundle).
	Notes NotesSource
}

// New loads the module catalog and prepares the sandbox.
func New(cfg Config) (*App, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cat, err := module.Load(embedded.Modules(), cfg.ModuleDir)
	if err != nil {
		return nil, err
	}
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: cfg.CacheDir, ResultCacheDir: cfg.ResultCacheDir, Logger: cfg.Logger,
		ReleaseWhenDone: cfg.ReleaseModules, MaxRetainedBytes: cfg.MaxRetainedModuleBytes})
	if err != nil {
		return nil, err
	}
	return &App{Config: cfg, Runner: r, log: cfg.Logger}, nil
}

// Close releases the sandbox.
func (a *App) Close(ctx context.Context) error { return a.Runner.Close(ctx) }

// Logger returns the application's logger (stderr in the CLI and MCP).
func (a *App) Logger() *slog.Logger { return a.log }
