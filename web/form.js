// SPDX-License-Identifier: MIT
// grundyd playground: the position form, built from a game's field
// descriptions in GET /v1/games, and the query it describes.
import { $, el, fmt, intValue, parseExact, Raw, showError, toJson, wireInts } from "./util.js";

export const state = {
    catalog: null, // GET /v1/games
    game: null,    // the selected game's entry
};

// How a catalogue field is edited.
function kindOf(f) {
    if (f.type === "integer") return "int";
    if (f.type === "integer_array" || f.type === "signed_integer_array") return "list";
    if (f.type === "moves") return "moves";
    if (f.type === "string" && f.enum) return "choice";
    if (f.type === "string" || f.type === "board") return "text";
    return "json";
}

// A value of field f as the page shows and sends it: integers as BigInt.
function fieldValue(f, v) {
    return f && kindOf(f) !== "text" && kindOf(f) !== "choice" ? wireInts(v) : v;
}

// A position (a query, or an answer's `next`) with its integers as BigInt.
export function position(next, game = state.game) {
    return Object.fromEntries(Object.entries(next).map(([k, v]) =>
        [k, fieldValue(game.fields.find((f) => f.name === k), v)]));
}

function hintFor(f, kind) {
    const parts = [f.description || ""];
    if (kind === "list") parts.push("Comma-separated integers.");
    if (kind === "json") parts.push("JSON, for example [[0, 1], [1, 2]].");
    if (f.default !== undefined) parts.push(`Default: ${fmt(fieldValue(f, f.default))}.`);
    parts.push(f.required ? "Required." : "Optional.");
    return parts.join(" ");
}

function textInput(id, value, numeric) {
    return el("input", { id, type: "text", value, autocomplete: "off", spellcheck: "false",
                         inputmode: numeric ? "numeric" : false });
}

function movesControl(f, id, ex, wrap, label) {
    const isRule = ex && !Array.isArray(ex) && typeof ex === "object";
    const rule = el("select", { id: id + "-rule", "aria-describedby": id + "-hint" },
        el("option", { value: "", text: "the numbers listed" }));
    for (const r of f.enum || []) rule.append(el("option", { value: r, text: r, selected: isRule && ex.rule === r }));
    const input = textInput(id, Array.isArray(ex) ? ex.map(String).join(", ") : "", false);
    const sync = () => { input.disabled = rule.value !== ""; };
    rule.addEventListener("change", sync);
    sync();
    wrap.append(el("label", { for: id + "-rule", text: f.name + ": the set" }), rule);
    label.textContent = f.name + ": the numbers";
    return input;
}

function fieldControl(f, values) {
    const kind = kindOf(f);
    const id = "f-" + f.name;
    const ex = fieldValue(f, values[f.name] !== undefined ? values[f.name] : f.default);
    const wrap = el("div", { class: "field", "data-field": f.name, "data-kind": kind });
    const label = el("label", { for: id, text: f.name + (f.required ? "" : " (optional)") });
    const hint = el("p", { id: id + "-hint", class: "hint", text: hintFor(f, kind) });
    let input;
    if (kind === "int") {
        input = textInput(id, ex === undefined || ex === null ? "" : String(ex), true);
    } else if (kind === "list") {
        input = textInput(id, Array.isArray(ex) ? ex.map(String).join(", ") : "", false);
    } else if (kind === "choice") {
        input = el("select", { id });
        if (!f.required) input.append(el("option", { value: "", text: "(none)" }));
        for (const v of f.enum) input.append(el("option", { value: v, text: v, selected: v === ex }));
    } else if (kind === "text") {
        input = textInput(id, ex === undefined ? "" : String(ex), false);
        if (f.type === "board") input.classList.add("mono");
    } else if (kind === "moves") {
        input = movesControl(f, id, ex, wrap, label);
    } else {
        input = el("textarea", { id, rows: "3", spellcheck: "false", class: "mono" });
        input.value = ex === undefined ? "" : toJson(ex);
    }
    input.setAttribute("aria-describedby", hint.id);
    wrap.append(label, input, hint);
    return wrap;
}

function selectControl(id, text, options, chosen) {
    const s = el("select", { id });
    for (const o of options) s.append(el("option", { value: o.name, text: o.note ? `${o.name} (${o.note})` : o.name,
                                                     selected: o.name === chosen }));
    return el("div", { class: "field" }, el("label", { for: id, text }), s);
}

// Builds the form for GAME, filled with VALUES (a query; the example when absent).
export function buildForm(game, values) {
    state.game = game;
    values = values || game.example || {};
    $("game").value = game.name;
    $("game-summary").textContent = `${game.summary} (${game.kind})`;
    $("fields").replaceChildren(...game.fields.map((f) => fieldControl(f, values)));
    const rules = [];
    if (game.conventions.length > 1)
        rules.push(selectControl("convention", "Convention", game.conventions, values.convention || "normal"));
    if (game.compounds.length > 1)
        rules.push(selectControl("compound", "Compound", game.compounds.map((name) => ({ name })),
                                 values.compound || "disjunctive"));
    $("rules").replaceChildren(...rules);
    showError($("form-error"), null);
}

function readField(f, query) {
    const kind = kindOf(f);
    const input = $("f-" + f.name);
    const t = input.value.trim();
    if (kind === "moves" && $("f-" + f.name + "-rule").value !== "") {
        query[f.name] = { rule: $("f-" + f.name + "-rule").value };
    } else if (kind === "list" || kind === "moves") {
        if (t === "" && !f.required) return null;
        query[f.name] = t === "" ? [] : t.split(/[\s,]+/).filter(Boolean).map(intValue);
    } else if (t === "" && !f.required) {
        return null;
    } else if (kind === "int") {
        query[f.name] = intValue(t);
    } else if (kind === "json") {
        try {
            JSON.parse(t);
        } catch (e) {
            return [f.name, `${f.name} is not valid JSON: ${e.message}`];
        }
        // Lists of integers become values (play merges positions into them);
        // anything else goes as typed, for the service to refuse by name.
        query[f.name] = /^[\s\d,[\]-]*$/.test(t) ? parseExact(t) : new Raw(t);
    } else {
        query[f.name] = t;
    }
    return null;
}

// The query the form describes: { query } or { problem: [field, message] }.
export function readForm() {
    const game = state.game;
    const query = { game: game.name };
    for (const f of game.fields) {
        const problem = readField(f, query);
        if (problem) return { problem };
    }
    for (const name of ["convention", "compound"]) {
        const s = $(name);
        const def = name === "convention" ? "normal" : "disjunctive";
        if (s && s.value !== def) query[name] = s.value;
    }
    return { query };
}

// Marks the control of a field path such as "piles[2]" as invalid.
export function markInvalid(path) {
    for (const e of document.querySelectorAll("#fields [aria-invalid]")) e.removeAttribute("aria-invalid");
    if (!path) return;
    const name = path.split(/[.[]/)[0];
    const input = $("f-" + name) || $(name);
    if (input) input.setAttribute("aria-invalid", "true");
}
