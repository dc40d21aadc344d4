/* SPDX-License-Identifier: MIT */
/* The playground's files, embedded from web/ (see static.h). */
#include "static.h"

#include <string.h>

#define DECLARE_WEB_FILE(sym, path, type) extern const unsigned char sym[]; extern const unsigned long sym##_len;
GR_WEB_FILES(DECLARE_WEB_FILE)

#define WEB_ASSET(sym, path, type) { path, type, sym, &sym##_len },
static const gr_asset assets[] = { GR_WEB_FILES(WEB_ASSET) };

#define N_ASSETS (sizeof assets / sizeof assets[0])

/* Scripts, styles, images and fetches from the page's own origin only: no
 * inline script or style, no plugins, no framing, no form posts elsewhere. */
static const char csp[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

_Static_assert(N_ASSETS == GR_ASSET_COUNT, "GR_ASSET_COUNT counts the assets");

const gr_asset *gr_static_find(const char *path)
{
    for (size_t i = 0; i < N_ASSETS; i++)
        if (strcmp(assets[i].path, path) == 0)
            return &assets[i];
    return NULL;
}

size_t gr_static_index(const gr_asset *a)
{
    return (size_t)(a - assets);
}

int gr_static_entities(gr_entity out[GR_ASSET_COUNT])
{
    for (size_t i = 0; i < N_ASSETS; i++) {
        if (gr_entity_make(&out[i], assets[i].data, *assets[i].len) == 0)
            continue;
        while (i > 0)
            gr_entity_free(&out[--i]);
        return -1;
    }
    return 0;
}

void gr_static_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Content-Security-Policy", csp);
}
