// SPDX-License-Identifier: MIT
// grundyd playground: exact JSON, the service's API, and DOM helpers.
//
// Integers stay exact: every request asks for string integers (Accept:
// application/json; integers=string), so each integer of an answer is a
// decimal string that JSON.parse keeps whole; values are sent as typed
// (BigInt written as plain digits by toJson).

// A JSON text to send as it is (the raw editors of pair lists).
export class Raw {
    constructor(text) { this.text = text; }
}

// The answers' integers arrive as decimal strings; in a position each becomes
// a BigInt again, so that it is shown and sent back as plain digits.
export function wireInts(v) {
    if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
    if (Array.isArray(v)) return v.map(wireInts);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireInts(x)]));
    return v;
}

// JSON text of a value that may hold BigInt and Raw.
export function toJson(v) {
    if (v instanceof Raw) return v.text;
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return "[" + v.map(toJson).join(",") + "]";
    if (v !== null && typeof v === "object")
        return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ":" + toJson(x)).join(",") + "}";
    return JSON.stringify(v);
}

// A number the user typed: BigInt when it is plain digits (an optional '-'),
// else the text itself, for the service to refuse naming the field.
export function intValue(text) {
    return /^-?\d+$/.test(text) ? BigInt(text) : text;
}

export const fmt = (v) => (v === null || v === undefined ? "none" : typeof v === "object" ? toJson(v) : String(v));

// Equal as JSON, integers compared by their digits.
export const sameJson = (a, b) => toJson(wireInts(a)) === toJson(wireInts(b));

export async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json; integers=string" } };
    if (body !== undefined) {
        init.body = toJson(body);
        init.headers["Content-Type"] = "application/json";
    }
    const res = await fetch(path, init);
    const text = await res.text();
    let data = null;
    try {
        data = JSON.parse(text);
    } catch (e) {
        data = null;
    }
    return { status: res.status, ok: res.ok, text, data };
}

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (v === false || v === null || v === undefined) continue;
        if (k === "text") e.textContent = v;
        else e.setAttribute(k, v === true ? "" : v);
    }
    e.append(...children);
    return e;
}

export const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
}

// An error in an alert region: the service's {"error": ...} or a message.
export function showError(box, err, status) {
    box.replaceChildren();
    if (!err) return;
    if (typeof err === "string") {
        box.append(el("p", { text: err }));
        return;
    }
    const head = `The service refused the query (${status ? status + " " : ""}${err.code})` +
        (err.field ? ` at ${err.field}` : "") + ":";
    box.append(el("p", {}, el("strong", { text: head }), " ", err.message));
}

// Scrolls ANCHOR to the top when ELEMENT is not wholly in view, as the
// answer after Solve on a phone.
export function reveal(element, anchor = element) {
    const r = element.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) anchor.scrollIntoView({ block: "start" });
}

// JSON text parsed with every integer literal as a BigInt (strings untouched).
export function parseExact(text) {
    const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?![\d.eE])/g, (m) => (m[0] === '"' ? m : `"\uE000${m}"`));
    return JSON.parse(marked, (k, v) => (typeof v === "string" && v[0] === "\uE000" ? BigInt(v.slice(1)) : v));
}
