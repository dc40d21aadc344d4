// SPDX-License-Identifier: MIT
// grundyd playground: forms built from GET /v1/games, answers from
// POST /v1/analyze, a game against the service, and the Grundy sequence of a
// heap game from one POST /v1/batch. Plain script, no build step.
//
// Integers stay exact: every request asks for string integers (Accept:
// application/json; integers=string), so each integer of an answer is a
// decimal string that JSON.parse keeps whole; form values are sent as typed
// (plain digits as JSON integers written by toJson, anything else as a
// string the service refuses by name), and the game logic runs on BigInt.
"use strict";

// ---- exact JSON ----------------------------------------------------------------

// A JSON text to send as it is (the raw editors of pair lists).
class Raw {
    constructor(text) { this.text = text; }
}

// The answers' integers arrive as decimal strings. In a value of an integer
// field (a catalogue default or example, an answer's `next`), each becomes a
// BigInt again, so that it is shown and sent back as plain digits.
function wireInts(v) {
    if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
    if (Array.isArray(v)) return v.map(wireInts);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireInts(x)]));
    return v;
}

// JSON text of a value that may hold BigInt and Raw.
function toJson(v) {
    if (v instanceof Raw) return v.text;
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return "[" + v.map(toJson).join(",") + "]";
    if (v !== null && typeof v === "object")
        return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ":" + toJson(x)).join(",") + "}";
    return JSON.stringify(v);
}

// A number the user typed: BigInt when it is plain digits (an optional '-'),
// else the text itself, for the service to refuse naming the field.
function intValue(text) {
    return /^-?\d+$/.test(text) ? BigInt(text) : text;
}

const big = (v) => BigInt(v);
const fmt = (v) => (v === null || v === undefined ? "none" : typeof v === "object" ? toJson(v) : String(v));

async function api(method, path, body) {
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

// ---- DOM helpers -------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (v === false || v === null || v === undefined) continue;
        if (k === "text") e.textContent = v;
        else e.setAttribute(k, v === true ? "" : v);
    }
    e.append(...children);
    return e;
}

// An error in an alert region: the service's {"error": ...} or a message.
function showError(box, err, status) {
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

// ---- state -------------------------------------------------------------------------

const state = {
    catalog: null, // GET /v1/games
    game: null,    // the selected game's entry
    play: null,    // the game being played
};

// ---- the position form ---------------------------------------------------------

// A value of field f as the page shows and sends it: integers as BigInt.
function fieldValue(f, v) {
    return f && kindOf(f) !== "text" && kindOf(f) !== "choice" ? wireInts(v) : v;
}

// A position (an answer's `next`) with its integers as BigInt, by its fields.
function position(next) {
    return Object.fromEntries(Object.entries(next).map(([k, v]) =>
        [k, fieldValue(state.game.fields.find((f) => f.name === k), v)]));
}

// How a catalogue field is edited.
function kindOf(f) {
    if (f.type === "integer") return "int";
    if (f.type === "integer_array" || f.type === "signed_integer_array") return "list";
    if (f.type === "moves") return "moves";
    if (f.type === "string" && f.enum) return "choice";
    if (f.type === "string" || f.type === "board") return "text";
    return "json";
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

function fieldControl(f, example) {
    const kind = kindOf(f);
    const id = "f-" + f.name;
    const ex = fieldValue(f, example[f.name] !== undefined ? example[f.name] : f.default);
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
        const isRule = ex && !Array.isArray(ex) && typeof ex === "object";
        const rule = el("select", { id: id + "-rule", "aria-describedby": id + "-hint" },
            el("option", { value: "", text: "the numbers listed" }));
        for (const r of f.enum || []) rule.append(el("option", { value: r, text: r, selected: isRule && ex.rule === r }));
        input = textInput(id, Array.isArray(ex) ? ex.map(String).join(", ") : "", false);
        const sync = () => { input.disabled = rule.value !== ""; };
        rule.addEventListener("change", sync);
        sync();
        wrap.append(el("label", { for: id + "-rule", text: f.name + ": the set" }), rule);
        label.textContent = f.name + ": the numbers";
    } else {
        input = el("textarea", { id, rows: "3", spellcheck: "false", class: "mono" });
        input.value = ex === undefined ? "" : toJson(ex);
    }
    input.setAttribute("aria-describedby", hint.id);
    wrap.append(label, input, hint);
    return wrap;
}

function selectControl(id, text, options, def) {
    const s = el("select", { id });
    for (const o of options) s.append(el("option", { value: o.name, text: o.note ? `${o.name} (${o.note})` : o.name,
                                                     selected: o.name === def }));
    return el("div", { class: "field" }, el("label", { for: id, text }), s);
}

// Builds the form for GAME, filled with its example.
function buildForm(game) {
    state.game = game;
    $("game-summary").textContent = `${game.summary} (${game.kind})`;
    $("fields").replaceChildren(...game.fields.map((f) => fieldControl(f, game.example || {})));
    const rules = [];
    if (game.conventions.length > 1)
        rules.push(selectControl("convention", "Convention", game.conventions, "normal"));
    if (game.compounds.length > 1)
        rules.push(selectControl("compound", "Compound", game.compounds.map((name) => ({ name })), "disjunctive"));
    $("rules").replaceChildren(...rules);
    showError($("form-error"), null);
    // An answer to another game's position would read as this one's.
    $("answer").replaceChildren(el("p", { class: "muted", text: "Solve a position to see who wins." }));
    updatePlaySupport();
    updateChartSupport();
}

// The query the form describes: { query } or { problem: [field, message] }.
function readForm() {
    const game = state.game;
    const query = { game: game.name };
    for (const f of game.fields) {
        const kind = kindOf(f);
        const input = $("f-" + f.name);
        const t = input.value.trim();
        if (kind === "moves" && $("f-" + f.name + "-rule").value !== "") {
            query[f.name] = { rule: $("f-" + f.name + "-rule").value };
        } else if (kind === "list" || kind === "moves") {
            if (t === "" && !f.required) continue;
            query[f.name] = t === "" ? [] : t.split(/[\s,]+/).filter(Boolean).map(intValue);
        } else if (t === "" && !f.required) {
            continue;
        } else if (kind === "int") {
            query[f.name] = intValue(t);
        } else if (kind === "json") {
            try {
                JSON.parse(t);
            } catch (e) {
                return { problem: [f.name, `${f.name} is not valid JSON: ${e.message}`] };
            }
            query[f.name] = new Raw(t);
        } else {
            query[f.name] = t;
        }
    }
    for (const name of ["convention", "compound"]) {
        const s = $(name);
        const def = name === "convention" ? "normal" : "disjunctive";
        if (s && s.value !== def) query[name] = s.value;
    }
    return { query };
}

// Marks the control of a field path such as "piles[2]" as invalid.
function markInvalid(path) {
    for (const e of document.querySelectorAll("#fields [aria-invalid]")) e.removeAttribute("aria-invalid");
    if (!path) return;
    const name = path.split(/[.[]/)[0];
    const input = $("f-" + name) || $(name);
    if (input) input.setAttribute("aria-invalid", "true");
}

// Fills the form's fields from a position such as an answer's `next`.
function fillForm(position) {
    for (const [name, v] of Object.entries(position)) {
        const input = $("f-" + name);
        if (!input) continue;
        input.value = Array.isArray(v) && kindOf(state.game.fields.find((f) => f.name === name)) === "list"
            ? v.map(String).join(", ") : typeof v === "object" && v !== null ? toJson(v) : String(v);
    }
}

// ---- answers ---------------------------------------------------------------------

const WINNER = {
    first: "The player to move wins.",
    second: "The player to move loses: the second player wins.",
    draw: "A draw with best play.",
};

function componentsTable(components) {
    const cols = [];
    for (const c of components) for (const k of Object.keys(c)) if (!cols.includes(k)) cols.push(k);
    const cell = (v) => (v && typeof v === "object" && "period" in v && "preperiod" in v
        ? `period ${v.period} from heap ${v.preperiod}` : fmt(wireInts(v)));
    const shown = components.slice(0, 100);
    const table = el("table", { id: "answer-components" },
        el("caption", { text: "Components" + (components.length > shown.length ? ` (first 100 of ${components.length})` : "") }),
        el("thead", {}, el("tr", {}, ...cols.map((c) => el("th", { scope: "col", text: c })))),
        el("tbody", {}, ...shown.map((c) => el("tr", {}, ...cols.map((k) => el("td", { text: k in c ? cell(c[k]) : "" }))))));
    return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Components" }, table);
}

function renderAnswer(query, res) {
    const a = res.data;
    const box = $("answer");
    const dl = el("dl", { class: "facts" });
    const fact = (term, id, value) => dl.append(el("dt", { text: term }), el("dd", { id, text: value }));
    fact("Convention", "answer-convention", a.convention + (a.compound ? `, ${a.compound} compound` : ""));
    if ("grundy" in a) fact("Grundy value", "answer-grundy", fmt(a.grundy));
    if ("value" in a) fact("Value", "answer-value", fmt(a.value));
    fact("Winning move", "answer-move", a.move ? a.move.text : "none: every move loses");
    fact("Next position", "answer-next", a.next ? toJson(position(a.next)) : "none");
    const parts = [el("p", { id: "answer-winner", class: "verdict " + a.winner, "data-winner": a.winner,
                             text: WINNER[a.winner] || a.winner }), dl];
    if (a.next) {
        const use = el("button", { type: "button", class: "secondary", text: "Put the next position in the form" });
        use.addEventListener("click", () => { fillForm(position(a.next)); $("f-" + state.game.fields[0].name).focus(); });
        parts.push(use);
    }
    if (Array.isArray(a.components) && a.components.length) parts.push(componentsTable(a.components));
    parts.push(el("p", { id: "answer-explanation", class: "explanation", text: a.explanation || "" }));
    parts.push(el("details", {}, el("summary", { text: "Request and response JSON" }),
        el("pre", { id: "answer-request", text: toJson(query) }), el("pre", { id: "answer-raw", text: res.text })));
    box.replaceChildren(...parts);
}

async function solve(event) {
    event.preventDefault();
    const { query, problem } = readForm();
    const err = $("form-error");
    if (problem) {
        markInvalid(problem[0]);
        showError(err, problem[1]);
        return;
    }
    const box = $("answer");
    box.setAttribute("aria-busy", "true");
    $("solve").disabled = true;
    try {
        const res = await api("POST", "/v1/analyze", query);
        if (res.ok && res.data) {
            markInvalid(null);
            showError(err, null);
            renderAnswer(query, res);
        } else {
            const e = res.data && res.data.error;
            markInvalid(e && e.field);
            showError(err, e || `The service answered ${res.status}.`, res.status);
            box.replaceChildren(el("p", { class: "muted", text: "No answer: the service refused the query (the error is under the form)." }));
        }
    } catch (e) {
        showError(err, `The service did not answer: ${e.message}`);
    } finally {
        box.setAttribute("aria-busy", "false");
        $("solve").disabled = false;
    }
}

// ---- play ------------------------------------------------------------------------------
// Games whose moves the page enumerates exactly. Each rule works on a list of
// BigInt heaps: `after` applies a move (or says why it is illegal), `legal`
// tells whether one position follows another by one move, `any` is some move
// (the service's when it is losing), null when there is none.

const RULES = {
    nim: {
        after(p, m) {
            if (m.take < 1n || m.take > p[m.pile]) return `take 1 to ${p[m.pile]} from pile ${m.pile}`;
            return p.map((x, i) => (i === m.pile ? x - m.take : x));
        },
        legal: (p, q) => oneHeapDown(p, q, () => true),
        any: (p) => takeFromLargest(p, 1n),
    },
    subtraction: {
        after(p, m, s) {
            if (!s.includes(m.take) || m.take > p[m.pile])
                return `take one of ${s.join(", ")} (at most ${p[m.pile]}) from pile ${m.pile}`;
            return p.map((x, i) => (i === m.pile ? x - m.take : x));
        },
        legal: (p, q, s) => oneHeapDown(p, q, (d) => s.includes(d)),
        any(p, s) {
            const least = s.reduce((a, b) => (b < a ? b : a));
            return takeFromLargest(p, least);
        },
    },
    wythoff: {
        after(p, m) {
            const idx = m.pile === 2 ? [0, 1] : [m.pile];
            if (m.take < 1n || idx.some((i) => m.take > p[i]))
                return `take 1 to ${idx.map((i) => p[i]).reduce((a, b) => (b < a ? b : a))} from ${m.pile === 2 ? "both piles" : "pile " + m.pile}`;
            return p.map((x, i) => (idx.includes(i) ? x - m.take : x));
        },
        legal(p, q) {
            if (q.length !== 2) return false;
            const d = [p[0] - q[0], p[1] - q[1]];
            return (d[0] > 0n && (d[1] === 0n || d[1] === d[0])) || (d[0] === 0n && d[1] > 0n);
        },
        any: (p) => takeFromLargest(p, 1n),
    },
};

function oneHeapDown(p, q, ok) {
    if (q.length !== p.length) return false;
    const changed = p.map((x, i) => x - q[i]).filter((d) => d !== 0n);
    return changed.length === 1 && changed[0] > 0n && ok(changed[0]);
}

// Takes N from the largest heap that has N, or null.
function takeFromLargest(p, n) {
    let best = -1;
    p.forEach((x, i) => { if (x >= n && (best < 0 || x > p[best])) best = i; });
    return best < 0 ? null : p.map((x, i) => (i === best ? x - n : x));
}

function describeMove(before, after) {
    const d = before.map((x, i) => [i, x, after[i]]).filter(([, x, y]) => x !== y);
    const text = d.map(([i, x, y]) => `take ${x - y} from pile ${i} (${x} → ${y})`).join(" and ");
    return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

// Why the form's position cannot be played here, or null.
function playProblem(query) {
    const game = state.game;
    if (!RULES[game.name]) return `${game.name} cannot be played here: play needs a game whose moves the page can list (nim, subtraction with a listed set, wythoff).`;
    if (query.compound) return "Play uses the disjunctive compound only.";
    if (game.name === "subtraction") {
        if (!Array.isArray(query.moves)) return "Play needs the subtraction set listed as numbers, not a rule.";
        if (!query.moves.length || query.moves.some((m) => typeof m !== "bigint" || m < 1n)) return "The set must be positive integers.";
    }
    if (!Array.isArray(query.piles) || query.piles.some((x) => typeof x !== "bigint" || x < 0n))
        return "The piles must be non-negative integers, written as plain digits.";
    const conv = game.conventions.find((c) => c.name === (query.convention || "normal"));
    if (conv && conv.scope === "one_component" && query.piles.length > 1)
        return `${conv.name} play of ${game.name} is answered for one pile only.`;
    return null;
}

function updatePlaySupport() {
    const ok = !!RULES[state.game.name];
    $("play-support").textContent = ok
        ? "Start a game from the position in the form; your moves are checked before they are made."
        : `${state.game.name} cannot be played here; play is offered for nim, subtraction (a listed set) and wythoff.`;
    $("play-start").disabled = !ok;
}

function startGame(event) {
    event.preventDefault();
    const err = $("play-error");
    const { query, problem } = readForm();
    const why = problem ? problem[1] : playProblem(query);
    if (why) {
        showError(err, why);
        return;
    }
    showError(err, null);
    const first = document.querySelector("input[name=first]:checked").value;
    state.play = {
        game: state.game.name, convention: query.convention || "normal", set: query.moves || null,
        heaps: query.piles, turn: first, over: false, history: [],
        query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== "piles")),
    };
    $("play-board").hidden = false;
    $("history").replaceChildren();
    setStatus(first === "user" ? "Your move." : "");
    renderPlay();
    if (first === "service") serviceTurn();
    else $("move-take").focus();
}

function renderPlay() {
    const g = state.play;
    $("play-heaps").replaceChildren(...g.heaps.map((h, i) =>
        el("li", { "data-heap": String(h) }, `Pile ${i}: `, el("strong", { text: String(h) }))));
    const pile = $("move-pile");
    const keep = pile.value;
    const options = g.heaps.map((h, i) => el("option", { value: String(i), text: `pile ${i} (${h})` }));
    if (g.game === "wythoff") options.push(el("option", { value: "2", text: "both piles" }));
    pile.replaceChildren(...options);
    if (keep && Number(keep) < options.length) pile.value = keep;
    $("move-hint").textContent = g.game === "subtraction"
        ? `Take one of ${g.set.join(", ")} from one pile.`
        : g.game === "wythoff" ? "Take any number from one pile, or the same number from both." : "Take any number from one pile.";
    const busy = g.over || g.turn !== "user";
    for (const id of ["move-pile", "move-take", "move-submit"]) $(id).disabled = busy;
}

function setStatus(text, cls) {
    const s = $("play-status");
    s.className = "status " + (cls || "");
    s.textContent = text;
    s.removeAttribute("data-result");
}

function record(who, before, after, text) {
    const g = state.play;
    g.history.push({ who, before, after });
    $("history").append(el("li", { "data-player": who, "data-before": toJson(before), "data-after": toJson(after) },
        el("strong", { text: who === "user" ? "You: " : "Service: " }), text));
    g.heaps = after;
}

// Ends the game when the player to move has no move; returns true if so.
function checkOver() {
    const g = state.play;
    if (RULES[g.game].any(g.heaps, g.set)) return false;
    const moverWins = g.convention === "misere";
    const userWins = (g.turn === "user") === moverWins;
    g.over = true;
    const stuck = g.turn === "user" ? "You have no move left" : "The service has no move left";
    setStatus(`Game over: ${userWins ? "you won!" : "the service won."} ${stuck}` +
        (moverWins ? " (misère play: the player who cannot move wins)." : "."), userWins ? "won" : "lost");
    $("play-status").setAttribute("data-result", userWins ? "user" : "service");
    renderPlay();
    return true;
}

function userMove(event) {
    event.preventDefault();
    const g = state.play;
    if (!g || g.over || g.turn !== "user") return;
    const err = $("play-error");
    const t = $("move-take").value.trim();
    const pile = Number($("move-pile").value);
    if (!/^\d+$/.test(t)) {
        showError(err, "Illegal move: the amount must be a positive integer.");
        $("move-take").setAttribute("aria-invalid", "true");
        return;
    }
    const after = RULES[g.game].after(g.heaps, { pile, take: BigInt(t) }, g.set);
    if (typeof after === "string") {
        showError(err, `Illegal move: ${after}.`);
        $("move-take").setAttribute("aria-invalid", "true");
        return;
    }
    $("move-take").removeAttribute("aria-invalid");
    showError(err, null);
    record("user", g.heaps, after, describeMove(g.heaps, after));
    $("move-take").value = "";
    g.turn = "service";
    if (!checkOver()) serviceTurn();
}

async function serviceTurn() {
    const g = state.play;
    if (checkOver()) return;
    renderPlay();
    setStatus("The service is thinking…");
    let res;
    try {
        res = await api("POST", "/v1/analyze", { ...g.query, piles: g.heaps });
    } catch (e) {
        res = { ok: false, status: 0, data: null };
    }
    if (g !== state.play) return; // a new game started meanwhile
    if (!res.ok || !res.data) {
        showError($("play-error"), (res.data && res.data.error) || "The service did not answer; start again.", res.status);
        g.over = true;
        setStatus("The game stopped: the service could not answer.");
        renderPlay();
        return;
    }
    const a = res.data;
    let after;
    let text;
    if (a.winner === "first" && a.next && Array.isArray(a.next.piles)) {
        after = a.next.piles.map(big);
        if (!RULES[g.game].legal(g.heaps, after, g.set)) {
            showError($("play-error"), `The service answered an illegal move: ${toJson(a.next)}.`);
            g.over = true;
            setStatus("The game stopped on an illegal move.");
            renderPlay();
            return;
        }
        text = a.move.text;
    } else {
        after = RULES[g.game].any(g.heaps, g.set);
        text = describeMove(g.heaps, after) + " (The service is losing, so it makes any legal move.)";
    }
    record("service", g.heaps, after, text);
    g.turn = "user";
    if (!checkOver()) {
        setStatus("Your move.", "");
        renderPlay();
        $("move-take").focus();
    }
}

// ---- the Grundy sequence -----------------------------------------------------------

// Heap games: one `piles` list of plain heaps.
function isHeapGame(game) {
    return game.kind === "impartial" &&
        game.fields.some((f) => f.name === "piles" && f.type === "integer_array" && String(f.min_items) === "0");
}

function updateChartSupport() {
    const ok = isHeapGame(state.game);
    $("chart-support").textContent = ok
        ? `The values g(0), g(1), … of one heap of ${state.game.name} with the other fields of the form.`
        : `${state.game.name} is not a heap game; the sequence is drawn for nim, subtraction, octal and Grundy's game.`;
    $("chart-draw").disabled = !ok;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
}

function drawChart(values, period, title) {
    const w = 640, h = 240, left = 36, bottom = 24, top = 12;
    const n = values.length;
    const max = values.reduce((m, v) => (v !== null && v > m ? v : m), 1);
    const bw = (w - left - 8) / n;
    const y = (v) => top + (h - top - bottom) * (1 - v / max);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-labelledby": "chart-title chart-desc",
                               class: "chart", id: "chart-svg" });
    chart.append(svg("title", { id: "chart-title" }, title));
    chart.append(svg("desc", { id: "chart-desc" },
        `Bar chart of the Grundy values of heaps 0 to ${n - 1}; the largest is ${max}.` +
        (period ? ` Period ${period.period} from heap ${period.preperiod}.` : "")));
    if (period && period.preperiod < n) {
        const x0 = left + period.preperiod * bw;
        const x1 = Math.min(left + (period.preperiod + period.period) * bw, w - 8);
        chart.append(svg("rect", { x: x0, y: top, width: x1 - x0, height: h - top - bottom, class: "band" }));
    }
    chart.append(svg("line", { x1: left, y1: h - bottom, x2: w - 8, y2: h - bottom, class: "axis" }));
    chart.append(svg("text", { x: left - 6, y: y(max) + 4, "text-anchor": "end", class: "tick" }, String(max)));
    chart.append(svg("text", { x: left - 6, y: h - bottom + 4, "text-anchor": "end", class: "tick" }, "0"));
    const step = Math.max(1, Math.ceil(n / 12 / 5) * 5);
    values.forEach((v, i) => {
        const x = left + i * bw;
        if (v !== null) {
            const bar = svg("rect", { x: x + bw * 0.1, y: y(v), width: Math.max(bw * 0.8, 0.5),
                                      height: h - bottom - y(v), class: "bar", "data-heap": i, "data-value": v });
            bar.append(svg("title", {}, `g(${i}) = ${v}`));
            chart.append(bar);
        }
        if (i % step === 0)
            chart.append(svg("text", { x: x + bw / 2, y: h - 6, "text-anchor": "middle", class: "tick" }, String(i)));
    });
    return chart;
}

async function drawSequence(event) {
    event.preventDefault();
    const err = $("chart-error");
    const box = $("chart");
    const t = $("chart-n").value.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 500) {
        $("chart-n").setAttribute("aria-invalid", "true");
        showError(err, "The last heap must be an integer from 1 to 500.");
        return;
    }
    $("chart-n").removeAttribute("aria-invalid");
    const { query, problem } = readForm();
    if (problem) {
        showError(err, problem[1]);
        return;
    }
    delete query.convention; // Grundy values are normal play, one heap at a time
    delete query.compound;
    const n = Number(t);
    const queries = [];
    for (let i = 0; i <= n; i++) queries.push({ ...query, piles: [BigInt(i)] });
    box.setAttribute("aria-busy", "true");
    try {
        const res = await api("POST", "/v1/batch", { queries });
        if (!res.ok || !res.data) {
            showError(err, (res.data && res.data.error) || `The service answered ${res.status}.`, res.status);
            return;
        }
        const results = res.data.results;
        const bad = results.find((r) => r.error);
        if (bad) {
            showError(err, bad.error, 422);
            return;
        }
        showError(err, null);
        const values = results.map((r) => (r.grundy === null ? null : Number(r.grundy)));
        const withPeriod = results.find((r) => r.components && r.components[0] && r.components[0].period);
        const p = withPeriod ? withPeriod.components[0].period : null;
        const period = p ? { preperiod: Number(p.preperiod), period: Number(p.period) } : null;
        const name = state.game.name + (query.code ? " " + query.code : "") +
            (query.moves ? " S = " + (Array.isArray(query.moves) ? "{" + query.moves.join(", ") + "}" : query.moves.rule) : "");
        const facts = period
            ? `Period ${period.period} from heap ${period.preperiod} (certified by the service; the shaded band is the first period).`
            : "The service reported no period for these heaps.";
        box.replaceChildren(
            drawChart(values, period, `Grundy values of ${name}`),
            el("p", { id: "chart-period", class: "period", text: facts }),
            el("p", { id: "chart-values", class: "sequence mono", text: `g(0…${n}) = ${values.map(fmt).join(", ")}` }));
    } catch (e) {
        showError(err, `The service did not answer: ${e.message}`);
    } finally {
        box.setAttribute("aria-busy", "false");
    }
}

// ---- start -------------------------------------------------------------------------

async function init() {
    const status = $("catalog-status");
    try {
        const res = await api("GET", "/v1/games");
        if (!res.ok || !res.data) throw new Error(`GET /v1/games answered ${res.status}`);
        state.catalog = res.data;
    } catch (e) {
        status.textContent = `The game catalogue could not be loaded: ${e.message}.`;
        status.classList.add("error");
        return;
    }
    const select = $("game");
    select.replaceChildren(...state.catalog.games.map((g) => el("option", { value: g.name, text: g.name })));
    select.value = "nim";
    select.addEventListener("change", () => buildForm(state.catalog.games.find((g) => g.name === select.value)));
    buildForm(state.catalog.games.find((g) => g.name === select.value) || state.catalog.games[0]);
    for (const id of ["game", "solve", "example"]) $(id).disabled = false;
    status.textContent = `${state.catalog.games.length} games in the catalogue.`;
    $("example").addEventListener("click", () => buildForm(state.game));
    $("query-form").addEventListener("submit", solve);
    $("play-setup").addEventListener("submit", startGame);
    $("move-form").addEventListener("submit", userMove);
    $("chart-form").addEventListener("submit", drawSequence);
    document.body.setAttribute("data-ready", "true");
}

init();
