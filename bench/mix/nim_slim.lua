-- SPDX-License-Identifier: MIT
-- Nim as bench/mix/nim.lua, answered slim ("explain": false: no
-- winning_moves, why or explanation), the answer the baseline's compares
-- with byte for byte in kind.
wrk.method = "POST"
wrk.body = '{"game":"nim","piles":[3,4,5,7],"explain":false}'
wrk.headers["Content-Type"] = "application/json"
