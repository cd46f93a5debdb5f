// Black-box interop check of `rea mcp` with the TypeScript MCP SDK client:
// every tool's structuredContent validates against its advertised
// outputSchema with an independent validator (Ajv), and every input schema
// passes a strict portability lint. Usage: node check.mjs REA_BIN FIXTURE_ASAR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";

const [rea, fixture] = process.argv.slice(2);
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
tools.forEach(lint);

// One valid call per tool that needs no external state; each result must
// validate against the tool's own output schema.
const calls = [
  ["binary_session", {}],
  ["inspect_artifact", { input_path: fixture }],
  ["get_evidence_bundle", { detail: "summary" }],
  ["get_evidence_bundle", {}],
  ["open_binary", { input_path: fixture }],
  ["close_binary", {}],
];
if (byName.search_guidance) calls.push(["search_guidance", { query: "integrity policy" }]);
if (byName.guided_workflows) calls.push(["guided_workflows", { action: "list" }]);
let validated = 0;
for (const [name, args] of calls) {
  if (!byName[name]) { fail(`${name}: not listed`); continue; }
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) { fail(`${name}: ${res.content?.[0]?.text}`); continue; }
  const validate = ajv.compile(byName[name].outputSchema);
  if (!validate(res.structuredContent)) fail(`${name}: structuredContent invalid: ${ajv.errorsText(validate.errors)}`);
  else validated++;
  const textMatches = res.content?.[0]?.type === "text";
  if (!textMatches) fail(`${name}: no text projection`);
}
// A schema-invalid call is a tool error with a JSON diagnostic.
const bad = await client.callTool({ name: "inspect_artifact", arguments: { input_path: 7 } });
if (!bad.isError || !JSON.parse(bad.content[0].text).error?.details?.issues) fail("invalid call: no field diagnostics");
await client.close();
console.log(`${tools.length} tools linted, ${validated} results validated against their output schemas, ${failures.length} failures`);
console.log(`${validated + tools.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
