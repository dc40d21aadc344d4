// SPDX-License-Identifier: MIT
// grundyd playground: the Grundy sequence of a heap game from one
// POST /v1/batch, drawn as bars. The drawing is made at the width it is shown
// at (one SVG unit is one CSS pixel), so its labels keep their 11 px on a
// phone instead of shrinking with the picture.
import { $, api, el, fmt, showError, svg } from "./util.js";
import { readForm, state } from "./form.js";

const LABEL_PX = 12;
let last = null; // { values, period, title } drawn last, redrawn on resize

// Heap games: one `piles` list of plain heaps.
function isHeapGame(game) {
    return game.kind === "impartial" &&
        game.fields.some((f) => f.name === "piles" && f.type === "integer_array" && String(f.min_items) === "0");
}

export function updateChartSupport() {
    const ok = isHeapGame(state.game);
    $("chart-support").textContent = ok
        ? `The values g(0), g(1), … of one heap of ${state.game.name} with the other fields of the form.`
        : `${state.game.name} is not a heap game; the sequence is drawn for nim, subtraction, octal and Grundy's game.`;
    $("chart-draw").disabled = !ok;
}

function drawChart({ values, period, title }, width) {
    const w = Math.max(280, Math.round(width)), h = 240, left = 40, bottom = 28, top = 12;
    const n = values.length;
    const max = values.reduce((m, v) => (v !== null && v > m ? v : m), 1);
    const bw = (w - left - 8) / n;
    const y = (v) => top + (h - top - bottom) * (1 - v / max);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img",
                               "aria-labelledby": "chart-title chart-desc", class: "chart", id: "chart-svg" });
    chart.append(svg("title", { id: "chart-title" }, title));
    chart.append(svg("desc", { id: "chart-desc" },
        `Bar chart of the Grundy values of heaps 0 to ${n - 1}; the largest is ${max}.` +
        (period ? ` Period ${period.period} from heap ${period.preperiod}.` : "")));
    if (period && period.preperiod < n) {
        const x0 = left + period.preperiod * bw;
        const x1 = Math.min(left + (period.preperiod + period.period) * bw, w - 8);
        chart.append(svg("rect", { x: x0, y: top, width: x1 - x0, height: h - top - bottom, class: "band" }));
    }
    const tick = (x, yy, anchor, text) =>
        chart.append(svg("text", { x, y: yy, "text-anchor": anchor, class: "tick", "font-size": LABEL_PX }, text));
    chart.append(svg("line", { x1: left, y1: h - bottom, x2: w - 8, y2: h - bottom, class: "axis" }));
    tick(left - 6, y(max) + 4, "end", String(max));
    tick(left - 6, h - bottom + 4, "end", "0");
    // Labels at least 4 characters apart.
    const room = Math.max(1, Math.ceil((LABEL_PX * 3) / bw));
    const step = room <= 1 ? 1 : Math.ceil(room / 5) * 5;
    values.forEach((v, i) => {
        const x = left + i * bw;
        if (v !== null) {
            const bar = svg("rect", { x: x + bw * 0.1, y: y(v), width: Math.max(bw * 0.8, 0.5),
                                      height: h - bottom - y(v), class: "bar", "data-heap": i, "data-value": v });
            bar.append(svg("title", {}, `g(${i}) = ${v}`));
            chart.append(bar);
        }
        if (i % step === 0) tick(x + bw / 2, h - 8, "middle", String(i));
    });
    return chart;
}

function redraw() {
    const old = $("chart-svg");
    if (!last || !old) return;
    const width = $("chart").clientWidth;
    if (Math.abs(width - Number(old.getAttribute("width"))) > 2) old.replaceWith(drawChart(last, width));
}

function periodOf(results) {
    const withPeriod = results.find((r) => r.components && r.components[0] && r.components[0].period);
    const p = withPeriod ? withPeriod.components[0].period : null;
    return p ? { preperiod: Number(p.preperiod), period: Number(p.period) } : null;
}

function showSequence(query, results, n) {
    const values = results.map((r) => (r.grundy === null ? null : Number(r.grundy)));
    const period = periodOf(results);
    const name = state.game.name + (query.code ? " " + query.code : "") +
        (query.moves ? " S = " + (Array.isArray(query.moves) ? "{" + query.moves.join(", ") + "}" : query.moves.rule) : "");
    const facts = period
        ? `Period ${period.period} from heap ${period.preperiod} (certified by the service; the shaded band is the first period).`
        : "The service reported no period for these heaps.";
    last = { values, period, title: `Grundy values of ${name}` };
    const box = $("chart");
    box.replaceChildren();
    box.append(drawChart(last, box.clientWidth),
        el("p", { id: "chart-period", class: "period", text: facts }),
        el("p", { id: "chart-values", class: "sequence mono", text: `g(0…${n}) = ${values.map(fmt).join(", ")}` }));
}

export async function drawSequence(event) {
    event.preventDefault();
    const err = $("chart-error");
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
    const box = $("chart");
    box.setAttribute("aria-busy", "true");
    try {
        const res = await api("POST", "/v1/batch", { queries });
        if (!res.ok || !res.data) {
            showError(err, (res.data && res.data.error) || `The service answered ${res.status}.`, res.status);
            return;
        }
        const bad = res.data.results.find((r) => r.error);
        if (bad) {
            showError(err, bad.error, 422);
            return;
        }
        showError(err, null);
        showSequence(query, res.data.results, n);
    } catch (e) {
        showError(err, `The service did not answer: ${e.message}`);
    } finally {
        box.setAttribute("aria-busy", "false");
    }
}

export function clearChart() {
    last = null;
    $("chart").replaceChildren();
    showError($("chart-error"), null);
}

window.addEventListener("resize", redraw);
