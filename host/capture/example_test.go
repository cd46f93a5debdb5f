package capture_test

import (
	"context"
	"fmt"

	"rea/host/capture"
)

// Run a shell under a scripted scenario: answer its prompt when it appears,
// then read the settled result. Every process carrying the run token has
// been cleaned up when Run returns.
func ExampleRun() {
	s := capture.Scenario{
		Executable: "/bin/sh",
		Args:       []string{"-c", `printf 'name? '; read name; echo "hello $name from $PWD"`},
		Events: []capture.Event{
			{OnOutput: &capture.OutputTrig{Literal: "name?"}, Action: capture.ActionInput, Data: "ada\n"},
		},
	}
	res, err := capture.Run(context.Background(), s, capture.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Termination.Reason, *res.ExitCode, res.Cleanup.Status)
	fmt.Print(res.Output.Normalized)
	// Output:
	// exited 0 quiesced
	// name? hello ada from <cwd>
}
