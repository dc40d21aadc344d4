// SPDX-License-Identifier: MIT
// grundyd playground: a board for each game. A board only draws the position
// and maps a click to the legal moves of POST /v1/moves whose `move` fields
// match the clicked element (ctx.offer plays one, or offers a chooser when
// several share it); which moves exist is the service's word alone.
import { el, svg } from "./util.js";
import { layout } from "./graph_layout.js";

const MAX_TOKENS = 24; // tokens drawn per pile; larger piles show their top ones
const eq = (a, b) => a !== undefined && a !== null && String(a) === String(b);
const idx = (moves, pred) => moves.flatMap((m, i) => (pred(m.move) ? [i] : []));

// A clickable element for the moves INDICES (disabled when there are none).
function target(ctx, tag, attrs, indices, title, ...children) {
    const b = el(tag, { type: tag === "button" ? "button" : false, "data-target": "", ...attrs }, ...children);
    if (!indices.length) b.disabled = true;
    if (indices.includes(ctx.hint)) b.classList.add("hinted");
    b.addEventListener("click", () => { if (indices.length) ctx.offer(indices, title); });
    return b;
}

// Piles of tokens: clicking a token takes it and every token above it.
// MATCH(pile, amount) gives the moves of that click.
function pileBoard(ctx, sizes, label, match, caption) {
    const list = el("ul", { class: "piles", "aria-label": caption });
    sizes.forEach((size, i) => {
        const n = BigInt(size);
        const shown = n > BigInt(MAX_TOKENS) ? MAX_TOKENS : Number(n);
        const stack = el("div", { class: "stack" });
        for (let t = shown - 1; t >= 0; t--) {
            const amount = BigInt(shown - t); // from the top of the pile down to this token
            const moves = match(i, amount);
            stack.append(target(ctx, "button", { class: "token", "aria-label": `${label(i)}: take ${amount}`,
                                                 "data-pile": i, "data-take": String(amount) },
                                moves, `${label(i)}: take ${amount}`));
        }
        const more = n > BigInt(MAX_TOKENS) ? ` (top ${MAX_TOKENS} of ${n} shown)` : "";
        list.append(el("li", { class: "pile", "data-size": String(size) }, stack,
                       el("span", { class: "pile-label", text: `${label(i)}: ${size}${more}` })));
    });
    return list;
}

const pileMove = (ctx) => (i, k) => idx(ctx.moves, (m) => eq(m.pile, i) && eq(m.take, k));

const BOARDS = {
    heaps: (ctx) => pileBoard(ctx, ctx.pos.piles, (i) => `Pile ${i}`, pileMove(ctx), "Piles"),
    strange_nim: (ctx) => pileBoard(ctx, ctx.pos.piles.map((p) => p[0]), (i) => `Pile ${i} (k = ${ctx.pos.piles[i][1]})`,
                                    pileMove(ctx), "Piles"),
    grundys_game: (ctx) => pileBoard(ctx, ctx.pos.piles, (i) => `Pile ${i}`, (i, k) =>
        idx(ctx.moves, (m) => eq(m.pile, i) && Array.isArray(m.split) && m.split.some((s) => eq(s, k))), "Piles to split"),
    wythoff: (ctx) => pileBoard(ctx, ctx.pos.piles, (i) => `Pile ${i}`, (i, k) =>
        idx(ctx.moves, (m) => Array.isArray(m.take) && eq(m.take[i], k) && (eq(m.take[1 - i], 0) || eq(m.take[1 - i], k))), "Piles"),
    staircase: (ctx) => stairs(ctx),
    single: (ctx) => pileBoard(ctx, [ctx.pos.n], () => "Tokens", (i, k) => idx(ctx.moves, (m) => eq(m.take, k)), "Tokens"),
    stones: (ctx) => stoneRow(ctx),
    coins: (ctx) => coinRow(ctx),
    cells: (ctx) => cellGrid(ctx),
    can_i_win: (ctx) => chips(ctx),
    graph: (ctx) => graphBoard(ctx),
    grid: (ctx) => gridBoard(ctx),
};

const BOARD_OF = {
    nim: "heaps", subtraction: "heaps", octal: "heaps", grundys_game: "grundys_game", wythoff: "wythoff",
    strange_nim: "strange_nim", staircase: "staircase", fibonacci: "single", divisor: "single",
    stone_row: "stones", stone_prefix: "stones", stone_front3: "stones", coins: "coins",
    tictactoe: "cells", mnk: "cells", can_i_win: "can_i_win", graph: "graph", grid: "grid",
};

export const hasBoard = (game) => game in BOARD_OF;

// The board of CTX.pos: ctx = { game, pos, moves, offer, hint, sel, select }.
export function board(ctx) {
    return el("div", { class: `board board-${BOARD_OF[ctx.game]}`, id: "board" }, BOARDS[BOARD_OF[ctx.game]](ctx));
}

// Stairs rising to the right, stair 0 the floor: clicking a coin moves it and
// the coins above it one stair down.
function stairs(ctx) {
    const list = pileBoard(ctx, ctx.pos.stairs, (i) => (i === 0 ? "Floor" : `Stair ${i}`),
        (i, k) => idx(ctx.moves, (m) => eq(m.from, i) && eq(m.count, k)), "Stairs");
    [...list.children].forEach((li, i) => li.style.setProperty("--step", String(i)));
    list.classList.add("stairs");
    return list;
}

// Stone rows as piles: a click takes that pile (stone_row: first or last) or
// the piles up to it (the prefix games).
function stoneRow(ctx) {
    const list = el("ul", { class: "stone-row", "aria-label": "The row of piles" });
    ctx.pos.stones.forEach((s, i) => {
        const moves = idx(ctx.moves, (m) => (m.pile !== undefined ? eq(m.pile, i) : eq(m.take, i + 1)));
        list.append(el("li", {}, target(ctx, "button", { class: "stone-pile", "data-pile": i,
            "aria-label": `Pile ${i}: ${s} stones` }, moves, `Pile ${i}`, el("span", { class: "stone-count", text: String(s) }))));
    });
    return list;
}

// Coins 1 … the highest head (or only the heads when that is far): a click
// turns that coin, a chooser offers the coins turned with it.
function coinRow(ctx) {
    const heads = ctx.pos.heads.map(BigInt);
    const top = heads.reduce((a, b) => (b > a ? b : a), 0n);
    const shown = top <= 40n ? Array.from({ length: Number(top) }, (_, i) => BigInt(i + 1)) : [...heads].sort((a, b) => (a < b ? -1 : 1));
    const list = el("ul", { class: "coin-row", "aria-label": "Coins" });
    for (const c of shown) {
        const up = heads.includes(c);
        const moves = idx(ctx.moves, (m) => eq(m.coin, c));
        list.append(el("li", {}, target(ctx, "button", { class: "coin" + (up ? " heads" : " tails"), "data-coin": String(c) },
            moves, `Coin ${c}`, el("span", { text: String(c) }), " ", el("span", { class: "coin-face", text: up ? "heads" : "tails" }))));
    }
    return list;
}

// Tic-tac-toe and m,n,k: a click plays that cell.
function cellGrid(ctx) {
    const rows = Number(ctx.pos.rows || 3), cols = Number(ctx.pos.cols || 3);
    const grid = el("div", { class: "cells", role: "group", "aria-label": `Board, ${rows} by ${cols}` });
    grid.style.setProperty("--cols", String(cols));
    [...ctx.pos.board].forEach((c, i) => {
        const moves = idx(ctx.moves, (m) => eq(m.cell, i));
        const r = Math.floor(i / cols), k = i % cols;
        grid.append(target(ctx, "button", { class: "cell", "data-cell": i,
            "aria-label": `Row ${r}, column ${k}: ${c === "." ? "empty" : c}` }, moves, `Cell ${i}`, c === "." ? "" : c));
    });
    return grid;
}

// Can I Win: the numbers of the pool as chips; used ones are spent.
function chips(ctx) {
    const used = new Set((ctx.pos.used || []).map(String));
    const total = (ctx.pos.used || []).reduce((s, x) => s + BigInt(x), 0n);
    const list = el("ul", { class: "chips", "aria-label": "The numbers" });
    for (let n = 1; n <= Number(ctx.pos.max_choosable); n++) {
        const moves = idx(ctx.moves, (m) => eq(m.pick, n));
        list.append(el("li", {}, target(ctx, "button", { class: "chip" + (used.has(String(n)) ? " used" : ""), "data-pick": n,
            "aria-label": `${n}${used.has(String(n)) ? " (used)" : ""}` }, moves, `Pick ${n}`, String(n))));
    }
    return el("div", {}, list, el("p", { class: "hint", id: "running-total",
        text: `Running total ${total} of ${ctx.pos.desired_total}.` }));
}

// Node ids of a graph position: 0 … nodes - 1, or those the edges and tokens name.
function nodeIds(pos) {
    if (pos.nodes !== undefined && pos.nodes !== null) return Array.from({ length: Number(pos.nodes) }, (_, i) => String(i));
    const ids = [];
    for (const v of [...pos.edges.flat(), ...pos.tokens]) if (!ids.includes(String(v))) ids.push(String(v));
    return ids;
}

// A focusable SVG element that acts as a button.
function svgButton(ctx, shape, label, onPress, enabled) {
    const g = svg("g", { role: "button", "aria-label": label, tabindex: enabled ? 0 : -1, "aria-disabled": String(!enabled),
                         class: "node" + (enabled ? " active" : ""), "data-target": "" });
    g.append(shape);
    if (enabled) {
        g.addEventListener("click", onPress);
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPress(); } });
    }
    return g;
}

// An edge from u to v ending at v's rim; one that skips layers, runs upward
// or joins nodes of a layer bends aside, so that it does not hide behind
// the nodes between.
function edgePath(xy, at, u, v) {
    if (!at.has(u) || !at.has(v)) return svg("g");
    const [x1, y1] = xy(u), [x2, y2] = xy(v);
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    const straight = at.get(v).layer === at.get(u).layer + 1;
    const bend = straight ? 0 : Math.min(60, 0.25 * len);
    const cx = (x1 + x2) / 2 - (dy / len) * bend, cy = (y1 + y2) / 2 + (dx / len) * bend;
    const ex = x2 - cx, ey = y2 - cy, el2 = Math.hypot(ex, ey) || 1;
    const tx = x2 - (ex / el2) * 18, ty = y2 - (ey / el2) * 18; // stop at the rim (radius 16)
    return svg("path", { d: `M${x1},${y1} Q${cx},${cy} ${tx},${ty}`, class: "edge", "marker-end": "url(#arrow)" });
}

// A graph in SVG: click a node holding a token, then a node it can move to.
function graphBoard(ctx) {
    const ids = nodeIds(ctx.pos);
    const edges = ctx.pos.edges.map(([u, v]) => [String(u), String(v)]);
    const at = layout(ids, edges);
    const depth = Math.max(0, ...[...at.values()].map((p) => p.layer));
    // As wide as the widest layer needs and never drawn larger than 1:1, so
    // that a small graph keeps finger-sized nodes and readable labels on a phone.
    const widest = Math.max(1, ...[...at.values()].reduce((n, p) => n.set(p.layer, (n.get(p.layer) || 0) + 1), new Map()).values());
    const w = Math.min(560, Math.max(200, 60 + 70 * widest)), h = 60 + 90 * Math.max(1, depth);
    const xy = (v) => [30 + at.get(v).x * (w - 60), 30 + at.get(v).y * (h - 60)];
    const pic = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "graph", role: "group", "aria-label": "The graph" });
    pic.style.maxWidth = `${w}px`;
    const defs = svg("defs");
    const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7,
                                   orient: "auto", markerUnits: "userSpaceOnUse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }));
    defs.append(marker);
    pic.append(defs);
    for (const [u, v] of edges) pic.append(edgePath(xy, at, u, v));
    const tokensAt = (v) => ctx.pos.tokens.map((t, i) => [String(t), i]).filter(([t]) => t === v).map(([, i]) => i);
    for (const v of ids) {
        const [x, y] = xy(v);
        const here = tokensAt(v);
        const from = idx(ctx.moves, (m) => eq(m.from, v));
        const to = ctx.sel === null ? [] : idx(ctx.moves, (m) => eq(m.from, ctx.sel) && eq(m.to, v));
        const shape = svg("g", {});
        shape.append(svg("circle", { cx: x, cy: y, r: 16, class: "node-disc" + (ctx.sel === v ? " selected" : "") +
                                     (to.length ? " legal" : "") + (to.includes(ctx.hint) || from.includes(ctx.hint) ? " hinted" : "") }));
        shape.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "node-id" + (here.length ? " has-token" : "") }, v));
        if (here.length) // the tokens beside the disc, not over its number
            shape.append(svg("text", { x: x + 19, y: y - 10, class: "node-tokens" }, `●${here.length > 1 ? here.length : ""}`));
        const label = `Node ${v}` + (here.length ? `, tokens ${here.join(", ")}` : "") + (to.length ? ": move here" : from.length ? ": select" : "");
        const press = to.length ? () => ctx.offer(to, `To node ${v}`) : () => ctx.select(v);
        const g = svgButton(ctx, shape, label, press, to.length > 0 || from.length > 0);
        g.setAttribute("data-node", v);
        if (to.length) g.setAttribute("data-stage", "2");
        pic.append(g);
    }
    return el("div", {}, pic, el("p", { class: "hint", text: ctx.sel === null
        ? "Click a node with a token (●) to pick the token up." : `Token picked up at node ${ctx.sel}: click a ringed node to move it there.` }));
}

// The grid game: click a square with a token; its legal steps light up.
function gridBoard(ctx) {
    const rows = Number(ctx.pos.rows || 15), cols = Number(ctx.pos.cols || 15);
    if (rows * cols > 400) return el("p", { class: "hint", text: "The board is too large to draw; choose from the list of moves." });
    const key = (r, c) => `${r},${c}`;
    const held = new Map();
    ctx.pos.tokens.forEach(([r, c], i) => held.set(key(r, c), [...(held.get(key(r, c)) || []), i]));
    const grid = el("div", { class: "cells grid-game", role: "group", "aria-label": `Board, ${rows} by ${cols}` });
    grid.style.setProperty("--cols", String(cols));
    for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
            const here = held.get(key(r, c)) || [];
            const from = idx(ctx.moves, (m) => Array.isArray(m.from) && eq(m.from[0], r) && eq(m.from[1], c));
            const to = ctx.sel === null ? [] : idx(ctx.moves, (m) => Array.isArray(m.from) && m.from.join() === ctx.sel &&
                                                                     eq(m.to[0], r) && eq(m.to[1], c));
            const label = `Row ${r}, column ${c}` + (here.length ? `, token ${here.join(", ")}` : "") + (to.length ? ": a legal step" : "");
            const b = target(ctx, "button", { class: "cell" + (to.length ? " legal" : "") + (ctx.sel === `${r},${c}` ? " selected" : ""),
                                              "aria-label": label, "data-cell": `${r},${c}`, "data-stage": to.length ? "2" : false },
                             to.length ? to : from, `To [${r}, ${c}]`, here.length ? "●" : "");
            if (!to.length && from.length) {
                const fresh = b.cloneNode(true);
                fresh.addEventListener("click", () => ctx.select(`${r},${c}`));
                grid.append(fresh);
            } else {
                grid.append(b);
            }
        }
    }
    return el("div", {}, grid, el("p", { class: "hint", text: ctx.sel === null
        ? "Click a square with a token (●); its legal steps light up." : `Token picked up at [${ctx.sel}]: click a lit square.` }));
}
