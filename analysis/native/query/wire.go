package query

import "rea/analysis/native/nativewire"

// The vocabulary this package shares with the host lives in nativewire
// (the host reads results without linking the parsers); these names keep
// this package's code short.
type (
	Params       = nativewire.Params
	Target       = nativewire.Target
	Layout       = nativewire.Layout
	Overview     = nativewire.Overview
	Procedures   = nativewire.Procedures
	Strings      = nativewire.Strings
	Names        = nativewire.Names
	Segments     = nativewire.Segments
	Call         = nativewire.Call
	Calls        = nativewire.Calls
	Xrefs        = nativewire.Xrefs
	Resolution   = nativewire.Resolution
	FileOffset   = nativewire.FileOffset
	Bytes        = nativewire.Bytes
	Instructions = nativewire.Instructions
	Facet        = nativewire.Facet
	Dossier      = nativewire.Dossier
	References   = nativewire.References
)

const (
	OpLayout                = nativewire.OpLayout
	OpOverview              = nativewire.OpOverview
	OpProcedures            = nativewire.OpProcedures
	OpStrings               = nativewire.OpStrings
	OpNames                 = nativewire.OpNames
	OpSegments              = nativewire.OpSegments
	OpFunction              = nativewire.OpFunction
	OpInstructions          = nativewire.OpInstructions
	OpCallers               = nativewire.OpCallers
	OpCallees               = nativewire.OpCallees
	OpXrefs                 = nativewire.OpXrefs
	OpResolve               = nativewire.OpResolve
	OpFileOffset            = nativewire.OpFileOffset
	OpReadBytes             = nativewire.OpReadBytes
	OpReferences            = nativewire.OpReferences
	DefaultLimit            = nativewire.DefaultLimit
	MaxLimit                = nativewire.MaxLimit
	MaxSearchLimit          = nativewire.MaxSearchLimit
	DefaultInstructionLimit = nativewire.DefaultInstructionLimit
	MaxInstructionOffset    = nativewire.MaxInstructionOffset
	MaxReadBytes            = nativewire.MaxReadBytes
	MaxPatternBytes         = nativewire.MaxPatternBytes
	DefaultOverviewLimit    = nativewire.DefaultOverviewLimit
	MaxOverviewLimit        = nativewire.MaxOverviewLimit
	DefaultMaxInstructions  = nativewire.DefaultMaxInstructions
	MaxMaxInstructions      = nativewire.MaxMaxInstructions
)

// Operations is nativewire.Operations.
func Operations() []string { return nativewire.Operations() }
