-- SPDX-License-Identifier: MIT
-- Kayles (octal 0.77) at 10^18: values from the certified period.
package.path = "bench/mix/?.lua;" .. package.path
require("rotate").setup({
    '{"game":"octal","code":"0.77","piles":[1000000000000000000]}',
    '{"game":"octal","code":"0.77","piles":[1000000000000000000,999999999999999999,12]}',
})
