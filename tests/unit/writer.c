// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data writer read back by our reader: file and pipe mode, attrs, ids, features,
 * samples in rounds, and a write that fails mid-round (RLIMIT_FSIZE) leaving the earlier rounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"
#include "tickscope/reader.h"
#include "tickscope/writer.h"

#define SAMPLE_TYPE                                                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |       \
	 PERF_SAMPLE_RAW)

static const uint64_t ids[2] = { 100, 101 };

/* a sample of 64 bytes: header, identifier, pid/tid, time, cpu, raw size 4 and 16 raw bytes */
static void sample(uint64_t *s, uint64_t time, uint32_t cpu)
{
	memset(s, 0, 64);
	((struct perf_event_header *)s)->type = PERF_RECORD_SAMPLE;
	((struct perf_event_header *)s)->size = 64;
	s[1] = ids[cpu & 1];
	((uint32_t *)s)[4] = 7;
	((uint32_t *)s)[5] = 8;
	s[3] = time;
	((uint32_t *)s)[8] = cpu;
	((uint32_t *)s)[10] = 16;
}

static int start(struct ts_writer **w, int fd, int pipe)
{
	struct ts_wattr a = { .name = "test:ev", .ids = ids, .nr_ids = 2 };
	struct ts_blob host = { 0 }, rel = { 0 }, arch = { 0 };
	int err;

	a.attr.size = sizeof(a.attr);
	a.attr.type = PERF_TYPE_TRACEPOINT;
	a.attr.config = 42;
	a.attr.sample_type = SAMPLE_TYPE;
	a.attr.sample_id_all = 1;
	err = ts_writer_open(w, fd, pipe) ?: ts_blob_string(&host, "unit-host") ?:
		ts_blob_string(&rel, "6.1.0-test") ?: ts_blob_string(&arch, "aarch64") ?:
		ts_writer_feature(*w, TS_WFEAT_HOSTNAME, host.p, host.len) ?:
		ts_writer_feature(*w, TS_WFEAT_ARCH, arch.p, arch.len) ?:
		ts_writer_feature(*w, TS_WFEAT_OSRELEASE, rel.p, rel.len) ?:
		ts_writer_start(*w, &a, 1);
	ts_blob_free(&host);
	ts_blob_free(&rel);
	ts_blob_free(&arch);
	return err;
}

/* @rounds rounds of 10 samples, times going up per CPU; stops at the first error */
static int write_rounds(struct ts_writer *w, int rounds)
{
	uint64_t s[8];
	int i, j, err = 0;

	for (i = 0; !err && i < rounds; i++) {
		for (j = 0; !err && j < 10; j++) {
			sample(s, 1000 + 10 * (uint64_t)i + (uint64_t)j, (uint32_t)j);
			err = ts_writer_record(w, s);
		}
		err = err ?: ts_writer_round(w);
	}
	return err;
}

struct seen {
	uint64_t n, last, bad;
};

static int on_sample(void *ctx, const struct ts_sample *s)
{
	struct seen *c = ctx;

	c->bad += s->time < c->last || s->tid != 8 || s->raw_size != 16 || s->attr->config != 42;
	c->last = s->time;
	c->n++;
	return 0;
}

static void read_back(const char *path, const char *label, uint64_t want)
{
	struct ts_reader_ops ops = { .sample = on_sample };
	const struct ts_file_info *fi;
	const struct ts_attr *a;
	struct ts_reader *r = NULL;
	struct seen c = { 0 };
	int nr = 0, err;

	err = ts_reader_open(&r, path, NULL);
	ok(!err, "%s: the reader opens it (%s)", label, err && r ? ts_reader_error(r) : "ok");
	if (err) {
		ts_reader_close(r);
		return;
	}
	a = ts_reader_attrs(r, &nr);
	ok(nr == 1 && !strcmp(a[0].name, "test:ev") && a[0].config == 42 &&
		   a[0].sample_type == SAMPLE_TYPE,
	   "%s: one attr, its name and sample type", label);
	err = ts_reader_run(r, &ops, &c);
	ok(!err, "%s: read to the end (%s)", label, err ? ts_reader_error(r) : "ok");
	is_int(c.n, want, "samples read back");
	is_int(c.bad, 0, "samples in time order with their fields");
	fi = ts_reader_info(r);
	ok(!strcmp(fi->hostname, "unit-host") && !strcmp(fi->osrelease, "6.1.0-test") &&
		   !strcmp(fi->arch, "aarch64"),
	   "%s: hostname, os release and arch features", label);
	ts_reader_close(r);
}

int main(void)
{
	char path[] = "/tmp/ts-writer-XXXXXX";
	struct ts_writer *w = NULL;
	struct rlimit rl, old;
	int fd, err;

	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	err = start(&w, fd, 0) ?: write_rounds(w, 5) ?: ts_writer_finish(w);
	ok(!err, "file mode: 5 rounds written (%d)", err);
	ts_writer_free(w);
	read_back(path, "file mode", 50);

	if (ftruncate(fd, 0))
		return 1;
	err = start(&w, fd, 1) ?: write_rounds(w, 5) ?: ts_writer_finish(w);
	ok(!err, "pipe mode: 5 rounds written (%d)", err);
	ts_writer_free(w);
	read_back(path, "pipe mode", 50);

	/* a full disk: writes past 3 rounds' worth fail, the earlier rounds stay readable */
	if (ftruncate(fd, 0))
		return 1;
	signal(SIGXFSZ, SIG_IGN);
	err = start(&w, fd, 0) ?: write_rounds(w, 3) ?: ts_writer_round(w);
	getrlimit(RLIMIT_FSIZE, &old);
	rl = old;
	rl.rlim_cur = (rlim_t)lseek(fd, 0, SEEK_END) + 100;
	setrlimit(RLIMIT_FSIZE, &rl);
	err = err ?: write_rounds(w, 20000);
	ok(err == -EFBIG, "a write past the limit fails (%d)", err);
	is_int(ts_writer_data_size(w), 3 * (10 * 64 + 8), "data up to the last complete round");
	setrlimit(RLIMIT_FSIZE, &old);
	ts_writer_free(w);
	read_back(path, "cut short", 30);
	close(fd);
	unlink(path);
	return tap_done();
}
