/* SPDX-License-Identifier: MIT */
/* sigaction's SA_SIGINFO and si_addr. */
#define _POSIX_C_SOURCE 200809L
#include "tables/guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>

static _Atomic(gr_tables *) slots[GR_TABLES_GUARD_SLOTS];
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    for (size_t i = 0; i < GR_TABLES_GUARD_SLOTS; i++) {
        gr_tables *t = atomic_load(&slots[i]);
        if (t && gr_tables_contains(t, info->si_addr)) {
            gr_tables_fault(t, info->si_addr);
            return;
        }
    }
    signal(sig, SIG_DFL); /* not ours: the access faults again, with the default action */
}

static void install(void)
{
    struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

void gr_tables_guard_add(gr_tables *t)
{
    pthread_once(&installed, install);
    for (size_t i = 0; i < GR_TABLES_GUARD_SLOTS; i++) {
        gr_tables *none = NULL;
        if (atomic_compare_exchange_strong(&slots[i], &none, t))
            return;
    }
    /* Every slot taken: this file is unguarded, as files were before. */
}

void gr_tables_guard_remove(gr_tables *t)
{
    for (size_t i = 0; i < GR_TABLES_GUARD_SLOTS; i++) {
        gr_tables *mine = t;
        if (atomic_compare_exchange_strong(&slots[i], &mine, NULL))
            return;
    }
}
