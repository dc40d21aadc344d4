// SPDX-License-Identifier: MIT
// grundyd playground: forms built from GET /v1/games, answers from
// POST /v1/analyze, a game against the service on a board of each game, and
// the Grundy sequence of a heap game from one POST /v1/batch. ES modules, no
// build step; the files are listed once in src/server/meson.build.
//
// The position lives in the URL as #q=<the JSON request, URL-encoded>: a
// shared link reproduces it, and the browser's back and forward step through
// the positions solved and played.
import { $, api, el, parseExact, reveal, showError, toJson } from "./util.js";
import { buildForm, markInvalid, position, readForm, state } from "./form.js";
import { renderAnswer, requestBlock } from "./answer.js";
import { clearChart, drawSequence, updateChartSupport } from "./chart.js";
import { hint, redo, seek, setPositionListener, startGame, stopGame, undo, userPlays } from "./play.js";
import { hasBoard } from "./boards.js";

const gameNamed = (name) => state.catalog.games.find((g) => g.name === name);

// The query in the URL, or null.
function queryInUrl() {
    const m = /^#q=(.*)$/.exec(location.hash);
    if (!m) return null;
    try {
        const q = parseExact(decodeURIComponent(m[1]));
        return q && typeof q === "object" && gameNamed(q.game) ? q : null;
    } catch (e) {
        return null;
    }
}

// Puts QUERY in the URL: a new history entry, or in place of the current one.
function setUrl(query, replace) {
    const hash = "#q=" + encodeURIComponent(toJson(query));
    if (location.hash === hash) return;
    if (replace) history.replaceState(null, "", hash);
    else history.pushState(null, "", hash);
}

function clearAnswer() {
    $("answer").replaceChildren(el("p", { class: "muted", text: "Solve a position to see who wins." }));
}

// A new game or position in the form: nothing of the previous one stays.
function chooseGame(game, values) {
    stopGame();
    clearChart();
    buildForm(game, values);
    clearAnswer();
    updatePlaySupport();
    updateChartSupport();
}

async function solveQuery(query, { scroll = true, push = true } = {}) {
    const err = $("form-error");
    const box = $("answer");
    box.setAttribute("aria-busy", "true");
    $("solve").disabled = true;
    try {
        const res = await api("POST", "/v1/analyze", query);
        if (res.ok && res.data) {
            markInvalid(null);
            showError(err, null);
            renderAnswer(state.game, query, res, (next) => {
                const q = { ...query, ...position(next) };
                chooseGame(state.game, q);
                solveQuery(q);
            });
            setUrl(query, !push);
        } else {
            const e = res.data && res.data.error;
            markInvalid(e && e.field);
            showError(err, e || `The service answered ${res.status}.`, res.status);
            box.replaceChildren(el("p", { class: "muted", text: "No answer: the service refused the query (the error is under the form)." }),
                                requestBlock(query));
        }
    } catch (e) {
        showError(err, `The service did not answer: ${e.message}`);
    } finally {
        box.setAttribute("aria-busy", "false");
        $("solve").disabled = false;
        if (scroll) reveal($("answer-winner") || $("form-error"), $("answer-winner") ? $("answer-h") : $("form-error"));
    }
}

function solve(event) {
    event.preventDefault();
    const { query, problem } = readForm();
    if (problem) {
        markInvalid(problem[0]);
        showError($("form-error"), problem[1]);
        return;
    }
    stopGame();
    solveQuery(query);
}

function updatePlaySupport() {
    const ok = hasBoard(state.game.name);
    $("play-support").textContent = ok
        ? "Start a game from the position in the form. Click the board to move; the legal moves are the service's."
        : `${state.game.name} has no board here.`;
    $("play-start").disabled = !ok;
}

function beginGame(event) {
    event.preventDefault();
    const { query, problem } = readForm();
    if (problem) {
        showError($("play-error"), problem[1]);
        return;
    }
    const userFirst = document.querySelector("input[name=first]:checked").value === "user";
    startGame(state.game, query, userFirst);
}

// Back and forward: a position of the game being played is shown on its
// board; any other is put in the form and solved.
function onPopState() {
    const q = queryInUrl();
    if (!q) return;
    if (seek(q)) return;
    chooseGame(gameNamed(q.game), q);
    solveQuery(q, { scroll: false, push: false });
}

// Each position shown on the board goes in the URL and the request block.
function onBoardPosition(query) {
    setUrl(query, false);
    $("play-request").replaceChildren(requestBlock(query));
}

function wire() {
    const select = $("game");
    select.addEventListener("change", () => chooseGame(gameNamed(select.value)));
    $("example").addEventListener("click", () => chooseGame(state.game));
    $("query-form").addEventListener("submit", solve);
    $("play-setup").addEventListener("submit", beginGame);
    $("play-undo").addEventListener("click", undo);
    $("play-redo").addEventListener("click", redo);
    $("play-hint-btn").addEventListener("click", hint);
    $("play-move").addEventListener("click", () => userPlays(Number($("play-moves").value)));
    $("chart-form").addEventListener("submit", drawSequence);
    window.addEventListener("popstate", onPopState);
    setPositionListener(onBoardPosition);
}

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
    wire();
    const q = queryInUrl();
    chooseGame(q ? gameNamed(q.game) : gameNamed("nim") || state.catalog.games[0], q || undefined);
    for (const id of ["game", "solve", "example"]) $(id).disabled = false;
    status.textContent = `${state.catalog.games.length} games in the catalogue.`;
    if (q) await solveQuery(q, { scroll: false, push: false });
    document.body.setAttribute("data-ready", "true");
}


init();
