#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Rewrites openapi.yaml's answer examples from the binary's own answers:
// each 200 example of POST /v1/analyze becomes what `grundy query` answers
// for the request example of the same name, and each example with an
// `x-request` becomes what its request is answered. The rest of the file
// is left as it is. Run it after a change to the answers' shape, then
// review the diff; scripts/validate-example-responses.mjs (the
// openapi-examples test) holds the two to each other.
//
// Usage: node scripts/refresh-openapi-examples.mjs path/to/grundy

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.resolve(process.argv[2] ?? path.join(root, "build", "grundy"));
const file = path.join(root, "openapi.yaml");
const text = readFileSync(file, "utf8");
const doc = YAML.parseDocument(text, { intAsBigInt: true });
const exact = YAML.parse(text, { intAsBigInt: true }); // the requests, integers exact

// Integers exactly: every integer literal of the answer becomes a BigInt.
function parseExact(text) {
    const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?![.eE\d])/g,
        (t) => (t.startsWith('"') ? t : `"@@int@@${t}"`));
    return JSON.parse(marked,
        (k, v) => (typeof v === "string" && v.startsWith("@@int@@") ? BigInt(v.slice(7)) : v));
}

function answer(body, route) {
    const r = spawnSync(bin, [route === "/v1/moves" ? "moves" : "query", body], { encoding: "utf8" });
    if (r.error) throw r.error;
    return parseExact(r.stdout.trim());
}

const toJson = (v) => JSON.stringify(v, (k, x) => (typeof x === "bigint" ? `@@int@@${x}` : x))
    .replace(/"@@int@@(-?\d+)"/g, "$1");

function setValue(example, value) {
    example.set("value", doc.createNode(value, { flow: true }));
}

let changed = 0;
for (const route of ["/v1/analyze", "/v1/moves"]) {
    const post = doc.getIn(["paths", route, "post"]);
    if (!post) continue;
    const requests = exact.paths[route].post.requestBody?.content["application/json"].examples ?? {};
    const exactOks = exact.paths[route].post.responses["200"].content["application/json"].examples ?? {};
    const oks = post.getIn(["responses", "200", "content", "application/json", "examples"]);
    for (const pair of oks?.items ?? []) {
        const name = pair.key.value ?? pair.key;
        const example = pair.value;
        const req = exactOks[name]?.["x-request"] ?? requests[name]?.value;
        if (req === undefined) continue;
        const body = typeof req === "string" ? req : toJson(req);
        setValue(example, answer(body, route));
        changed++;
    }
}
writeFileSync(file, doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
console.log(`refresh-openapi-examples: ${changed} examples rewritten`);
