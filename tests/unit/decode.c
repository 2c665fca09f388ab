// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode.c's typed path on payloads built here, for values no fixture holds: negative 4-byte
 * signed fields (a shrinker's retval, nid = NUMA_NO_NODE, an unbound work's cpu) read into the
 * event's 64-bit and 32-bit members, and a payload shorter than its format; and the same
 * verdicts from ts_decoder_name(), which reads no field. And the printer's function names
 * (%ps): for every symbol's address, the bytes either side, and the ends, the decoder's own
 * search names what libtraceevent names after tep_parse_kallsyms() of the same file: made-up
 * files with aliases, weak, data, absolute, '$' and module symbols, sorted and not, and the
 * running kernel's /proc/kallsyms when it shows addresses. And a second decoder made like the
 * first from the same bytes forks no probe child, and decodes the same; a probe child that
 * dies in a format gets that format refused, and no more. And the fast fills of sched_switch
 * and the wakeups read what the checked reads of other field sizes read.
 */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "tap.h"
#include "tickscope/decode.h"
#include "tickscope/error.h"
#include "tickscope/ksyms.h"

/*
 * Formats as /sys/kernel/tracing/events/.../format prints them on Linux 6.18 x86_64 (the host
 * the x86 fixtures were recorded on); print fmts shortened to what libtraceevent needs.
 */
static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

#define COMMON                                                                         \
	"format:\n"                                                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char shrink_end[] = "name: mm_shrink_slab_end\nID: 630\n" COMMON
				 "\tfield:struct shrinker * shr;\toffset:8;\tsize:8;\tsigned:0;\n"
				 "\tfield:int nid;\toffset:16;\tsize:4;\tsigned:1;\n"
				 "\tfield:void * shrink;\toffset:24;\tsize:8;\tsigned:0;\n"
				 "\tfield:long unused_scan;\toffset:32;\tsize:8;\tsigned:1;\n"
				 "\tfield:long new_scan;\toffset:40;\tsize:8;\tsigned:1;\n"
				 "\tfield:int retval;\toffset:48;\tsize:4;\tsigned:1;\n"
				 "\tfield:long total_scan;\toffset:56;\tsize:8;\tsigned:1;\n\n"
				 "print fmt: \"nid: %d retval %d\", REC->nid, REC->retval\n";

static const char queue_work[] =
	"name: workqueue_queue_work\nID: 337\n" COMMON
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int req_cpu;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"workqueue=%s req_cpu=%d cpu=%d\", __get_str(workqueue), REC->req_cpu, "
	"REC->cpu\n";

/*
 * sched_switch and sched_waking as 6.18 prints them (the decoders' fast fills), and as a format
 * of other sizes would (a 4-byte prev_state, no prio: the checked reads). %s: prev_state's
 * declaration, its size; the waking's prio line.
 */
#define SWITCH_FMT                                                       \
	"name: sched_switch\nID: 318\n" COMMON                           \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"  \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"      \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"       \
	"\tfield:%s prev_state;\toffset:32;\tsize:%d;\tsigned:1;\n"      \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"      \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"     \
	"print fmt: \"prev_comm=%%s prev_pid=%%d prev_state=%%s ==> "    \
	"next_comm=%%s next_pid=%%d\", REC->prev_comm, REC->prev_pid, "  \
	"REC->prev_state & 256 ? \"+\" : \"\", REC->next_comm, REC->next_pid\n"

#define WAKING_FMT                                                                \
	"name: sched_waking\nID: 322\n" COMMON                                    \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"                    \
	"%s"                                                                      \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"             \
	"print fmt: \"comm=%%s pid=%%d target_cpu=%%03d\", REC->comm, REC->pid, " \
	"REC->target_cpu\n"

/* sched_migrate_task as 6.18 prints it: its comm is a __data_loc string, not a char[16] */
#define MIGRATE_FMT                                                        \
	"name: sched_migrate_task\nID: 371\n" COMMON                       \
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"             \
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"              \
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"          \
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n\n"        \
	"print fmt: \"comm=%s pid=%d\", __get_str(comm), REC->pid\n"

struct buf {
	unsigned char p[8192];
	size_t len;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_num(struct buf *b, uint64_t v, int width)
{
	put(b, &v, width); /* little-endian host, as the section says */
}

static void put_blob(struct buf *b, const char *s, int width)
{
	put_num(b, strlen(s), width);
	put(b, s, strlen(s));
}

/* A version 0.6 tracing data section with one system of two events. */
static void section(struct buf *b)
{
	static const char magic[] = "\027\010\104tracing";

	b->len = 0;
	put(b, magic, 10);
	put(b, "0.6", 4);
	put_num(b, 0, 1); /* little endian */
	put_num(b, 8, 1); /* long size */
	put_num(b, 4096, 4);
	put(b, "header_page", 12);
	put_blob(b, header_page, 8);
	put(b, "header_event", 13);
	put_blob(b, "# compressed entry header\n", 8);
	put_num(b, 0, 4); /* ftrace formats */
	put_num(b, 2, 4); /* systems */
	put(b, "vmscan", 7);
	put_num(b, 1, 4);
	put_blob(b, shrink_end, 8);
	put(b, "workqueue", 10);
	put_num(b, 1, 4);
	put_blob(b, queue_work, 8);
	put_num(b, 0, 4); /* kallsyms */
	put_num(b, 0, 4); /* printk formats */
}

/*
 * A version 0.6 section with the sched system only: the current formats, or @other sizes; and
 * sched_migrate_task.
 */
static void sched_section(struct buf *b, int other)
{
	static const char magic[] = "\027\010\104tracing";
	char sw[2048], wk[1024];

	snprintf(sw, sizeof(sw), SWITCH_FMT, other ? "int" : "long", other ? 4 : 8);
	snprintf(wk, sizeof(wk), WAKING_FMT,
		 other ? "" : "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n");
	b->len = 0;
	put(b, magic, 10);
	put(b, "0.6", 4);
	put_num(b, 0, 1);
	put_num(b, 8, 1);
	put_num(b, 4096, 4);
	put(b, "header_page", 12);
	put_blob(b, header_page, 8);
	put(b, "header_event", 13);
	put_blob(b, "# compressed entry header\n", 8);
	put_num(b, 0, 4);
	put_num(b, 1, 4);
	put(b, "sched", 6);
	put_num(b, 3, 4);
	put_blob(b, sw, 8);
	put_blob(b, wk, 8);
	put_blob(b, MIGRATE_FMT, 8);
	put_num(b, 0, 4);
	put_num(b, 0, 4);
}

/*
 * The fast fills of sched_switch and the wakeups read what the checked reads of a format of
 * other sizes read from the same values, and a payload shorter than the format is still corrupt.
 */
static void test_sched_fast(void)
{
	struct ts_decoder *d[2] = { NULL, NULL };
	struct ts_event ev[2];
	unsigned char sw[2][64], wk[40];
	int32_t v32;
	uint16_t type;
	uint8_t flags = 0x08; /* TRACE_FLAG_HARDIRQ */
	int64_t state = 0x101; /* S, preempted */
	char err[256] = "";
	struct buf *b = calloc(1, sizeof(*b));
	int i, ret = 0;

	for (i = 0; i < 2 && b; i++) {
		sched_section(b, i);
		ret |= ts_decoder_new(&d[i], b->p, b->len, err, sizeof(err));
	}
	ok(b && !ret, "sched sections of both layouts parse (%s)", err);
	if (!b || ret)
		goto out;
	for (i = 0; i < 2; i++) {
		memset(sw[i], 0, sizeof(sw[i]));
		type = 318;
		memcpy(sw[i], &type, 2);
		memcpy(sw[i] + 8, "stress-ng-switchXYZ", 16); /* no NUL: the copy ends it */
		v32 = -7;
		memcpy(sw[i] + 24, &v32, 4);
		v32 = 120;
		memcpy(sw[i] + 28, &v32, 4);
		memcpy(sw[i] + 32, &state, i ? 4 : 8);
		memcpy(sw[i] + 40, "swapper/1", 9);
		v32 = 1234;
		memcpy(sw[i] + 56, &v32, 4);
		v32 = -1;
		memcpy(sw[i] + 60, &v32, 4);
		memset(&ev[i], 0, sizeof(ev[i]));
		ret |= ts_decoder_decode(d[i], 318, sw[i], sizeof(sw[i]), &ev[i]);
	}
	is_int(ret, 0, "sched_switch decodes in both layouts");
	ok(!strcmp(ev[0].sw.prev_comm, "stress-ng-switc") &&
		   !strcmp(ev[0].sw.next_comm, "swapper/1"),
	   "fast: the comms, cut to 15 bytes (%s, %s)", ev[0].sw.prev_comm, ev[0].sw.next_comm);
	ok(ev[0].sw.prev_pid == -7 && ev[0].sw.prev_prio == 120 && ev[0].sw.next_pid == 1234 &&
		   ev[0].sw.next_prio == -1 && ev[0].sw.prev_state_raw == 0x101 &&
		   ev[0].sw.prev_state == TS_STATE_RUNNING,
	   "fast: pids, prios, prev_state 0x101 preempted (%d %d %d %d %#llx %d)",
	   ev[0].sw.prev_pid, ev[0].sw.prev_prio, ev[0].sw.next_pid, ev[0].sw.next_prio,
	   (unsigned long long)ev[0].sw.prev_state_raw, ev[0].sw.prev_state);
	ok(!memcmp(&ev[0].sw, &ev[1].sw, sizeof(ev[0].sw)),
	   "fast and checked reads give the same switch");
	is_int(ts_decoder_decode(d[0], 318, sw[0], 63, &ev[0]), -TS_ECORRUPT,
	       "fast layout: a switch payload 1 byte short is corrupt");

	memset(wk, 0, sizeof(wk));
	type = 322;
	memcpy(wk, &type, 2);
	memcpy(wk + 2, &flags, 1);
	memcpy(wk + 8, "kworker/0:1", 11);
	v32 = 42;
	memcpy(wk + 24, &v32, 4);
	v32 = 100;
	memcpy(wk + 28, &v32, 4);
	v32 = 3;
	memcpy(wk + 32, &v32, 4);
	for (i = 0; i < 2; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ret |= ts_decoder_decode(d[i], 322, wk, sizeof(wk), &ev[i]);
	}
	is_int(ret, 0, "sched_waking decodes in both layouts");
	ok(ev[0].kind == TS_EV_WAKING && !strcmp(ev[0].wake.comm, "kworker/0:1") &&
		   ev[0].wake.pid == 42 && ev[0].wake.prio == 100 && ev[0].wake.target_cpu == 3 &&
		   ev[0].wake.ctx == TS_CTX_HARDIRQ,
	   "fast: comm, pid, prio, target cpu, hard-irq context (%s %d %d %d %d)", ev[0].wake.comm,
	   ev[0].wake.pid, ev[0].wake.prio, ev[0].wake.target_cpu, ev[0].wake.ctx);
	ev[1].wake.prio = 100; /* the other layout has none: it reads 0 */
	ok(!memcmp(&ev[0].wake, &ev[1].wake, sizeof(ev[0].wake)),
	   "fast and checked reads give the same wake");
	is_int(ts_decoder_decode(d[0], 322, wk, 35, &ev[0]), -TS_ECORRUPT,
	       "fast layout: a waking payload 1 byte short is corrupt");

	/* a __data_loc comm is zero-padded to 16 bytes: sched compares comms as 16 bytes */
	memset(wk, 0, sizeof(wk));
	type = 371;
	memcpy(wk, &type, 2);
	v32 = (3 << 16) | 28; /* "ab" and its NUL at offset 28 */
	memcpy(wk + 8, &v32, 4);
	v32 = 42;
	memcpy(wk + 12, &v32, 4);
	memcpy(wk + 28, "ab", 3);
	memset(&ev[0], 0xa5, sizeof(ev[0]));
	is_int(ts_decoder_decode(d[0], 371, wk, 31, &ev[0]), 0, "sched_migrate_task decodes");
	ok(ev[0].migrate.pid == 42 &&
		   !memcmp(ev[0].migrate.comm, "ab\0\0\0\0\0\0\0\0\0\0\0\0\0", 16),
	   "a __data_loc comm is its string and 14 NULs (%s)", ev[0].migrate.comm);
out:
	free(b);
	ts_decoder_free(d[0]);
	ts_decoder_free(d[1]);
}

static void test_shrink_end(struct ts_decoder *d)
{
	unsigned char raw[64] = { 0 };
	struct ts_event ev = { 0 };
	int32_t nid = -1, retval = -2;
	int64_t unused = -5, total = 7;
	uint16_t type = 630;

	memcpy(raw, &type, 2);
	memcpy(raw + 16, &nid, 4);
	memcpy(raw + 32, &unused, 8);
	memcpy(raw + 48, &retval, 4);
	memcpy(raw + 56, &total, 8);
	is_int(ts_decoder_decode(d, 630, raw, sizeof(raw), &ev), 0, "mm_shrink_slab_end decodes");
	is_int(ev.kind, TS_EV_SHRINK_END, "as TS_EV_SHRINK_END");
	ok(ev.shrink.retval == -2, "a negative 4-byte retval is -2 in the 64-bit member (%lld)",
	   (long long)ev.shrink.retval);
	is_int(ev.shrink.nid, -1, "nid NUMA_NO_NODE is -1");
	ok(ev.shrink.unused_scan == -5 && ev.shrink.total_scan == 7,
	   "8-byte signed fields (unused_scan -5, total_scan 7)");
	retval = 0x7ffffffe;
	memcpy(raw + 48, &retval, 4);
	ts_decoder_decode(d, 630, raw, sizeof(raw), &ev);
	ok(ev.shrink.retval == 0x7ffffffe, "a large positive 4-byte retval stays positive");
	is_int(ts_decoder_decode(d, 630, raw, 52, &ev), -TS_ECORRUPT,
	       "a payload shorter than its format is corrupt");

	/* names only (dump's printers): the same verdicts, without the fields */
	memset(&ev, 0, sizeof(ev));
	is_int(ts_decoder_name(d, 630, raw, sizeof(raw), &ev), 0, "names only: decodes");
	ok(ev.kind == TS_EV_SHRINK_END && ev.tp_id == 630 && ev.name &&
		   !strcmp(ev.name, "vmscan:mm_shrink_slab_end"),
	   "names only: the kind, id and name (%s)", ev.name ? ev.name : "NULL");
	is_int(ev.shrink.retval, 0, "names only: the fields are not read");
	is_int(ts_decoder_name(d, 630, raw, 52, &ev), -TS_ECORRUPT,
	       "names only: a payload shorter than the fields read is corrupt");
	ok(strstr(ts_decoder_error(d), "shorter than its format") != NULL,
	   "names only: with the decode's message (%s)", ts_decoder_error(d));
}

static void test_queue_work(struct ts_decoder *d)
{
	unsigned char raw[64] = { 0 };
	struct ts_event ev = { 0 };
	int32_t req_cpu = 256, cpu = -1;
	uint32_t loc = (8u << 16) | 40; /* __data_loc: length 8 at offset 40 */
	uint64_t work = 0xffff888100000000ULL;
	uint16_t type = 337;

	memcpy(raw, &type, 2);
	memcpy(raw + 8, &work, 8);
	memcpy(raw + 24, &loc, 4);
	memcpy(raw + 28, &req_cpu, 4);
	memcpy(raw + 32, &cpu, 4);
	memcpy(raw + 40, "events\0", 8);
	is_int(ts_decoder_decode(d, 337, raw, 48, &ev), 0, "workqueue_queue_work decodes");
	is_int(ev.wq.cpu, -1, "an unbound work's cpu is -1");
	is_int(ev.wq.req_cpu, 256, "req_cpu 256");
	ok(!strcmp(ev.wq.wq_name, "events"), "the __data_loc workqueue name (%s)", ev.wq.wq_name);
	ok(ev.wq.work == work, "the work pointer");

	memset(&ev, 0, sizeof(ev));
	is_int(ts_decoder_name(d, 337, raw, 48, &ev), 0, "names only: workqueue_queue_work");
	ok(ev.wq.wq_name[0] == 0, "names only: the name field is not copied");
	loc = (8u << 16) | 44; /* the string now ends past the payload */
	memcpy(raw + 24, &loc, 4);
	is_int(ts_decoder_name(d, 337, raw, 48, &ev), -TS_ECORRUPT,
	       "names only: a __data_loc string past the payload is corrupt");
	is_int(ts_decoder_decode(d, 337, raw, 48, &ev), -TS_ECORRUPT, "as the full decode says");
}

/* The whole of @path, NUL-terminated; NULL when it cannot be read. */
static char *slurp(const char *path)
{
	size_t len = 0, alloc = 1 << 20, n;
	char *t = malloc(alloc);
	FILE *f = fopen(path, "r");

	if (!f || !t) {
		if (f)
			fclose(f);
		free(t);
		return NULL;
	}
	while ((n = fread(t + len, 1, alloc - len - 1, f)) > 0) {
		len += n;
		if (alloc - len < 2) {
			char *m = realloc(t, alloc *= 2);

			if (!m)
				break;
			t = m;
		}
	}
	fclose(f);
	t[len] = 0;
	return t;
}

/* Does the decoder name every address of @path as libtraceevent's own table does? */
static void test_functions(const struct buf *b, const char *path, const char *what)
{
	struct tep_handle *tep = tep_alloc();
	struct ts_decoder *d = NULL;
	struct ts_ksyms *k = NULL;
	char err[256], *text = slurp(path), *p;
	long nr = 0, bad = 0;
	int line = 0, i;

	if (!ok(tep && text && !ts_decoder_new(&d, b->p, b->len, err, sizeof(err)) &&
			!ts_ksyms_load(&k, path, &line),
		"%s: loads (line %d)", what, line))
		goto out;
	is_int(ts_decoder_take_ksyms(d, k), 0, "the decoder takes the symbols");
	is_int(tep_parse_kallsyms(tep, text), 0, "libtraceevent parses the same file");
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		uint64_t a = strtoull(p, NULL, 16), at[3] = { a - 1, a, a + 1 };

		for (i = 0; i < 3; i++) {
			unsigned long long want_start = 0;
			const char *want = tep_find_function(tep, at[i]);
			uint64_t start = 0;
			const char *got = ts_decoder_function(d, at[i], &start);

			if (want)
				want_start = tep_find_function_address(tep, at[i]);
			nr++;
			if ((!want != !got) ||
			    (want && (strcmp(want, got) || want_start != start))) {
				if (bad++ < 5)
					diag("%#llx: libtraceevent %s+%#llx, decoder %s+%#llx",
					     (unsigned long long)at[i], want ? want : "NULL",
					     want_start, got ? got : "NULL",
					     (unsigned long long)start);
			}
		}
	}
	ok(nr > 0 && !bad, "%s: all %ld addresses are named as libtraceevent names them (%ld not)",
	   what, nr, bad);
	ok(!ts_decoder_function(d, 0, NULL) == !tep_find_function(tep, 0), "%s: and address 0",
	   what);
out:
	ts_decoder_free(d);
	if (tep)
		tep_free(tep);
	free(text);
}

static void test_all_functions(const struct buf *b)
{
	/* aliases at one address (kallsyms order decides), weak, data, absolute and '$' ones */
	static const char sorted[] = "ffffffff81000000 T _text\n"
				     "ffffffff81000000 T startup_64\n"
				     "ffffffff81000000 t alias_local\n"
				     "ffffffff81000040 t $x.1\n"
				     "ffffffff81001000 t tick_nohz_handler\n"
				     "ffffffff81001000 W weak_alias\n"
				     "ffffffff81002000 D some_data\n"
				     "ffffffff81002800 A abs_sym\n"
				     "ffffffff81004000 t last_kernel\n"
				     "ffffffffc0000800 t mod_a\t[mod_one]\n"
				     "ffffffffc0000800 t mod_b\t[mod_two]\n"
				     "ffffffffc0001000 t mod_fn\t[mymod]\n";
	/* a copy in another order: the decoder sorts */
	static const char unsorted[] = "ffffffffc0001000 t mod_fn\t[mymod]\n"
				       "ffffffff81001000 t tick_nohz_handler\n"
				       "ffffffff81000000 T _text\n"
				       "ffffffffc0000800 t mod_a\t[mod_one]\n"
				       "ffffffff81001000 W weak_alias\n"
				       "ffffffff81000000 t alias_local\n"
				       "ffffffff81004000 t last_kernel\n"
				       "ffffffffc0000800 t mod_b\t[mod_two]\n"
				       "ffffffff81000000 T startup_64\n";
	FILE *f = fopen("/proc/kallsyms", "r");
	char first[64] = "", *t;

	t = tap_tmp_file(sorted);
	test_functions(b, t, "a sorted kallsyms");
	unlink(t);
	t = tap_tmp_file(unsorted);
	test_functions(b, t, "an unsorted one");
	unlink(t);
	if (f && fgets(first, sizeof(first), f) && strtoull(first, NULL, 16))
		test_functions(b, "/proc/kallsyms", "the running kernel's /proc/kallsyms");
	else
		ok(1, "# SKIP /proc/kallsyms shows no addresses here (not root, or kptr_restrict)");
	if (f)
		fclose(f);
}

static volatile sig_atomic_t children;

static void on_child(int sig)
{
	(void)sig;
	children++;
}

/*
 * ts_decoder_new_like(): no probe child for the same bytes, nor for a copy of bytes a probe
 * found clean before in this process (tracedata.c remembers their sha256); one for others.
 */
static void test_like(const struct buf *b, struct ts_decoder *d)
{
	struct sigaction sa = { .sa_handler = on_child }, old;
	struct ts_decoder *d2 = NULL, *d3 = NULL;
	char *copy = malloc(b->len), *t;
	char err[256] = "";
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old);
	children = 0;
	ret = ts_decoder_new_like(&d2, d, b->p, b->len, err, sizeof(err));
	ok(!ret && children == 0, "a decoder like one of the same bytes forks no probe child (%d)",
	   (int)children);
	if (d2)
		test_shrink_end(d2);
	memcpy(copy, b->p, b->len);
	children = 0;
	ret = ts_decoder_new_like(&d3, d, copy, b->len, err, sizeof(err));
	ok(!ret && children == 0, "one like it of a copy of the same bytes forks none (%d)",
	   (int)children);
	ts_decoder_free(d3);
	d3 = NULL;
	children = 0;
	ret = ts_decoder_new_like(&d3, NULL, b->p, b->len, err, sizeof(err));
	ok(!ret && children == 0, "one like none, of bytes probed before, forks none (%d)",
	   (int)children);
	ts_decoder_free(d3);
	d3 = NULL;
	/* other bytes: the first print fmt's first letter in capitals (it still parses) */
	t = memmem(copy, b->len, "print fmt: \"", 12);
	if (t && t + 12 < (char *)copy + b->len && islower((unsigned char)t[12]))
		t[12] = (char)toupper((unsigned char)t[12]);
	else
		t = NULL;
	for (int i = 0; i < 2; i++) {
		children = 0;
		ret = ts_decoder_new_like(&d3, NULL, copy, b->len, err, sizeof(err));
		ok(!ret && t && children == !i, "%s, bytes edited: %s probe child (%d)",
		   i ? "again" : "once", i ? "no" : "one", (int)children);
		ts_decoder_free(d3);
		d3 = NULL;
	}
	sigaction(SIGCHLD, &old, NULL);
	ts_decoder_free(d3);
	ts_decoder_free(d2);
	free(copy);
}

/*
 * A format libtraceevent dies on (TS_PROBE_CRASH makes the probe child die in the format of
 * that name): a second child goes on after it, that format is refused with the reason, the
 * others decode; a child per format would be a fork per step.
 */
static void test_probe_crash(const struct buf *b)
{
	struct sigaction sa = { .sa_handler = on_child }, old;
	unsigned char raw[64] = { 0 }, *copy = malloc(b->len);
	struct ts_decoder *d = NULL;
	struct ts_event ev = { 0 };
	uint16_t type = 630;
	char err[256] = "", *t;
	int ret;

	/* bytes no probe has seen in this process */
	memcpy(copy, b->p, b->len);
	t = memmem(copy, b->len, "\"workqueue=", 11);
	if (t)
		t[1] = 'W';
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old);
	children = 0;
	setenv("TS_PROBE_CRASH", "mm_shrink_slab_end", 1);
	ret = ts_decoder_new(&d, copy, b->len, err, sizeof(err));
	unsetenv("TS_PROBE_CRASH");
	sigaction(SIGCHLD, &old, NULL);
	ok(t && !ret && children == 2,
	   "a probe child dying in the first format: a second goes on (%d children, %d)",
	   (int)children, ret);
	if (d) {
		memcpy(raw, &type, 2);
		ret = ts_decoder_decode(d, 630, raw, sizeof(raw), &ev);
		ok(ret && strstr(ts_decoder_error(d), "mm_shrink_slab_end") &&
			   strstr(ts_decoder_error(d), "libtraceevent crashed parsing it"),
		   "... that format is refused, and says why (%s)", ts_decoder_error(d));
		type = 337;
		memcpy(raw, &type, 2);
		is_int(ts_decoder_decode(d, 337, raw, sizeof(raw), &ev), 0,
		       "... the format after it decodes");
	}
	ts_decoder_free(d);
	free(copy);
}

int main(void)
{
	struct ts_decoder *d = NULL;
	struct buf *b = calloc(1, sizeof(*b));
	char err[256] = "";
	int ret;

	section(b);
	ret = ts_decoder_new(&d, b->p, b->len, err, sizeof(err));
	if (!ok(ret == 0, "the built tracing data section parses (%d)", ret))
		diag("%s", err);
	if (!ret) {
		test_shrink_end(d);
		test_queue_work(d);
		test_all_functions(b);
		test_like(b, d);
		test_probe_crash(b);
	}
	test_sched_fast();
	ts_decoder_free(d);
	free(b);
	return tap_done();
}
