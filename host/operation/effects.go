package operation

// Effects is the one record of what an operation may do. The MCP
// annotations, the catalog and binary_session's tool_availability are all
// derived from it.
type Effects struct {
	MutatesTarget       bool `json:"mutatesTarget"`
	MutatesSession      bool `json:"mutatesSession"`
	WritesFilesystem    bool `json:"writesFilesystem"`
	LaunchesProcess     bool `json:"launchesProcess"`
	AccessesNetwork     bool `json:"accessesNetwork"`
	ChangesUIState      bool `json:"changesUiState"`
	MayDiscardData      bool `json:"mayDiscardData"`
	Idempotent          bool `json:"idempotent"`
	ExecutesForeignCode bool `json:"executesForeignCode"`
	MutatesDevice       bool `json:"mutatesDevice"`
}

// ReadOnly is true when the operation has no effect at all; recording
// Evidence in the session counts as an effect.
func (e Effects) ReadOnly() bool {
	return !(e.MutatesTarget || e.MutatesSession || e.WritesFilesystem || e.LaunchesProcess ||
		e.AccessesNetwork || e.ChangesUIState || e.MayDiscardData || e.ExecutesForeignCode || e.MutatesDevice)
}
