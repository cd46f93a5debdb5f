package jsengine

import "rea/jsengine/report"

// The result and limit types live in package report so that the host can
// use them without linking the parsers; these aliases keep the jsengine API
// self-contained.
type (
	Options       = report.Options
	Result        = report.Result
	Location      = report.Location
	PackageInfo   = report.PackageInfo
	Entrypoint    = report.Entrypoint
	HTMLDocument  = report.HTMLDocument
	HTMLScript    = report.HTMLScript
	HTMLWebview   = report.HTMLWebview
	Module        = report.Module
	Import        = report.Import
	GraphEdge     = report.GraphEdge
	Value         = report.Value
	Alternative   = report.Alternative
	PreloadAlt    = report.PreloadAlternative
	Step          = report.Step
	Window        = report.Window
	Preload       = report.Preload
	Load          = report.Load
	ExposedAPI    = report.ExposedAPI
	IPCOperation  = report.IPCOperation
	Observation   = report.Observation
	SourceMapRef  = report.SourceMapRef
	Bundle        = report.Bundle
	BundledModule = report.BundledModule
	Finding       = report.Finding
	Summary       = report.Summary
	IPCSummary    = report.IPCSummary
	Statistics    = report.Statistics
	Coverage      = report.Coverage
	LimitHit      = report.LimitHit
	OmittedFile   = report.OmittedFile
	Shard         = report.Shard
)

// SchemaVersion is the version of Result's JSON shape.
const SchemaVersion = report.SchemaVersion

// DefaultOptions returns the anchor defaults.
func DefaultOptions() Options { return report.DefaultOptions() }
