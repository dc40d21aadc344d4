/* One line per event on stderr, as key=value pairs after a UTC timestamp and
 * level, so logs stay greppable and machine-readable. */
#ifndef GRUNDY_SERVER_LOG_H
#define GRUNDY_SERVER_LOG_H

void gr_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
