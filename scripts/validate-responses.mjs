#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Holds recorded HTTP responses of grundyd to openapi.yaml.
//
// Input: JSONL files, one response a line, as tests/integration/harness.py
// records them (GRUNDY_RESPONSE_LOG):
//
//   {"run": ID, "method": "POST", "path": "/v1/analyze?x", "status": 200,
//    "content_type": "application/json" | null, "headers": [[name, value], ...],
//    "body": TEXT}            (or "body_b64": BASE64 when it is not UTF-8)
//
// For each response, the documented response is paths[path][method]
// .responses[status] (or "default"); for a path the document does not have,
// x-other-responses 404, and for a method its path does not have,
// x-other-responses 405; the front door's statuses (x-other-responses 400,
// 408, 413, 414, 431, 501, 503, 505) may answer any request. Anything else is a failure: the document must cover
// every route and status. Then:
//
//  - a body sent with Content-Encoding: gzip is checked as it decodes (it
//    must decode);
//  - a response documented without content must have an empty body;
//  - otherwise its Content-Type (without parameters) must be documented, and
//    the body must conform: JSON bodies to the media type's schema, NDJSON
//    bodies line by line to its `x-item-schema` (`itemSchema` in OpenAPI 3.2),
//    other text bodies to a string schema when there is one;
//  - documented headers must be present when required, and conform to their
//    schema when present (when the record has headers).
//
// Usage: node scripts/validate-responses.mjs [--run ID] [--expect N]
//        [--spec FILE] [--show N] FILE...
//   --run ID     only the records of that run (several runs may share a file)
//   --expect N   fail unless exactly N records are selected
//   --spec FILE  the OpenAPI document (default openapi.yaml of the repository)
//   --show N     print the first N failures in full (default 10)
// Prints a summary (counts by route, status and media type; then failures).
// Exits 0 when every response conforms, 1 when some do not, 2 when it could
// not run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

import YAML from "yaml";

import { rewriteRefs, specAjv } from "./openapi-ajv.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function usage(msg) {
    console.error(`validate-responses: ${msg}`);
    console.error("usage: node scripts/validate-responses.mjs [--run ID] [--expect N] [--spec FILE] [--show N] FILE...");
    process.exit(2);
}

// ---- arguments -------------------------------------------------------------

let runId = null, expect = null, specFile = path.join(root, "openapi.yaml"), show = 10;
const files = [];
{
    const args = process.argv.slice(2);
    for (let i = 0; i < args.length; i++) {
        const a = args[i];
        const value = () => {
            if (i + 1 >= args.length) usage(`${a} needs a value`);
            return args[++i];
        };
        if (a === "--run") runId = value();
        else if (a === "--expect") expect = Number(value());
        else if (a === "--spec") specFile = path.resolve(value());
        else if (a === "--show") show = Number(value());
        else if (a === "--help" || a === "-h") usage("help");
        else if (a.startsWith("--")) usage(`unknown option ${a}`);
        else files.push(a);
    }
    if (!files.length) usage("no response log given");
    if (expect !== null && !Number.isInteger(expect)) usage("--expect takes an integer");
    if (!Number.isInteger(show) || show < 0) usage("--show takes a non-negative integer");
}

// ---- the document and its schemas ---------------------------------------------

let spec;
try {
    spec = YAML.parse(readFileSync(specFile, "utf8"));
} catch (e) {
    console.error(`validate-responses: cannot read ${specFile}: ${e.message}`);
    process.exit(2);
}

let ajv;
try {
    ajv = specAjv(spec);
} catch (e) {
    console.error(`validate-responses: the schemas of ${specFile} do not compile: ${e.message}`);
    process.exit(2);
}

const compiled = new Map(); // schema object -> validate function
function validatorFor(schema) {
    if (!compiled.has(schema))
        compiled.set(schema, ajv.compile(rewriteRefs(schema)));
    return compiled.get(schema);
}

// Follows local $refs (responses, headers).
function deref(obj) {
    while (obj && typeof obj.$ref === "string" && obj.$ref.startsWith("#/"))
        obj = obj.$ref.slice(2).split("/")
            .reduce((o, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
    return obj;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// Paths of the document as matchers; templated segments match one segment.
const pathMatchers = Object.keys(spec.paths ?? {}).map((p) => ({
    template: p,
    re: new RegExp("^" + p.split(/(\{[^}]*\})/).map((part) =>
        part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("") + "$"),
}));

// The documented response for a request, or { problem }.
function documented(method, rawPath, status) {
    const p = rawPath.split(/[?#]/)[0];
    const m = method.toLowerCase();
    const st = String(status);
    const match = pathMatchers.find((x) => x.re.test(p));
    const other = spec["x-other-responses"] ?? {};
    if (!match) {
        if (other[st] && st === "404")
            return { where: `x-other-responses 404 (unknown path)`, key: `${method} (unknown path) ${st}`, r: deref(other[st]) };
        return { key: `${method} (unknown path) ${st}`, problem: `path ${p} is not in the document, and the status is ${st}, not the documented 404` };
    }
    const item = spec.paths[match.template];
    const op = METHODS.includes(m) ? item[m] : undefined;
    if (!op) {
        if (other[st] && st === "405")
            return { where: `x-other-responses 405 (${method} ${match.template})`, key: `${method} ${match.template} ${st}`, r: deref(other[st]) };
        return { key: `${method} ${match.template} ${st}`, problem: `${method} ${match.template} is not documented, and the status is ${st}, not the documented 405` };
    }
    const r = op.responses?.[st] ?? op.responses?.default;
    if (!r)
        return { key: `${method} ${match.template} ${st}`,
                 problem: `status ${st} of ${method} ${match.template} is not documented (documented: ${Object.keys(op.responses ?? {}).join(", ")})` };
    return { where: `${method} ${match.template} ${op.responses?.[st] ? st : "default"}`, key: `${method} ${match.template} ${st}`, r: deref(r) };
}

// ---- checks ----------------------------------------------------------------------

function ajvErrors(validate, at = "") {
    return (validate.errors ?? []).slice(0, 8).map((e) => `schema: ${at}${e.instancePath || "(root)"} ${e.message}` +
        (e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""));
}

const baseType = (ct) => (ct ?? "").split(";")[0].trim().toLowerCase();
const isJson = (t) => t === "application/json" || t.endsWith("+json");
const isNdjson = (t) => ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"].includes(t);

// The start of a text on one line (control characters escaped).
function excerpt(text, n = 300) {
    const s = String(text);
    const one = (t) => t.replace(/[\u0000-\u001f]/g, (c) =>
        ({ "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return s.length > n ? `${one(s.slice(0, n))}… (${s.length} characters)` : one(s);
}

function headerProblems(doc, headers) {
    if (!Array.isArray(headers)) return [];
    const problems = [];
    for (const [name, h0] of Object.entries(doc.headers ?? {})) {
        const h = deref(h0);
        const got = headers.filter(([k]) => String(k).toLowerCase() === name.toLowerCase()).map(([, v]) => String(v));
        if (!got.length) {
            if (h.required) problems.push(`header ${name} is required but absent`);
            continue;
        }
        if (!h.schema) continue;
        const validate = validatorFor(h.schema);
        for (const v of got) {
            const t = deref(h.schema)?.type;
            const value = (t === "integer" || t === "number") && /^-?[0-9]+(\.[0-9]+)?$/.test(v.trim()) ? Number(v) : v;
            if (!validate(value))
                problems.push(`header ${name}: ${JSON.stringify(v)}: ${ajvErrors(validate).join("; ")}`);
        }
    }
    return problems;
}

// The problems of one record (empty when it conforms), and where it was
// looked up. A status the front door sends on any path (x-other-responses
// but 404 and 405) conforms to the operation's own answer or to that one.
function check(rec) {
    const d = documented(rec.method, rec.path, rec.status);
    const st = String(rec.status);
    const other = spec["x-other-responses"] ?? {};
    if (st === "404" || st === "405" || !other[st]) return checkAgainst(rec, d);
    const own = d.problem ? null : checkAgainst(rec, d);
    if (own && !own.problems.length) return own;
    const front = checkAgainst(rec, { where: `x-other-responses ${st} (the front door)`, key: d.key,
                                      r: deref(other[st]) });
    return front.problems.length && own ? own : front;
}

function checkAgainst(rec, d) {
    if (d.problem) return { key: d.key, problems: [d.problem] };
    const problems = headerProblems(d.r, rec.headers);
    let body;
    if (typeof rec.body === "string") body = rec.body;
    else if (typeof rec.body_b64 === "string") body = Buffer.from(rec.body_b64, "base64");
    else body = "";
    const coding = (rec.headers ?? []).find(([k]) => String(k).toLowerCase() === "content-encoding");
    if (coding && String(coding[1]).toLowerCase() === "gzip" && body.length) {
        try {
            const plain = gunzipSync(Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8"));
            const text = plain.toString("utf8");
            body = Buffer.from(text, "utf8").equals(plain) ? text : plain;
        } catch (e) {
            problems.push(`Content-Encoding: gzip, but the body does not decode: ${e.message}`);
            return { key: d.key, where: d.where, problems };
        }
    }
    const content = d.r.content;
    if (!content || !Object.keys(content).length) {
        if (body.length) problems.push(`a body (${body.length} bytes) where ${d.where} documents none`);
        return { key: d.key, where: d.where, problems };
    }
    if (rec.method.toUpperCase() === "HEAD") return { key: d.key, where: d.where, problems }; // no body by HTTP
    const type = baseType(rec.content_type);
    const mediaKey = Object.keys(content).find((k) => baseType(k) === type);
    const key = `${d.key} ${type || "(no content type)"}`;
    if (!mediaKey) {
        problems.push(`Content-Type ${JSON.stringify(rec.content_type)} is not documented for ${d.where} (documented: ${Object.keys(content).join(", ")})`);
        return { key, where: d.where, problems };
    }
    const media = content[mediaKey];
    if (typeof body !== "string") {
        problems.push(`the ${type} body is not UTF-8`);
        return { key, where: d.where, problems };
    }
    if (isJson(type)) {
        let value;
        try {
            value = JSON.parse(body);
        } catch (e) {
            problems.push(`the body is not JSON: ${e.message}`);
            return { key, where: d.where, problems };
        }
        if (media.schema) {
            const validate = validatorFor(media.schema);
            if (!validate(value)) problems.push(...ajvErrors(validate));
        }
    } else if (isNdjson(type)) {
        const schema = media.itemSchema ?? media["x-item-schema"];
        if (body.length && !body.endsWith("\n")) problems.push("the last line does not end in \\n");
        const lines = body.split("\n");
        if (lines[lines.length - 1] === "") lines.pop();
        const validate = schema ? validatorFor(schema) : null;
        lines.forEach((line, i) => {
            if (problems.length > 8) return;
            let value;
            try {
                value = JSON.parse(line);
            } catch (e) {
                problems.push(`line ${i + 1} is not JSON: ${e.message}: ${excerpt(line, 120)}`);
                return;
            }
            if (validate && !validate(value))
                problems.push(...ajvErrors(validate, `line ${i + 1}: `), `  line ${i + 1}: ${excerpt(line, 200)}`);
        });
    } else if (media.schema && deref(media.schema)?.type === "string") {
        const validate = validatorFor(media.schema);
        if (!validate(body)) problems.push(...ajvErrors(validate));
    }
    return { key, where: d.where, problems };
}

// ---- the records --------------------------------------------------------------------

const records = [];
const unreadable = [];
for (const f of files) {
    let text;
    try {
        text = readFileSync(f, "utf8");
    } catch (e) {
        console.error(`validate-responses: cannot read ${f}: ${e.message}`);
        process.exit(2);
    }
    text.split("\n").forEach((line, i) => {
        if (!line.trim()) return;
        try {
            const rec = JSON.parse(line);
            if (runId === null || rec.run === runId) records.push(rec);
        } catch (e) {
            unreadable.push(`${f}:${i + 1}: not a JSON record (${e.message})`);
        }
    });
}

const counts = new Map(); // key -> [total, failed]
const failures = [];
const kinds = new Map(); // first problem of a failure -> count
for (const rec of records) {
    let res;
    try {
        res = check(rec);
    } catch (e) {
        res = { key: `${rec.method} ${rec.path} ${rec.status}`, problems: [`threw: ${e.stack ?? e}`] };
    }
    const c = counts.get(res.key) ?? [0, 0];
    c[0]++;
    if (res.problems.length) {
        c[1]++;
        failures.push({ rec, res });
        const kind = `${res.key}: ${res.problems[0]}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    counts.set(res.key, c);
}

// ---- the report ---------------------------------------------------------------------

const problems = [...unreadable];
if (expect !== null && records.length !== expect)
    problems.push(`${records.length} records selected, ${expect} expected (records lost?)`);
const ok = failures.length === 0 && problems.length === 0;
console.log(`validate-responses: ${records.length} responses, ${records.length - failures.length} conform, ` +
    `${failures.length} do not (${path.relative(process.cwd(), specFile) || specFile})`);
for (const [key, [total, failed]] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${key}: ${total}${failed ? ` (${failed} failed)` : ""}`);
for (const p of problems) console.log(`problem: ${p}`);
if (failures.length) {
    console.log(`kinds of failure (${kinds.size}):`);
    for (const [kind, n] of [...kinds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20))
        console.log(`  ${n} × ${excerpt(kind, 240)}`);
    console.log(`first ${Math.min(show, failures.length)} failures:`);
    for (const { rec, res } of failures.slice(0, show)) {
        console.log(`- ${rec.method} ${rec.path} -> ${rec.status} ${rec.content_type ?? "(no content type)"}` +
            (res.where ? ` [${res.where}]` : ""));
        for (const p of res.problems.slice(0, 10)) console.log(`    ${p}`);
        const body = typeof rec.body === "string" ? rec.body : rec.body_b64 !== undefined ? `(base64) ${rec.body_b64}` : "";
        console.log(`    body: ${excerpt(body)}`);
    }
}
process.exit(ok ? 0 : 1);
