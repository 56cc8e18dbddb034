/* bt_records.h: mazerace-bot's record commands (--recent, --fetch-replay). */
#ifndef MR_BT_RECORDS_H
#define MR_BT_RECORDS_H

#include <stdint.h>

/* Connects to host:port and prints the newest list_n matches the server
 * stored (tab-separated, one a line), or, when replay_id is not 0, writes
 * that match's replay text to stdout. Returns the exit status: 0, or 1
 * (message on stderr). */
int bt_records_run(const char *host, int port, int list_n, uint64_t replay_id, double timeout_s);

#endif
