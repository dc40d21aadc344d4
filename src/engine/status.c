/* SPDX-License-Identifier: MIT */
#include "grundy/status.h"

const char *gr_status_name(gr_status s)
{
    switch (s) {
    case GR_OK: return "ok";
    case GR_EINVAL: return "invalid";
    case GR_ELIMIT: return "limit";
    case GR_ENOMEM: return "no_memory";
    case GR_ECYCLE: return "cycle";
    case GR_EBOUND: return "bound";
    case GR_ERANGE: return "range";
    }
    return "unknown";
}
