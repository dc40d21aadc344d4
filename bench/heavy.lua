-- SPDX-License-Identifier: MIT
-- wrk script: POST heavy queries that exhaust the inline budget and run on
-- the compute pool (Strange Nim with k near the square root of x: about
-- 10^9 steps, refused with 422 limit_exceeded after the full budget).
wrk.method = "POST"
wrk.body = '{"game":"strange_nim","piles":[[999999999999999999,1000000007]]}'
wrk.headers["Content-Type"] = "application/json"
