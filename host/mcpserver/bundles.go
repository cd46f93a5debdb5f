package mcpserver

import "strings"

// otherAppleBundleSuffixes are Apple bundle types open_binary refuses as
// unsupported (seed 000: "another Apple bundle type is refused"): kernel
// and driver extensions, installer packages, Quick Look and Spotlight
// importers, preference panes, screen savers, audio components.
func otherAppleBundleSuffixes() []string {
	return []string{".kext", ".dext", ".pkg", ".mpkg", ".qlgenerator", ".mdimporter", ".prefpane", ".saver",
		".component", ".driver", ".colorpicker", ".wdgt", ".xcplugin", ".ideplugin"}
}

// refusedAppleBundle reports whether dir names an Apple bundle of a type
// open_binary does not admit, and which.
func refusedAppleBundle(dir string) (string, bool) {
	lower := strings.ToLower(dir)
	for _, suf := range otherAppleBundleSuffixes() {
		if strings.HasSuffix(lower, suf) {
			return suf, true
		}
	}
	return "", false
}
