// Black-box interop check of `rea mcp` with the TypeScript MCP SDK client:
// every tool is called for real (chained through retained references) and its
// structuredContent validates against its advertised
// outputSchema with an independent validator (Ajv), and every input schema
// passes a strict portability lint. Usage: node check.mjs REA_BIN REPO_ROOT
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";
import { rmSync } from "node:fs";

const [rea, root] = process.argv.slice(2);
const fixture = `${root}/testdata/artifact/app.asar`;
const failures = [];
const fail = (msg) => { failures.push(msg); console.error("FAIL " + msg); };

// Portability lint: what every function-calling model API accepts.
function lint(tool) {
  const s = tool.inputSchema;
  if (tool.name.length > 64) fail(`${tool.name}: name longer than 64`);
  if (s.type !== "object") fail(`${tool.name}: root type is not object`);
  for (const k of ["anyOf", "oneOf", "allOf", "$ref", "not"]) if (k in s) fail(`${tool.name}: root uses ${k}`);
  const walk = (node, path) => {
    if (node === null || typeof node !== "object") return;
    if (node.enum && !node.enum.every((v) => typeof v === "string")) fail(`${path}: non-string enum`);
    if (node.properties) for (const [k, v] of Object.entries(node.properties)) {
      if (!("type" in v)) fail(`${path}.${k}: property without type`);
      walk(v, `${path}.${k}`);
    }
    if (node.items) walk(node.items, `${path}[]`);
  };
  walk(s, tool.name);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const transport = new StdioClientTransport({ command: rea, args: ["mcp", "--log-level", "error"], stderr: "inherit" });
const client = new Client({ name: "rea-interop", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

// Real calls across the catalog, chained through retained references the
// way an agent works; every result must validate against the tool's own
// output schema.
const path = (p) => `${root}/${p}`;
const ref = (rec) => ({ kind: "retained-evidence", evidence_id: rec.evidence_id });
const validated = new Set();
let lastMeta; // the _meta of the last result
async function call(name, args) {
  if (!byName[name]) { fail(`${name}: not listed`); return null; }
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) { fail(`${name}: ${res.content?.[0]?.text?.slice(0, 400)}`); return null; }
  const schema = byName[name].outputSchema;
  // Schemas carry content-bound $ids, so equal schemas compile once.
  const validate = (schema.$id && ajv.getSchema(schema.$id)) || ajv.compile(schema);
  if (!validate(res.structuredContent)) fail(`${name}: structuredContent invalid: ${ajv.errorsText(validate.errors)}`);
  else validated.add(name);
  if (res.content?.[0]?.type !== "text") fail(`${name}: no text projection`);
  lastMeta = res._meta;
  return res.structuredContent;
}
await call("binary_session", {});
await call("inspect_artifact", { input_path: fixture });
// No output_dir: rea makes a new temporary directory, which this check removes.
if (await call("extract_artifact", { input_path: fixture, paths: ["package.json"] })) {
  const dir = lastMeta?.["rea/output_dir"];
  if (dir) rmSync(dir, { recursive: true, force: true });
  else fail("extract_artifact: no rea/output_dir in the result's _meta");
}
const app1 = await call("analyze_javascript_application", { input_path: path("testdata/versions/v1") });
const app2 = await call("analyze_javascript_application", { input_path: path("testdata/versions/v2") });
if (app1) await call("inspect_analysis_view", { source: ref(app1), view: "page", collection: "findings", limit: 5 });
if (app1) await call("trace_application_feature", { application: ref(app1), seed: { kind: "channel", value: "save", match: "contains" } });
const cmp = app1 && app2 ? await call("compare_application_versions", { left: ref(app1), right: ref(app2) }) : null;
const a1 = await call("inspect_artifact", { input_path: path("testdata/compare/artifacts/v1") });
const a2 = await call("inspect_artifact", { input_path: path("testdata/compare/artifacts/v2") });
if (a1 && a2) await call("compare_artifacts", { left: ref(a1), right: ref(a2) });
const refsrc = await call("import_reference_source", { input_path: path("testdata/compare/source/reference") });
const srcapp = await call("analyze_javascript_application", { input_path: path("testdata/compare/source/app") });
if (refsrc && srcapp) await call("compare_source_to_bundle", { reference: ref(refsrc), application: ref(srcapp) });
const bin = rea;
await call("inspect_binary_layout", { input_path: bin, limit: 5 });
await call("binary_overview", { input_path: bin });
await call("list_procedures", { input_path: bin, limit: 5 });
await call("search_procedures", { input_path: bin, pattern: "main.main" });
await call("list_strings", { input_path: bin, limit: 5 });
await call("list_segments", { input_path: bin });
const fn = await call("analyze_function", { input_path: bin, procedure: "main.main" });
if (fn) await call("compare_functions", { left: [ref(fn)], right: [ref(fn)] });
await call("read_function_instructions", { input_path: bin, procedure: "main.main", limit: 8 });
await call("procedure_callees", { input_path: bin, procedure: "main.main" });
await call("procedure_callers", { input_path: bin, procedure: "main.main" });
await call("procedure_assembly", { input_path: bin, procedure: "main.main", limit: 8 });
await call("procedure_references", { input_path: bin, procedure: "main.main", direction: "out" });
await call("list_names", { input_path: bin, limit: 5 });
await call("search_strings", { input_path: bin, pattern: "rea" });
const procs = await call("search_procedures", { input_path: bin, pattern: "main.main", mode: "literal", case_sensitive: true });
const addr = procs?.normalized_result?.procedures?.items?.[0]?.address;
if (addr) {
  await call("xrefs", { input_path: bin, address: addr });
  await call("resolve_containing_procedure", { input_path: bin, address: addr });
  await call("address_to_file_offset", { input_path: bin, address: addr });
  await call("read_bytes", { input_path: bin, address: addr, length: 16 });
} else fail("search_procedures returned no address for main.main");
const cap1 = await call("capture_process_scenario", { executable: "/bin/sh", args: ["-c", "echo interop"], env: { PATH: "/usr/bin:/bin" } });
const cap2 = await call("capture_process_scenario", { executable: "/bin/sh", args: ["-c", "echo interop"], env: { PATH: "/usr/bin:/bin" } });
if (cap1 && cap2) await call("compare_process_captures", { left: ref(cap1), right: ref(cap2) });
const found = await call("search_guidance", { query: "integrity policy" });
const loc = found?.matches?.[0]?.locator;
if (loc) await call("read_guidance_section", { locator: loc });
await call("guided_workflows", { action: "list" });
const e1 = await call("analyze_javascript_application", { input_path: path("testdata/compare/exports/v1") });
const e2 = await call("analyze_javascript_application", { input_path: path("testdata/compare/exports/v2") });
const shapeExample = byName.compare_javascript_export_shapes?.inputSchema?.examples?.[0] ?? {};
if (e1 && e2) await call("compare_javascript_export_shapes", { ...shapeExample, left: ref(e1), right: ref(e2) });
const unk = await call("record_unknown", { question: "Which handler answers the save channel in v2?", domain: "ipc", severity: "high" });
const unkID = unk?.unknown?.unknown_id;
if (unkID) {
  await call("update_unknown", { unknown_id: unkID, expected_revision: 1, changes: { status: "investigating" } });
  if (app1) await call("verify_unknown_resolution", { unknown_id: unkID, evidence: [{ kind: "retained-evidence", evidence_id: app1.evidence_id }] });
} else fail("record_unknown: no unknown_id in the result");
// The reconstruction tools with their own advertised examples (valid inputs).
for (const name of ["evaluate_reconstruction_coverage", "build_reconstruction_obligation_ledger"]) {
  const ex = byName[name]?.inputSchema?.examples?.[0];
  if (ex) await call(name, ex);
}
// A specification with one claim about the comparison made above.
if (cmp) await call("verify_reconstruction", { specification: { schema_version: 1, name: "interop", claims: [
  { claim_id: "ipc", kind: "structural-application", evidence_id: cmp.evidence_id, dimension: "ipc_channels" }] } });
await call("list_unknowns", {});
await call("get_evidence_bundle", { detail: "summary" });
const bundlePath = `${process.cwd()}/interop-bundle.json`;
await call("export_evidence_bundle", { output_path: bundlePath, overwrite: true });
await call("open_binary", { input_path: fixture });
await call("close_binary", {});
await call("import_evidence_bundle", { input_path: bundlePath });
await call("get_evidence_bundle", {});

// A schema-invalid call is a tool error with a JSON diagnostic.
const bad = await client.callTool({ name: "inspect_artifact", arguments: { input_path: 7 } });
if (!bad.isError || !JSON.parse(bad.content[0].text).error?.details?.issues) fail("invalid call: no field diagnostics");
await client.close();
const untouched = tools.map((t) => t.name).filter((n) => !validated.has(n));
console.log(`${tools.length} tools linted; ${validated.size} tools' results validated against their output schemas; not exercised here: ${untouched.join(", ") || "none"}`);
console.log(`${validated.size + tools.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
