// SPDX-License-Identifier: MIT
// grundyd playground: a game against the service on a board. The legal moves
// are those of POST /v1/moves for the position shown, the service's replies
// and hints come from POST /v1/analyze; the page knows no rule of any game.
// Positions are kept as a list with the one shown, for undo and redo.
import { $, api, el, showError, toJson, wireInts, sameJson } from "./util.js";
import { reasons } from "./answer.js";
import { board } from "./boards.js";
import { position } from "./form.js";

const MOVES_LIMIT = 1000;
let g = null;          // the game being played
let onPosition = null; // told of each position shown (the URL, the request block)

export const playing = () => g;

export function setPositionListener(fn) { onPosition = fn; }

// Who is to move at ply I.
const moverAt = (i) => ((i % 2 === 0) === g.userFirst ? "user" : "service");

// Forgets the game (another game or position was chosen): no stale board.
export function stopGame() {
    g = null;
    $("play-board").hidden = true;
    $("board-box").replaceChildren();
    $("history").replaceChildren();
    showError($("play-error"), null);
}

export function startGame(game, query, userFirst) {
    g = { game, userFirst, positions: [query], plies: [null], at: 0, moves: null, sel: null, hint: -1, over: false };
    $("play-board").hidden = false;
    showError($("play-error"), null);
    show(0);
}

function setStatus(text, cls, result) {
    const s = $("play-status");
    s.className = "status " + (cls || "");
    s.textContent = text;
    if (result) s.setAttribute("data-result", result);
    else s.removeAttribute("data-result");
}

function stop(message, error, status) {
    g.over = true;
    showError($("play-error"), error || message, status);
    setStatus(message);
    render();
}

// Shows ply I: fetches its legal moves, then ends the game, waits for the
// user, or lets the service move.
export async function show(i) {
    const game = g;
    g.at = i;
    g.sel = null;
    g.hint = -1;
    g.over = false;
    g.moves = null;
    if (onPosition) onPosition(g.positions[i], true);
    setStatus("Loading the legal moves…");
    render();
    // A game with a field named limit (fibonacci) lists its moves by cursor only.
    const ownLimit = g.game.fields.some((f) => f.name === "limit");
    const body = ownLimit ? g.positions[i] : { ...g.positions[i], limit: BigInt(MOVES_LIMIT) };
    const res = await api("POST", "/v1/moves", body).catch(() => ({ ok: false }));
    if (game !== g || g.at !== i) return;
    if (!res.ok || !res.data) return stop("The game stopped: the service did not list the moves.", res.data && res.data.error, res.status);
    g.moves = res.data;
    if (g.moves.moves.length === 0) return finish();
    if (moverAt(i) === "service" && i === g.positions.length - 1) return serviceTurn();
    setStatus(moverAt(i) === "user" ? "Your move." : "The service's move (redo to see it).");
    render();
}

// Plays move K of the listed moves for the player to move.
function play(k, who, text, why) {
    const m = g.moves.moves[k];
    const next = { ...g.positions[g.at], ...position(m.next, g.game) };
    g.positions.length = g.at + 1;
    g.plies.length = g.at + 1;
    g.positions.push(next);
    g.plies.push({ who, move: m.move, text, why });
    show(g.at + 1);
}

export function userPlays(k) {
    if (!g || g.over || !g.moves || moverAt(g.at) !== "user") return;
    showError($("play-error"), null);
    play(k, "user", g.moves.moves[k].move.text, null);
}

async function serviceTurn() {
    const game = g, at = g.at;
    setStatus("The service is thinking…");
    render();
    const res = await api("POST", "/v1/analyze", g.positions[at]).catch(() => ({ ok: false }));
    if (game !== g || g.at !== at) return;
    if (!res.ok || !res.data) return stop("The game stopped: the service could not answer.", res.data && res.data.error, res.status);
    const a = res.data;
    if (a.move && a.next) {
        const k = g.moves.moves.findIndex((m) => sameJson(m.next, a.next));
        if (k < 0) return stop(`The game stopped: the service's move ${toJson(a.next)} is not among its legal moves.`);
        return play(k, "service", a.move.text, a);
    }
    play(0, "service", `${g.moves.moves[0].move.text} (The service cannot force a win here, so it plays a legal move.)`, a);
}

// The sum of the stones each player took, in games whose moves score.
function tally() {
    const sum = { user: 0n, service: 0n };
    let scored = false;
    for (let i = 1; i <= g.at; i++) {
        const p = g.plies[i];
        if (p.move.stones !== undefined) { scored = true; sum[p.who] += BigInt(p.move.stones); }
    }
    return scored ? sum : null;
}

// The game is over (no legal move): the final position's answer, or the
// stones taken where moves score, says who won.
async function finish() {
    const game = g, at = g.at;
    let result, why;
    const sum = tally();
    if (sum) {
        result = sum.user > sum.service ? "user" : sum.user < sum.service ? "service" : "draw";
        why = `You took ${sum.user} stones, the service ${sum.service}.`;
    } else {
        const res = await api("POST", "/v1/analyze", g.positions[at]).catch(() => ({ ok: false }));
        if (game !== g || g.at !== at) return;
        if (!res.ok || !res.data) return stop("The game ended, but the service did not say who won.", res.data && res.data.error, res.status);
        const mover = moverAt(at), other = mover === "user" ? "service" : "user";
        result = { first: mover, second: other, draw: "draw" }[res.data.winner];
        why = res.data.explanation || "";
    }
    g.over = true;
    const head = result === "draw" ? "Game over: a draw." : result === "user" ? "Game over: you won!" : "Game over: the service won.";
    setStatus(`${head} ${why}`, result === "user" ? "won" : result === "service" ? "lost" : "", result);
    render();
}

export function undo() {
    if (!g) return;
    for (let j = g.at - 1; j >= 0; j--) if (moverAt(j) === "user") return show(j);
}

export function redo() {
    if (!g) return;
    for (let j = g.at + 1; j < g.positions.length; j++) if (moverAt(j) === "user" || j === g.positions.length - 1) return show(j);
}

// Goes to a position of this game (back and forward in the browser), if it is one.
export function seek(query) {
    if (!g) return false;
    const j = g.positions.findIndex((p) => toJson(p) === toJson(query));
    if (j < 0) return false;
    if (j !== g.at) show(j);
    return true;
}

export async function hint() {
    if (!g || g.over || !g.moves || moverAt(g.at) !== "user") return;
    const game = g, at = g.at;
    const res = await api("POST", "/v1/analyze", g.positions[at]).catch(() => ({ ok: false }));
    if (game !== g || g.at !== at || !res.ok || !res.data) return;
    const a = res.data;
    g.hint = a.next ? g.moves.moves.findIndex((m) => sameJson(m.next, a.next)) : -1;
    const text = a.move && a.winner === "first" ? `Hint: ${a.move.text}` : a.move ? `Hint (no forced win): ${a.move.text}`
        : "Hint: every move loses against best play; make any move.";
    render();
    $("play-hint").replaceChildren(el("p", { id: "hint-text", text }), ...reasons(a, "hint"));
}

// The chooser for a click that several moves share.
function offer(indices, title) {
    if (indices.length === 1) return userPlays(indices[0]);
    const box = $("chooser");
    box.hidden = false;
    box.replaceChildren(el("p", { id: "chooser-h", text: `${title}: which move?` }),
        ...indices.map((k) => {
            const b = el("button", { type: "button", class: "secondary", text: g.moves.moves[k].move.text, "data-choice": String(k) });
            b.addEventListener("click", () => { box.hidden = true; userPlays(k); });
            return b;
        }));
    box.querySelector("button").focus();
}

function historyItems() {
    const items = [];
    for (let i = 1; i < g.positions.length; i++) {
        const p = g.plies[i];
        const li = el("li", { "data-player": p.who, "data-before": toJson(g.positions[i - 1]), "data-after": toJson(g.positions[i]),
                              class: i > g.at ? "undone" : false },
            el("strong", { text: p.who === "user" ? "You: " : "Service: " }), p.text);
        if (p.why && i <= g.at) li.append(el("details", {}, el("summary", { text: "Why" }), ...reasons(p.why, `why-${i}`)));
        items.push(li);
    }
    return items;
}

function render() {
    if (!g) return;
    const yours = !g.over && g.moves && moverAt(g.at) === "user";
    const list = yours ? g.moves.moves : [];
    const ctx = { game: g.game.name, pos: wireInts(g.positions[g.at]), moves: list, hint: g.hint, sel: g.sel,
                  offer, select: (v) => { g.sel = g.sel === v ? null : v; render(); } };
    // A keyboard user on the board stays on it when it is drawn anew.
    const focused = $("board-box").contains(document.activeElement);
    $("board-box").replaceChildren(board(ctx));
    if (focused) {
        const next = $("board-box").querySelector("[data-stage='2']:not([disabled]), [data-target]:not([disabled]):not([tabindex='-1'])");
        (next || $("play-status")).focus();
    }
    const sum = tally();
    $("play-score").textContent = sum ? `Stones taken: you ${sum.user}, the service ${sum.service}.` : "";
    $("board-box").setAttribute("data-position", toJson(g.positions[g.at]));
    $("board-box").setAttribute("data-state", g.over ? "over" : !g.moves ? "loading" : moverAt(g.at));
    $("chooser").hidden = true;
    const select = $("play-moves");
    select.replaceChildren(...list.map((m, k) => el("option", { value: String(k), text: m.move.text })));
    select.disabled = !list.length;
    $("play-move").disabled = !list.length;
    $("play-hint-btn").disabled = !yours;
    $("play-undo").disabled = !g.positions.slice(0, g.at).some((_, j) => moverAt(j) === "user");
    $("play-redo").disabled = g.at >= g.positions.length - 1;
    if (g.hint < 0) $("play-hint").replaceChildren();
    const more = g.moves && g.moves.cursor ? ` (the first ${MOVES_LIMIT} of ${g.moves.total} moves are listed)` : "";
    $("play-moves-hint").textContent = `Every legal move, as the service lists it${more}.`;
    $("history").replaceChildren(...historyItems());
}
