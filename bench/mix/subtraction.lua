-- SPDX-License-Identifier: MIT
-- Subtraction games whose sets are in the table file (subsets of {1..12}),
-- heaps up to 10^18.
package.path = "bench/mix/?.lua;" .. package.path
require("rotate").setup({
    '{"game":"subtraction","moves":[1,3,4],"piles":[1000000000000000000,12345]}',
    '{"game":"subtraction","moves":[2,5,7,11],"piles":[987654321987654321,77,4096]}',
    '{"game":"subtraction","moves":[1,2,3,4,5,6,7,8,9,10,11,12],"piles":[999999999999999999]}',
    '{"game":"subtraction","moves":[3,8,12],"piles":[500000000000000001,31415926535]}',
})
