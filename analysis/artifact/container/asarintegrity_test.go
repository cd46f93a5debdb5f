package container

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"testing/fstest"

	"rea/analysis/artifact/inventory"
)

// infoPlist writes an Info.plist the way electron-builder does, with an
// ElectronAsarIntegrity entry per archive (algorithm, hash).
func infoPlist(entries ...[3]string) string {
	s := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleName</key><string>Example</string>
  <key>LSEnvironment</key><dict><key>hash</key><string>decoy</string></dict>
  <key>ElectronAsarIntegrity</key>
  <dict>`
	for _, e := range entries {
		s += fmt.Sprintf("\n    <key>%s</key>\n    <dict>\n      <key>algorithm</key>\n      <string>%s</string>\n      <key>hash</key>\n      <string>%s</string>\n    </dict>", e[0], e[1], e[2])
	}
	return s + "\n  </dict>\n  <key>CFBundleVersion</key><string>1.0</string>\n</dict>\n</plist>\n"
}

func TestCheckASARIntegrityComparesTheHeaderHash(t *testing.T) {
	header := `{"files":{"main.js":{"size":1,"offset":"0"}}}`
	archive := rawASAR(header, []byte("x"))
	sum := sha256.Sum256([]byte(header))
	good := hex.EncodeToString(sum[:])
	other := rawASAR(`{"files":{"main.js":{"size":1,"offset":"0"}},"x":1}`, []byte("x"))
	fsys := fstest.MapFS{
		"X.app/Contents/Resources/app.asar":   {Data: archive},
		"X.app/Contents/Resources/other.asar": {Data: other},
		"X.app/Contents/Resources/bad.asar":   {Data: []byte("not an asar at all")},
		"X.app/Contents/Info.plist": {Data: []byte(infoPlist(
			[3]string{"Resources/app.asar", "SHA256", good},
			[3]string{"Resources/other.asar", "SHA256", good},
			[3]string{"Resources/gone.asar", "SHA256", good},
			[3]string{"Resources/bad.asar", "SHA256", good},
			[3]string{"Resources/md5.asar", "MD5", "00"},
			[3]string{"../../../etc/passwd", "SHA256", good},
		))},
	}
	res, err := CheckASARIntegrity(fsys, "X.app/Contents", inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Resources/app.asar": "match", "Resources/other.asar": "mismatch", "Resources/gone.asar": "missing",
		"Resources/bad.asar": "unreadable", "Resources/md5.asar": "unsupported", "../../../etc/passwd": "unreadable"}
	if !res.Declared || len(res.Checks) != len(want) {
		t.Fatalf("%+v", res)
	}
	for _, c := range res.Checks {
		if c.Status != want[c.Archive] {
			t.Errorf("%s: %s (%s), want %s", c.Archive, c.Status, c.Detail, want[c.Archive])
		}
		if c.Archive == "Resources/app.asar" && c.Observed != good {
			t.Errorf("observed %s, want %s", c.Observed, good)
		}
	}

	// No declaration, a binary plist and no plist are each said, not errors.
	for name, plist := range map[string]string{"none": "<plist><dict><key>CFBundleName</key><string>X</string></dict></plist>", "binary": "bplist00\x00\x01"} {
		res, err := CheckASARIntegrity(fstest.MapFS{"C/Info.plist": {Data: []byte(plist)}}, "C", inventory.Limits{})
		if err != nil || res.Declared || len(res.Notes) != 1 {
			t.Errorf("%s: %+v %v", name, res, err)
		}
	}
	if res, err := CheckASARIntegrity(fstest.MapFS{"C/x": {}}, "C", inventory.Limits{}); err != nil || res.Declared {
		t.Errorf("no plist: %+v %v", res, err)
	}
	// A malformed plist is a typed error.
	_, err = CheckASARIntegrity(fstest.MapFS{"C/Info.plist": {Data: []byte("<plist><dict><key>")}}, "C", inventory.Limits{})
	wantTyped(t, err, "artifact_operation_failed", "not a readable XML property list")
}
