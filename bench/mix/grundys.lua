-- SPDX-License-Identifier: MIT
-- Grundy's game with heaps inside the table file (up to 2^22).
package.path = "bench/mix/?.lua;" .. package.path
require("rotate").setup({
    '{"game":"grundys_game","piles":[4194303]}',
    '{"game":"grundys_game","piles":[1000000,2345678,100]}',
    '{"game":"grundys_game","piles":[3000000,17]}',
})
