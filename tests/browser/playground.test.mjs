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
import { mkdirSync } from "node:fs";
import path from "node:path";

import { chromium } from "playwright-core";

const [base, artifacts, profile] = process.argv.slice(2);
if (!base || !artifacts || !profile) {
    console.error("usage: node tests/browser/playground.test.mjs BASE_URL ARTIFACT_DIR PROFILE_DIR");
    process.exit(2);
}
mkdirSync(artifacts, { recursive: true });

const TEST_TIMEOUT = 20000;
const WATCHDOG = 100000;
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
async function shot(page, name) {
    const file = path.resolve(artifacts, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
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
    await page.waitForFunction((p) => document.querySelector("#answer-request")?.textContent.includes(p),
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
    assert((await page.textContent("#answer-request")).includes(a), "the request does not carry the exact digits");
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
        await page.waitForFunction((name) => document.querySelector("#answer-request")?.textContent.includes(`"${name}"`) ||
            document.querySelector("#form-error").textContent, g.name, { timeout: 5000 });
        const error = await page.textContent("#form-error");
        assert(!error, `${g.name}: ${error}`);
        same(canon(exact(await page.textContent("#answer-request"))), canon(g.example), `${g.name}: the request`);
        const api = (await analyze(JSON.stringify(g.example))).body;
        same(await page.getAttribute("#answer-winner", "data-winner"), api.winner, `${g.name}: winner`);
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
    await page.waitForFunction(() => document.querySelector("#answer-request")?.textContent.includes("wythoff"), null, { timeout: 5000 });
    const s = await shown();
    const api = (await analyze('{"game":"wythoff","piles":[5,9]}')).body;
    same(s.move, api.move.text, "move");
    same(s.winner, api.winner, "winner");
});

// Plays one game on the page: the user's moves are chosen by CHOOSE(heaps,
// set), each service move is checked here for legality by LEGAL.
async function playGame(first, choose, legal, maxMoves = 60) {
    await page.check(`input[name=first][value=${first}]`);
    await page.click("#play-start");
    await page.waitForSelector("#play-board:not([hidden])", { timeout: 5000 });
    for (let n = 0; n < maxMoves; n++) {
        await page.waitForFunction(() => document.querySelector("#play-status")?.dataset.result ||
            !document.querySelector("#move-submit").disabled, null, { timeout: 5000 });
        if (await page.getAttribute("#play-status", "data-result")) break;
        const heaps = await page.$$eval("#play-heaps li", (ls) => ls.map((l) => BigInt(l.dataset.heap)));
        const m = await choose(heaps);
        await page.selectOption("#move-pile", String(m.pile));
        await page.fill("#move-take", String(m.take));
        await page.click("#move-submit");
    }
    const history = await page.$$eval("#history li", (ls) => ls.map((l) => ({
        who: l.dataset.player, before: JSON.parse(l.dataset.before), after: JSON.parse(l.dataset.after) })));
    history.forEach((h, i) => {
        if (i > 0) same(h.before, history[i - 1].after, `move ${i + 1} starts where move ${i} ended`);
        if (i > 0) assert(h.who !== history[i - 1].who, `moves ${i} and ${i + 1} are by the same player`);
        if (h.who === "service") assert(legal(h.before.map(BigInt), h.after.map(BigInt)),
            `service move ${i + 1} is illegal: ${JSON.stringify(h.before)} -> ${JSON.stringify(h.after)}`);
    });
    const result = await page.getAttribute("#play-status", "data-result");
    assert(result === "user" || result === "service", "the game did not end with a winner shown");
    const status = await page.textContent("#play-status");
    assert(/you won|the service won/.test(status), `status: ${status}`);
    return { history, result, status };
}

function oneHeapDown(p, q, ok) {
    const d = p.map((x, i) => x - q[i]).filter((x) => x !== 0n);
    return q.length === p.length && d.length === 1 && d[0] > 0n && ok(d[0]);
}

test("a whole game of nim against the service (an illegal move refused first)", async () => {
    await pickGame("nim");
    await page.fill("#f-piles", "2, 3, 4");
    let tried = false;
    const { history, result } = await playGame("user", async (heaps) => {
        if (!tried) { // taking more than the pile holds is refused, and nothing moves
            tried = true;
            await page.selectOption("#move-pile", "0");
            await page.fill("#move-take", String(heaps[0] + 1n));
            await page.click("#move-submit");
            await page.waitForFunction(() => /Illegal move/.test(document.querySelector("#play-error").textContent), null, { timeout: 5000 });
            const now = await page.$$eval("#play-heaps li", (ls) => ls.map((l) => l.dataset.heap));
            same(now, heaps.map(String), "the position after an illegal move");
        }
        const i = heaps.findIndex((h) => h > 0n); // a poor player: one token from the first pile
        return { pile: i, take: 1n };
    }, (p, q) => oneHeapDown(p, q, () => true));
    assert(history.at(-1).after.every((h) => h === 0), "the game ended before every pile was empty");
    same(result, history.at(-1).who, "the winner (the player who took the last token)");
    await shot(page, "desktop-nim-game");
});

test("subtraction {1, 3, 4}, the service first from a losing heap: the user wins", async () => {
    await pickGame("subtraction");
    await page.fill("#f-moves", "1, 3, 4");
    await page.fill("#f-piles", "14");
    const S = [1n, 3n, 4n];
    const { history, result } = await playGame("service", async (heaps) => {
        const a = (await analyze(`{"game":"subtraction","moves":[1,3,4],"piles":[${heaps.join(",")}]}`)).body;
        assert(a.winner === "first", `the user should be winning at ${heaps}`);
        return { pile: a.move.pile, take: a.move.take };
    }, (p, q) => oneHeapDown(p, q, (d) => S.includes(d)));
    same(result, "user", "the winner");
    assert(history[0].who === "service", "the service did not move first");
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

test("a phone-sized viewport (390 x 844) lays out without sideways scrolling", async () => {
    const phone = await context.newPage();
    watch(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    await load(phone);
    await phone.fill("#f-piles", "3, 4, 5");
    await phone.click("#solve");
    await phone.waitForSelector("#answer-winner", { timeout: 5000 });
    await phone.check("input[name=first][value=user]");
    await phone.click("#play-start");
    await phone.waitForSelector("#play-board:not([hidden])", { timeout: 5000 });
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `the page is ${width} px wide`);
    const box = await phone.locator("#solve").boundingBox();
    assert(box && box.height >= 40, "the Solve button is smaller than a finger");
    const file = path.resolve(artifacts, "phone.png");
    await phone.screenshot({ path: file, fullPage: true });
    shots.push(file);
    await phone.close();
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
    console.log(`1..${tests.length}`);
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
            viewport: { width: 1280, height: 900 },
            timeout: 30000,
        });
        page = context.pages()[0] || await context.newPage();
        watch(page);
        page.setDefaultTimeout(10000);
    } catch (e) {
        tests.forEach((t, i) => report(i + 1, t.name, i ? "Chromium did not start" : e));
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
    await context.close().catch(() => {});
    clearTimeout(dog);
    process.exit(failed ? 1 : 0);
}

main();
