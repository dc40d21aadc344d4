#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Holds openapi.yaml's request schemas to the game catalogue (GET /v1/games),
// field by field; the catalogue is the authority, since the validator
// (src/games/validate.c) enforces the same tables it publishes.
//
// For every game of the catalogue, the per-game request schema that
// AnalyzeRequest's discriminator maps it to must:
//
//  - be closed (`additionalProperties: false`), since requests are strict;
//  - have exactly the members the game takes: `game`, its fields,
//    `convention`, `explain`, and `compound` when its compounds list more
//    than `disjunctive`; and require exactly `game` and the required fields;
//  - give `game` the game's name as its `const`;
//  - describe each field as the catalogue does: its JSON shape (an integer,
//    a string, an array of integers or of pairs of integers, or for `moves`
//    an array or a `{"rule": R}` object), `minimum`/`maximum` of every integer
//    (for an integer's string form, a pattern accepting both bounds and
//    rejecting the integers just past them), `minItems`/`maxItems`,
//    `minLength`/`maxLength`, `pattern`, `enum` and `default`; an optional
//    field also accepts `null` (the service reads it as absent) and a
//    required one does not. Bounds that follow a live limit are compared at
//    the defaults, so CATALOGUE must come from a daemon with default limits;
//  - give `explain` (every game) a boolean schema with the catalogue's default;
//  - for `convention` and `compound`, list exactly the game's `conventions`
//    and `compounds` (aliases such as "misère" aside), within the common
//    field's `enum`, with its `default`.
//
// And the discriminator maps exactly the catalogue's games.
//
// Usage: node scripts/compare-openapi-catalogue.mjs [--spec FILE] [--self-test] CATALOGUE
//   CATALOGUE    the body of GET /v1/games (a file; - for stdin)
//   --spec FILE  the OpenAPI document (default openapi.yaml of the repository)
//   --self-test  instead, breaks the document in memory in several ways, one
//                at a time, and checks that each break is reported
// Prints one JSON object, {"checks": [{"name", "problems": [...]}, ...]}
// (a check passed when its problems are empty). Exits 0 when every check
// passed, 1 when some did not, 2 when it could not run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import YAML from "yaml";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INT_MAX = 9223372036854775807n;

function usage(msg) {
    console.error(`compare-openapi-catalogue: ${msg}`);
    console.error("usage: node scripts/compare-openapi-catalogue.mjs [--spec FILE] [--self-test] CATALOGUE");
    process.exit(2);
}

// ---- exact numbers -----------------------------------------------------------

// YAML 1.2 reads JSON; with intAsBigInt every integer stays exact.
const parseExact = (text) => YAML.parse(text, { intAsBigInt: true });

const big = (v) => (typeof v === "number" && Number.isInteger(v) ? BigInt(v) : v);

function show(v) {
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
    if (v && typeof v === "object")
        return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${show(x)}`).join(", ")}}`;
    return JSON.stringify(v);
}

function same(a, b) {
    a = big(a);
    b = big(b);
    if (Array.isArray(a) || Array.isArray(b))
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
    if (a && b && typeof a === "object" && typeof b === "object") {
        const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
        return same(ka, kb) && ka.every((k) => same(a[k], b[k]));
    }
    return a === b;
}

// ---- openapi schemas, reduced to what a field can hold ------------------------

// Follows a local "#/..." reference.
function target(doc, ref) {
    if (!ref.startsWith("#/")) throw new Error(`cannot follow the reference ${ref}`);
    const node = ref.slice(2).split("/").reduce((o, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    if (node === undefined) throw new Error(`the reference ${ref} leads nowhere`);
    return node;
}

const LOWER = ["minimum", "minItems", "minLength"];
const UPPER = ["maximum", "maxItems", "maxLength"];

// A schema with its $ref resolved: the sibling keywords apply together with
// the referenced schema (JSON Schema 2020-12), so lower bounds take the
// larger and upper bounds the smaller value, patterns accumulate and
// annotations (description, default) of the siblings win.
function resolve(doc, s, seen = []) {
    if (!s || typeof s !== "object" || typeof s.$ref !== "string") return s;
    if (seen.includes(s.$ref)) throw new Error(`the reference ${s.$ref} is circular`);
    const base = resolve(doc, target(doc, s.$ref), [...seen, s.$ref]);
    const out = { ...base };
    for (const [k, v] of Object.entries(s)) {
        if (k === "$ref") continue;
        if (LOWER.includes(k) && out[k] !== undefined) out[k] = big(v) > big(out[k]) ? v : out[k];
        else if (UPPER.includes(k) && out[k] !== undefined) out[k] = big(v) < big(out[k]) ? v : out[k];
        else if (k === "pattern" && out.pattern !== undefined && out.pattern !== v)
            out.patterns = [...(out.patterns ?? [out.pattern]), v];
        else out[k] = v;
    }
    return out;
}

const typesOf = (s) => (s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]);

// What a schema holds: {nullable, shapes, default}, each shape one of
//   {t: "integer", minimum, maximum, patterns}  (patterns: of its string form)
//   {t: "string", enum, patterns, minLength, maxLength}
//   {t: "array", minItems, maxItems, items: <what the items hold>}
//   {t: "object", schema}
//   {t: "other", what}
// The integer and string branches of a oneOf such as ExactInteger's become
// one integer shape.
function reduce(doc, s0) {
    const s = resolve(doc, s0);
    const out = { nullable: false, shapes: [], default: s.default };
    if (s.oneOf || s.anyOf) {
        for (const b of s.oneOf ?? s.anyOf) {
            const r = reduce(doc, b);
            out.nullable ||= r.nullable;
            out.shapes.push(...r.shapes);
        }
        const ints = out.shapes.filter((x) => x.t === "integer");
        const digitStrings = out.shapes.filter((x) => x.t === "string" && !x.enum && x.patterns.length);
        if (ints.length === 1 && digitStrings.length === 1) {
            ints[0].patterns = digitStrings[0].patterns;
            out.shapes = out.shapes.filter((x) => x !== digitStrings[0]);
        }
        return out;
    }
    let types = typesOf(s);
    if (types.includes("null")) out.nullable = true;
    let en = s.enum;
    if (en && en.includes(null)) {
        out.nullable = true;
        en = en.filter((x) => x !== null);
    }
    types = types.filter((t) => t !== "null");
    if (types.length === 0 && s.const !== undefined)
        types = [typeof s.const === "string" ? "string" : "other"];
    for (const t of types) {
        if (t === "integer")
            out.shapes.push({ t, minimum: big(s.minimum), maximum: big(s.maximum), patterns: [] });
        else if (t === "string")
            out.shapes.push({ t, enum: en ?? (s.const !== undefined ? [s.const] : undefined),
                              patterns: s.patterns ?? (s.pattern !== undefined ? [s.pattern] : []),
                              minLength: big(s.minLength), maxLength: big(s.maxLength) });
        else if (t === "array")
            out.shapes.push({ t, minItems: big(s.minItems), maxItems: big(s.maxItems),
                              items: s.items ? reduce(doc, s.items) : undefined });
        else if (t === "object")
            out.shapes.push({ t, schema: s });
        else
            out.shapes.push({ t: "other", what: t });
    }
    return out;
}

// ---- one field ------------------------------------------------------------------

// Problems of the integer shape `x` against the range [min, max].
function integerProblems(where, x, min, max) {
    const p = [];
    if (!same(x.minimum, min)) p.push(`${where}: minimum ${show(x.minimum)}, the catalogue ${show(min)}`);
    if (!same(x.maximum, max)) p.push(`${where}: maximum ${show(x.maximum)}, the catalogue ${show(max)}`);
    if (x.patterns.length === 0) {
        p.push(`${where}: no string form (a pattern of decimal digits)`);
        return p;
    }
    const res = x.patterns.map((src) => new RegExp(src, "u"));
    const ok = (n) => res.every((re) => re.test(n.toString()));
    for (const n of [min, max])
        if (!ok(n)) p.push(`${where}: the string form's pattern rejects ${n}, within the range`);
    if (max < INT_MAX && ok(max + 1n)) p.push(`${where}: the string form's pattern accepts ${max + 1n}, past the maximum`);
    if (min > 0n && ok(min - 1n)) p.push(`${where}: the string form's pattern accepts ${min - 1n}, below the minimum`);
    return p;
}

function countProblems(where, x, lo, hi, minKey, maxKey, catMin, catMax) {
    const p = [];
    const min = x[lo] ?? 0n;
    if (!same(min, catMin)) p.push(`${where}: ${lo} ${show(x[lo])}, the catalogue's ${minKey} ${show(catMin)}`);
    if (!same(x[hi], catMax)) p.push(`${where}: ${hi} ${show(x[hi])}, the catalogue's ${maxKey} ${show(catMax)}`);
    return p;
}

function oneShape(where, r, t) {
    const wanted = r.shapes.filter((x) => x.t === t);
    const other = r.shapes.filter((x) => x.t !== t).map((x) => x.t);
    if (wanted.length !== 1 || other.length)
        return [null, [`${where}: holds ${r.shapes.map((x) => x.t).join(" or ") || "nothing"}, the catalogue's type wants ${t}`]];
    return [wanted[0], []];
}

// The problems of an array of integers (pairs: of pairs [a, b]).
function arrayProblems(where, shape, f, pairs) {
    const p = countProblems(where, shape, "minItems", "maxItems", "min_items", "max_items", f.min_items, f.max_items);
    if (!shape.items) return [...p, `${where}: no items schema`];
    if (shape.items.nullable) p.push(`${where}[i]: accepts null`);
    let [item, q] = oneShape(`${where}[i]`, shape.items, pairs ? "array" : "integer");
    p.push(...q);
    if (!item) return p;
    if (pairs) {
        if (!same(item.minItems, 2n) || !same(item.maxItems, 2n))
            p.push(`${where}[i]: minItems ${show(item.minItems)}, maxItems ${show(item.maxItems)}; a pair has exactly 2`);
        if (!item.items) return [...p, `${where}[i]: no items schema`];
        [item, q] = oneShape(`${where}[i][k]`, item.items, "integer");
        p.push(...q);
        if (!item) return p;
    }
    return [...p, ...integerProblems(`${where}${pairs ? "[i][k]" : "[i]"}`, item, big(f.minimum), big(f.maximum))];
}

function stringProblems(where, shape, f) {
    const p = [];
    if (f.enum) {
        if (!same([...(shape.enum ?? [])].sort(), [...f.enum].sort()))
            p.push(`${where}: enum ${show(shape.enum ?? null)}, the catalogue ${show(f.enum)}`);
    } else if (shape.enum)
        p.push(`${where}: enum ${show(shape.enum)}; the catalogue has none`);
    const catPatterns = f.pattern !== undefined ? [f.pattern] : [];
    if (!same(shape.patterns, catPatterns))
        p.push(`${where}: pattern ${show(shape.patterns)}, the catalogue ${show(catPatterns)}`);
    if (!f.enum)
        p.push(...countProblems(where, shape, "minLength", "maxLength", "min_length", "max_length",
                                big(f.min_length), big(f.max_length)));
    else if (shape.minLength !== undefined || shape.maxLength !== undefined)
        p.push(`${where}: minLength/maxLength on a field of choices`);
    return p;
}

// The `{"rule": R}` form of a moves field.
function ruleObjectProblems(where, shape, f, doc) {
    const s = shape.schema;
    const p = [];
    if (s.additionalProperties !== false) p.push(`${where}: the {"rule": R} object is not closed (additionalProperties: false)`);
    if (!same(Object.keys(s.properties ?? {}), ["rule"])) p.push(`${where}: the object's members are ${show(Object.keys(s.properties ?? {}))}, not ["rule"]`);
    if (!same(s.required ?? [], ["rule"])) p.push(`${where}: the object requires ${show(s.required ?? [])}, not ["rule"]`);
    if (s.properties?.rule) {
        const [rule, q] = oneShape(`${where}.rule`, reduce(doc, s.properties.rule), "string");
        p.push(...q);
        if (rule && !same([...(rule.enum ?? [])].sort(), [...f.enum].sort()))
            p.push(`${where}.rule: enum ${show(rule.enum ?? null)}, the catalogue ${show(f.enum)}`);
    }
    return p;
}

function fieldProblems(doc, where, schema, f) {
    const r = reduce(doc, schema);
    const p = [];
    if (f.required && r.nullable) p.push(`${where}: required, yet accepts null`);
    if (!f.required && !r.nullable) p.push(`${where}: optional (null reads as absent), yet does not accept null`);
    if (!same(r.default, f.default))
        p.push(`${where}: default ${r.default === undefined ? "absent" : show(r.default)}, the catalogue ${f.default === undefined ? "absent" : show(f.default)}`);
    let shape, q;
    switch (f.type) {
    case "integer":
        [shape, q] = oneShape(where, r, "integer");
        return [...p, ...q, ...(shape ? integerProblems(where, shape, big(f.minimum), big(f.maximum)) : [])];
    case "integer_array":
    case "signed_integer_array":
        [shape, q] = oneShape(where, r, "array");
        return [...p, ...q, ...(shape ? arrayProblems(where, shape, f, false) : [])];
    case "integer_pairs":
    case "signed_integer_pairs":
        [shape, q] = oneShape(where, r, "array");
        return [...p, ...q, ...(shape ? arrayProblems(where, shape, f, true) : [])];
    case "string":
    case "board":
        [shape, q] = oneShape(where, r, "string");
        return [...p, ...q, ...(shape ? stringProblems(where, shape, f) : [])];
    case "moves": {
        const arrays = r.shapes.filter((x) => x.t === "array"), objects = r.shapes.filter((x) => x.t === "object");
        if (arrays.length !== 1 || objects.length !== 1 || r.shapes.length !== 2)
            return [...p, `${where}: holds ${r.shapes.map((x) => x.t).join(" or ")}, the catalogue's type moves wants an array or a {"rule": R} object`];
        return [...p, ...arrayProblems(where, arrays[0], f, false), ...ruleObjectProblems(where, objects[0], f, doc)];
    }
    default:
        return [...p, `${where}: the catalogue's type ${f.type} is not known to this check`];
    }
}

// convention and compound: the game's own list of choices.
const ALIASES = { "misère": "misere" }; // accepted spellings (src/core/contract.c)

function commonProblems(doc, where, schema, common, choices) {
    const r = reduce(doc, schema);
    const p = [];
    if (!r.nullable) p.push(`${where}: optional (null reads as the default), yet does not accept null`);
    if (!same(r.default, common.default))
        p.push(`${where}: default ${r.default === undefined ? "absent" : show(r.default)}, the catalogue ${show(common.default)}`);
    const [shape, q] = oneShape(where, r, "string");
    p.push(...q);
    if (!shape) return p;
    const listed = (shape.enum ?? []).filter((c) => !(c in ALIASES && shape.enum.includes(ALIASES[c])));
    if (!same([...listed].sort(), [...choices].sort()))
        p.push(`${where}: enum ${show(listed)} (aliases aside), the game's list ${show(choices)}`);
    const outside = listed.filter((c) => !common.enum.includes(c));
    if (outside.length) p.push(`${where}: ${show(outside)} not in the common field's enum ${show(common.enum)}`);
    return p;
}

// ---- the whole comparison -----------------------------------------------------

function compare(doc, cat) {
    const checks = [];
    const check = (name, fn) => {
        let problems;
        try {
            problems = fn();
        } catch (e) {
            problems = [`threw: ${e.stack ?? e}`];
        }
        checks.push({ name, problems });
    };
    const common = Object.fromEntries(cat.common_fields.map((f) => [f.name, f]));
    const request = resolve(doc, doc.paths["/v1/analyze"].post.requestBody.content["application/json"].schema);
    const mapping = request.discriminator?.mapping ?? {};
    const names = cat.games.map((g) => g.name);

    check("the discriminator of AnalyzeRequest maps exactly the catalogue's games", () => {
        const p = [];
        if (request.discriminator?.propertyName !== "game") p.push("AnalyzeRequest has no discriminator on game");
        if (!same(Object.keys(mapping), names)) p.push(`mapping ${show(Object.keys(mapping))}, the catalogue ${show(names)}`);
        if (!same(names, common.game.enum)) p.push(`the catalogue's games ${show(names)}, its game enum ${show(common.game.enum)}`);
        const branches = (request.oneOf ?? []).map((b) => b.$ref);
        const missing = Object.values(mapping).filter((ref) => !branches.includes(ref));
        if (missing.length) p.push(`mapped but not in oneOf: ${show(missing)}`);
        return p;
    });

    for (const g of cat.games) {
        check(`${g.name}: openapi.yaml's request schema agrees with the catalogue field by field`, () => {
            if (!mapping[g.name]) return [`the discriminator does not map ${g.name}`];
            const s = resolve(doc, { $ref: mapping[g.name] });
            const at = mapping[g.name].split("/").pop();
            const p = [];
            if (!typesOf(s).includes("object")) p.push(`${at}: not an object schema`);
            if (s.additionalProperties !== false) p.push(`${at}: not closed (additionalProperties: false); requests are strict`);
            const props = s.properties ?? {};
            const takesCompound = g.compounds.some((c) => c !== "disjunctive");
            const members = ["game", ...g.fields.map((f) => f.name), "convention", ...(takesCompound ? ["compound"] : []),
                             ...(common.explain ? ["explain"] : [])];
            const extra = Object.keys(props).filter((k) => !members.includes(k));
            const lacking = members.filter((k) => !(k in props));
            if (extra.length) p.push(`${at}: members the game does not take: ${show(extra)}`);
            if (lacking.length) p.push(`${at}: lacks members the game takes: ${show(lacking)}`);
            const required = ["game", ...g.fields.filter((f) => f.required).map((f) => f.name)];
            if (!same([...(s.required ?? [])].sort(), [...required].sort()))
                p.push(`${at}: required ${show(s.required ?? [])}, the catalogue ${show(required)}`);
            if (props.game) {
                const gs = resolve(doc, props.game);
                if (gs.const !== g.name && !same(gs.enum, [g.name])) p.push(`${at}.game: not the constant "${g.name}"`);
            }
            for (const f of g.fields)
                if (props[f.name]) p.push(...fieldProblems(doc, `${at}.${f.name}`, props[f.name], f));
            if (props.convention)
                p.push(...commonProblems(doc, `${at}.convention`, props.convention, common.convention,
                                         g.conventions.map((c) => c.name)));
            if (props.compound && takesCompound)
                p.push(...commonProblems(doc, `${at}.compound`, props.compound, common.compound, g.compounds));
            if (props.explain && common.explain) {
                const e = resolve(doc, props.explain);
                if (!typesOf(e).includes("boolean")) p.push(`${at}.explain: not a boolean, the catalogue's type ${common.explain.type}`);
                if (!same(e.default, common.explain.default))
                    p.push(`${at}.explain: default ${show(e.default)}, the catalogue ${show(common.explain.default)}`);
            }
            return p;
        });
    }
    return checks;
}

// ---- deliberate breaks, for --self-test ---------------------------------------------

// Each: what it breaks, the game whose check must then report it, a word the
// report must hold, and the change (on a copy of the document).
const schemaOf = (doc, name) => {
    const s = doc.components?.schemas?.[name];
    if (!s) throw new Error(`no components/schemas/${name} to break`);
    return s;
};
const BREAKS = [
    ["NimRequest open", "nim", "not closed", (d) => { delete schemaOf(d, "NimRequest").additionalProperties; }],
    ["a member WythoffRequest does not take", "wythoff", "does not take",
     (d) => { schemaOf(d, "WythoffRequest").properties.pile = { type: "integer" }; }],
    ["piles not required in NimRequest", "nim", "required",
     (d) => { schemaOf(d, "NimRequest").required = ["game"]; }],
    ["MnkDimension's maximum 63", "mnk", "maximum",
     (d) => { schemaOf(d, "MnkDimension").oneOf[0].maximum = 63; }],
    ["octal code's maxLength 11", "octal", "maxLength",
     (d) => { schemaOf(d, "OctalRequest").properties.code.maxLength = 11; }],
    ["coins rule without ruler", "coins", "enum",
     (d) => { schemaOf(d, "CoinsRequest").properties.rule.enum = ["turning_turtles", "mock_turtles"]; }],
    ["GridSide's default 16", "grid", "default", (d) => { schemaOf(d, "GridSide").default = 16; }],
    ["HeapList's maxItems 99999", "nim", "maxItems", (d) => { schemaOf(d, "HeapList").maxItems = 99999; }],
    ["strange nim pairs of 3", "strange_nim", "pair", (d) => { schemaOf(d, "StrangeNimPile").maxItems = 3; }],
    ["graph nodes not nullable", "graph", "null",
     (d) => { schemaOf(d, "GraphRequest").properties.nodes = { $ref: "#/components/schemas/ExactInteger" }; }],
    ["the board's pattern", "tictactoe", "pattern", (d) => { schemaOf(d, "MnkBoard").pattern = "^[XO.]+$"; }],
    ["the moves rule object open", "subtraction", "closed",
     (d) => { delete schemaOf(d, "SubtractionRule").additionalProperties; }],
    ["compound taken by staircase", "staircase", "does not take",
     (d) => { schemaOf(d, "StaircaseRequest").properties.compound = { $ref: "#/components/schemas/Compound" }; }],
    ["misère play for wythoff", "wythoff", "convention",
     (d) => { schemaOf(d, "WythoffRequest").properties.convention = { $ref: "#/components/schemas/NimConvention" }; }],
];

function selfTest(doc, cat) {
    const baseline = compare(doc, cat);
    const checks = [];
    for (const [what, game, word, change] of BREAKS) {
        const broken = structuredClone(doc);
        const problems = [];
        try {
            change(broken);
            const c = compare(broken, cat);
            const name = `${game}: `;
            const before = baseline.find((x) => x.name.startsWith(name))?.problems ?? [];
            const after = c.find((x) => x.name.startsWith(name))?.problems ?? [];
            const fresh = after.filter((x) => !before.includes(x));
            if (!fresh.some((x) => x.includes(word)))
                problems.push(`not reported for ${game} (new problems: ${show(fresh)})`);
        } catch (e) {
            problems.push(`threw: ${e.stack ?? e}`);
        }
        checks.push({ name: `a deliberate break is reported: ${what}`, problems });
    }
    return checks;
}

// ---- main -------------------------------------------------------------------------------

let specFile = path.join(root, "openapi.yaml"), self = false, catFile = null;
{
    const args = process.argv.slice(2);
    for (let i = 0; i < args.length; i++) {
        if (args[i] === "--spec") {
            if (i + 1 >= args.length) usage("--spec needs a value");
            specFile = args[++i];
        } else if (args[i] === "--self-test") self = true;
        else if (catFile === null && (args[i] === "-" || !args[i].startsWith("--"))) catFile = args[i];
        else usage(`unexpected argument ${args[i]}`);
    }
    if (catFile === null) usage("no CATALOGUE");
}

let doc, cat;
try {
    doc = parseExact(readFileSync(specFile, "utf8"));
    cat = parseExact(readFileSync(catFile === "-" ? 0 : catFile, "utf8"));
    if (!Array.isArray(cat?.games) || !Array.isArray(cat?.common_fields)) throw new Error("CATALOGUE is not GET /v1/games");
} catch (e) {
    console.error(`compare-openapi-catalogue: ${e.message}`);
    process.exit(2);
}
const checks = self ? selfTest(doc, cat) : compare(doc, cat);
console.log(JSON.stringify({ checks }, null, 1));
process.exit(checks.some((c) => c.problems.length) ? 1 : 0);
