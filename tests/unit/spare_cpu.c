// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts_source_spare_cpu(): a source takes threads only when fewer tasks are runnable than there
 * are CPUs, by /proc/loadavg's fourth field; TS_THREADS=0, 1 and spare decide alone; an unreadable
 * or unexpected loadavg keeps the threads. The machine's own /proc/loadavg parses.
 * ts_source_decode_worker(): the decode worker only with TS_THREADS=1.
 * ts_source_scan_thread(): report's scanning thread whatever the load, but with TS_THREADS=0.
 */
#include <stdio.h>

#include "tap.h"
#include "tickscope/source.h"

int main(void)
{
	char buf[128];
	FILE *f;

	/* a calm machine: this process alone runs */
	ok(ts_source_spare_cpu(NULL, "0.00 0.01 0.05 1/180 4242\n", 2) == 1, "1 runnable, 2 CPUs");
	ok(ts_source_spare_cpu(NULL, "0.90 0.80 0.70 1/180 4242\n", 1) == 0, "1 runnable, 1 CPU");
	ok(ts_source_spare_cpu(NULL, "1.10 1.00 0.90 2/180 4242\n", 2) == 0, "2 runnable, 2 CPUs");
	ok(ts_source_spare_cpu(NULL, "21.5 19.4 13.6 21/203 4242\n", 2) == 0,
	   "21 runnable, 2 CPUs (a busy shared machine)");
	ok(ts_source_spare_cpu(NULL, "3.00 3.00 3.00 3/900 4242\n", 8) == 1, "3 runnable, 8 CPUs");
	ok(ts_source_spare_cpu(NULL, "3.00 3.00 3.00 3/900 4242\n", 0) == 0,
	   "no CPU known to run on: no threads");

	/* the environment decides first */
	ok(ts_source_spare_cpu("0", "0.00 0.01 0.05 1/180 4242\n", 8) == 0, "TS_THREADS=0, calm");
	ok(ts_source_spare_cpu("1", "21.5 19.4 13.6 21/203 4242\n", 2) == 1, "TS_THREADS=1, busy");
	ok(ts_source_spare_cpu("spare", "21.5 19.4 13.6 21/203 4242\n", 2) == 1,
	   "TS_THREADS=spare, busy");
	ok(ts_source_spare_cpu("spares", "21.5 19.4 13.6 21/203 4242\n", 2) == 0,
	   "TS_THREADS=spares measures");
	ok(ts_source_spare_cpu("auto", "21.5 19.4 13.6 21/203 4242\n", 2) == 0,
	   "TS_THREADS=auto measures");
	ok(ts_source_spare_cpu("", "0.00 0.01 0.05 1/180 4242\n", 2) == 1, "TS_THREADS empty");

	/* what cannot be read keeps the threads, as before this check */
	ok(ts_source_spare_cpu(NULL, NULL, 2) == 1, "no /proc/loadavg");
	ok(ts_source_spare_cpu(NULL, "", 2) == 1, "an empty loadavg");
	ok(ts_source_spare_cpu(NULL, "0.00 0.01 0.05\n", 2) == 1, "a loadavg of three fields");
	ok(ts_source_spare_cpu(NULL, "0.00 0.01 0.05 x/180 1\n", 2) == 1, "no count of tasks");

	/* the decode worker does not pay (docs/scale.md): only when asked for */
	ok(ts_source_decode_worker("1") == 1, "decode worker: TS_THREADS=1");
	ok(ts_source_decode_worker(NULL) == 0, "decode worker: TS_THREADS unset");
	ok(ts_source_decode_worker("0") == 0, "decode worker: TS_THREADS=0");
	ok(ts_source_decode_worker("") == 0, "decode worker: TS_THREADS empty");
	ok(ts_source_decode_worker("11") == 0, "decode worker: TS_THREADS=11");
	ok(ts_source_decode_worker("spare") == 0, "decode worker: TS_THREADS=spare");

	/* report's scanner costs little CPU (docs/scale.md): whatever the load */
	ok(ts_source_scan_thread(NULL) == 1, "scan thread: TS_THREADS unset");
	ok(ts_source_scan_thread("0") == 0, "scan thread: TS_THREADS=0");
	ok(ts_source_scan_thread("1") == 1, "scan thread: TS_THREADS=1");
	ok(ts_source_scan_thread("spare") == 1, "scan thread: TS_THREADS=spare");
	ok(ts_source_scan_thread("") == 1, "scan thread: TS_THREADS empty");

	f = fopen("/proc/loadavg", "r");
	if (f && fgets(buf, sizeof(buf), f)) {
		unsigned long running = 0;

		sscanf(buf, "%*s %*s %*s %lu/", &running);
		ok(ts_source_spare_cpu(NULL, buf, 1000000) == (running < 1000000),
		   "this machine's loadavg parses (%lu runnable)", running);
	} else {
		ok(1, "# SKIP no /proc/loadavg here");
	}
	if (f)
		fclose(f);
	return tap_done();
}
