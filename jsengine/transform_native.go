//go:build !wasip1

package jsengine

import (
	"rea/jsengine/normalise"
	"rea/jsengine/normalise/esbuild"
)

// transform runs esbuild in process: natively (tests, benchmarks, the
// reference for the sandboxed results) jsengine links esbuild itself.
func transform(req normalise.Request) normalise.Result { return esbuild.Transform(req) }

// transformAhead does nothing natively: the transform runs when asked.
func transformAhead(normalise.Request) bool { return true }
