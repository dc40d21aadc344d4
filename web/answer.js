// SPDX-License-Identifier: MIT
// grundyd playground: an answer of POST /v1/analyze on the page, with its
// structured `why` and `winning_moves` drawn generically, and the request as
// JSON and as a curl command.
import { $, el, fmt, toJson, wireInts } from "./util.js";

const WINNER = {
    first: "The player to move wins.",
    second: "The player to move loses: the second player wins.",
    draw: "A draw with best play.",
};

// The facts a game has: score games have a value and no Grundy value; a
// convention is shown only where the catalogue offers a choice of them.
export function factsFor(game, a) {
    const facts = [];
    if (game.conventions.length > 1 && game.kind !== "score")
        facts.push(["Convention", "answer-convention", a.convention + (a.compound ? `, ${a.compound} compound` : "")]);
    if (game.kind === "score" || ("value" in a && a.grundy === null)) {
        if ("value" in a) facts.push(["Value for the player to move", "answer-value", fmt(a.value)]);
    } else if ("grundy" in a && a.grundy !== null) {
        facts.push(["Grundy value", "answer-grundy", fmt(a.grundy)]);
    } else if ((a.components || []).some((c) => c.infinite === true)) {
        facts.push(["Grundy value", "answer-grundy", "infinite: a token can be moved forever (see Why)"]);
    } // else none applies (misère play, a conjunctive or selective sum): Why tells what decides
    return facts;
}

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

// Nothing to show: null, or empty lists and objects all the way down.
function isEmpty(v) {
    if (v === null || v === undefined) return true;
    if (Array.isArray(v)) return v.every(isEmpty);
    if (typeof v === "object") return Object.values(v).every(isEmpty);
    return false;
}

// Any JSON value as nested lists: an object's `text` first, then its `steps`
// as a numbered list, its other members as term and value, arrays as numbered lists. Bounded in
// depth and length, since `why` may be large.
export function renderJson(v, depth = 0) {
    if (v === null || typeof v !== "object") return document.createTextNode(fmt(v));
    if (depth > 5) return el("code", { text: toJson(v).slice(0, 200) });
    if (Array.isArray(v)) {
        if (v.every((x) => x === null || typeof x !== "object")) return document.createTextNode(v.map(fmt).join(", "));
        const shown = v.slice(0, 50);
        const list = el("ol", { class: "why-list" }, ...shown.map((x) => el("li", {}, renderJson(x, depth + 1))));
        return v.length > shown.length ? el("div", {}, list, el("p", { class: "hint", text: `… ${v.length - shown.length} more` })) : list;
    }
    // A move (as in winning_moves) is named by its text, its position after by compact JSON.
    const moveText = v.move && typeof v.move === "object" && typeof v.move.text === "string" ? v.move.text : null;
    const head = typeof v.text === "string" ? v.text : moveText;
    const steps = Array.isArray(v.steps) ? v.steps : null;
    const rest = Object.entries(v).filter(([k, x]) => k !== "text" && !(k === "steps" && steps) &&
                                                   !(k === "move" && moveText) && !isEmpty(x));
    const box = el("div", { class: "why-item" });
    if (head) box.append(el("p", { text: head }));
    if (steps) box.append(renderJson(steps, depth + 1));
    if (rest.length) {
        const dl = el("dl", { class: "facts why-facts" });
        for (const [k, x] of rest) dl.append(el("dt", { text: k.replace(/_/g, " ") }),
            el("dd", {}, k === "next" ? el("code", { text: toJson(wireInts(x)) }) : renderJson(x, depth + 1)));
        box.append(dl);
    }
    return box;
}

// The reasons an answer gives: `why` and `winning_moves` when it has them,
// else the `explanation` text.
export function reasons(a, idPrefix) {
    const parts = [el("p", { id: idPrefix + "-explanation", class: "explanation", text: a.explanation || "" })];
    if (!isEmpty(a.why))
        parts.push(el("div", { id: idPrefix + "-why", class: "why" }, el("h3", { text: "Why" }), renderJson(a.why)));
    if (!isEmpty(a.winning_moves))
        parts.push(el("div", { id: idPrefix + "-winning-moves", class: "why" }, el("h3", { text: "Winning moves" }),
                      renderJson(a.winning_moves)));
    return parts;
}

// The request as JSON and as a curl command, each with a copy button.
export function requestBlock(query, path = "/v1/analyze") {
    const json = toJson(query);
    const curl = `curl -sS -H 'Content-Type: application/json' -d '${json.replace(/'/g, "'\\''")}' ${location.origin}${path}`;
    const copy = (text, label) => {
        const b = el("button", { type: "button", class: "secondary small", text: label });
        b.addEventListener("click", async () => {
            try {
                await navigator.clipboard.writeText(text);
                b.textContent = "Copied";
            } catch (e) {
                b.textContent = "Select the text to copy it";
            }
        });
        return b;
    };
    return el("div", { class: "request" },
        el("h3", { text: "This request" }),
        el("pre", { id: "request-json", text: json }), copy(json, "Copy the JSON"),
        el("pre", { id: "request-curl", text: curl }), copy(curl, "Copy the curl command"));
}

// Shows answer RES to QUERY; onNext puts its next position in the form.
export function renderAnswer(game, query, res, onNext) {
    const a = res.data;
    const dl = el("dl", { class: "facts" });
    for (const [term, id, value] of factsFor(game, a)) dl.append(el("dt", { text: term }), el("dd", { id, text: value }));
    dl.append(el("dt", { text: "Best move" }), el("dd", { id: "answer-move", text: a.move ? a.move.text : "none: every move loses" }));
    dl.append(el("dt", { text: "Next position" }), el("dd", { id: "answer-next", text: a.next ? toJson(wireInts(a.next)) : "none" }));
    const parts = [el("p", { id: "answer-winner", class: "verdict " + a.winner, "data-winner": a.winner,
                             text: WINNER[a.winner] || a.winner }), dl];
    if (a.next) {
        const use = el("button", { type: "button", class: "secondary", text: "Go to the next position" });
        use.addEventListener("click", () => onNext(a.next));
        parts.push(use);
    }
    if (Array.isArray(a.components) && a.components.length) parts.push(componentsTable(a.components));
    parts.push(...reasons(a, "answer"));
    parts.push(requestBlock(query));
    parts.push(el("details", {}, el("summary", { text: "Response JSON" }), el("pre", { id: "answer-raw", text: res.text })));
    $("answer").replaceChildren(...parts);
}
