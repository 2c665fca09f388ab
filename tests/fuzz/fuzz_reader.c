// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the perf.data reader and the tracepoint decoder: the input is a whole
 * perf.data (file or pipe mode), read exactly as `tickscope dump` reads it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tickscope/decode.h"
#include "tickscope/reader.h"

/* PERF_TYPE_TRACEPOINT from linux/perf_event.h, without needing the kernel headers */
#define FUZZ_TYPE_TRACEPOINT 2

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_ctx {
	struct ts_decoder *dec;
	FILE *sink;
};

static int fd = -1;
/*
 * The threaded run, unless TS_FUZZ_THREADS=0: how long the merger waits for the scanner is the
 * scheduler's, and libFuzzer keeps the inputs whose coverage (loop counts too) is new, so with
 * it the inputs a fixed seed tries depend on the load. tests/fuzz.t fuzzes without it, then
 * runs every input kept with it.
 */
static int threads = -1;
static char path[64];
static FILE *devnull;
static char text_buf[1 << 16]; /* the compiled printer's */

static int on_sample(void *arg, const struct ts_sample *s)
{
	struct fuzz_ctx *ctx = arg;
	struct ts_event ev;
	const char *text;
	size_t len;

	if (!ctx->dec || !s->attr || s->attr->type != FUZZ_TYPE_TRACEPOINT || !s->raw)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.time = s->time;
	ev.cpu = (int32_t)s->cpu;
	ev.pid = (int32_t)s->tid;
	/* errors on one sample are fine: only crashes and out-of-bounds reads matter here */
	ts_decoder_decode(ctx->dec, (int)s->attr->config, s->raw, s->raw_size, &ev);
	if (!ts_decoder_print(ctx->dec, (int)s->attr->config, s->raw, s->raw_size, (int)s->cpu,
			      text_buf, sizeof(text_buf), &text, &len))
		fwrite(text, 1, len, ctx->sink); /* every byte of the text is read */
	return 0;
}

static int on_comm(void *arg, uint32_t pid, uint32_t tid, const char *comm, uint64_t time, int exec)
{
	/* touch the string: it must be NUL-terminated inside the record */
	return strlen(comm) > 4096 ? -1 : 0;
}

static void run_once(int unordered, int threaded)
{
	struct ts_reader_ops ops = { .sample = on_sample, .comm = on_comm };
	struct ts_reader_opts opts = { .unordered = unordered,
				       .bufsize = 4096,
				       .threaded = threaded };
	struct fuzz_ctx ctx = { .sink = devnull };
	struct ts_reader *r = NULL;
	const struct ts_file_info *info;
	const void *td;
	size_t tdlen = 0;
	char err[256];

	if (ts_reader_open(&r, path, &opts) < 0) {
		/* the message must always be buildable */
		if (r)
			(void)strlen(ts_reader_error(r));
		ts_reader_close(r);
		return;
	}
	td = ts_reader_tracing_data(r, &tdlen);
	if (td && tdlen && ts_decoder_new(&ctx.dec, td, tdlen, err, sizeof(err)) < 0)
		ctx.dec = NULL;
	if (ts_reader_run(r, &ops, &ctx) < 0)
		(void)strlen(ts_reader_error(r));
	info = ts_reader_info(r);
	if (info && info->nr_lost_cpus > 0 && info->lost_per_cpu)
		(void)info->lost_per_cpu[info->nr_lost_cpus - 1];
	ts_decoder_free(ctx.dec);
	ts_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz-perf-data", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		devnull = fopen("/dev/null", "w");
		threads = !getenv("TS_FUZZ_THREADS") || strcmp(getenv("TS_FUZZ_THREADS"), "0");
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	run_once(0, 0);
	/* the unordered path skips the round merge: worth covering on its own */
	run_once(1, 0);
	/* and the scanning thread hands the merge its runs: errors cross between threads */
	if (threads)
		run_once(0, 1);
	return 0;
}
