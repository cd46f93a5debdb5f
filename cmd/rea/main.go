// Command rea is the CLI and MCP stdio server of rea. Commands here only
// turn flags into a call of an application service (host/app) and format
// the answer; everything else lives behind that line.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
