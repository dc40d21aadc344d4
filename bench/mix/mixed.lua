-- SPDX-License-Identifier: MIT
-- Everything together: each of the single-query mixes and a batch of eight
-- queries through POST /v1/batch, in turn.
package.path = "bench/mix/?.lua;" .. package.path
local batch = '{"queries":[' ..
    '{"game":"nim","piles":[3,4,5,7]},' ..
    '{"game":"nim","piles":[1000000000000000001,"1000000000000000000"]},' ..
    '{"game":"subtraction","moves":[1,3,4],"piles":[1000000000000000000,12345]},' ..
    '{"game":"octal","code":"0.77","piles":[1000000000000000000]},' ..
    '{"game":"grundys_game","piles":[1000000,2345678,100]},' ..
    '{"game":"wythoff","piles":[1000000000000000000,1618033988749894848]},' ..
    '{"game":"staircase","stairs":[0,3,1,4]},' ..
    '{"game":"divisor","n":1000}]}'
require("rotate").setup({
    '{"game":"nim","piles":[3,4,5,7]}',
    '{"game":"subtraction","moves":[2,5,7,11],"piles":[987654321987654321,77,4096]}',
    '{"game":"octal","code":"0.77","piles":[1000000000000000000,999999999999999999,12]}',
    '{"game":"grundys_game","piles":[1000000,2345678,100]}',
}, { batch })
