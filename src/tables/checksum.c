/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "tables/format.h"

static uint64_t mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    return h;
}

uint64_t gr_tf_checksum(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = mix(UINT64_C(0x243F6A8885A308D3), (uint64_t)len);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8); /* the format is little-endian; so are the hosts it supports */
        h = mix(h, w);
    }
    if (i < len) {
        uint64_t w = 0;
        memcpy(&w, p + i, len - i);
        h = mix(h, w);
    }
    return mix(h, UINT64_C(0x13198A2E03707344));
}
