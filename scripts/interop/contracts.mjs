// Black-box checks of issue 21's MCP contracts with the TypeScript SDK
// client: -32602 field paths, progress, byte-bounded pages (and the
// summary a writing tool answers), summary
// references, the reference form, schema projection ($defs, input groups,
// descriptions), the strict input-schema profile (within Anthropic's union
// limit, a call written from the schema alone), the
// 10 MiB response budget just under and just over, doctor under every
// family scope, refused bundle types and startup settings.
// Usage: node contracts.mjs REA_BIN REPO_ROOT
import Ajv2020 from "ajv/dist/2020.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [rea, root] = process.argv.slice(2);
const failures = [];
let passed = 0;
const check = (ok, msg) => { if (ok) passed++; else { failures.push(msg); console.error("FAIL " + msg); } };
const BUDGET = 10 * 1024 * 1024;
// Calls on a 78 MB binary may take minutes on a loaded machine.
const LONG = { timeout: 600000 };

async function connect(env = {}) {
  const transport = new StdioClientTransport({ command: rea, args: ["mcp", "--log-level", "error"], env: { ...process.env, REA_RESULT_CACHE_DIR: "off", ...env }, stderr: "inherit" });
  const client = new Client({ name: "rea-interop-contracts", version: "1.0.0" });
  // The SDK dispatches a response at once but a notification a microtask
  // later, so a progress notification written just before its response can
  // find its handler gone (typescript-sdk#2580): it reaches onerror as an
  // "unknown token" error carrying the notification. Kept, so a check can
  // tell a dropped notification from one the server never sent.
  client.onerror = (e) => {
    const m = /unknown token: (\{.*\})$/s.exec(String(e?.message ?? ""));
    if (m) { try { lateProgress.push(JSON.parse(m[1]).params); } catch { /* not a notification */ } }
  };
  await client.connect(transport);
  return client;
}
const lateProgress = [];
const errorOf = (res) => { try { return JSON.parse(res.content[0].text).error; } catch { return null; } };
const ref = (rec) => ({ kind: "retained-evidence", evidence_id: rec.evidence_id });

const c = await connect();
const ajv = new Ajv2020({ strict: false, allErrors: true });

// Point 4: schema projection. Every root states its input groups, every
// property at every depth is described, references are to the schema's own
// $defs and never recursive, and Ajv compiles each schema (its $defs
// resolved) and accepts every advertised example.
{
  const { tools } = await c.listTools();
  let undescribed = 0, badRefs = 0, refs = 0, rejected = 0;
  for (const t of tools) {
    const s = t.inputSchema;
    const walk = (n, path, via) => {
      if (!n || typeof n !== "object") return;
      if (n.$ref) {
        refs++;
        const name = n.$ref.replace(/^#\/\$defs\//, "");
        if (name === n.$ref || !s.$defs?.[name] || via.includes(name)) { badRefs++; console.error(`${path}: reference ${n.$ref}`); return; }
        return walk(s.$defs[name], path, [...via, name]);
      }
      for (const [k, v] of Object.entries(n.properties ?? {})) {
        if (!v.description) { undescribed++; console.error(`${path}.${k}: no description`); }
        walk(v, `${path}.${k}`, via);
      }
      if (n.items) walk(n.items, `${path}[]`, via);
    };
    walk(s, t.name, []);
    if (!s.description?.startsWith("Input: ")) { undescribed++; console.error(`${t.name}: root does not state its input groups`); }
    const validate = ajv.compile(s);
    for (const ex of s.examples ?? []) if (!validate(ex)) { rejected++; console.error(`${t.name}: example rejected: ${ajv.errorsText(validate.errors)}`); }
  }
  check(undescribed === 0 && badRefs === 0 && refs > 0 && rejected === 0,
    `projection: ${undescribed} undescribed, ${badRefs} bad of ${refs} references, ${rejected} examples rejected`);
}

// Point 5: a type error in params is -32602 with data.issues[].path.
for (const [method, params, path] of [
  ["tools/list", { cursor: 5 }, ["cursor"]],
  ["prompts/get", { name: "investigate_feature", arguments: { feature: 5 } }, ["arguments", "feature"]],
  ["tools/call", { name: 5, arguments: {} }, ["name"]],
]) {
  try {
    await c.request({ method, params }, EmptyResultSchema);
    check(false, `${method} ${JSON.stringify(params)}: no error`);
  } catch (e) {
    const issues = e?.data?.issues;
    check(e?.code === -32602 && Array.isArray(issues) && JSON.stringify(issues[0]?.path) === JSON.stringify(path) && !/unmarshal/.test(e.message),
      `${method} ${JSON.stringify(params)}: want -32602 with data.issues[0].path ${JSON.stringify(path)}, got ${e?.code} ${e?.message} ${JSON.stringify(e?.data)}`);
  }
}

// Point 5: the compare_application_versions prompt opens each target first.
const prompt = await c.getPrompt({ name: "compare_application_versions", arguments: { left_input_path: "/a", right_input_path: "/b" } });
const ptext = prompt.messages[0].content.text;
check(ptext.indexOf("`open_binary`") >= 0 && ptext.indexOf("`open_binary`") < ptext.indexOf("`inspect_artifact`"), "prompt: open_binary is not suggested before inspect_artifact");

// Point 8: an old parameter name still works for one release, with the
// deprecation in _meta and a text note; old and new with different values
// is invalid at the old name's path.
{
  const asar = `${root}/testdata/artifact/app.asar`;
  const old = await c.callTool({ name: "inspect_artifact", arguments: { input_path: asar, occurrence_limit: 1 } });
  const canon = await c.callTool({ name: "inspect_artifact", arguments: { input_path: asar, occurrences: { limit: 1 } } });
  const deps = old._meta?.["rea/deprecations"] ?? [];
  check(!old.isError && old.structuredContent?.evidence_id === canon.structuredContent?.evidence_id,
    "point 8: occurrence_limit records the Evidence of occurrences.limit");
  check(deps.length === 1 && deps[0].parameter === "occurrence_limit" && deps[0].replacement === "occurrences.limit" &&
    old.content.at(-1)?.text?.startsWith("deprecated: "), `point 8: deprecation note ${JSON.stringify(deps)}`);
  check(!canon._meta?.["rea/deprecations"], "point 8: the canonical name carries no deprecation");
  const both = errorOf(await c.callTool({ name: "inspect_artifact", arguments: { input_path: asar, occurrence_limit: 1, occurrences: { limit: 2 } } }));
  check(both?.code === "invalid_request" && JSON.stringify(both?.details?.issues?.[0]?.path) === '["occurrence_limit"]',
    `point 8: old and new names with different values ${JSON.stringify(both)}`);
  const oldPrompt = await c.getPrompt({ name: "compare_application_versions", arguments: { left_target_path: "/a", right_target_path: "/b" } });
  check((oldPrompt._meta?.["rea/deprecations"] ?? []).map((d) => d.replacement).join() === "arguments.left_input_path,arguments.right_input_path",
    "point 8: prompts/get with target_path names input_path");
}

// Point 5: .qlgenerator refused like .kext.
const tmp = mkdtempSync(join(tmpdir(), "rea-interop-"));
for (const name of ["Preview.qlgenerator", "Driver.kext"]) {
  mkdirSync(join(tmp, name, "Contents"), { recursive: true });
  const e = errorOf(await c.callTool({ name: "open_binary", arguments: { input_path: join(tmp, name) } }, undefined, LONG));
  check(e?.code === "capability_unavailable", `open_binary ${name}: want capability_unavailable, got ${JSON.stringify(e)}`);
}

// Point 7: progress on a long call, strictly increasing, total never below progress.
const notes = [];
await c.callTool({ name: "list_strings", arguments: { input_path: rea } }, undefined, { onprogress: (p) => notes.push(p), timeout: 600000 });
await new Promise((r) => setTimeout(r, 200));
check(notes.length >= 2, `list_strings: ${notes.length} progress notifications`);
check(notes.every((p, i) => i === 0 || p.progress > notes[i - 1].progress), "progress not strictly increasing");
check(notes.every((p) => p.total === undefined || p.total >= p.progress), "a total below progress");
// The terminal notification, delivered or dropped by the SDK's race above.
const late = lateProgress.filter((p) => notes.length === 0 || p.progress > notes[notes.length - 1].progress);
const last = late.length > 0 ? late[late.length - 1] : notes[notes.length - 1];
check(last && /completed/.test(last.message) && last.total === last.progress, `terminal progress ${JSON.stringify(last)}`);

// Point 6: pages stop at 64 KiB of items and report next_offset.
const strs = await c.callTool({ name: "list_strings", arguments: { input_path: rea, limit: 500 } }, undefined, LONG);
if (strs.isError) console.error("list_strings limit 500: " + strs.content?.[0]?.text?.slice(0, 300));
const page = strs.structuredContent?.normalized_result?.strings;
const itemBytes = page ? page.items.reduce((n, it) => n + JSON.stringify(it).length + 1, 0) : -1;
check(page && page.byte_limited === true && page.items.length < 500 && page.next_offset === page.offset + page.items.length && itemBytes <= 64 * 1024 + 4096,
  `list_strings limit 500: want a byte-limited page with next_offset, got ${page?.items?.length} items, ${itemBytes} bytes, next ${page?.next_offset}`);
const byBytes = JSON.stringify(strs).length;
check(byBytes < 256 * 1024, `list_strings page is ${byBytes} bytes on the wire`);

// Point 6: a tool that writes files answers a summary by default: a
// 1,200-module bundle's unpack is under 256 KiB, its first page
// byte-bounded, and the next_offset chain through inspect_analysis_view
// (the call next_calls names) reaches every module manifest.json lists,
// each once, in order.
{
  const app = join(mkdtempSync(join(tmpdir(), "rea-interop-bundle-")), "app");
  mkdirSync(join(app, "dist"), { recursive: true });
  let js = '(() => {\nvar __webpack_modules__ = ({\n"electron": ((module) => { module.exports = require("electron"); }),\n';
  for (let i = 0; i < 1200; i++) {
    js += `"./src/mod${i}.js": ((module, exports, __webpack_require__) => {\n  const { ipcMain } = __webpack_require__("electron");\n` +
      `  ipcMain.handle("feature${i}:run", (event, arg) => arg.items.map((x) => x.id + ${i}).join(","));\n  exports.helper${i} = () => ${i};\n}),\n`;
  }
  js += '});\nfunction __webpack_require__(id) { var m = { exports: {} }; __webpack_modules__[id].call(m.exports, m, m.exports, __webpack_require__); return m.exports; }\n' +
    '__webpack_require__("./src/mod0.js");\n})();\n';
  writeFileSync(join(app, "package.json"), '{"name":"big","main":"dist/main.js"}');
  writeFileSync(join(app, "dist", "main.js"), js);
  const wire = (res) => JSON.stringify({ jsonrpc: "2.0", id: 1, result: res }).length + 1;
  const un = await c.callTool({ name: "unpack_javascript_bundle", arguments: { input_path: app, path: "dist/main.js" } }, undefined, LONG);
  const sum = un.structuredContent?.normalized_result;
  check(!un.isError && wire(un) < 256 * 1024 && sum?.view === "summary" && sum?.totals?.modules_written === 1201,
    `unpack_javascript_bundle default: want a summary under 256 KiB of 1,201 modules (1,200 and electron), got ${wire(un)} bytes: ${un.content?.[0]?.text?.slice(0, 300)}`);
  if (sum?.manifest_path) {
    const manifest = JSON.parse(readFileSync(sum.manifest_path, "utf8"));
    const keys = sum.page.items.map((m) => m.key);
    let page = sum.page, pages = 1, over = 0;
    const nextCall = sum.next_calls.find((x) => x.tool === "inspect_analysis_view" && x.arguments.offset === page.next_offset);
    check(page.next_offset !== null && nextCall, `unpack summary: next_calls name no page at next_offset ${page.next_offset}`);
    while (page.next_offset !== null && pages <= 1200) {
      const res = await c.callTool({ name: "inspect_analysis_view", arguments: { ...(nextCall?.arguments ?? {}), offset: page.next_offset } }, undefined, LONG);
      if (wire(res) >= 256 * 1024) over++;
      page = res.structuredContent?.normalized_result?.page ?? { items: [], next_offset: null };
      const bytes = page.items.reduce((n, it) => n + JSON.stringify(it).length + 1, 0);
      if (page.items.length > 1 && bytes > 64 * 1024) over++;
      keys.push(...page.items.map((m) => m.key));
      pages++;
    }
    const want = manifest.modules.map((m) => m.key);
    check(over === 0 && keys.length === want.length && keys.every((k, i) => k === want[i]) && new Set(keys).size === keys.length,
      `unpack pages: ${keys.length} keys over ${pages} pages (${over} over budget), manifest.json ${want.length}`);
    console.log(`unpack_javascript_bundle summary: ${wire(un)} bytes, ${pages} pages walked to ${keys.length} modules`);
  }
}

// Point 9: a summary's own evidence_id works where the application is expected.
const summary = (await c.callTool({ name: "analyze_javascript_application", arguments: { input_path: `${root}/testdata/versions/v1`, detail: "summary" } }, undefined, LONG)).structuredContent;
const parent = summary?.normalized_result?.parent_evidence_id;
const traced = await c.callTool({ name: "trace_application_feature", arguments: { application: ref(summary), seed: { kind: "channel", value: "save", match: "contains" } } }, undefined, LONG);
check(!traced.isError && traced.structuredContent?.evidence_links?.[0] === parent, `trace of a summary id: ${traced.content?.[0]?.text?.slice(0, 300)}`);
// ...and a reference without kind is answered with the reference form.
const nokind = errorOf(await c.callTool({ name: "trace_application_feature", arguments: { application: { evidence_id: parent }, seed: { kind: "channel", value: "save" } } }, undefined, LONG));
check(nokind?.code === "invalid_request" && nokind.message.includes(`{"kind":"retained-evidence","evidence_id":"${parent}"}`), `missing kind: ${JSON.stringify(nokind)}`);

// Must hold: a result just under and just over the 10 MiB budget. A
// capture's Evidence grows linearly with the output it holds; two probes
// give the slope, then the output is tuned until the response lands
// within 64 KiB below, and above, the budget.
async function captureOf(n) {
  const res = await c.callTool({ name: "capture_process_scenario", arguments: { executable: "/bin/sh", args: ["-c", `head -c ${n} /dev/zero | tr '\\0' a`], env: { PATH: "/usr/bin:/bin" }, limits: { output_bytes: 4 << 20 } } }, undefined, { timeout: 600000 });
  if (res.isError) {
    const e = errorOf(res);
    return { size: e?.details?.reported_limits?.result_bytes ?? -1, over: e?.code === "resource_constraint" && e?.details?.resource === "transport", e };
  }
  return { size: JSON.stringify({ jsonrpc: "2.0", id: 1, result: res }).length + 1, over: false, res };
}
const p1 = await captureOf(20000), p2 = await captureOf(40000);
const slope = (p2.size - p1.size) / 20000, base = p1.size - slope * 20000;
for (const [want, lo, hi] of [["under", BUDGET - 64 * 1024, BUDGET], ["over", BUDGET + 1, BUDGET + 64 * 1024]]) {
  let n = Math.round(((lo + hi) / 2 - base) / slope), got;
  for (let i = 0; i < 5; i++) {
    got = await captureOf(n);
    if (got.size >= lo && got.size <= hi) break;
    n += Math.round(((lo + hi) / 2 - got.size) / slope);
  }
  const ok = got.size >= lo && got.size <= hi && (want === "over" ? got.over : !got.over && !got.res?.isError);
  check(ok, `10 MiB budget, just ${want}: response ${got.size} bytes (window ${lo}..${hi}), over=${got.over} ${JSON.stringify(got.e ?? {}).slice(0, 300)}`);
  if (want === "over" && got.e) check(got.e.details?.reported_limits?.max_response_bytes === BUDGET, "over: reported_limits.max_response_bytes");
  console.log(`10 MiB budget, just ${want}: ${got.size} bytes`);
}
await c.close();

// Point 10: the strict input-schema profile.
const strict = await connect({ REA_MCP_INPUT_SCHEMA_PROFILE: "strict" });
const { tools } = await strict.listTools();
const allowed = new Set(["type", "description", "properties", "required", "additionalProperties", "items", "enum", "anyOf"]);
let schemaProblems = 0;
for (const t of tools) {
  const walk = (n, path) => {
    if (!n || typeof n !== "object") return;
    for (const k of Object.keys(n)) if (!allowed.has(k)) { schemaProblems++; console.error(`strict ${path}: keyword ${k}`); }
    if (Array.isArray(n.type)) { schemaProblems++; console.error(`strict ${path}: type list`); }
    if (n.type === "object") {
      if (n.additionalProperties !== false) { schemaProblems++; console.error(`strict ${path}: not closed`); }
      const req = new Set(n.required ?? []);
      for (const [k, v] of Object.entries(n.properties ?? {})) {
        if (!req.has(k)) { schemaProblems++; console.error(`strict ${path}.${k}: not required`); }
        walk(v, `${path}.${k}`);
      }
    }
    if (n.items) walk(n.items, `${path}[]`);
    for (const b of n.anyOf ?? []) walk(b, `${path}|`);
  };
  walk(t.inputSchema, t.name);
}
check(schemaProblems === 0, `strict profile: ${schemaProblems} schema problems`);
// Point 2: Anthropic's 16 union-typed parameters, per tool.
const unions = (n) => !n || typeof n !== "object" ? 0 : (n.anyOf ? 1 : 0) + (n.anyOf ?? []).reduce((a, b) => a + unions(b), 0) +
  Object.values(n.properties ?? {}).reduce((a, v) => a + unions(v), 0) + unions(n.items);
const over = tools.filter((t) => unions(t.inputSchema) > 16).map((t) => `${t.name} (${unions(t.inputSchema)})`);
check(over.length === 0, `strict profile: over Anthropic's 16 union-typed parameters: ${over.join(", ")}`);
// A strict-form call written from the schema alone: null where it takes
// null, the default its description says to send elsewhere, a map as
// {name, value} pairs; Ajv accepts it against the strict schema.
const strictForm = (n, given) => {
  if (given !== undefined) return given;
  if (n.anyOf) return null;
  const d = /Send (.+?) for the default\./.exec(n.description ?? "");
  if (!d) throw new Error(`no default to send: ${n.description}`);
  return JSON.parse(d[1]);
};
const capSchema = tools.find((t) => t.name === "capture_process_scenario").inputSchema;
const given = { executable: "/bin/sh", args: ["-c", "echo $GREETING"], env: [{ name: "PATH", value: "/usr/bin:/bin" }, { name: "GREETING", value: "strict" }] };
const args = Object.fromEntries(Object.entries(capSchema.properties).map(([k, v]) => [k, strictForm(v, given[k])]));
const strictValid = ajv.compile(capSchema);
check(strictValid(args), `strict-form arguments rejected by the strict schema: ${ajv.errorsText(strictValid.errors)}`);
const cap = await strict.callTool({ name: "capture_process_scenario", arguments: args }, undefined, LONG);
check(!cap.isError && JSON.stringify(cap.structuredContent).includes("strict"), `strict-form capture: ${cap.content?.[0]?.text?.slice(0, 300)}`);
// Canonical validation still applies under the strict profile.
const tooBig = errorOf(await strict.callTool({ name: "list_strings", arguments: { input_path: rea, limit: 10 ** 9 } }, undefined, LONG));
check(tooBig?.code === "invalid_request" && JSON.stringify(tooBig.details?.issues?.[0]?.path) === '["limit"]', `strict: out-of-range limit accepted: ${JSON.stringify(tooBig)}`);
await strict.close();

// Point 5: doctor under every family scope; bad startup settings.
for (const fam of ["application", "artifact", "browser", "electron", "guidance", "javascript-runtime", "native", "process", "session"]) {
  const r = spawnSync(rea, ["mcp", "doctor", "--format", "json"], { env: { ...process.env, REA_MCP_TOOL_FAMILIES: fam }, encoding: "utf8", timeout: 120000 });
  let healthy = false;
  try { healthy = JSON.parse(r.stdout).healthy === true; } catch {}
  check(r.status === 0 && healthy, `doctor under REA_MCP_TOOL_FAMILIES=${fam}: exit ${r.status} ${r.stderr.slice(0, 200)}`);
}
for (const v of [" 20971520", "20971520 "]) {
  const r = spawnSync(rea, ["mcp"], { env: { ...process.env, REA_MCP_MAX_RESPONSE_BYTES: v }, input: "", encoding: "utf8", timeout: 60000 });
  check(r.status === 1 && r.stderr.includes("configuration_invalid") && r.stdout === "", `REA_MCP_MAX_RESPONSE_BYTES=${JSON.stringify(v)}: exit ${r.status}`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`contracts: ${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
