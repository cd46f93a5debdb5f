package providers

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"rea/abi"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func noFiles(string) (os.FileInfo, error) { return nil, fs.ErrNotExist }

func registry(t *testing.T, vars map[string]string, goos string) *Registry {
	t.Helper()
	r, err := Discover(Config{NativeLiteVersion: "sha256:abc", LookupEnv: env(vars), Stat: noFiles, GOOS: goos,
		LookPath: func(string) (string, error) { return "", errors.New("not found") }})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func code(err error) string {
	var e *abi.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestCandidatesAreSortedByIDWithHonestAvailability(t *testing.T) {
	r := registry(t, map[string]string{}, "linux")
	got := r.Candidates()
	want := []struct{ id, code string }{{Ghidra, CodeNotConfigured}, {Hopper, CodeUnsupportedHost}, {NativeLite, CodeAvailable}}
	if len(got) != len(want) {
		t.Fatalf("candidates = %+v", got)
	}
	for i, w := range want {
		if got[i].ID != w.id || got[i].Availability.Code != w.code {
			t.Errorf("candidate %d = %s/%s, want %s/%s", i, got[i].ID, got[i].Availability.Code, w.id, w.code)
		}
		if (w.id == NativeLite) != got[i].Availability.Usable() {
			t.Errorf("%s usable = %v", w.id, got[i].Availability.Usable())
		}
	}
	if got[0].StartupTimeoutMillis != DefaultGhidraStartupMillis || got[1].StartupTimeoutMillis != DefaultHopperStartupMillis {
		t.Errorf("default startup deadlines = %d, %d", got[0].StartupTimeoutMillis, got[1].StartupTimeoutMillis)
	}
}

func TestGhidraAvailabilityCodesFollowWhatIsMissing(t *testing.T) {
	r := registry(t, map[string]string{EnvGhidraInstallDir: "/opt/ghidra"}, "linux")
	if c, _ := r.Candidate(Ghidra); c.Availability.Code != CodeExecutableMissing {
		t.Errorf("with a missing analyzeHeadless: %s", c.Availability.Code)
	}
	r2, err := Discover(Config{NativeLiteVersion: "v", LookupEnv: env(map[string]string{EnvGhidraInstallDir: "/opt/ghidra"}), GOOS: "linux",
		Stat: func(string) (os.FileInfo, error) { return nil, nil }, LookPath: func(string) (string, error) { return "", errors.New("no java") }})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := r2.Candidate(Ghidra); c.Availability.Code != CodeRuntimeMissing {
		t.Errorf("without java: %s", c.Availability.Code)
	}
	if c, _ := registry(t, nil, "darwin").Candidate(Hopper); c.Availability.Code != CodeExecutableMissing {
		t.Errorf("hopper on darwin without the app: %s", c.Availability.Code)
	}
}

func TestStartupTimeoutsAcceptOnlyDecimalMilliseconds(t *testing.T) {
	for _, tc := range []struct {
		value string
		ok    bool
	}{{"1", true}, {"2147483647", true}, {"330000", true}, {"0", false}, {"2147483648", false}, {"-5", false}, {"1e3", false}, {" 10", false}, {"", false}, {"0x10", false}} {
		for _, name := range []string{EnvGhidraStartupTimeout, EnvHopperStartupTimeout} {
			err := ValidateEnvironment(env(map[string]string{name: tc.value}))
			if (err == nil) != tc.ok {
				t.Errorf("%s=%q: err = %v", name, tc.value, err)
			}
			if err != nil {
				var e *abi.Error
				if !errors.As(err, &e) || e.Code != CodeConfigurationInvalid || e.Details["variable"] != name {
					t.Errorf("%s=%q: error %v does not name the variable", name, tc.value, err)
				}
			}
		}
	}
	r := registry(t, map[string]string{EnvGhidraStartupTimeout: "1000"}, "linux")
	if c, _ := r.Candidate(Ghidra); c.StartupTimeoutMillis != 1000 {
		t.Errorf("ghidra deadline = %d", c.StartupTimeoutMillis)
	}
}

func TestSelectionPrecedenceRequestThenEnvironmentThenAuto(t *testing.T) {
	elf := Target{SHA256: "00", Format: "elf", Architecture: "x86_64"}
	for _, tc := range []struct {
		name, env, request              string
		wantSource, wantErr, wantReason string
	}{
		{name: "auto binds the only usable candidate", wantSource: SourceAuto},
		{name: "explicit auto", request: "auto", wantSource: SourceAuto},
		{name: "environment names native-lite", env: NativeLite, wantSource: SourceEnvironment},
		{name: "request wins over environment", env: Ghidra, request: NativeLite, wantSource: SourceRequest},
		{name: "environment ghidra fails without fallback", env: Ghidra, wantErr: abi.CodeCapabilityUnavailable, wantReason: CodeNotConfigured},
		{name: "request hopper is unsupported on linux", request: Hopper, wantErr: abi.CodeCapabilityUnavailable, wantReason: CodeUnsupportedHost},
		{name: "unknown id", request: "radare2", wantErr: abi.CodeCapabilityUnavailable, wantReason: "unknown_provider"},
		{name: "malformed id", request: "Ghidra!", wantErr: abi.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{}
			if tc.env != "" {
				vars[EnvProvider] = tc.env
			}
			b, _, err := registry(t, vars, "linux").Select(tc.request, elf)
			if tc.wantErr != "" {
				if code(err) != tc.wantErr || b != nil {
					t.Fatalf("binding %v, err %v; want %s", b, err, tc.wantErr)
				}
				var e *abi.Error
				errors.As(err, &e)
				if tc.wantReason != "" && e.Details["reason"] != tc.wantReason {
					t.Errorf("reason = %v, want %s", e.Details["reason"], tc.wantReason)
				}
				return
			}
			if err != nil || b == nil {
				t.Fatalf("binding %v, err %v", b, err)
			}
			if b.ProviderID() != NativeLite || b.SelectionSource() != tc.wantSource || b.Version() != "sha256:abc" || b.Target() != elf {
				t.Errorf("binding = %+v", b.View())
			}
		})
	}
}

func TestAutoLeavesUnsupportedTargetsUnboundWithRejections(t *testing.T) {
	b, rej, err := registry(t, nil, "linux").Select("", Target{Format: "elf", Architecture: "riscv"})
	if err != nil || b != nil {
		t.Fatalf("binding %v err %v", b, err)
	}
	codes := map[string]string{}
	for _, r := range rej {
		codes[r.Provider] = r.Code
	}
	if codes[NativeLite] != CodeArchitectureUnsupported || codes[Ghidra] != CodeNotConfigured || codes[Hopper] != CodeUnsupportedHost {
		t.Errorf("rejections = %+v", rej)
	}
}

func TestAutoWithSeveralUsableCandidatesIsAmbiguous(t *testing.T) {
	r := registry(t, nil, "linux")
	twin := r.candidates[2]
	twin.ID = "native-lite-2"
	r.candidates = append(r.candidates, twin)
	if _, _, err := r.Select("", Target{Format: "elf", Architecture: "x86_64"}); code(err) != abi.CodeCapabilityUnavailable {
		t.Fatalf("err = %v", err)
	}
}

func TestNativeLiteWithoutModuleHasNoConcreteVersion(t *testing.T) {
	r, err := Discover(Config{LookupEnv: env(nil), Stat: noFiles, GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.Candidate(NativeLite)
	if c.Availability.Code != CodeVersionUnresolved || c.Version != nil {
		t.Fatalf("candidate = %+v", c)
	}
	if b, _, err := r.Select("", Target{Format: "elf"}); b != nil || err != nil {
		t.Fatalf("auto bound %v (%v) without any usable provider", b, err)
	}
}
