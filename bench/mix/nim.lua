-- SPDX-License-Identifier: MIT
-- Nim, one small position per request: the body both grundyd and the
-- baseline (bench/baseline.c, exact only below 2^53) answer.
wrk.method = "POST"
wrk.body = '{"game":"nim","piles":[3,4,5,7]}'
wrk.headers["Content-Type"] = "application/json"
