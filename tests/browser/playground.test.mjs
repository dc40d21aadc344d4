// SPDX-License-Identifier: MIT
// The playground (GET /) in a real browser: Debian's Chromium driven by
// playwright-core against a running grundyd. Prints TAP on stdout.
//
//   node tests/browser/playground.test.mjs BASE_URL ARTIFACT_DIR PROFILE_DIR
//
// BASE_URL is the daemon (http://127.0.0.1:PORT), ARTIFACT_DIR receives the
// screenshots (their paths are printed), PROFILE_DIR is an empty directory
// for Chromium's profile. Every wait is bounded: each test has TEST_TIMEOUT
// ms, the whole run WATCHDOG ms. Answers shown on the page are compared with
// the API's own answers to the same queries, fetched here directly.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { chromium } from "playwright-core";

import { GAMES, checkMoves, clickMove, pageHistory, settled } from "./games.mjs";

const [base, artifacts, profile] = process.argv.slice(2);
if (!base || !artifacts || !profile) {
    console.error("usage: node tests/browser/playground.test.mjs BASE_URL ARTIFACT_DIR PROFILE_DIR");
    process.exit(2);
}
mkdirSync(artifacts, { recursive: true });

const TEST_TIMEOUT = 20000;
const WATCHDOG = 100000;
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

// ---- helpers -------------------------------------------------------------------

// JSON with every integer literal as a string of its digits, so that 10^18
// compares exactly (the test's own, written apart from the page's).
function exact(text) {
    return JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?![\d.eE])/g, (m) => (m[0] === '"' ? m : `"#${m}"`)),
        (k, v) => (typeof v === "string" && v[0] === "#" ? v.slice(1) : v));
}

async function analyze(query) {
    const r = await fetch(`${base}/v1/analyze`, { method: "POST", body: query, headers: { "Content-Type": "application/json" } });
    return { status: r.status, body: exact(await r.text()) };
}

function assert(cond, msg) {
    if (!cond) throw new Error(msg);
}

function same(a, b, what) {
    const ja = JSON.stringify(a), jb = JSON.stringify(b);
    assert(ja === jb, `${what}: the page shows ${ja}, the API answers ${jb}`);
}

const shots = [];
async function shot(page, name, fullPage = true) {
    const file = path.resolve(artifacts, `${name}.png`);
    await page.screenshot({ path: file, fullPage });
    shots.push(file);
}

// ---- the run -----------------------------------------------------------------------

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

let context, page;
const consoleErrors = [];

function watch(p) {
    p.on("console", (m) => { if (m.type() === "error") consoleErrors.push(`${m.text()} (${m.location().url || "?"})`); });
    p.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
}

async function load(p) {
    const resp = await p.goto(base + "/", { waitUntil: "load", timeout: 10000 });
    await p.waitForSelector("body[data-ready=true]", { timeout: 10000 });
    return resp;
}

async function pickGame(name) {
    await page.selectOption("#game", name);
    await page.waitForSelector(`#fields [data-field]`, { timeout: 5000 });
}

async function solveNim(piles) {
    await pickGame("nim");
    await page.fill("#f-piles", piles);
    await page.click("#solve");
    await page.waitForFunction((p) => document.querySelector("#request-json")?.textContent.includes(p),
        piles.split(",")[0].trim(), { timeout: 5000 });
}

// The facts the page shows for the last answer.
async function shown() {
    return page.evaluate(() => ({
        winner: document.querySelector("#answer-winner")?.dataset.winner,
        grundy: document.querySelector("#answer-grundy")?.textContent,
        move: document.querySelector("#answer-move")?.textContent,
        next: document.querySelector("#answer-next")?.textContent,
        components: [...document.querySelectorAll("#answer-components tbody tr")].map((tr) =>
            [...tr.children].map((td) => td.textContent)),
    }));
}

test("GET / loads with its catalogue, the security headers, and no console error", async () => {
    const resp = await load(page);
    const h = resp.headers();
    assert(resp.status() === 200, `status ${resp.status()}`);
    assert(h["content-type"] === "text/html; charset=utf-8", `Content-Type ${h["content-type"]}`);
    assert(/script-src 'self'/.test(h["content-security-policy"] || "") && !/unsafe-inline/.test(h["content-security-policy"]),
        `Content-Security-Policy ${h["content-security-policy"]}`);
    assert(h["x-content-type-options"] === "nosniff", "no X-Content-Type-Options: nosniff");
    const games = (await (await fetch(`${base}/v1/games`)).json()).games.map((g) => g.name);
    const options = await page.$$eval("#game option", (os) => os.map((o) => o.value));
    same(options, games, "the game list");
    assert(await page.inputValue("#game") === "nim", "nim is not the first choice");
    assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join("; ")}`);
    await shot(page, "desktop-loaded");
});

test("nim 3, 4, 5: the winner, Grundy value, move and next position are the API's", async () => {
    await solveNim("3, 4, 5");
    const s = await shown();
    const api = (await analyze('{"game":"nim","piles":[3,4,5]}')).body;
    same(s.winner, api.winner, "winner");
    same(s.grundy, api.grundy, "grundy");
    same(s.move, api.move.text, "move");
    same(exact(s.next), api.next, "next");
    same(s.components.map((r) => r[2]), api.components.map((c) => c.grundy), "component Grundy values");
    await shot(page, "desktop-nim-answer");
});

test("a 10^18 position keeps every digit", async () => {
    const a = "1000000000000000001", b = "999999999999999999";
    await solveNim(`${a}, ${b}`);
    const s = await shown();
    const api = (await analyze(`{"game":"nim","piles":["${a}",${b}]}`)).body;
    same(s.grundy, (BigInt(a) ^ BigInt(b)).toString(), "grundy (a xor b)");
    same(s.grundy, api.grundy, "grundy");
    same(s.move, api.move.text, "move");
    same(exact(s.next), api.next, "next");
    same(s.components.map((r) => r[1]), [a, b], "pile sizes");
    assert((await page.textContent("#request-json")).includes(a), "the request does not carry the exact digits");
    assert((await page.textContent("#request-curl")).includes(`"piles":[${a},${b}]`), "the curl command does not carry the position");
    const raw = await page.textContent("#answer-raw");
    assert(raw.includes(`"size":"${a}"`) && raw.includes(`"grundy":"${s.grundy}"`),
        `the page did not ask for string integers (Accept: application/json; integers=string): ${raw.slice(0, 200)}`);
});

test("bad piles (\"abc\", -1) are shown as errors naming the field", async () => {
    for (const [piles, field] of [["3, abc", "piles[1]"], ["-1, 2", "piles[0]"]]) {
        await pickGame("nim");
        await page.fill("#f-piles", piles);
        await page.click("#solve");
        await page.waitForFunction((f) => document.querySelector("#form-error")?.textContent.includes(f), field, { timeout: 5000 });
        assert(await page.getAttribute("#f-piles", "aria-invalid") === "true", `${piles}: the input is not marked invalid`);
        const role = await page.getAttribute("#form-error", "role");
        assert(role === "alert", "the error region is not an alert");
        assert(!(await page.$("#answer-winner")), `${piles}: an earlier answer is still shown`);
    }
    await shot(page, "desktop-error");
});

// Sorted keys, for comparing objects whatever their member order.
const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === "object"
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);

test("every game's example solves through the form built from the catalogue (a new game clears the answer)", async () => {
    const catalog = exact(await (await fetch(`${base}/v1/games`)).text());
    for (const g of catalog.games) {
        await pickGame(g.name);
        assert(!(await page.$("#answer-winner")), `${g.name}: the previous game's answer is still shown`);
        await page.click("#solve");
        await page.waitForFunction((name) => document.querySelector("#request-json")?.textContent.includes(`"${name}"`) ||
            document.querySelector("#form-error").textContent, g.name, { timeout: 5000 });
        const error = await page.textContent("#form-error");
        assert(!error, `${g.name}: ${error}`);
        same(canon(exact(await page.textContent("#request-json"))), canon(g.example), `${g.name}: the request`);
        const api = (await analyze(JSON.stringify(g.example))).body;
        same(await page.getAttribute("#answer-winner", "data-winner"), api.winner, `${g.name}: winner`);
        const text = await page.textContent("#answer");
        if (g.kind === "score") {
            assert(!(await page.$("#answer-grundy")) && !/Grundy value/.test(text), `${g.name}: a score game shows a Grundy value`);
            same(await page.textContent("#answer-value"), api.value, `${g.name}: value`);
            assert(!(await page.$("#answer-convention")), `${g.name}: a score game shows a convention`);
        }
        assert(!/\u2192/.test(text), `${g.name}: the answer mixes the arrow \u2192 with ->`);
    }
});

test("no \"Grundy value: none\": omitted for a misère sum, \"infinite\" for a drawn loopy grid", async () => {
    const cases = [
        ['{"game":"octal","code":"0.77","piles":[5,7,12],"convention":"misere"}', null],
        ['{"game":"grid","rows":4,"cols":5,"steps":[[0,1],[0,-1],[1,0]],"tokens":[[0,0],[2,3]]}', /^infinite/],
    ];
    for (const [q, want] of cases) {
        const p = await context.newPage();
        watch(p);
        try {
            await p.goto(`${base}/#q=${encodeURIComponent(q)}`);
            await p.waitForSelector("body[data-ready=true]");
            await p.click("#solve");
            await p.waitForSelector("#answer-winner", { timeout: 5000 });
            const grundy = await p.$("#answer-grundy") && await p.textContent("#answer-grundy");
            assert(!/\bnone\b/.test(await p.textContent("#answer dl.facts")), `${q}: the page shows "none"`);
            assert(want ? want.test(grundy || "") : !grundy, `${q}: Grundy value ${JSON.stringify(grundy)}`);
        } finally {
            await p.close();
        }
    }
});

test("keyboard only: choose wythoff, type a position, solve with Enter", async () => {
    await load(page);
    await page.keyboard.press("Tab"); // the skip link
    await page.keyboard.press("Enter");
    let focused = "";
    for (let i = 0; i < 10 && focused !== "game"; i++) {
        await page.keyboard.press("Tab");
        focused = await page.evaluate(() => document.activeElement?.id);
    }
    assert(focused === "game", "Tab never reached the game selector");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert(outline !== "none", "the focused control has no visible outline");
    for (let i = 0; i < 10 && (await page.inputValue("#game")) !== "wythoff"; i++) await page.keyboard.press("ArrowDown");
    assert(await page.inputValue("#game") === "wythoff", "the arrow keys did not reach wythoff");
    await page.keyboard.press("Tab");
    assert(await page.evaluate(() => document.activeElement?.id) === "f-piles", "Tab did not go to piles");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("5, 9");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#answer-winner", { timeout: 5000 });
    await page.waitForFunction(() => document.querySelector("#request-json")?.textContent.includes("wythoff"), null, { timeout: 5000 });
    const s = await shown();
    const api = (await analyze('{"game":"wythoff","piles":[5,9]}')).body;
    same(s.move, api.move.text, "move");
    same(s.winner, api.winner, "winner");
});

// Opens the page at the link of QUERY (#q=...), as a shared link would.
async function openLink(p, query) {
    await p.goto("about:blank");
    await p.goto(`${base}/#q=${encodeURIComponent(JSON.stringify(query))}`, { waitUntil: "load", timeout: 10000 });
    await p.waitForSelector("body[data-ready=true]", { timeout: 10000 });
}

async function startPlay(first) {
    await page.check(`input[name=first][value=${first}]`);
    await page.click("#play-start");
    await page.waitForSelector("#play-board:not([hidden])", { timeout: 5000 });
}

// Plays SPEC (a starting position and who moves first) to the end through
// the page; returns the moves shown and the result.
async function playThrough(spec, maxPlies = 30) {
    await openLink(page, spec.query);
    await startPlay(spec.first);
    let plies = 0;
    while ((await settled(page)) === "user") {
        assert(++plies <= maxPlies, `${spec.query.game}: no end after ${maxPlies} user moves`);
        await clickMove(page, (n) => plies * 7 % n);
    }
    const history = await pageHistory(page);
    await checkMoves(base, history, exact);
    assert(history.length > 0, `${spec.query.game}: no move was made`);
    same(history[0].who, spec.first, `${spec.query.game}: the first mover`);
    const result = await page.getAttribute("#play-status", "data-result");
    assert(["user", "service", "draw"].includes(result), `${spec.query.game}: no result shown`);
    const status = await page.textContent("#play-status");
    assert(/Game over: (you won|the service won|a draw)/.test(status), `${spec.query.game}: status ${status}`);
    return { history, result };
}

for (const spec of GAMES) {
    const misere = spec.query.convention === "misere";
    test(`a whole game of ${misere ? "misère " : ""}${spec.query.game} against the service, ${spec.first === "user" ? "the user" : "the service"} first`, async () => {
        const { history, result } = await playThrough(spec);
        const end = exact(history.at(-1).after);
        const last = history.at(-1).who;
        if (["nim", "subtraction", "octal", "grundys_game", "wythoff"].includes(spec.query.game))
            same(result, misere ? (last === "user" ? "service" : "user") : last,
                 `${spec.query.game}: the winner (who made the last move${misere ? ", misère: the other player" : ""})`);
        if (spec.query.game.startsWith("stone_")) {
            const score = await page.textContent("#play-score");
            assert(/Stones taken: you -?\d+, the service -?\d+\./.test(score), `${spec.query.game}: the score shown: ${score}`);
        }
        if (spec.query.game === "nim") assert(end.piles.every((h) => h === "0"), "nim ended before every pile was empty");
        if (spec.query.game === "graph") await shot(page, "desktop-graph-game");
        if (spec.query.game === "tictactoe") await shot(page, "desktop-tictactoe-game");
    });
}

test("undo and redo step through the game; a new move after undo drops the undone ones", async () => {
    await openLink(page, { game: "nim", piles: [2, 3] });
    await startPlay("user");
    await settled(page);
    const start = await page.getAttribute("#board-box", "data-position");
    await clickMove(page);
    await settled(page);
    const after = await page.getAttribute("#board-box", "data-position");
    assert(after !== start, "the move did not change the position");
    same((await pageHistory(page)).length, 2, "moves after one user move (and the reply)");
    await page.click("#play-undo");
    await page.waitForFunction((p) => document.querySelector("#board-box").dataset.position === p, start, { timeout: 5000 });
    same(await settled(page), "user", "the turn after undo");
    same((await pageHistory(page)).length, 0, "moves shown after undo");
    assert(await page.evaluate(() => location.hash) === "#q=" + encodeURIComponent(start), "the URL does not follow undo");
    await page.click("#play-redo");
    await page.waitForFunction((p) => document.querySelector("#board-box").dataset.position === p, after, { timeout: 5000 });
    same((await pageHistory(page)).length, 2, "moves shown after redo");
    await page.click("#play-undo");
    await settled(page);
    await clickMove(page, (n) => n - 1);
    await settled(page);
    const history = await pageHistory(page);
    same(history.length, 2, "moves after a new move");
    same(await page.$$eval("#history > li.undone", (ls) => ls.length), 0, "undone moves left after a new move");
    await checkMoves(base, history, exact);
});

test("keyboard only on the board: Tab from Start reaches a token, Enter takes it, focus stays on the board", async () => {
    await openLink(page, { game: "nim", piles: [2, 3] });
    await page.focus("#play-start");
    await page.keyboard.press("Enter");
    await settled(page);
    let inBoard = false;
    for (let i = 0; i < 10 && !inBoard; i++) {
        await page.keyboard.press("Tab");
        inBoard = await page.evaluate(() => !!document.activeElement?.closest("#board"));
    }
    assert(inBoard, "Tab from the Start button never reached the board");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#history > li").length >= 1, null, { timeout: 5000 });
    await settled(page);
    await checkMoves(base, await pageHistory(page), exact);
    assert(await page.evaluate(() => !!document.activeElement?.closest("#board-box, #play-status")),
        "focus left the board after the move");
});

test("hint names a winning move, and the service's replies show their reasons", async () => {
    await openLink(page, { game: "nim", piles: [3, 4, 5] });
    await startPlay("user");
    await settled(page);
    await page.click("#play-hint-btn");
    await page.waitForSelector("#hint-text", { timeout: 5000 });
    const api = (await analyze('{"game":"nim","piles":[3,4,5]}')).body;
    same(await page.textContent("#hint-text"), `Hint: ${api.move.text}`, "the hint");
    assert(await page.locator("#board .hinted").count() >= 1, "the hint's move is not marked on the board");
    await page.locator("#board .hinted").first().click();
    const choice = page.locator("#chooser:not([hidden]) [data-choice]");
    if (await choice.count()) await choice.first().click();
    await settled(page);
    const reply = page.locator("#history > li[data-player=service] details");
    assert(await reply.count() === 1, "the service's move has no reasons");
    const text = await reply.first().textContent();
    assert(text.length > 20, `the service's reasons: ${text}`);
});

test("a structured why (steps, values, lists) and winning_moves are drawn, however they nest", async () => {
    const drawn = await page.evaluate(async () => {
        const { reasons } = await import("/static/answer.js");
        const a = { explanation: "Nim-sum 3 ^ 4 ^ 5 = 2.",
                    why: { steps: [{ text: "Grundy values in binary", values: ["011", "100", "101"] },
                                   { text: "Change pile 0 to 1", from: "3", to: "1", options: [{ move: "take 1", grundy: "2" }] }] },
                    winning_moves: { total: "1", moves: [{ move: { pile: "0", take: "2", text: "Take 2 from pile 0 (3 -> 1)." },
                                                           next: { piles: ["1", "4", "5"] } }] } };
        const box = document.createElement("div");
        box.append(...reasons(a, "t"));
        const bare = document.createElement("div");
        bare.append(...reasons({ explanation: "x", why: { steps: [] }, winning_moves: { total: null, moves: [] } }, "u"));
        return { explanation: box.querySelector("#t-explanation")?.textContent,
                 steps: [...box.querySelector("#t-why ol.why-list").children].map((li) => li.querySelector("p")?.textContent),
                 values: box.querySelector("#t-why dd")?.textContent,
                 nested: box.querySelectorAll("#t-why ol ol li").length,
                 winning: box.querySelector("#t-winning-moves")?.textContent,
                 winningItem: box.querySelector("#t-winning-moves li > .why-item > p")?.textContent,
                 bare: bare.querySelectorAll(".why").length };
    });
    same(drawn.explanation, "Nim-sum 3 ^ 4 ^ 5 = 2.", "the explanation");
    same(drawn.steps, ["Grundy values in binary", "Change pile 0 to 1"], "the steps of why");
    same(drawn.values, "011, 100, 101", "a list of values");
    same(drawn.nested, 1, "the options nested in a step");
    assert(/total1/.test(drawn.winning.replace(/\s/g, "")) && drawn.winning.includes('{"piles":[1,4,5]}'),
        `winning_moves: ${drawn.winning}`);
    same(drawn.winningItem, "Take 2 from pile 0 (3 -> 1).", "a winning move named by its text");
    same(drawn.bare, 0, "sections drawn for an empty why and no winning moves");
});

test("a link reproduces the position and the answer; back and forward step through positions", async () => {
    const q = { game: "wythoff", piles: [5, 9] };
    await openLink(page, q);
    await page.waitForSelector("#answer-winner", { timeout: 5000 });
    same(await page.inputValue("#game"), "wythoff", "the game from the link");
    same(await page.inputValue("#f-piles"), "5, 9", "the piles from the link");
    const api = (await analyze(JSON.stringify(q))).body;
    same(await page.textContent("#answer-move"), api.move.text, "the answer from the link");
    same(exact(await page.textContent("#request-json")), exact(JSON.stringify(q)), "the request shown");
    const link = page.url();
    await page.fill("#f-piles", "3, 5");
    await page.click("#solve");
    await page.waitForFunction(() => document.querySelector("#request-json")?.textContent.includes("[3,5]"), null, { timeout: 5000 });
    assert(page.url() !== link, "a new position did not change the URL");
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("#request-json")?.textContent.includes("[5,9]"), null, { timeout: 5000 });
    same(await page.inputValue("#f-piles"), "5, 9", "the piles after back");
    await page.goForward();
    await page.waitForFunction(() => document.querySelector("#request-json")?.textContent.includes("[3,5]"), null, { timeout: 5000 });
    // The same link in a new page: the same position and answer.
    const other = await context.newPage();
    watch(other);
    await other.goto(link, { waitUntil: "load", timeout: 10000 });
    await other.waitForSelector("#answer-winner", { timeout: 10000 });
    same(await other.textContent("#answer-move"), api.move.text, "the answer in a new page");
    await other.close();
});

test("switching games clears the board of the game being played", async () => {
    await openLink(page, { game: "nim", piles: [2, 3] });
    await startPlay("user");
    await settled(page);
    await page.selectOption("#game", "wythoff");
    assert(await page.locator("#play-board").isHidden(), "the nim board is still shown after choosing wythoff");
    await startPlay("user");
    await settled(page);
    const pos = exact(await page.getAttribute("#board-box", "data-position"));
    same(pos.game, "wythoff", "the game on the board");
});

test("the Grundy sequence of a subtraction game is drawn with its period", async () => {
    await load(page);
    await pickGame("subtraction");
    await page.fill("#f-moves", "1, 3, 4");
    await page.fill("#chart-n", "30");
    await page.click("#chart-draw");
    await page.waitForSelector("#chart-svg", { timeout: 10000 });
    const bars = await page.$$eval("#chart-svg rect.bar", (rs) => rs.map((r) => r.dataset.value));
    const queries = Array.from({ length: 31 }, (_, h) => `{"game":"subtraction","moves":[1,3,4],"piles":[${h}]}`);
    const r = await fetch(`${base}/v1/batch`, { method: "POST", body: `{"queries":[${queries.join(",")}]}` });
    same(bars, exact(await r.text()).results.map((x) => x.grundy), "bar values");
    const period = await page.textContent("#chart-period");
    assert(/Period 7 from heap 0/.test(period), `period text: ${period}`);
    await page.locator("#chart-svg").scrollIntoViewIfNeeded();
    await shot(page, "desktop-chart");
});

// axe-core in the page (evaluated, not a script tag: the page's
// Content-Security-Policy rightly refuses inline scripts); the serious and
// critical violations, as text.
async function axeProblems(p) {
    await p.evaluate(AXE);
    const found = await p.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`));
    return found;
}

// The answer, a game on the board and the chart, all on one page.
async function fillPage(p) {
    await openLink(p, { game: "subtraction", moves: [1, 3, 4], piles: [9, 4] });
    await p.waitForSelector("#answer-winner", { timeout: 5000 });
    await p.check("input[name=first][value=user]");
    await p.click("#play-start");
    await p.waitForFunction(() => document.querySelector("#board-box")?.dataset.state === "user", null, { timeout: 5000 });
    await p.fill("#chart-n", "40");
    await p.click("#chart-draw");
    await p.waitForSelector("#chart-svg", { timeout: 10000 });
}

test("axe-core: no serious or critical violations on the desktop (answer, board, chart)", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await fillPage(page);
    const problems = await axeProblems(page);
    assert(problems.length === 0, problems.join("; "));
    await shot(page, "desktop-1280x800", false);
    await shot(page, "desktop-1280x800-full");
});

test("axe-core: no serious or critical violations on the boards (graph with a token picked up, grid, cells, coins, chips, stairs)", async () => {
    for (const name of ["graph", "grid", "tictactoe", "coins", "can_i_win", "staircase"]) {
        await openLink(page, GAMES.find((s) => s.query.game === name).query);
        await startPlay("user");
        await settled(page);
        if (name === "graph" || name === "grid") await page.locator("#board [data-target]:not([disabled]):not([aria-disabled=true])").first().click();
        const problems = await axeProblems(page);
        assert(problems.length === 0, `${name}: ${problems.join("; ")}`);
    }
});

test("a phone (390 x 844): no sideways scrolling, Solve brings the answer into view, labels of 11 px or more, axe-core", async () => {
    const phone = await context.newPage();
    watch(phone);
    try {
        await phone.setViewportSize({ width: 390, height: 844 });
        await load(phone);
        await phone.fill("#f-piles", "3, 4, 5");
        await phone.click("#solve");
        await phone.waitForSelector("#answer-winner", { timeout: 5000 });
        await phone.waitForFunction(() => { // the scroll may be smooth
            const r = document.querySelector("#answer-winner").getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight;
        }, null, { timeout: 3000 }).catch(() => {});
        const r = await phone.evaluate(() => {
            const b = document.querySelector("#answer-winner").getBoundingClientRect();
            return { top: b.top, bottom: b.bottom, height: window.innerHeight };
        });
        assert(r.top >= 0 && r.bottom <= r.height, `the answer is not in view after Solve: ${JSON.stringify(r)}`);
        await fillPage(phone);
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        assert(width <= 390, `the page is ${width} px wide`);
        const box = await phone.locator("#solve").boundingBox();
        assert(box && box.height >= 40, "the Solve button is smaller than a finger");
        const sizes = await phone.$$eval("#chart-svg text", (ts) => ts.map((t) =>
            parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
        assert(sizes.length > 2, "the chart has no labels");
        const small = Math.min(...sizes);
        assert(small >= 11, `a chart label is ${small.toFixed(1)} px on a phone`);
        const problems = await axeProblems(phone);
        assert(problems.length === 0, problems.join("; "));
        await shot(phone, "phone-390x844", false);
        await shot(phone, "phone-390x844-full");
    } finally {
        await phone.close();
    }
});

test("a phone: a nested why (a grid's loopy tokens) fits, every value beside its name has width", async () => {
    const phone = await context.newPage();
    watch(phone);
    try {
        await phone.setViewportSize({ width: 390, height: 844 });
        await load(phone);
        await phone.selectOption("#game", "grid");
        await phone.click("#example");
        await phone.click("#solve");
        await phone.waitForSelector("#answer .why-facts .why-facts", { timeout: 5000 });
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        const empty = await phone.$$eval("#answer .why-facts > dd", (ds) => ds.filter((d) =>
            d.textContent.trim() && d.getBoundingClientRect().width < 8).map((d) => d.previousElementSibling.textContent));
        await shot(phone, "phone-390x844-grid-why");
        assert(width <= 390, `the page is ${width} px wide`);
        assert(empty.length === 0, `values squeezed to nothing beside: ${empty.join(", ")}`);
    } finally {
        await phone.close();
    }
});

test("a phone: a small graph's nodes are finger-sized, their numbers 11 px or more, the tokens beside them", async () => {
    const phone = await context.newPage();
    watch(phone);
    try {
        await phone.setViewportSize({ width: 390, height: 844 });
        await load(phone);
        await phone.selectOption("#game", "graph");
        await phone.click("#example");
        await phone.click("#play-start");
        await settled(phone);
        const m = await phone.evaluate(() => {
            const scale = document.querySelector("#board svg.graph").getScreenCTM().a;
            const ids = [...document.querySelectorAll("#board .node-id")];
            const tokens = [...document.querySelectorAll("#board .node-tokens")];
            return { scale, font: Math.min(...ids.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
                     radius: 16 * scale, tokens: tokens.length,
                     idsPlain: ids.every((t) => /^\d+$/.test(t.textContent)) };
        });
        await shot(phone, "phone-390x844-graph-board");
        assert(m.radius >= 14, `a node is ${(2 * m.radius).toFixed(1)} px across on a phone`);
        assert(m.font >= 11, `a node number is ${m.font.toFixed(1)} px on a phone`);
        assert(m.tokens > 0 && m.idsPlain, "the tokens are not drawn beside the node numbers");
    } finally {
        await phone.close();
    }
});

test("one arrow throughout: the page never writes \u2192", async () => {
    const text = await page.evaluate(() => document.body.innerText);
    assert(!text.includes("\u2192"), "the page shows \u2192 beside the service's ->");
});

test("no console errors but the service's expected 422 answers", async () => {
    const other = consoleErrors.filter((e) => !/status of 422/.test(e));
    assert(other.length === 0, `console errors: ${other.join("; ")}`);
});

// ---- TAP ---------------------------------------------------------------------------

function withTimeout(promise, ms, what) {
    let timer;
    return Promise.race([promise, new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    })]).finally(() => clearTimeout(timer));
}

function report(n, name, err) {
    console.log(`${err ? "not ok" : "ok"} ${n} - ${name}`);
    if (err) for (const line of String(err.stack || err).split("\n").slice(0, 12)) console.log(`# ${line}`);
}

async function main() {
    const dog = setTimeout(() => {
        console.log(`Bail out! the browser tests exceeded ${WATCHDOG} ms`);
        process.exit(1);
    }, WATCHDOG);
    let failed = 0;
    try {
        context = await chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            viewport: { width: 1280, height: 800 },
            timeout: 30000,
        });
        page = context.pages()[0] || await context.newPage();
        watch(page);
        page.setDefaultTimeout(10000);
    } catch (e) {
        tests.forEach((t, i) => report(i + 1, t.name, i ? "Chromium did not start" : e));
        console.log(`1..${tests.length}`);
        process.exit(1);
    }
    for (const [i, t] of tests.entries()) {
        const t0 = Date.now();
        try {
            await withTimeout(t.fn(), TEST_TIMEOUT, t.name);
            report(i + 1, t.name);
        } catch (e) {
            failed++;
            report(i + 1, t.name, e);
            await shot(page, `failed-${i + 1}`).catch(() => {});
        }
        console.log(`# ${t.name}: ${Date.now() - t0} ms`);
    }
    for (const f of shots) console.log(`# screenshot: ${f}`);
    console.log(`# ${tests.length - failed} passed, ${failed} failed`);
    console.log(`1..${tests.length}`); // the plan last: a run cut short has none
    await context.close().catch(() => {});
    clearTimeout(dog);
    process.exit(failed ? 1 : 0);
}

main();
