// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the benchmark parsers (source/bench.c) on real outputs in tests/fixtures/bench/
 * (origins in its README), and on malformed ones that must fail at the right line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/bench.h"
#include "tickscope/error.h"
#include "tap.h"

static const char *top;

static int rd(const char *name, struct ts_bench *b, int *line)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/fixtures/bench/%s", top, name);
	return ts_bench_read(path, b, line);
}

static double val(const struct ts_bench *b, const char *name)
{
	const struct ts_bench_metric *m = ts_bench_find(b, name);

	return m ? m->value : NAN;
}

static void test_shrinker_seed(void)
{
	struct ts_bench a, b;
	int line;

	ok(!rd("shrinker-seed-before.txt", &a, &line), "seed 2 before parses");
	ok(!rd("shrinker-seed-after.txt", &b, &line), "seed 2 after parses (header says usrtime)");
	ok(!strcmp(a.m[0].name, "ramfs.bogo_ops_per_s_real"), "the result is the real-time rate");
	ok(a.m[0].dir == TS_DIR_HIGHER && a.m[0].kind == TS_METRIC_RATE,
	   "higher is better, a rate");
	ok(a.m[0].value == 12915.89 && b.m[0].value == 2811.08, "12915.89 -> 2811.08 ops/s");
	ok(val(&a, "ramfs.bogo_ops_per_s_usr_sys") == 4314.26 &&
		   val(&b, "ramfs.bogo_ops_per_s_usr_sys") == 4087.47,
	   "usr+sys rate 4314.26 -> 4087.47");
	ok(fabs((b.m[0].value / a.m[0].value - 1) * 100 - -78.24) < 0.005, "change -78.24%%");
	ok(a.ops == 774966 && a.wall_s == 60 && fabs(a.cpu_s - 179.63) < 1e-9, "ops, wall, cpu");
	ok(a.instances == 9 && b.instances == 9, "9 instances from 'dispatching hogs'");
}

static void test_stress_ng_forms(void)
{
	struct ts_bench b, y;
	int line;

	ok(!rd("stress-ng-0.18-syscall.out", &b, &line), "12-field metrc: form parses");
	ok(b.m[0].value == 1318.95 && val(&b, "syscall.bogo_ops_per_s_usr_sys") == 313.33,
	   "12-field: real 1318.95, usr+sys 313.33 (CPU%% and RSS columns skipped)");
	ok(b.instances == 224 && b.ops == 114464, "12-field: 224 instances, 114464 ops");
	ok(!rd("stress-ng-0.15-ramfs.out", &b, &line), "10-field metrc: form parses");
	ok(b.m[0].value == 1180.65 && val(&b, "ramfs.bogo_ops_per_s_usr_sys") == 12295.59,
	   "10-field: real 1180.65, usr+sys 12295.59");
	ok(!rd("stress-ng-0.15-ramfs.yaml", &y, &line), "YAML parses");
	ok(!strcmp(y.kind, "stress-ng-yaml"), "kind stress-ng-yaml");
	ok(fabs(y.m[0].value - 1180.649785) < 1e-9, "YAML: the real-time rate comes first");
	ok(fabs(val(&y, "ramfs.bogo_ops_per_s_usr_sys") - 12295.592910) < 1e-9,
	   "YAML: usr+sys rate (listed before the real-time one in the file)");
	ok(y.instances == 2, "YAML: 2 instances from cpu-usage-per-instance");
}

static void test_others(void)
{
	struct ts_bench b;
	int line;

	ok(!rd("lat-unix-seed-after.txt", &b, &line) && !strcmp(b.kind, "lat_unix") &&
		   b.m[0].value == 156.4722 && b.m[0].dir == TS_DIR_LOWER,
	   "lat_unix: 156.4722 us, lower is better");
	ok(!rd("pingpong-same.out", &b, &line) && !strcmp(b.kind, "pingpong") &&
		   b.m[0].value == 28.2569 && b.ops == 3200,
	   "pingpong: 28.2569 us, 3000 + 200 warm-up round trips");
	ok(!rd("perf-bench-pipe.out", &b, &line) && b.m[0].value == 25.007350 &&
		   !strcmp(b.m[0].unit, "us/op") && val(&b, "ops_per_s") == 39988 && b.ops == 20000,
	   "perf bench sched pipe: 25.007350 us/op, 39988 ops/s, 20000 ops");
	ok(!rd("perf-bench-messaging.out", &b, &line) && b.m[0].value == 0.485 &&
		   b.m[0].dir == TS_DIR_LOWER,
	   "perf bench sched messaging: 0.485 s");
}

/* @text is refused with -@want at line @want_line. */
static void refused(const char *text, int want_line, int want, const char *name)
{
	struct ts_bench b;
	int line, err = ts_bench_parse(text, strlen(text), &b, &line);

	if (!ok(err == -want && line == want_line, "%s", name))
		diag("err %d line %d, want %d at line %d", err, line, -want, want_line);
}

static void bad(const char *text, int want_line, const char *name)
{
	refused(text, want_line, TS_EBENCH, name);
}

/*
 * A run stress-ng says failed (an instance killed): its table is printed all the same and was
 * taken as the result; refused at the first "fail:" line. Without those lines it parses.
 */
static void test_failed(void)
{
	static const char tail[] = "stress-ng: info:  [1] dispatching hogs: 2 cpu\n"
				   "stress-ng: metrc: [1] stressor bogo ops real time usr time "
				   "sys time bogo ops/s bogo ops/s\n"
				   "stress-ng: metrc: [1] (secs) (secs) (secs) (real time) "
				   "(usr+sys time)\n"
				   "stress-ng: metrc: [1] cpu 738 1.50 0.23 0.01 491.83 3050.31\n";
	char buf[1024];
	struct ts_bench b;
	int line, err;

	err = rd("stress-ng-0.15-cpu-killed.out", &b, &line);
	if (!ok(err == -TS_EBENCHFAIL && line == 6,
		"stress-ng run with a killed instance: -TS_EBENCHFAIL at its first fail: line"))
		diag("err %d line %d", err, line);
	ok(!ts_bench_parse(tail, sizeof(tail) - 1, &b, &line) && b.m[0].value == 491.83,
	   "the same table without the fail: lines parses (491.83 ops/s)");
	snprintf(buf, sizeof(buf),
		 "%sstress-ng: 12:00:01.00 info:  [1] unsuccessful run "
		 "completed in 3.06s\n",
		 tail);
	refused(buf, 5, TS_EBENCHFAIL, "\"unsuccessful run completed\" (with --timestamp)");
	snprintf(buf, sizeof(buf),
		 "%sstress-ng: info:  [1] successful run completed in 3.06s\n"
		 "stress-ng: info:  [1] failed: 0\n",
		 tail);
	ok(!ts_bench_parse(buf, strlen(buf), &b, &line), "a successful run, failed: 0, parses");
	/*
	 * a failed run whose table is not readable (cut, or none printed): the output was
	 * "unrecognised", and compare read the run's stress-ng.yaml in its place
	 */
	refused("stress-ng: info:  [1] dispatching hogs: 2 ramfs\n"
		"stress-ng: fail:  [7] ramfs: child mount/umount failed\n"
		"stress-ng: info:  [1] unsuccessful run completed in 8.13s\n",
		2, TS_EBENCHFAIL, "a failed run with no table: -TS_EBENCHFAIL at its fail: line");
	refused("stress-ng: metrc: [1] stressor bogo ops real time usr time\n"
		"stress-ng: info:  [1] unsuccessful run completed in 8.13s\n",
		2, TS_EBENCHFAIL, "a failed run whose table is damaged: -TS_EBENCHFAIL");
}

static void test_bad(void)
{
	static const char blanks[] = "AF_UNIX sock stream latency: 17.9296 microseconds \t\r\n";
	struct ts_bench b;
	int line;

	bad("hello\nworld\n", 2, "unknown output: error at the last line");
	bad("", 1, "empty output");
	bad("x\nAF_UNIX sock stream latency: fast microseconds\n", 2, "lat_unix without a number");
	refused("AF_UNIX sock stream latency: 1 microseconds\nAF_UNIX sock stream latency: 2 "
		"microseconds\n",
		2, TS_EBENCHTWICE, "two lat_unix results");
	refused("# pingpong: pin=same cpus=0,0 iterations=3000 warmup=200 size=1 delay_us=0\n"
		"AF_UNIX sock stream latency: 28.2569 microseconds\n"
		"# pingpong: pin=same cpus=0,0 iterations=10 warmup=0 size=1 delay_us=0\n"
		"pingpong: cannot pin to CPU 0: Invalid argument\n",
		3, TS_EBENCHTWICE, "two pingpong headers (a failed re-run appended): refused");
	bad("stress-ng: info: [1] stressor bogo ops real time\nstress-ng: info: [1] (secs)\n", 2,
	    "stress-ng header without the rate units");
	bad("stress-ng: info: [1] stressor bogo ops\nstress-ng: info: [1] (real time) (usr+sys "
	    "time)\nstress-ng: info: [1] ramfs 10 1.0 0.1\n",
	    3, "stress-ng row with too few columns");
	bad("stress-ng: info: [1] stressor bogo ops\nstress-ng: info: [1] (real time) (usr+sys "
	    "time)\nstress-ng: info: [1] ramfs 100 10.0 1 1 5.0 50.0\n",
	    3, "stress-ng rate that is not ops over real time (columns swapped)");
	bad("stress-ng: info: [1] stressor bogo ops\nstress-ng: info: [1] (real time) (usr+sys "
	    "time)\nstress-ng: info: [1] ramfs 2367 2.00 0.00 1.90 1180.65 12295.59\n",
	    3, "stress-ng usr+sys rate that is not ops over usr + sys time (0.19 s as 1.90)");
	bad("stress-ng: info: [1] stressor bogo ops\nstress-ng: info: [1] (real time) (usr+sys "
	    "time)\nstress-ng: info: [1] ramfs 2367 2.00 0.00 0.19 1180.65 1229.59\n",
	    3, "stress-ng usr+sys rate that lost a digit");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.5 [sec]\n", 2,
	    "perf bench pipe without usecs/op");
	/* figures of one measurement that disagree: a digit lost or gained, silently taken */
	bad("# Running 'sched/pipe' benchmark:\n# Executed 20000 pipe operations between two "
	    "processes\n\n     Total time: 0.500 [sec]\n\n       2.500735 usecs/op\n"
	    "          39988 ops/sec\n",
	    6, "perf bench pipe: usecs/op not the time over the operations");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n"
	    "      25.007350 usecs/op\n           3998 ops/sec\n",
	    5, "perf bench pipe: ops/sec not the inverse of usecs/op");
	bad("# Running 'sched/pipe' benchmark:\n# Executed 2000 pipe operations between two "
	    "processes\n\n     Total time: 0.500 [sec]\n\n      25.007350 usecs/op\n",
	    6, "perf bench pipe: an operation count that does not give the time");
	bad("---\nmetrics:\n    - stressor: ramfs\n      bogo-ops: 12\ntimes:\n", 3,
	    "YAML entry without its rates");
	bad("---\nmetrics:\n    - stressor: ramfs\n      bogo-ops: many\n", 4, "YAML bad number");
	/* figures below zero, or not decimals, are damage: each names its line */
	bad("# Running 'sched/pipe' benchmark:\n     Total time: -0.500 [sec]\n\n 25.0 usecs/op\n",
	    2, "perf bench pipe: a negative total time");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n -25.0 usecs/op\n",
	    4, "perf bench pipe: a negative usecs/op");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n 0x19 usecs/op\n",
	    4, "perf bench pipe: a hexadecimal usecs/op");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n nan usecs/op\n", 4,
	    "perf bench pipe: nan usecs/op");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 5e-1 [sec]\n\n 25.0 usecs/op\n", 2,
	    "perf bench pipe: an exponent in the total time (5e-1)");
	bad("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n 2.5E1 usecs/op\n",
	    4, "perf bench pipe: an exponent in usecs/op (2.5E1)");
	bad("x\nAF_UNIX sock stream latency: 5e3 microseconds\n", 2, "lat_unix: an exponent (5e3)");
	bad("---\nmetrics:\n    - stressor: ramfs\n      bogo-ops: 1e2\n", 4,
	    "YAML: an exponent in bogo-ops (1e2)");
	bad("# pingpong: iterations=1e4 warmup=1\nAF_UNIX sock stream latency: 5 microseconds\n", 1,
	    "pingpong header: an exponent in the iteration count (1e4)");
	bad("x\nAF_UNIX sock stream latency: 1.2.3 microseconds\n", 2,
	    "lat_unix: two decimal points");
	/* words after the unit: not the benchmark's line (two outputs run into one) */
	bad("# pingpong: pin=same cpus=0,0 iterations=3000 warmup=200 size=1 delay_us=0\n"
	    "AF_UNIX sock stream latency: 28.2569 microseconds 76.0929 microseconds\n",
	    2, "pingpong result line with words after its unit");
	bad("x\nAF_UNIX sock stream latency: 17.9296 microseconds[ perf record: Woken up 25 times\n",
	    2, "lat_unix result line run into perf's next line");
	bad("AF_UNIX sock stream latency: 17.9296 microseconds (x1000)\n", 1,
	    "lat_unix result line with a word after its unit");
	ok(!ts_bench_parse(blanks, sizeof(blanks) - 1, &b, &line) && b.m[0].value == 17.9296,
	   "lat_unix result line with blanks after its unit parses");
	bad("stress-ng: info: [1] stressor bogo ops\nstress-ng: info: [1] (real time) (usr+sys "
	    "time)\nstress-ng: info: [1] ramfs 100 10.0 -5.00 1 10.0 50.0\n",
	    3, "stress-ng row with a negative usr time");
	bad("---\nmetrics:\n    - stressor: ramfs\n      bogo-ops: 12\n      system-time: -1\n", 5,
	    "YAML negative system time");
	bad("# pingpong: iterations=-10 warmup=1\nAF_UNIX sock stream latency: 5 microseconds\n", 1,
	    "pingpong header with a negative iteration count");
	bad("# pingpong: iterations=10 warmup=x\nAF_UNIX sock stream latency: 5 microseconds\n", 1,
	    "pingpong header with a warm-up that is no number");
}

/*
 * An output cut inside its last figure ("12295.59" as "122"): the figure is not taken, whatever
 * it reads as. The same text up to the whole figure and a newline still parses.
 */
static void test_cut(void)
{
	static const char *const files[] = { "stress-ng-0.15-ramfs.out",
					     "stress-ng-0.15-ramfs.yaml",
					     "shrinker-seed-after.txt" };
	static const char *const figures[] = { "12295.59", "0.191875", "4087.47" };
	struct ts_bench b;
	char path[4096], text[1 << 16];

	for (int i = 0; i < 3; i++) {
		FILE *f;
		size_t len = 0, at;
		int line, err, want = 1;
		char *p;

		snprintf(path, sizeof(path), "%s/tests/fixtures/bench/%s", top, files[i]);
		f = fopen(path, "rb");
		if (f) {
			len = fread(text, 1, sizeof(text) - 1, f);
			fclose(f);
		}
		text[len] = '\0';
		p = strstr(text, figures[i]);
		if (!ok(p != NULL, "%s holds %s", files[i], figures[i]))
			continue;
		at = (size_t)(p - text);
		for (size_t k = 0; k < at; k++)
			want += text[k] == '\n';
		err = ts_bench_parse(text, at + 3, &b, &line);
		if (!ok(err == -TS_EBENCHCUT && line == want,
			"%s cut inside %s: -TS_EBENCHCUT at line %d", files[i], figures[i], want))
			diag("err %d line %d", err, line);
		memcpy(text + at + strlen(figures[i]), "\n", 2);
		ok(!ts_bench_parse(text, at + strlen(figures[i]) + 1, &b, &line),
		   "%s up to %s and a newline parses", files[i], figures[i]);
	}
}

/* A benchmark that measured nothing: -TS_EBENCHNONE at @want_line. */
static void none(const char *text, int want_line, const char *name)
{
	refused(text, want_line, TS_EBENCHNONE, name);
}

/* Outputs whose figures are zero: a benchmark that timed nothing is refused, not a result. */
static void test_nothing(void)
{
	static const char sng[] = "stress-ng: info: [1] stressor bogo ops real time usr time "
				  "sys time bogo ops/s bogo ops/s\n"
				  "stress-ng: info: [1] (secs) (secs) (secs) (real time) "
				  "(usr+sys time)\n";
	char buf[512];

	none("AF_UNIX sock stream latency: 0 microseconds\n", 1, "lat_unix latency 0");
	none("# pingpong: pin=same cpus=0,0 iterations=3000 warmup=200 size=1 delay_us=0\n"
	     "AF_UNIX sock stream latency: 0.0000 microseconds\n",
	     2, "pingpong latency 0");
	none("# pingpong: pin=same cpus=0,0 iterations=0 warmup=0 size=1 delay_us=0\n"
	     "AF_UNIX sock stream latency: 17.5 microseconds\n",
	     1, "pingpong of 0 round trips");
	none("# Running 'sched/pipe' benchmark:\n# Executed 0 pipe operations between two "
	     "processes\n",
	     2, "perf bench pipe of 0 operations");
	none("# Running 'sched/pipe' benchmark:\n     Total time: 0.500 [sec]\n\n"
	     "       0.000000 usecs/op\n",
	     4, "perf bench pipe at 0 usecs/op");
	none("# Running 'sched/messaging' benchmark:\n     Total time: 0.000 [sec]\n", 2,
	     "perf bench messaging of 0 s");
	snprintf(buf, sizeof(buf), "%sstress-ng: info: [1] ramfs 0 60.00 0.00 0.00 0.00 0.00\n",
		 sng);
	none(buf, 3, "stress-ng row of 0 bogo ops");
	snprintf(buf, sizeof(buf), "%sstress-ng: info: [1] ramfs 10 0.00 0.00 0.00 0.00 0.00\n",
		 sng);
	none(buf, 3, "stress-ng row of 0 s");
	none("---\nmetrics:\n    - stressor: ramfs\n      bogo-ops: 0\n      wall-clock-time: "
	     "60\n      bogo-ops-per-second-real-time: 0\n      "
	     "bogo-ops-per-second-usr-sys-time: 0\n",
	     3, "YAML entry of 0 bogo ops");
}

/*
 * Two runs' outputs in one file (a re-run appended with >>): perf bench took the second's
 * figures and stress-ng the first's, silently. Each real output doubled is refused at the
 * second run's line that starts its result: @mark's line in the file, plus its line count.
 */
static void test_twice(void)
{
	static const char *const files[] = {
		"perf-bench-pipe.out",	     "perf-bench-messaging.out", "stress-ng-0.15-ramfs.out",
		"stress-ng-0.15-ramfs.yaml", "pingpong-same.out",	 "lat-unix-seed-after.txt"
	};
	static const char *const marks[] = { "# Running '",
					     "# Running '",
					     "stressor       bogo ops",
					     "metrics:",
					     "AF_UNIX sock stream latency",
					     "AF_UNIX sock stream latency" };
	static char text[1 << 17];
	struct ts_bench b;
	char path[4096];

	for (int i = 0; i < 6; i++) {
		int line, err, n = 0, at = 0;
		size_t len = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/tests/fixtures/bench/%s", top, files[i]);
		f = fopen(path, "rb");
		if (f) {
			len = fread(text, 1, sizeof(text) / 2 - 1, f);
			fclose(f);
		}
		text[len] = '\0';
		for (char *p = text, *q; *p; p = q + 1) {
			char *m = strstr(p, marks[i]);

			q = strchr(p, '\n');
			n++;
			if (!at && m && (!q || m < q))
				at = n;
			if (!q)
				break;
		}
		if (!ok(len && at && text[len - 1] == '\n', "%s: %d lines, %s at line %d", files[i],
			n, marks[i], at))
			continue;
		if (!ok(!ts_bench_parse(text, len, &b, &line), "%s once parses", files[i]))
			continue;
		memcpy(text + len, text, len); /* the two halves meet, never overlap */
		text[2 * len] = '\0';
		err = ts_bench_parse(text, 2 * len, &b, &line);
		if (!ok(err == -TS_EBENCHTWICE && line == n + at,
			"%s twice: -TS_EBENCHTWICE at line %d", files[i], n + at))
			diag("err %d line %d", err, line);
	}
}

/* meta.txt's result= and result_unit= against the output (ts_bench_result()) */
static void test_result(void)
{
	static const char rtt[] = "us_per_round_trip", ops[] = "bogo_ops_per_s_real_time";
	static const char *const bad[] = { "nan",      "-3",  "1e309", "1.2.3", " 28.2569",
					   "28.2569 ", "inf", "0x1p4", "." };
	struct ts_bench pp, brief, yaml;
	int line;

	ok(!rd("pingpong-same.out", &pp, &line) && !rd("stress-ng-0.15-ramfs.out", &brief, &line) &&
		   !rd("stress-ng-0.15-ramfs.yaml", &yaml, &line),
	   "result: the outputs parse");
	ok(!ts_bench_result("", "", NULL) && !ts_bench_result("", rtt, &pp) &&
		   !ts_bench_result("", ops, &brief),
	   "result: none recorded is no error");
	ok(!ts_bench_result("28.2569", rtt, &pp), "result: ping-pong's own figure agrees");
	ok(!ts_bench_result("1180.649785", ops, &brief) &&
		   !ts_bench_result("1180.649785", ops, &yaml),
	   "result: the YAML's figure agrees with the brief table's 2 decimals and the YAML");
	ok(ts_bench_result("28.257", rtt, &pp) == -TS_ERESULTDIFF &&
		   ts_bench_result("28.2570", rtt, &pp) == -TS_ERESULTDIFF &&
		   ts_bench_result("1180.66", ops, &brief) == -TS_ERESULTDIFF &&
		   ts_bench_result("1180.65", ops, &yaml) == -TS_ERESULTDIFF,
	   "result: another figure, rounded or not, is -TS_ERESULTDIFF");
	ok(ts_bench_result("28.2569", ops, &pp) == -TS_ERESULTDIFF &&
		   ts_bench_result("1180.649785", rtt, &brief) == -TS_ERESULTDIFF,
	   "result: another benchmark's unit is -TS_ERESULTDIFF");
	ok(ts_bench_result("28.2569", "furlongs", &pp) == -TS_ERESULTUNIT &&
		   ts_bench_result("28.2569", "", NULL) == -TS_ERESULTUNIT &&
		   ts_bench_result("", "us", NULL) == -TS_ERESULTUNIT,
	   "result: an unknown or missing unit is -TS_ERESULTUNIT");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(ts_bench_result(bad[i], rtt, NULL) == -TS_ERESULT, "result '%s': -TS_ERESULT",
		   bad[i]);
}

int main(void)
{
	top = getenv("TS_TOP") ? getenv("TS_TOP") : ".";
	test_shrinker_seed();
	test_stress_ng_forms();
	test_others();
	test_failed();
	test_bad();
	test_cut();
	test_nothing();
	test_twice();
	test_result();
	return tap_done();
}
