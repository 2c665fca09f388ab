// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode.c's typed path on payloads built here, for values no fixture holds: negative 4-byte
 * signed fields (a shrinker's retval, nid = NUMA_NO_NODE, an unbound work's cpu) read into the
 * event's 64-bit and 32-bit members, and a payload shorter than its format; and the same
 * verdicts from ts_decoder_name(), which reads no field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tickscope/decode.h"
#include "tickscope/error.h"

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
	}
	ts_decoder_free(d);
	free(b);
	return tap_done();
}
