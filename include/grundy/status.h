/* SPDX-License-Identifier: MIT */
/* Status codes shared by every engine function.
 *
 * Contract: a function that can fail returns GR_OK (0) or one negative code
 * below, and writes results only through its out-parameters. The API layer
 * turns a code plus the offending field into a message for a person. */
#ifndef GRUNDY_STATUS_H
#define GRUNDY_STATUS_H

typedef enum gr_status {
    GR_OK = 0,
    GR_EINVAL = -1, /* an argument is outside the function's documented domain */
    GR_ELIMIT = -2, /* the work budget ran out before an answer was certain */
    GR_ENOMEM = -3, /* an allocation failed */
    GR_ECYCLE = -4, /* a graph that must be acyclic has a cycle */
    GR_EBOUND = -5, /* the position lies past the bound up to which values are known */
    GR_ERANGE = -6, /* a value does not fit the representation (e.g. a Grundy value >= 65535) */
} gr_status;

#endif
