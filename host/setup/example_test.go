package setup_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rea/host/setup"
)

// Register rea with Codex under a home directory that already holds a
// Codex configuration, then run setup again.
func Example() {
	home, _ := os.MkdirTemp("", "rea-setup-example-")
	defer os.RemoveAll(home)
	config := filepath.Join(home, ".codex", "config.toml")
	_ = os.MkdirAll(filepath.Dir(config), 0o700)
	_ = os.WriteFile(config, []byte("model = \"o4\"\n"), 0o600)

	env := setup.Env{Home: home, Executable: "/usr/local/bin/rea", Version: "1.0.0"}
	clients, _ := setup.SelectClients(env, []string{"codex"})
	for run := 1; run <= 2; run++ {
		plan, _ := setup.MakePlan(env, clients)
		results, _ := setup.Apply(env, plan)
		step := results[0].Config
		fmt.Printf("run %d: %s -> %s, changed %v, backup %v\n", run, step.Before, step.After, step.Changed, step.Backup != "")
	}
	b, _ := os.ReadFile(config)
	fmt.Print(strings.ReplaceAll(string(b), home, "~"))
	// Output:
	// run 1: missing -> aligned, changed true, backup true
	// run 2: aligned -> aligned, changed false, backup false
	// model = "o4"
	//
	// [mcp_servers.rea]
	// command = "/usr/local/bin/rea"
	// args = ["mcp"]
}
