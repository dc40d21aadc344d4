#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Exact integers from JavaScript: asks grundyd about a Nim position with a
// pile of 10^18 + 1 and reads the answer with plain JSON.parse.
//
// A JavaScript number keeps 53 bits, so JSON.parse would round
// 1000000000000000001 to 1000000000000000000. The query therefore sends its
// integers as decimal strings (the service takes both forms), and asks with
// ?integers=string for every integer of the answer as a decimal string too;
// BigInt does the arithmetic on them.
//
// Usage: node examples/fetch.mjs [URL]
//   URL defaults to $GRUNDYD_URL, else http://127.0.0.1:8080 (scripts/run.sh).
// Needs Node.js 18 or newer (global fetch).

const base = process.argv[2] ?? process.env.GRUNDYD_URL ?? "http://127.0.0.1:8080";
const query = { game: "nim", piles: ["1000000000000000001", "1000000000000000000", "7"] };

const response = await fetch(new URL("/v1/analyze?integers=string", base), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(query),
});
const answer = await response.json();
if (!response.ok) {
    const { code, message, field } = answer.error;
    console.error(`${response.status} ${code}${field ? ` (${field})` : ""}: ${message}`);
    process.exit(1);
}

console.log(`position: nim ${query.piles.join(", ")}`);
console.log(`winner:   ${answer.winner} player to move`);
console.log(`grundy:   ${answer.grundy}`);
if (answer.move) {
    console.log(`move:     ${answer.move.text}`);
    console.log(`next:     piles ${answer.next.piles.join(", ")}`);
    // The strings are exact, so BigInt can check the move: the nim-sum after it is 0.
    const nimSum = answer.next.piles.map(BigInt).reduce((a, b) => a ^ b, 0n);
    console.log(`nim-sum after the move: ${nimSum}`);
}
