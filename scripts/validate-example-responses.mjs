#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Holds openapi.yaml and the grundy binary to each other:
//
//  - every request example of POST /v1/analyze conforms to AnalyzeRequest;
//  - each one is answered by `grundy query` (the daemon's own code path), and
//    the answer conforms to the 200 schema, writes every integer as a plain
//    integer literal, and equals the 200 example of the same name (member
//    order included; the free-text `explanation` is not compared);
//  - every response example with an `x-request` (the error examples) is
//    answered with an error that conforms to the schema of the status it is
//    documented under and equals it (the free-text `message` is not compared);
//  - every response example of every documented status conforms to its schema;
//  - every game has a request example, and errors have live examples.
//
// Usage: node scripts/validate-example-responses.mjs [path/to/grundy]
// (default build/grundy under the repository root). Prints TAP; exits 1 when
// some test failed, 2 when it could not start.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import YAML from "yaml";

import { rewriteRefs, specAjv } from "./openapi-ajv.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, "build", "grundy");
if (!existsSync(bin)) {
    console.error(`validate-example-responses: no binary at ${bin}; build first or pass its path`);
    process.exit(2);
}

const specText = readFileSync(path.join(root, "openapi.yaml"), "utf8");
const spec = YAML.parse(specText); // numbers as doubles: for the schema validator
const exact = YAML.parse(specText, { intAsBigInt: true }); // integers exact: for bodies and comparisons

// ---- schemas ---------------------------------------------------------------

const ajv = specAjv(spec);

const compiled = new Map();
function validatorFor(schema) {
    const key = JSON.stringify(schema);
    if (!compiled.has(key))
        compiled.set(key, ajv.compile(rewriteRefs(schema)));
    return compiled.get(key);
}

// Follows a local $ref to a response, header or example object.
function deref(obj, doc = spec) {
    while (obj && typeof obj.$ref === "string" && obj.$ref.startsWith("#/"))
        obj = obj.$ref.slice(2).split("/").reduce((o, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    return obj;
}

// ---- exact JSON ----------------------------------------------------------------

// Parses JSON keeping member order, with integer literals as BigInt; a number
// literal with a fraction or an exponent is an error (responses have none).
function parseExactJson(text) {
    let i = 0;
    const fail = (what) => { throw new Error(`${what} at byte ${i}`); };
    const ws = () => { while (/[ \t\r\n]/.test(text[i] ?? "")) i++; };
    function value() {
        ws();
        const c = text[i];
        if (c === "{") {
            i++;
            const obj = {};
            ws();
            if (text[i] === "}") { i++; return obj; }
            for (;;) {
                ws();
                if (text[i] !== '"') fail("expected a member name");
                const k = string();
                ws();
                if (text[i++] !== ":") fail("expected ':'");
                obj[k] = value();
                ws();
                if (text[i] === ",") { i++; continue; }
                if (text[i++] === "}") return obj;
                fail("expected ',' or '}'");
            }
        }
        if (c === "[") {
            i++;
            const arr = [];
            ws();
            if (text[i] === "]") { i++; return arr; }
            for (;;) {
                arr.push(value());
                ws();
                if (text[i] === ",") { i++; continue; }
                if (text[i++] === "]") return arr;
                fail("expected ',' or ']'");
            }
        }
        if (c === '"') return string();
        const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
        if (m && m[0]) {
            if (m[2] || m[3]) fail(`number ${m[0]} is not written as a plain integer`);
            i += m[0].length;
            return BigInt(m[0]);
        }
        for (const [word, v] of [["true", true], ["false", false], ["null", null]])
            if (text.startsWith(word, i)) { i += word.length; return v; }
        fail("unexpected character");
    }
    function string() {
        const m = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(i));
        if (!m) fail("bad string");
        i += m[0].length;
        return JSON.parse(m[0]);
    }
    const v = value();
    ws();
    if (i !== text.length) fail("trailing characters");
    return v;
}

// JSON text of a value whose integers may be BigInt.
function toJson(v) {
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return `[${v.map(toJson).join(",")}]`;
    if (v && typeof v === "object")
        return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(",")}}`;
    return JSON.stringify(v);
}

// Differences between an answer and its documented example, member order
// included; members named in `skip` (paths such as "explanation") are not
// compared beyond their presence.
function differences(got, want, skip, at = "") {
    const where = at || "(root)";
    if (Array.isArray(want)) {
        if (!Array.isArray(got)) return [`${where}: expected an array`];
        if (got.length !== want.length) return [`${where}: ${got.length} entries, documented ${want.length}`];
        return want.flatMap((w, k) => differences(got[k], w, skip, `${at}[${k}]`));
    }
    if (want && typeof want === "object") {
        if (!got || typeof got !== "object" || Array.isArray(got)) return [`${where}: expected an object`];
        const gk = Object.keys(got), wk = Object.keys(want);
        if (gk.join() !== wk.join()) return [`${where}: members ${gk.join(",")}, documented ${wk.join(",")}`];
        return wk.flatMap((k) => {
            const p = at ? `${at}.${k}` : k;
            return skip.includes(p) ? [] : differences(got[k], want[k], skip, p);
        });
    }
    const norm = (x) => (typeof x === "number" && Number.isInteger(x) ? BigInt(x) : x);
    return norm(got) === norm(want) ? [] : [`${where}: ${toJson(got)}, documented ${toJson(want)}`];
}

// An example's request is answered by the CLI command of its path: `grundy
// moves` for POST /v1/moves, `grundy query` (POST /v1/analyze) otherwise.
function run(body, path = "/v1/analyze") {
    const command = path === "/v1/moves" ? "moves" : "query";
    const r = spawnSync(bin, [command, body], { encoding: "utf8", timeout: 60000 });
    return { status: r.status, stdout: (r.stdout ?? "").trim(), stderr: r.stderr ?? "", error: r.error };
}

function schemaErrors(validate) {
    return (validate.errors ?? []).map((e) => `schema: ${e.instancePath || "(root)"} ${e.message}` +
        (e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""));
}

// ---- the tests -------------------------------------------------------------------

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

const analyze = spec.paths["/v1/analyze"].post;
const exactAnalyze = exact.paths["/v1/analyze"].post;
const requestSchema = analyze.requestBody.content["application/json"].schema;
const requestExamples = analyze.requestBody.content["application/json"].examples ?? {};
const exactRequestExamples = exactAnalyze.requestBody.content["application/json"].examples ?? {};
const okContent = analyze.responses["200"].content["application/json"];
const exactOkExamples = exactAnalyze.responses["200"].content["application/json"].examples ?? {};

// Every documented response, with its schema and examples, exact and not.
const responses = [];
for (const [p, item] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== "object" || !op.responses) continue;
        for (const [status, r] of Object.entries(op.responses))
            responses.push({ where: `${method.toUpperCase()} ${p} ${status}`, status, r: deref(r), path: p,
                             exact: deref(exact.paths[p][method].responses[status], exact) });
    }
for (const [status, r] of Object.entries(spec["x-other-responses"] ?? {}))
    responses.push({ where: `x-other-responses ${status}`, status, r: deref(r),
                     exact: deref(exact["x-other-responses"][status], exact) });

// Coverage: every game has a request example; errors have examples.
const games = Object.keys(requestSchema.$ref ? deref(requestSchema).discriminator.mapping
                                             : requestSchema.discriminator.mapping);
test("every game has a request example", () => {
    const seen = new Set(Object.values(requestExamples).map((e) => e.value?.game));
    const missing = games.filter((g) => !seen.has(g));
    return missing.length ? [`no request example for ${missing.join(", ")}`] : [];
});
test("every error status of the contract has an example, and errors have live examples", () => {
    const problems = [];
    for (const status of ["400", "413", "422", "404", "405", "503"]) {
        const has = responses.some((x) => x.status === status &&
            Object.keys(x.r.content?.["application/json"]?.examples ?? {}).length > 0);
        if (!has) problems.push(`no example for status ${status}`);
    }
    const live = responses.flatMap((x) => Object.values(x.r.content?.["application/json"]?.examples ?? {}))
        .filter((e) => e["x-request"] !== undefined);
    if (live.length < 5) problems.push(`only ${live.length} error examples with x-request`);
    return problems;
});

let validateRequest, validateOk;
try {
    validateRequest = validatorFor(requestSchema);
    validateOk = validatorFor(okContent.schema);
    for (const { r } of responses)
        if (r.content?.["application/json"]) validatorFor(r.content["application/json"].schema);
} catch (e) {
    console.log("TAP version 13");
    console.log(`Bail out! the schemas of openapi.yaml do not compile: ${e.message}`);
    process.exit(2);
}
for (const [name, ex] of Object.entries(requestExamples)) {
    test(`request example ${name} conforms to the request schema`, () =>
        validateRequest(ex.value) ? [] : schemaErrors(validateRequest));
    test(`request example ${name}: the answer conforms to the 200 schema and equals the 200 example`, () => {
        const body = toJson(exactRequestExamples[name].value);
        const r = run(body);
        if (r.error) return [`cannot run ${bin}: ${r.error.message}`];
        const problems = [];
        if (r.status !== 0) problems.push(`grundy exited ${r.status} (an error answer): ${r.stdout}`);
        let answer;
        try {
            answer = parseExactJson(r.stdout);
        } catch (e) {
            return [...problems, `answer is not exact JSON (${e.message}): ${r.stdout.slice(0, 200)}`];
        }
        if (!validateOk(JSON.parse(r.stdout))) problems.push(...schemaErrors(validateOk));
        const documented = exactOkExamples[name];
        if (!documented) problems.push(`no 200 example named ${name}`);
        else problems.push(...differences(answer, documented.value, ["explanation"]));
        return problems;
    });
}

for (const { where, status, r, exact: exactR, path } of responses) {
    const content = r.content?.["application/json"];
    if (!content) continue;
    const validate = validatorFor(content.schema);
    const named = { ...(content.examples ?? {}) };
    if (content.example !== undefined) named["(example)"] = { value: content.example };
    for (const [name, ex0] of Object.entries(named)) {
        const ex = deref(ex0);
        test(`${where} example ${name} conforms to its schema`, () =>
            validate(ex.value) ? [] : schemaErrors(validate));
        if (ex["x-request"] === undefined) continue;
        const exactEx = deref(exactR.content["application/json"].examples[name], exact);
        test(`${where} example ${name}: x-request is answered so`, () => {
            const req = exactEx["x-request"];
            const r = run(typeof req === "string" ? req : toJson(req), path);
            if (r.error) return [`cannot run ${bin}: ${r.error.message}`];
            const problems = [];
            const expectExit = status === "200" ? 0 : 1;
            if (r.status !== expectExit) problems.push(`grundy exited ${r.status}, expected ${expectExit}: ${r.stdout}`);
            let answer;
            try {
                answer = parseExactJson(r.stdout);
            } catch (e) {
                return [...problems, `answer is not exact JSON (${e.message}): ${r.stdout.slice(0, 200)}`];
            }
            if (!validate(JSON.parse(r.stdout))) problems.push(...schemaErrors(validate));
            problems.push(...differences(answer, exactEx.value, ["explanation", "error.message"]));
            return problems;
        });
    }
}

// ---- TAP -------------------------------------------------------------------------

console.log("TAP version 13");
console.log(`1..${tests.length}`);
let failed = 0;
tests.forEach(({ name, fn }, k) => {
    let problems;
    try {
        problems = fn();
    } catch (e) {
        problems = [`threw: ${e.stack ?? e}`];
    }
    if (problems.length === 0) {
        console.log(`ok ${k + 1} - ${name}`);
        return;
    }
    failed++;
    console.log(`not ok ${k + 1} - ${name}`);
    for (const p of problems)
        for (const line of String(p).split("\n"))
            console.log(`  # ${line}`);
});
console.log(`# ${tests.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
