package main

import (
	"bytes"
	"image"
	"image/png"
	"time"

	"rea/abi"
	"rea/analysis/compare/screenshots"
	"rea/host/app"
	"rea/host/devtools"
)

// runtimeServiceDefaults hold the runtime operations to the defaults and
// bounds of the app and devtools packages. Those services check their
// requests only once connected to a live endpoint, so the entries read the
// exported constants they apply (and devtools.Limits.WithDefaults) rather
// than run them; the screenshot comparison runs the compare module's
// library on two real PNGs.
func runtimeServiceDefaults() map[string]func(map[string]any) (map[string]any, error) {
	bounded := func(defaults map[string]any, max map[string]int) func(map[string]any) (map[string]any, error) {
		return func(p map[string]any) (map[string]any, error) {
			out := map[string]any{}
			for k, v := range defaults {
				out[k] = v
			}
			for k, v := range p {
				n, _ := v.(int64)
				if m, ok := max[k]; ok && (n < 1 && k != "offset" || n > int64(m) || n < 0) {
					return nil, abi.Errorf(abi.CodeInvalidRequest, "%s out of bounds", k)
				}
				out[k] = v
			}
			return out, nil
		}
	}
	lim := devtools.Limits{}.WithDefaults()
	list := bounded(map[string]any{"offset": 0, "limit": app.DefaultTargetLimit}, map[string]int{"limit": app.MaxTargetLimit})
	scripts := bounded(map[string]any{"max_scripts": lim.MaxScripts}, nil)
	observe := bounded(map[string]any{"observation_ms": int(lim.Duration / time.Millisecond), "max_timeline_events": lim.MaxEvents, "max_scripts": lim.MaxScripts},
		map[string]int{"observation_ms": int(devtools.MaxDuration / time.Millisecond), "max_timeline_events": devtools.MaxMaxEvents})
	scenario := bounded(map[string]any{"max_duration_ms": app.DefaultScenarioMS, "max_timeline_events": lim.MaxEvents},
		map[string]int{"max_duration_ms": app.MaxScenarioMS, "max_timeline_events": devtools.MaxMaxEvents})
	pngOf := func() []byte {
		var b bytes.Buffer
		_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2)))
		return b.Bytes()
	}
	return map[string]func(map[string]any) (map[string]any, error){
		"list_browser_targets": list, "list_electron_targets": list, "list_javascript_runtime_targets": list,
		"inspect_web_page": scripts, "analyze_web_bundle": scripts, "inspect_electron_page": scripts,
		"observe_web_session": observe, "observe_javascript_runtime": observe,
		"capture_web_screenshot":   bounded(map[string]any{"maximum_image_bytes": app.DefaultImageBytes}, map[string]int{"maximum_image_bytes": app.MaxImageBytes}),
		"discover_webmcp_tools":    bounded(map[string]any{"max_tools": app.DefaultWebMCPTools, "max_schema_bytes": app.DefaultWebMCPSchemaBytes}, nil),
		"capture_browser_scenario": scenario, "capture_electron_scenario": scenario,
		"compare_web_screenshots": func(p map[string]any) (map[string]any, error) {
			var l screenshots.Limits
			if err := remarshal(p, &l); err != nil {
				return nil, err
			}
			if _, err := screenshots.Compare(bytes.NewReader(pngOf()), bytes.NewReader(pngOf()), l); err != nil {
				return nil, err
			}
			// What Compare fills is not in its result: its exported default.
			out := map[string]any{"channel_threshold": l.ChannelThreshold, "maximum_pixels": l.MaximumPixels}
			if l.MaximumPixels == 0 {
				out["maximum_pixels"] = screenshots.DefaultMaximumPixels
			}
			return out, nil
		},
	}
}
