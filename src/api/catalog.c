#include "api/catalog.h"

#include <inttypes.h>
#include <stdio.h>

#include "api/json.h"

static cJSON *section_json(const gr_table_info *info)
{
    cJSON *s = cJSON_CreateObject();
    char sum[24];
    snprintf(sum, sizeof sum, "%016" PRIx64, info->checksum);
    cJSON_AddStringToObject(s, "name", info->name);
    cJSON_AddStringToObject(s, "kind", info->kind);
    if (info->kind[0] == 'f') {
        gr_json_add_u64(s, "members", info->count);
        gr_json_add_u64(s, "values", info->param);
    } else if (info->kind[0] == 'b') {
        gr_json_add_u64(s, "bits", info->count);
        gr_json_add_u64(s, "set", info->param);
    } else if (info->kind[0] == 'g') {
        gr_json_add_u64(s, "rows", info->param);
        gr_json_add_u64(s, "cols", info->count / info->param);
    } else {
        gr_json_add_u64(s, "bound", info->count);
    }
    if (info->kind[0] == 's') {
        cJSON_AddBoolToObject(s, "periodic", info->periodic);
        if (info->periodic) {
            gr_json_add_u64(s, "preperiod", info->preperiod);
            gr_json_add_u64(s, "period", info->period);
        } else {
            cJSON_AddNullToObject(s, "preperiod");
            cJSON_AddNullToObject(s, "period");
        }
    }
    if (info->kind[0] == 's' || info->kind[0] == 'g')
        gr_json_add_u64(s, "max_value", info->max_value);
    cJSON_AddStringToObject(s, "checksum", sum);
    gr_json_add_u64(s, "bytes", info->bytes);
    return s;
}

char *gr_api_tables_json(const gr_tables *t)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    if (t) {
        cJSON_AddStringToObject(root, "path", gr_tables_path(t));
        gr_json_add_u64(root, "bytes", gr_tables_bytes(t));
    } else {
        cJSON_AddNullToObject(root, "path");
        gr_json_add_u64(root, "bytes", 0);
    }
    cJSON *list = cJSON_AddArrayToObject(root, "sections");
    for (size_t i = 0; t && list && i < gr_tables_count(t); i++) {
        gr_table_info info;
        gr_tables_info(t, i, &info);
        cJSON_AddItemToArray(list, section_json(&info));
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}
