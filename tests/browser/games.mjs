// SPDX-License-Identifier: MIT
// One small starting position of each game of the catalogue (and a misère
// one), for the browser test that plays every game to the end on the page
// (each finishes within a few plies), and the driver that plays one: it clicks the board as a user
// would, and afterwards checks every move the page made, the user's and the
// service's, against the service's own POST /v1/moves for the position
// before it.

export const GAMES = [
    { query: { game: "nim", piles: [1, 2] }, first: "user" },
    { query: { game: "subtraction", moves: [1, 2], piles: [4] }, first: "service" },
    { query: { game: "staircase", stairs: [0, 1, 2] }, first: "user" },
    { query: { game: "wythoff", piles: [1, 2] }, first: "user" },
    { query: { game: "fibonacci", n: 5 }, first: "user" },
    { query: { game: "divisor", n: 6 }, first: "service" },
    { query: { game: "octal", code: "0.77", piles: [4] }, first: "user" },
    { query: { game: "grundys_game", piles: [5] }, first: "user" },
    { query: { game: "strange_nim", piles: [[4, 2], [2, 1]] }, first: "user" },
    { query: { game: "graph", edges: [[0, 1], [1, 2], [0, 2], [2, 3]], tokens: [0, 1], nodes: 4 }, first: "user" },
    { query: { game: "grid", rows: 2, cols: 3, steps: [[0, 1], [1, 0]], tokens: [[0, 0]] }, first: "user" },
    { query: { game: "coins", rule: "mock_turtles", heads: [2, 3] }, first: "user" },
    { query: { game: "tictactoe", board: "XO.X.O..." }, first: "user" },
    { query: { game: "mnk", rows: 2, cols: 3, k: 3, board: "......" }, first: "service" },
    { query: { game: "stone_row", stones: [3, 9, 1] }, first: "user" },
    { query: { game: "stone_prefix", stones: [1, 2, 3], m: 1 }, first: "service" },
    { query: { game: "stone_front3", stones: [1, 2, -3, 4] }, first: "user" },
    { query: { game: "can_i_win", max_choosable: 4, desired_total: 6, used: [] }, first: "user" },
    { query: { game: "nim", piles: [1, 2], convention: "misere" }, first: "user" },
];

const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === "object"
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
const key = (v) => JSON.stringify(canon(v));

// The history the page shows: who moved, from which position to which.
export async function pageHistory(page) {
    return page.$$eval("#history > li:not(.undone)", (ls) => ls.map((l) => ({
        who: l.dataset.player, before: l.dataset.before, after: l.dataset.after })));
}

// Waits until the board waits for the user or the game is over.
export async function settled(page) {
    await page.waitForFunction(() => ["user", "over"].includes(document.querySelector("#board-box")?.dataset.state) ||
        document.querySelector("#play-error")?.textContent, null, { timeout: 8000 });
    const error = await page.textContent("#play-error");
    if (error) throw new Error(`the page stopped the game: ${error}`);
    return page.getAttribute("#board-box", "data-state");
}

// Makes one user move by clicking the board: a target (a second-stage one
// first, as after picking up a token), then the first choice of a chooser.
// CHOOSE picks among the enabled targets (their count).
export async function clickMove(page, choose = () => 0) {
    const before = (await pageHistory(page)).length;
    for (let click = 0; click < 4; click++) {
        const stage2 = page.locator("#board [data-target][data-stage='2']:not([disabled])");
        const all = page.locator("#board [data-target]:not([disabled]):not([aria-disabled=true])");
        const targets = (await stage2.count()) ? stage2 : all;
        const n = await targets.count();
        if (!n) throw new Error("the board offers no move to click");
        await targets.nth(choose(n) % n).click();
        const choice = page.locator("#chooser:not([hidden]) [data-choice]");
        if (await choice.count()) await choice.first().click();
        await page.waitForFunction((k) => document.querySelectorAll("#history > li:not(.undone)").length > k ||
            document.querySelector("#board [data-stage='2']") || document.querySelector("#play-error").textContent,
            before, { timeout: 5000 });
        if ((await pageHistory(page)).length > before) return;
    }
    throw new Error("four clicks on the board made no move");
}

// Checks each move of HISTORY: it is one of the `next` positions that the
// service's POST /v1/moves lists for the position before it, the moves chain,
// and the players alternate.
export async function checkMoves(base, history, exact) {
    for (const [i, h] of history.entries()) {
        const before = exact(h.before), after = exact(h.after);
        if (i > 0 && key(before) !== key(exact(history[i - 1].after)))
            throw new Error(`move ${i + 1} does not start where move ${i} ended`);
        if (i > 0 && h.who === history[i - 1].who) throw new Error(`moves ${i} and ${i + 1} are both by ${h.who}`);
        // fibonacci's own field `limit` leaves /v1/moves its default page of 200.
        const body = "limit" in before ? h.before : h.before.replace(/}$/, ',"limit":10000}');
        const r = await fetch(`${base}/v1/moves`, { method: "POST", body });
        const moves = exact(await r.text()).moves;
        const nexts = moves.map((m) => key({ ...before, ...m.next }));
        if (!nexts.includes(key(after)))
            throw new Error(`move ${i + 1} by ${h.who} (${h.before} to ${h.after}) is not among the service's legal moves`);
    }
}
