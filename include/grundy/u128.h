/* SPDX-License-Identifier: MIT */
/* 128-bit unsigned integers for products of two 64-bit values.
 * __extension__ keeps -Wpedantic quiet: the type is a GCC/Clang extension. */
#ifndef GRUNDY_U128_H
#define GRUNDY_U128_H

__extension__ typedef unsigned __int128 gr_u128;

#endif
