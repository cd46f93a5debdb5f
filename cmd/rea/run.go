package main

import "rea/host/app"

// runCommand is the body every analysis command shares — flags → service →
// rendering: build the App, call the service (which names its own progress
// line), clear the progress line a call left on a terminal, and print the
// result as JSON (what jsonOf picks) under --format json or as text.
func runCommand[R any](c *cli, call func(*app.App) (R, error), jsonOf func(R) any, text func(R) error) error {
	a, err := c.application()
	if err != nil {
		return err
	}
	res, err := call(a)
	c.endProgress()
	if err != nil {
		return err
	}
	if c.format == "json" {
		return c.printJSON(jsonOf(res))
	}
	return text(res)
}

// itself is jsonOf for a result printed as it is.
func itself[R any](r R) any { return r }
