/* SPDX-License-Identifier: MIT */
/* grundyd: parse options, block the stop signals for every thread, serve. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "server.h"

int main(int argc, char **argv)
{
    gr_server_config cfg;
    gr_server_config_default(&cfg);
    int rc = gr_server_config_parse(&cfg, argc, argv);
    if (rc != 0)
        return rc > 0 ? EXIT_SUCCESS : 2;
    /* SIGPIPE: a client that hangs up must not kill the process. SIGTERM,
     * SIGINT and SIGHUP are blocked here, inherited by every worker, and
     * taken by sigwait in the main thread, which drains and stops or
     * re-maps the tables. */
    signal(SIGPIPE, SIG_IGN);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    return gr_server_run(&cfg) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
