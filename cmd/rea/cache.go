package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"rea/host/app"
)

func (c *cli) cacheCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Show or clear rea's local caches (compiled modules, module results)",
		Long: `rea keeps two caches under the user cache directory:

  compiled   modules compiled to machine code (rea/wazero, trimmed to 2 GiB),
             keyed by module; a hit saves seconds the first time a module runs
  results    results of module runs over content-addressed input
             (rea/results, trimmed to 1 GiB), so unchanged input is not
             analysed twice; REA_RESULT_CACHE_DIR moves it, =off disables it

Both are keyed by content, so they never serve a stale answer; clearing them
is always safe and only costs time on the next runs.`,
	}
	cmd.AddCommand(c.cacheShowCommand(), c.cacheClearCommand())
	return cmd
}

func (c *cli) cacheShowCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Show where the caches are and how much they hold",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := c.application()
			if err != nil {
				return err
			}
			rep, err := a.Caches()
			if err != nil {
				return err
			}
			return c.printCaches(rep, "")
		},
	}
}

func (c *cli) cacheClearCommand() *cobra.Command {
	var only []string
	cmd := &cobra.Command{
		Use:   "clear",
		Short: "Empty the caches (both, or those named with --only)",
		Example: `  rea cache clear                 # both caches
  rea cache clear --only results  # keep compiled modules`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			a, err := c.application()
			if err != nil {
				return err
			}
			rep, err := a.ClearCaches(only)
			if err != nil {
				return err
			}
			return c.printCaches(rep, "cleared ")
		},
	}
	cmd.Flags().StringSliceVar(&only, "only", nil, `clear only these caches: "compiled", "results"`)
	return cmd
}

// printCaches writes a cache report; prefix names what happened to them.
func (c *cli) printCaches(rep app.CacheReport, prefix string) error {
	if c.format == "json" {
		return c.printJSON(rep)
	}
	for _, u := range rep.Caches {
		if u.Dir == "" {
			fmt.Fprintf(c.stdout, "%s%-9s off (results kept in memory for one process)\n", prefix, u.Name)
			continue
		}
		fmt.Fprintf(c.stdout, "%s%-9s %6d files %10s  %s\n", prefix, u.Name, u.Files, humanBytes(u.Bytes), u.Dir)
	}
	return nil
}

// humanBytes renders n in the largest binary unit that keeps it ≥ 1.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, []string{"KiB", "MiB", "GiB", "TiB"}[i])
}
