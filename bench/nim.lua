-- SPDX-License-Identifier: MIT
-- wrk script: POST one Nim query per request.
wrk.method = "POST"
wrk.body = '{"game":"nim","piles":[3,4,5,1000000000000000001]}'
wrk.headers["Content-Type"] = "application/json"
