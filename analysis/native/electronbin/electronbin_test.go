package electronbin

import (
	"bytes"
	"strings"
	"testing"
)

// wire builds a V1 fuse wire as @electron/fuses lays it out.
func wire(version byte, states string) []byte {
	b := []byte(Sentinel)
	b = append(b, version, byte(len(states)))
	return append(b, states...)
}

func TestScan(t *testing.T) {
	pad := bytes.Repeat([]byte{0}, 3<<20) // pushes matches across chunk edges
	cases := []struct {
		name      string
		data      []byte
		wires     int
		states    string
		findings  []string
		electron  string
		chromium  string
		limitLike string
	}{
		{name: "defaults", data: append(append([]byte("xx Chrome/130.0.6723.137 Electron/33.2.1 Safari"), pad...), wire(1, "10110001")...),
			wires: 1, states: "enabled,disabled,enabled,enabled,disabled,disabled,disabled,enabled",
			findings: []string{"electron-fuse-run-as-node", "electron-fuse-node-options", "electron-fuse-inspect-arguments", "electron-fuse-asar-integrity-off", "electron-fuse-app-outside-asar"},
			electron: "33.2.1", chromium: "130.0.6723.137"},
		{name: "hardened", data: wire(1, "01001110"), wires: 1, states: "disabled,enabled,disabled,disabled,enabled,enabled,enabled,disabled",
			limitLike: "no Electron/"},
		{name: "removed and unknown", data: wire(1, "r1x1"), wires: 1, states: "removed,enabled,unknown,enabled", findings: []string{"electron-fuse-inspect-arguments"}},
		{name: "truncated", data: append([]byte("abc"), wire(1, "1111")[:len(Sentinel)+4]...), wires: 1, states: "enabled,enabled", findings: []string{"electron-fuse-run-as-node"}},
		{name: "none", data: []byte("Electron/1.2 Chrome/1.2.3 nothing"), limitLike: "no fuse sentinel"},
		{name: "prerelease", data: []byte("Electron/34.0.0-beta.7\x00"), electron: "34.0.0-beta.7", limitLike: "no fuse sentinel"},
		{name: "straddles chunk", data: append(bytes.Repeat([]byte{'a'}, chunk-10), wire(1, "00000000")...), wires: 1,
			states:   "disabled,disabled,disabled,disabled,disabled,disabled,disabled,disabled",
			findings: []string{"electron-fuse-asar-integrity-off", "electron-fuse-app-outside-asar"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Scan(bytes.NewReader(c.data), int64(len(c.data)), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Wires) != c.wires || f.SentinelCount != c.wires {
				t.Fatalf("wires %d sentinels %d, want %d", len(f.Wires), f.SentinelCount, c.wires)
			}
			if c.wires > 0 {
				var st []string
				for _, fz := range f.Wires[0].Fuses {
					st = append(st, fz.State)
				}
				if got := strings.Join(st, ","); got != c.states {
					t.Errorf("states %s, want %s", got, c.states)
				}
				if f.Wires[0].Offset != int64(bytes.Index(c.data, []byte(Sentinel))) {
					t.Errorf("offset %d", f.Wires[0].Offset)
				}
			}
			var ids []string
			for _, fd := range f.Findings {
				ids = append(ids, fd.RuleID)
			}
			if strings.Join(ids, ",") != strings.Join(c.findings, ",") {
				t.Errorf("findings %v, want %v", ids, c.findings)
			}
			if f.ElectronVersion != c.electron || f.ChromiumVersion != c.chromium {
				t.Errorf("versions %q %q, want %q %q", f.ElectronVersion, f.ChromiumVersion, c.electron, c.chromium)
			}
			if c.limitLike != "" && !strings.Contains(strings.Join(f.Limitations, "|"), c.limitLike) {
				t.Errorf("limitations %v lack %q", f.Limitations, c.limitLike)
			}
		})
	}
}

func TestScanUniversalCountsEverySentinel(t *testing.T) {
	var b []byte
	for i := 0; i < 10; i++ {
		b = append(b, wire(1, "1")...)
	}
	f, err := Scan(bytes.NewReader(b), int64(len(b)), Limits{MaxWires: 2})
	if err != nil {
		t.Fatal(err)
	}
	if f.SentinelCount != 10 || len(f.Wires) != 2 || len(f.Findings) != 1 {
		t.Fatalf("sentinels %d wires %d findings %d", f.SentinelCount, len(f.Wires), len(f.Findings))
	}
}

func FuzzScan(f *testing.F) {
	f.Add(wire(1, "10110001"))
	f.Add([]byte("Chrome/1.2.3.4 Electron/1.2.3-beta.1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		facts, err := Scan(bytes.NewReader(b), int64(len(b)), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range facts.Wires {
			if len(w.Fuses) > w.Length {
				t.Fatalf("%d fuses for length %d", len(w.Fuses), w.Length)
			}
		}
	})
}
