/* SPDX-License-Identifier: MIT */
/* Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, fed to LLVMFuzzerTestOneInput in turn. Built by meson
 * with the ordinary compiler, so `meson test` replays the committed corpus
 * and regression inputs on every run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    uint8_t chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n > cap) {
            cap = (len + n) * 2;
            uint8_t *b = realloc(buf, cap);
            if (!b)
                abort();
            buf = b;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
    free(buf);
    return 0;
}

static int replay(const char *path, unsigned *count)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        rc |= replay(child, count);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= replay(argv[i], &count);
    printf("1..1\n%s 1 - replayed %u inputs without a crash or a bad reply\n", rc ? "not ok" : "ok", count);
    return rc ? 1 : 0;
}
