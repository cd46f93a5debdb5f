package exports_test

import (
	"context"
	"fmt"

	"rea/analysis/compare/exports"
)

// Two versions of one CommonJS export, compared without running either.
func Example() {
	v1 := `exports.defaults = { theme: "dark", retries: 3 };`
	v2 := `const THEME = "li" + "ght"; exports.defaults = { theme: THEME, telemetry: false };`
	side := func(src string) exports.Side {
		return exports.Side{Modules: []exports.Module{{Path: "settings.js"}}, ModulePath: "settings.js", ExportName: "defaults", Source: &src}
	}
	req := &exports.Request{Left: side(v1), Right: side(v2)}
	if err := req.Validate(); err != nil {
		panic(err)
	}
	res, err := exports.Compare(context.Background(), req)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status)
	for _, c := range res.Changes {
		fmt.Println(c.Kind, c.Pointer)
	}
	// Output:
	// changed
	// changed /theme
	// removed /retries
	// added /telemetry
}
