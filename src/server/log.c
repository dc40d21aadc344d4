#include "server/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

void gr_log(const char *level, const char *fmt, ...)
{
    char line[1024], stamp[32];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    int n = snprintf(line, sizeof line, "ts=%s.%03ldZ level=%s ", stamp, ts.tv_nsec / 1000000L, level);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* One fputs per line: stdio locks the stream, so lines never interleave. */
    fprintf(stderr, "%s\n", line);
}
