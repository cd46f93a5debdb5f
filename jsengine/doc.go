// Package jsengine statically analyses JavaScript and Electron applications:
// package.json, HTML entry points, imports of every kind, bundles, and the
// Electron security boundary (windows and their webPreferences, preloads,
// contextBridge APIs, IPC with channel pairing, and the security findings
// that follow). It runs natively for tests and inside the jsapp WebAssembly
// module in production. Nothing it reads is ever executed.
//
// Pipeline of Analyze:
//
//  1. list the root; read package.json; select text files under the limits,
//     the entry point and what it references first (a cheap specifier scan),
//     then the application's files, then node_modules;
//  2. parse: CommonJS/scripts straight into goja's parser; ESM, TypeScript
//     (with legacy decorators), JSX and .vue/.svelte script blocks through
//     esbuild Transform (CommonJS, ES2017, dynamic import lowered) and back
//     through its source map, so every Location is in the original file;
//  3. first pass per module: scopes, hoisted declarations, plain assignments,
//     exports (CommonJS, esbuild and tsc helpers, TypeScript enums);
//  4. bundle recovery (webpack 4/5 tables and chunks, esbuild __commonJS):
//     factory digests, identifier-blind structural fingerprints, and a key
//     table that lets the evaluator follow __webpack_require__(key);
//  5. second pass per module: imports and the Electron boundary, resolving
//     values with a bounded evaluator;
//  6. pairing, findings, summary counts, sorting.
//
// The evaluator is Go code, not goja's runtime. Resolving a window's options
// means following bindings, helper functions that return object literals,
// spreads and exports across modules — work the runtime could only do by
// running module code. Folding in Go keeps "never executed" literal, has its
// cost bounded by depth, call-depth and step counters that behave the same
// natively and in wasm, and keeps the runtime out of the module.
//
// Limits (Options) are enforced here, inside the sandbox: a limit hit makes
// Coverage "partial" and names the limit and the omitted count, or, with
// FailOnLimit, returns an *abi.Error with code resource_constraint. The
// parse-time limit reads the clock, so it is the one limit whose effect can
// differ between runs.
package jsengine
