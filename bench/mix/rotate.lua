-- SPDX-License-Identifier: MIT
-- Shared by the mixes: each connection cycles through `bodies` (POST to the
-- path the script was started with) and `batches` (POST /v1/batch), built
-- once per thread so that the load generator spends its time sending.
local M = {}

function M.setup(bodies, batches)
    local requests, i = {}, 0
    init = function(args)
        local headers = { ["Content-Type"] = "application/json" }
        for _, b in ipairs(bodies) do
            requests[#requests + 1] = wrk.format("POST", nil, headers, b)
        end
        for _, b in ipairs(batches or {}) do
            requests[#requests + 1] = wrk.format("POST", "/v1/batch", headers, b)
        end
    end
    request = function()
        i = i % #requests + 1
        return requests[i]
    end
end

return M
