package capture

import (
	"testing"

	"rea/abi/canonical"
)

func TestNormalizerReplacesRunSpecificValues(t *testing.T) {
	n := newNormalizer("/opt/app/bin/tool", "/tmp/rea-capture-123", []string{"/tmp/rea-capture-123/out", "/srv/data"},
		map[string]string{"HOME": "/home/alice"}, "1b4e28ba-2fa1-41d2-883f-0016d3cca427", []int{4242, 17})
	cases := []struct{ in, want string }{
		{"/opt/app/bin/tool: starting", "<executable>: starting"},
		// The longest path wins: a root under cwd is the root, not cwd.
		{"wrote /tmp/rea-capture-123/out/a.txt in /tmp/rea-capture-123", "wrote <root:0>/a.txt in <cwd>"},
		{"config at /home/alice/.toolrc", "config at <env:HOME>/.toolrc"},
		{"listening on 127.0.0.1:34567 and [::1]:80 and localhost:9", "listening on 127.0.0.1:<port> and [::1]:<port> and localhost:<port>"},
		{"pid 4242 child 17", "pid <pid:1> child <pid:2>"},
		// Digits inside longer numbers are not pids.
		{"offset 142420 and 170", "offset 142420 and 170"},
		{"token REA_PROCESS_RUN_ID=1b4e28ba-2fa1-41d2-883f-0016d3cca427", "token REA_PROCESS_RUN_ID=<run_id>"},
		{"/ stays /", "/ stays /"},
	}
	for _, c := range cases {
		if got := string(n.apply([]byte(c.in))); got != c.want {
			t.Errorf("apply(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSecretsAreScrubbedWithoutTheirLineEnding(t *testing.T) {
	s := newSecrets([]Event{
		{Action: ActionInput, Data: "hunter2\r\n", Sensitive: true},
		{Action: ActionInput, Data: "y\n", Sensitive: true}, // too short to scrub safely
		{Action: ActionInput, Data: "visible\n"},
	})
	cases := []struct{ in, want string }{
		{"Password: hunter2\r\nok", "Password: " + Redacted + "\r\nok"},
		{"answer y, visible", "answer y, visible"},
	}
	for _, c := range cases {
		if got := string(s.scrub([]byte(c.in))); got != c.want {
			t.Errorf("scrub(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNormalizationRulesDigestIsStable(t *testing.T) {
	a, b := testDigest(Rules()), testDigest(Rules())
	if len(a) != 64 || a != b {
		t.Fatalf("digest %q vs %q", a, b)
	}
	r := Rules()
	r.SchemaVersion++
	if testDigest(r) == a {
		t.Fatal("a changed rule set has the same digest")
	}
}

// testDigest is the manifest's digest of v, for comparing with one.
func testDigest(v any) string {
	d, err := canonical.Digest(v)
	if err != nil {
		panic(err)
	}
	return d
}
