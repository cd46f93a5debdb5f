package report

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDynamicLoadIsNotClaimedLocal(t *testing.T) {
	for _, c := range []struct {
		l    Load
		want string
	}{
		{Load{Method: "loadURL", Target: "u", State: "dynamic"}, `"remote":null`},
		{Load{Method: "loadURL", Target: "https://x", State: "known", Remote: true}, `"remote":true`},
		{Load{Method: "loadFile", Target: "index.html", State: "known"}, `"remote":false`},
	} {
		b, err := json.Marshal(c.l)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.want) || strings.Count(string(b), `"remote"`) != 1 {
			t.Errorf("%+v: %s, want %s", c.l, b, c.want)
		}
		var back Load
		if err := json.Unmarshal(b, &back); err != nil || back.Target != c.l.Target || back.Remote != c.l.Remote {
			t.Errorf("round trip of %s: %+v %v", b, back, err)
		}
	}
}
