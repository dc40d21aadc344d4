/* The playground's files, embedded from web/ (see static.h). */
#include "server/static.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tables/format.h"

extern const unsigned char gr_web_index_html[], gr_web_app_js[], gr_web_style_css[], gr_web_favicon_svg[];
extern const unsigned long gr_web_index_html_len, gr_web_app_js_len, gr_web_style_css_len,
    gr_web_favicon_svg_len;

static const gr_asset assets[] = {
    { "/", "text/html; charset=utf-8", gr_web_index_html, &gr_web_index_html_len },
    { "/static/app.js", "text/javascript; charset=utf-8", gr_web_app_js, &gr_web_app_js_len },
    { "/static/style.css", "text/css; charset=utf-8", gr_web_style_css, &gr_web_style_css_len },
    { "/static/favicon.svg", "image/svg+xml", gr_web_favicon_svg, &gr_web_favicon_svg_len },
};

#define N_ASSETS (sizeof assets / sizeof assets[0])

/* Scripts, styles, images and fetches from the page's own origin only: no
 * inline script or style, no plugins, no framing, no form posts elsewhere. */
static const char csp[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/* Entity tags: the table file's 64-bit checksum of each file, quoted;
 * computed once. */
static char etags[N_ASSETS][24];
static pthread_once_t etags_once = PTHREAD_ONCE_INIT;

static void make_etags(void)
{
    for (size_t i = 0; i < N_ASSETS; i++)
        snprintf(etags[i], sizeof etags[i], "\"%016llx\"",
                 (unsigned long long)gr_tf_checksum(assets[i].data, *assets[i].len));
}

const gr_asset *gr_static_find(const char *path)
{
    for (size_t i = 0; i < N_ASSETS; i++)
        if (strcmp(assets[i].path, path) == 0)
            return &assets[i];
    return NULL;
}

/* If-None-Match names TAG: "*", or the quoted tag in its list (weak
 * comparison, so W/"..." matches too). */
static int tag_matches(const char *if_none_match, const char *tag)
{
    if (!if_none_match)
        return 0;
    while (*if_none_match == ' ')
        if_none_match++;
    return strcmp(if_none_match, "*") == 0 || strstr(if_none_match, tag) != NULL;
}

struct MHD_Response *gr_static_response(const gr_asset *a, const char *if_none_match, int *status)
{
    pthread_once(&etags_once, make_etags);
    const char *tag = etags[a - assets];
    struct MHD_Response *resp;
    if (tag_matches(if_none_match, tag)) {
        *status = MHD_HTTP_NOT_MODIFIED;
        resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    } else {
        *status = MHD_HTTP_OK;
        resp = MHD_create_response_from_buffer(*a->len, (void *)a->data, MHD_RESPMEM_PERSISTENT);
    }
    if (!resp)
        return NULL;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Content-Security-Policy", csp);
    return resp;
}
