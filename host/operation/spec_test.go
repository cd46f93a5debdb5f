package operation

import "testing"

func TestHelpIsTheDescriptionInTheCLIStyleUnlessTheFlagSaysOtherwise(t *testing.T) {
	for _, c := range []struct {
		p    Param
		want string
	}{
		{Param{Description: "Hops from a seed (default 12).", Flag: &Flag{Name: "max-depth"}}, "hops from a seed (default 12)"},
		{Param{Description: "IPC channels kept.", Flag: &Flag{Name: "x"}}, "IPC channels kept"},
		{Param{Description: "exact, or contains.", Flag: &Flag{Name: "x"}}, "exact, or contains"},
		{Param{Description: "Anything.", Flag: &Flag{Name: "x", Help: "its own words"}}, "its own words"},
	} {
		if got := c.p.Help(); got != c.want {
			t.Errorf("%q: help %q, want %q", c.p.Description, got, c.want)
		}
	}
}

func TestFlagDefaultLetsTheServiceDecideUnlessTheFlagSetsOne(t *testing.T) {
	for _, c := range []struct {
		p    Param
		want any
	}{
		{Param{Type: Integer, Default: 25}, 0},
		{Param{Type: Integer, Default: 100, Flag: &Flag{Default: 500}}, 500},
		{Param{Type: String, Default: "both"}, "both"},
		{Param{Type: String}, ""},
		{Param{Type: Boolean, Default: true}, true},
		{Param{Type: Boolean}, false},
	} {
		if got := c.p.FlagDefault(); got != c.want {
			t.Errorf("%+v: flag default %v, want %v", c.p, got, c.want)
		}
	}
}

func TestLookupWalksNestedAndCLIOnlyParameters(t *testing.T) {
	sp := Spec{
		Params:   []Param{{Name: "limits", Type: Object, Fields: []Param{{Name: "max_depth", Type: Integer, Flag: &Flag{Name: "max-depth"}}}}, {Name: "left", Type: Evidence}},
		CLIFlags: []Param{{Name: "sarif", Type: String, Flag: &Flag{Name: "sarif"}}},
		CLI:      &Command{Name: "unknowns list", Synopsis: "--bundle B"},
	}
	for path, ok := range map[string]bool{"limits.max_depth": true, "limits": true, "left": true, "cli.sarif": true, "limits.nope": false, "sarif": false} {
		if _, found := sp.Lookup(path); found != ok {
			t.Errorf("Lookup(%q) = %v, want %v", path, found, ok)
		}
	}
	var flags []string
	for _, f := range sp.Flags() {
		flags = append(flags, f.Path)
	}
	if len(flags) != 2 || flags[0] != "limits.max_depth" || flags[1] != "cli.sarif" {
		t.Errorf("flags %v", flags)
	}
	if got := sp.CLI.Use(); got != "list --bundle B" {
		t.Errorf("use %q", got)
	}
}

// Every declared operation is well formed: unique names, typed parameters,
// arrays with items and bounds, integer defaults inside their bounds, string
// defaults among their enums, flags named once per command.
func TestEveryDeclaredOperationIsWellFormed(t *testing.T) {
	names := map[string]bool{}
	for _, sp := range All() {
		if sp.Name == "" || names[sp.Name] || sp.Title == "" || sp.Family == "" || sp.Description == "" {
			t.Errorf("%q: name, title, family and description are required and the name unique", sp.Name)
		}
		names[sp.Name] = true
		if (sp.CLI == nil) == (sp.OneSidedReason == "") {
			t.Errorf("%s: a CLI command, or a reason why there is none", sp.Name)
		}
		flags := map[string]bool{}
		for _, f := range sp.Flags() {
			if flags[f.Param.Flag.Name] {
				t.Errorf("%s: flag --%s twice", sp.Name, f.Param.Flag.Name)
			}
			flags[f.Param.Flag.Name] = true
		}
		sp.Walk(func(path string, p Param) {
			switch p.Type {
			case String, Boolean, Evidence, Object, Map:
			case Integer:
				if p.Min > p.Max {
					t.Errorf("%s %s: bounds %d..%d", sp.Name, path, p.Min, p.Max)
				}
				if d, ok := p.Default.(int); ok && (int64(d) < p.Min || int64(d) > p.Max) {
					t.Errorf("%s %s: default %d outside %d..%d", sp.Name, path, d, p.Min, p.Max)
				}
			case Array:
				if p.Items == nil || p.MaxItems < 1 {
					t.Errorf("%s %s: an array needs items and a bound", sp.Name, path)
				}
			default:
				t.Errorf("%s %s: type %q", sp.Name, path, p.Type)
			}
			if d, ok := p.Default.(string); ok && len(p.Enum) > 0 {
				found := false
				for _, e := range p.Enum {
					found = found || e == d
				}
				if !found {
					t.Errorf("%s %s: default %q not in %v", sp.Name, path, d, p.Enum)
				}
			}
		})
	}
}
