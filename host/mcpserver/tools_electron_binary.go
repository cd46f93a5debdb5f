package mcpserver

import "rea/host/app"

// electronBinaryTools reads an Electron executable's hardening: the fuse
// wire and the Electron/Chromium versions, scanned in the native module.
func (s *Server) electronBinaryTools() []*Tool {
	return []*Tool{
		nativeTool(s, "inspect_electron_binary", "Electron fuses and versions", "inspect-electron-binary",
			"Electron executable facts: the fuse wire after its sentinel (RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable, "+
				"EnableNodeCliInspectArguments, EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar, LoadBrowserProcessSpecificV8Snapshot, "+
				"GrantFileProtocolExtraPrivileges: enabled/disabled/removed), Electron and Chromium versions from its strings, and a finding per insecure "+
				"fuse with its consequence. On macOS pass Contents/Frameworks/Electron Framework.framework/Electron Framework. Needs no deep provider.",
			nil, nil, map[string]any{"input_path": "/opt/Example/example"}, (*app.App).InspectElectronBinary),
	}
}
