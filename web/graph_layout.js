// SPDX-License-Identifier: MIT
// grundyd playground: a deterministic layered layout of a directed graph for
// the graph board. Each node's layer is its longest path from a node with no
// incoming edge (edges that close a cycle are ignored, found by a depth-first
// search in node order); nodes in a layer are ordered by a few barycentre
// sweeps. Same graph, same picture.

// Layers by longest path over the edges that do not close a cycle.
function layersOf(ids, out) {
    const state = new Map(ids.map((v) => [v, 0])); // 0 new, 1 on the path, 2 done
    const forward = new Map(ids.map((v) => [v, []]));
    for (const root of ids) {
        if (state.get(root) !== 0) continue;
        const stack = [[root, 0]];
        state.set(root, 1);
        while (stack.length) {
            const top = stack[stack.length - 1];
            const next = out.get(top[0])[top[1]++];
            if (next === undefined) {
                state.set(top[0], 2);
                stack.pop();
            } else if (state.get(next) === 0) {
                forward.get(top[0]).push(next);
                state.set(next, 1);
                stack.push([next, 0]);
            } else if (state.get(next) === 2) {
                forward.get(top[0]).push(next);
            }
        }
    }
    // Longest path over the acyclic edges, in reverse finishing order.
    const order = [];
    const seen = new Set();
    const visit = (v) => {
        const stack = [[v, 0]];
        seen.add(v);
        while (stack.length) {
            const top = stack[stack.length - 1];
            const next = forward.get(top[0])[top[1]++];
            if (next === undefined) { order.push(top[0]); stack.pop(); }
            else if (!seen.has(next)) { seen.add(next); stack.push([next, 0]); }
        }
    };
    for (const v of ids) if (!seen.has(v)) visit(v);
    const layer = new Map(ids.map((v) => [v, 0]));
    for (const v of order.reverse()) for (const w of forward.get(v)) layer.set(w, Math.max(layer.get(w), layer.get(v) + 1));
    return layer;
}

// Positions {x, y} in [0, 1] and the layer of each node id (strings), from
// EDGES [[u, v]].
export function layout(ids, edges) {
    const out = new Map(ids.map((v) => [v, []]));
    const into = new Map(ids.map((v) => [v, []]));
    for (const [u, v] of edges) {
        if (!out.has(u) || !out.has(v) || u === v) continue;
        out.get(u).push(v);
        into.get(v).push(u);
    }
    const layer = layersOf(ids, out);
    const depth = Math.max(0, ...layer.values());
    const rows = Array.from({ length: depth + 1 }, () => []);
    for (const v of ids) rows[layer.get(v)].push(v);
    const place = new Map();
    const index = () => rows.forEach((r) => r.forEach((v, i) => place.set(v, (i + 0.5) / r.length)));
    index();
    for (let sweep = 0; sweep < 4; sweep++) {
        for (const r of rows) {
            const key = (v) => {
                const near = (sweep % 2 ? out : into).get(v);
                return near.length ? near.reduce((s, w) => s + place.get(w), 0) / near.length : place.get(v);
            };
            const keys = new Map(r.map((v) => [v, key(v)]));
            r.sort((a, b) => keys.get(a) - keys.get(b) || ids.indexOf(a) - ids.indexOf(b));
        }
        index();
    }
    return new Map(ids.map((v) => [v, { x: place.get(v), y: depth ? layer.get(v) / depth : 0.5, layer: layer.get(v) }]));
}
