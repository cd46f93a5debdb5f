package mcpserver

import (
	"rea/host/app"
	"rea/host/operation"
)

// electronBinaryTools reads an Electron executable's hardening: the fuse
// wire and the Electron/Chromium versions, scanned in the native module.
func (s *Server) electronBinaryTools() []*Tool {
	return []*Tool{
		nativeTool(s, operation.InspectElectronBinary(), (*app.App).InspectElectronBinary),
	}
}
