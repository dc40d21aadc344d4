/* SPDX-License-Identifier: MIT */
#include "entity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/format.h"

static void make_tag(char out[24], const void *data, size_t len)
{
    snprintf(out, 24, "\"%016llx\"", (unsigned long long)gr_tf_checksum(data, len));
}

int gr_entity_make(gr_entity *e, const void *data, size_t len)
{
    memset(e, 0, sizeof *e);
    e->plain = data;
    e->plain_len = len;
    make_tag(e->plain_tag, data, len);
    int rc = gr_gzip(data, len, &e->gz, &e->gz_len);
    if (rc == 0)
        make_tag(e->gz_tag, e->gz, e->gz_len);
    else
        e->gz = NULL;
    return rc < 0 ? -1 : 0;
}

void gr_entity_free(gr_entity *e)
{
    free(e->gz);
    e->gz = NULL;
}

/* One entry of an If-None-Match list, [p, end), without blanks and W/. */
static bool entry_matches(const char *p, const char *end, const char *tag)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (end - p >= 2 && p[0] == 'W' && p[1] == '/')
        p += 2;
    size_t n = strlen(tag);
    return (end - p == 1 && *p == '*') || ((size_t)(end - p) == n && memcmp(p, tag, n) == 0);
}

bool gr_etag_matches(const char *if_none_match, const char *tag)
{
    if (!if_none_match || !tag[0])
        return false;
    for (const char *p = if_none_match;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (entry_matches(p, end, tag))
            return true;
        if (!comma)
            return false;
        p = comma + 1;
    }
}

struct MHD_Response *gr_entity_response(const gr_entity *e, const gr_codings *codings,
                                        const char *if_none_match, int *status, uint64_t *bytes)
{
    bool gz = gr_codings_choose_gzip(codings, e->gz != NULL);
    const char *tag = gz ? e->gz_tag : e->plain_tag;
    const void *body = gz ? (const void *)e->gz : (const void *)e->plain;
    size_t len = gz ? e->gz_len : e->plain_len;
    /* A 304 keeps the representation's body: libmicrohttpd sends none with
     * a 304 but writes its length as Content-Length, which RFC 9110 section
     * 8.6 allows only when it is the 200's length. */
    bool not_modified = gr_etag_matches(if_none_match, tag);
    *status = not_modified ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK;
    *bytes = not_modified ? 0 : len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)(uintptr_t)body,
                                                                MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return NULL;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    if (gz && *status == MHD_HTTP_OK)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    return resp;
}
