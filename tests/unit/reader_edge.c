// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader's edge cases on small perf.data files built here: records straddling read
 * chunks and COMPRESSED records, perf's round-by-round order with late events, unknown record
 * types, a zero-size record, perf record's tracepoint samples read at known places, and rounds
 * past a tiny memory budget in file, zstd and pipe input.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "tap.h"
#include "tickscope/error.h"
#include "tickscope/reader.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
#define ID0 42

struct buf {
	unsigned char *p;
	size_t len, alloc;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->alloc) {
		b->alloc = (b->len + n) * 2;
		b->p = realloc(b->p, b->alloc);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void header(struct buf *b, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	put(b, &h, sizeof(h));
}

/* A sample: IDENTIFIER, TID, TIME, CPU (and padding to @extra bytes more). */
static void sample(struct buf *b, uint64_t time, uint32_t cpu, uint32_t tid, int extra)
{
	unsigned char pad[64] = { 0 };
	uint32_t pt[2] = { tid, tid }, c[2] = { cpu, 0 };

	header(b, PERF_RECORD_SAMPLE, 8 + 32 + extra);
	put64(b, ID0);
	put(b, pt, 8);
	put64(b, time);
	put(b, c, 8);
	put(b, pad, extra);
}

/* COMM with the sample_id_all trailer: TID, TIME, CPU, IDENTIFIER. */
static void comm(struct buf *b, uint64_t time, uint32_t tid, const char *name)
{
	char n[16] = { 0 };
	uint32_t pt[2] = { tid, tid }, c[2] = { 0, 0 };

	snprintf(n, sizeof(n), "%s", name);
	header(b, PERF_RECORD_COMM, 8 + 8 + 16 + 32);
	put(b, pt, 8);
	put(b, n, 16);
	put(b, pt, 8);
	put64(b, time);
	put(b, c, 8);
	put64(b, ID0);
}

static void round_end(struct buf *b)
{
	header(b, 68, 8); /* FINISHED_ROUND */
}

static uint64_t file_st = ST; /* the attr's sample_type in write_file() */

/* A whole file: header, one attr with id ID0, the data, and the features asked for. */
static char *write_file(const struct buf *data, int compressed_feature)
{
	static char path[64];
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr) };
	uint64_t hdr[13] = { 0 }, ids_off, attr_off = 104, data_off, feat[2] = { 0, 0 };
	struct buf f = { 0 };
	int fd;

	attr.sample_type = file_st;
	attr.sample_id_all = 1;
	ids_off = attr_off + sizeof(attr) + 16;
	data_off = ids_off + 8;
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = 104;
	hdr[2] = sizeof(attr) + 16;
	hdr[3] = attr_off;
	hdr[4] = sizeof(attr) + 16;
	hdr[5] = data_off;
	hdr[6] = data->len;
	if (compressed_feature)
		hdr[9 + 27 / 64] |= 1ULL << 27;
	put(&f, hdr, sizeof(hdr));
	put(&f, &attr, sizeof(attr));
	put64(&f, ids_off);
	put64(&f, 8);
	put64(&f, ID0);
	put(&f, data->p, data->len);
	if (compressed_feature) { /* one feature index entry, pointing at nothing */
		feat[0] = data_off + data->len + 16;
		put(&f, feat, sizeof(feat));
	}
	snprintf(path, sizeof(path), "/tmp/ts-reader-edge-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, f.p, f.len) != (ssize_t)f.len)
		abort();
	close(fd);
	free(f.p);
	return path;
}

#define MAX_SEEN 4096

struct seen {
	uint64_t time[MAX_SEEN];
	int n, comms;
	char last_comm[32];
};

static int on_sample(void *ctx, const struct ts_sample *s)
{
	struct seen *v = ctx;

	if (v->n < MAX_SEEN)
		v->time[v->n++] = s->time;
	return 0;
}

static int on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *c, uint64_t time, int exec)
{
	struct seen *v = ctx;

	v->comms++;
	snprintf(v->last_comm, sizeof(v->last_comm), "%s", c);
	if (v->n < MAX_SEEN)
		v->time[v->n++] = time;
	return 0;
}

static const struct ts_reader_ops ops = { .sample = on_sample, .comm = on_comm };

static int threaded; /* run_file() scans on a second thread */
static int strict; /* run_file() reads with opts.strict */

static int run_file(const char *path, size_t bufsize, struct seen *v, struct ts_reader **rp)
{
	/* a read size is the read path's test: a file is mapped without one */
	struct ts_reader_opts o = {
		.bufsize = bufsize, .threaded = threaded, .strict = strict, .no_mmap = !!bufsize
	};
	int ret;

	memset(v, 0, sizeof(*v));
	ret = ts_reader_open(rp, path, &o);
	if (!ret)
		ret = ts_reader_run(*rp, &ops, v);
	return ret;
}

/*
 * Rounds as perf writes them: per-CPU runs, and a late event. At the first FINISHED_ROUND
 * nothing is flushed (the limit is the max before the previous round: 0); at the second,
 * everything up to 300; the late event (250, after 300 was flushed) is counted and comes out
 * at the next flush, sorted among what is left.
 */
static void build_rounds(struct buf *b, int extra)
{
	sample(b, 100, 0, 1, extra);
	sample(b, 300, 0, 1, extra);
	sample(b, 200, 1, 2, extra);
	comm(b, 150, 2, "worker");
	round_end(b);
	sample(b, 400, 0, 1, extra);
	sample(b, 350, 1, 2, extra);
	round_end(b);
	sample(b, 250, 1, 2, extra); /* older than the last flushed event: out of order */
	sample(b, 500, 0, 1, extra);
}

static const uint64_t rounds_order[] = { 100, 150, 200, 300, 250, 350, 400, 500 };

static void check_order(const struct seen *v, const char *what)
{
	int i, same = v->n == 8;

	for (i = 0; same && i < 8; i++)
		same = v->time[i] == rounds_order[i];
	if (!ok(same, "%s: perf's round order, the late event after the flushed ones", what))
		for (i = 0; i < v->n; i++)
			diag("  got %llu", (unsigned long long)v->time[i]);
}

static void test_rounds(void)
{
	struct buf b = { 0 };
	struct ts_reader *r;
	struct seen v;
	char *path;
	int ret;

	build_rounds(&b, 0);
	path = write_file(&b, 0);
	ret = run_file(path, 0, &v, &r);
	is_int(ret, 0, "rounds: reads to the end");
	check_order(&v, "runs in place");
	is_int(ts_reader_info(r)->nr_out_of_order, 1, "rounds: one event counted out of order");
	is_int(v.comms, 1, "rounds: the COMM record is delivered");
	ok(!strcmp(v.last_comm, "worker"), "rounds: with its name");
	ts_reader_close(r);
	unlink(path);

	/* tiny read chunks: every record straddles a chunk boundary somewhere */
	path = write_file(&b, 0);
	ret = run_file(path, 24, &v, &r);
	is_int(ret, 0, "24-byte chunks: reads to the end");
	check_order(&v, "24-byte chunks");
	ts_reader_close(r);
	unlink(path);
	free(b.p);
}

/*
 * A mapped file that shrinks after the open: one error naming the new size, never a SIGBUS
 * (the scanner checks the size before it reads, and as it goes).
 */
static void test_shrunk(void)
{
	struct buf b = { 0 };
	struct ts_reader *r;
	struct seen v;
	char *path;
	int ret;

	build_rounds(&b, 0);
	path = write_file(&b, 0);
	memset(&v, 0, sizeof(v));
	ret = ts_reader_open(&r, path, &(struct ts_reader_opts){ .threaded = threaded });
	is_int(ret, 0, "shrunk: the whole file opens");
	if (truncate(path, 200)) /* into the data section */
		abort();
	if (!ret)
		ret = ts_reader_run(r, &ops, &v);
	is_int(ret, -TS_ETRUNC, "shrunk after the open: an error, not a SIGBUS");
	ok(strstr(ts_reader_error(r), "shrank to 200 bytes") != NULL, "shrunk: says so (%s)",
	   ts_reader_error(r));
	ts_reader_close(r);
	unlink(path);
	free(b.p);
}

/* The same records, zstd-compressed into two COMPRESSED records cut mid-record. */
static void test_compressed(void)
{
	struct buf plain = { 0 }, b = { 0 };
	size_t cap, zlen, cut;
	unsigned char *z;
	struct ts_reader *r;
	struct seen v;
	char *path;
	int ret;

	build_rounds(&plain, 8);
	cap = ZSTD_compressBound(plain.len);
	z = malloc(cap);
	zlen = ZSTD_compress(z, cap, plain.p, plain.len, 3);
	ok(!ZSTD_isError(zlen), "zstd compresses the test records");
	cut = zlen / 2 + 3; /* any byte: the decoded stream splits inside some record */
	header(&b, 81, 8 + cut);
	put(&b, z, cut);
	header(&b, 81, 8 + zlen - cut);
	put(&b, z + cut, zlen - cut);
	path = write_file(&b, 1);
	ret = run_file(path, 16, &v, &r);
	is_int(ret, 0, "compressed: reads to the end");
	if (ret)
		diag("%s", ts_reader_error(r));
	ok(ts_reader_info(r)->compressed, "compressed: noticed");
	check_order(&v, "compressed, ordered in memory");
	ts_reader_close(r);
	unlink(path);
	free(z);
	free(plain.p);
	free(b.p);
}

/*
 * perf record -z (6.1) may end its zstd stream inside a record: the last flush did not fit
 * the COMPRESSED record and was never written. perf reads the records before and drops the
 * rest; so must the reader, with one warning naming the last COMPRESSED record and the bytes
 * (the tail here: part of a sample's 48 bytes, or of a record header). --strict: an error.
 */
static void test_compressed_tail(void)
{
	static const size_t tails[] = { 20, 5 };
	struct buf plain = { 0 }, b = { 0 }, extra = { 0 };
	size_t cap, zlen, cut, t;
	unsigned char *z;
	struct ts_reader *r;
	struct seen v;
	char *path, off[64], want[96];
	int ret;

	sample(&extra, 600, 0, 1, 8);
	for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		plain.len = b.len = 0;
		build_rounds(&plain, 8);
		put(&plain, extra.p, tails[t]);
		cap = ZSTD_compressBound(plain.len);
		z = malloc(cap);
		zlen = ZSTD_compress(z, cap, plain.p, plain.len, 3);
		cut = zlen / 2 + 3;
		header(&b, 81, 8 + cut);
		put(&b, z, cut);
		header(&b, 81, 8 + zlen - cut);
		put(&b, z + cut, zlen - cut);
		path = write_file(&b, 1);
		/* the second COMPRESSED record: after the header, the attr, its ids and the first */
		snprintf(off, sizeof(off),
			 ": offset %#zx: ", (size_t)128 + sizeof(struct perf_event_attr) + 8 + cut);
		if (tails[t] >= 8)
			snprintf(want, sizeof(want),
				 "stream ends %zu bytes into a SAMPLE record of "
				 "48 bytes",
				 tails[t]);
		else
			snprintf(want, sizeof(want), "stream ends %zu bytes into a record header",
				 tails[t]);
		ret = run_file(path, 16, &v, &r);
		is_int(ret, 0, "compressed, a partial record at the end: read, as perf does");
		if (ret)
			diag("%s", ts_reader_error(r));
		check_order(&v, "compressed with a tail, every whole record");
		is_int((int)ts_reader_info(r)->z_tail_bytes, (int)tails[t],
		       "the tail's bytes are counted");
		ok(ts_reader_info(r)->nr_warnings == 1 &&
			   strstr(ts_reader_info(r)->warnings[0], off) &&
			   strstr(ts_reader_info(r)->warnings[0], want) &&
			   strstr(ts_reader_info(r)->warnings[0], ": dropped, as perf does"),
		   "one warning names the last COMPRESSED record and the tail: %s",
		   ts_reader_info(r)->nr_warnings ? ts_reader_info(r)->warnings[0] : "none");
		ts_reader_close(r);
		strict = 1;
		ret = run_file(path, 0, &v, &r);
		strict = 0;
		is_int(ret, -TS_ETRUNC, "the same with --strict: an error");
		ok(ret && strstr(ts_reader_error(r), off) && strstr(ts_reader_error(r), want),
		   "naming the record: %s", ret ? ts_reader_error(r) : "");
		ts_reader_close(r);
		unlink(path);
		free(z);
	}
	free(plain.p);
	free(b.p);
	free(extra.p);
}

static void test_unknown_and_zero(void)
{
	struct buf b = { 0 };
	struct ts_reader *r;
	struct seen v;
	char *path;
	int ret;

	sample(&b, 100, 0, 1, 0);
	header(&b, 200, 16); /* a record type from the future */
	put64(&b, 0);
	header(&b, 30, 16); /* an unknown kernel record type */
	put64(&b, 0);
	sample(&b, 200, 0, 1, 0);
	path = write_file(&b, 0);
	ret = run_file(path, 0, &v, &r);
	is_int(ret, 0, "unknown record types are skipped");
	is_int(v.n, 2, "the samples around them arrive");
	is_int(ts_reader_info(r)->nr_unknown_records, 2, "and both are counted");
	ts_reader_close(r);
	unlink(path);

	b.len = 0;
	sample(&b, 100, 0, 1, 0);
	header(&b, PERF_RECORD_SAMPLE, 0); /* size 0: would loop forever if accepted */
	put64(&b, 0);
	path = write_file(&b, 0);
	ret = run_file(path, 0, &v, &r);
	is_int(ret, -TS_ERECSIZE, "a zero-size record is an error");
	ok(strstr(ts_reader_error(r), "offset 0x") != NULL, "naming its offset: %s",
	   ts_reader_error(r));
	ts_reader_close(r);
	unlink(path);
	free(b.p);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* What random_rounds() draws, each figure with rnd(): "one in N" is rnd(N) == 0. */
struct rounds_shape {
	int rounds; /* 1 to this many rounds */
	int records; /* each of two CPUs writes rnd(this) records a round */
	int late; /* one record in this many is late: older than anything in its round */
	int comms; /* one record in this many is a COMM; 0: none */
	int pad; /* a sample is padded by 8 * rnd(this) bytes; 0: not padded */
	int ends; /* a round ends with FINISHED_ROUND unless one in this many */
	int steps, step; /* the next round starts @step later, unless one in @steps */
};

/* Random rounds of two CPU runs each, time-sorted but for the late records, into @b. */
static void random_rounds(struct buf *b, const struct rounds_shape *sh)
{
	uint64_t base = 1000;
	int rounds = 1 + rnd(sh->rounds), k, cpu, i;

	for (k = 0; k < rounds; k++) {
		for (cpu = 0; cpu < 2; cpu++) {
			uint64_t t0 = base + rnd(50), n = rnd(sh->records);

			for (i = 0; i < (int)n; i++) {
				uint64_t tm = rnd(sh->late) ? t0 + 10 * i : base - rnd(200);

				if (sh->comms && !rnd(sh->comms))
					comm(b, tm ? tm : 1, 1 + cpu, "task");
				else
					sample(b, tm ? tm : 1, cpu, 1 + cpu,
					       sh->pad ? 8 * (int)rnd(sh->pad) : 0);
			}
		}
		if (rnd(sh->ends))
			round_end(b);
		base += rnd(sh->steps) ? sh->step : 0;
	}
}

/*
 * Random rounds of two CPU runs each, with late events now and then: the scanning thread
 * must deliver the same order and count the same out-of-order events as the one-thread merge
 * (which perf script's own counts check on the real fixtures), since it works out perf's
 * last flushed time without waiting for the merge.
 */
static void test_threaded_random(void)
{
	static struct seen a, t;
	struct ts_reader *r1, *r2;
	int trial, same_all = 1, ooo_all = 1, any_ooo = 0;

	for (trial = 0; trial < 200; trial++) {
		static const struct rounds_shape shape = {
			.rounds = 6, .records = 8, .late = 10, .ends = 4, .steps = 3, .step = 60
		};
		struct buf b = { 0 };
		int ret1, ret2;
		char *path;

		random_rounds(&b, &shape);
		path = write_file(&b, 0);
		threaded = 0;
		ret1 = run_file(path, 0, &a, &r1);
		threaded = 1;
		ret2 = run_file(path, 0, &t, &r2);
		threaded = 0;
		if (ret1 || ret2 || a.n != t.n || memcmp(a.time, t.time, a.n * sizeof(a.time[0])))
			same_all = 0;
		if (ts_reader_info(r1)->nr_out_of_order != ts_reader_info(r2)->nr_out_of_order) {
			if (ooo_all)
				diag("trial %d: out of order %llu (one thread) vs %llu (threaded)",
				     trial, (unsigned long long)ts_reader_info(r1)->nr_out_of_order,
				     (unsigned long long)ts_reader_info(r2)->nr_out_of_order);
			ooo_all = 0;
		}
		any_ooo += ts_reader_info(r1)->nr_out_of_order > 0;
		ts_reader_close(r1);
		ts_reader_close(r2);
		unlink(path);
		free(b.p);
	}
	ok(same_all, "threaded scan: the same order as one thread, 200 random files");
	ok(ooo_all, "threaded scan: the same out-of-order counts");
	ok(any_ooo > 20, "and the files had out-of-order events (%d of 200)", any_ooo);
}

/* The same records as a pipe-mode stream: the 16-byte header, then the attr as HEADER_ATTR. */
static char *write_pipe(const struct buf *data)
{
	static char path[64];
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr) };
	struct buf f = { 0 };
	int fd;

	attr.sample_type = ST;
	attr.sample_id_all = 1;
	put(&f, "PERFILE2", 8);
	put64(&f, 16);
	header(&f, 64, 8 + sizeof(attr) + 8); /* HEADER_ATTR */
	put(&f, &attr, sizeof(attr));
	put64(&f, ID0);
	put(&f, data->p, data->len);
	snprintf(path, sizeof(path), "/tmp/ts-reader-edge-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, f.p, f.len) != (ssize_t)f.len)
		abort();
	close(fd);
	free(f.p);
	return path;
}

/* @plain zstd-compressed into COMPRESSED records of random sizes, cut anywhere. */
static void compress_into(struct buf *b, const struct buf *plain)
{
	size_t cap = ZSTD_compressBound(plain->len), zlen, at = 0;
	unsigned char *z = malloc(cap);

	zlen = ZSTD_compress(z, cap, plain->p, plain->len, 1);
	if (ZSTD_isError(zlen))
		abort();
	while (at < zlen) {
		size_t n = 1 + rnd(3000);

		n = n > zlen - at ? zlen - at : n;
		header(b, 81, 8 + n); /* unpadded, as perf writes it: what follows is unaligned */
		put(b, z + at, n);
		at += n;
	}
	free(z);
}

static int run_opts(const char *path, const struct ts_reader_opts *o, struct seen *v,
		    struct ts_reader **rp)
{
	int ret;

	memset(v, 0, sizeof(*v));
	ret = ts_reader_open(rp, path, o);
	if (!ret)
		ret = ts_reader_run(*rp, &ops, v);
	return ret;
}

/* Every way of reading and ordering a file (test_budgets_random(), test_drop_rounds()). */
static const struct {
	const char *name;
	int kind; /* 0 file, 1 zstd in a file, 2 pipe */
	struct ts_reader_opts o;
	int past; /* the budget must have been passed: re-read or spilled bytes */
} ways[] = {
	{ "file, 2 KiB budget, two threads",
	  0,
	  { .round_budget = 2048, .bufsize = 512, .threaded = 1, .no_mmap = 1 },
	  1 },
	{ "file, 2 KiB budget, one thread",
	  0,
	  { .round_budget = 2048, .bufsize = 200, .no_mmap = 1 },
	  1 },
	{ "file, in memory, two threads", 0, { .bufsize = 300, .threaded = 1, .no_mmap = 1 }, 0 },
	/* mapped: every round is at hand whatever the budget, nothing read twice */
	{ "file mapped, 2 KiB budget, two threads", 0, { .round_budget = 2048, .threaded = 1 }, 0 },
	{ "file mapped, 2 KiB budget, one thread", 0, { .round_budget = 2048 }, 0 },
	/* the scanner's read() cuts records: its loop over whole samples stops at each */
	{ "file mapped, 200-byte reads, two threads",
	  0,
	  { .round_budget = 2048, .bufsize = 200, .threaded = 1 },
	  0 },
	{ "zstd, in memory", 1, { 0 }, 0 },
	{ "zstd, 2 KiB budget: spilled", 1, { .round_budget = 2048 }, 1 },
	{ "pipe, in memory", 2, { .bufsize = 256 }, 0 },
	{ "pipe, 2 KiB budget: spilled", 2, { .round_budget = 2048, .bufsize = 256 }, 1 },
};
#define NR_WAYS ((int)(sizeof(ways) / sizeof(ways[0])))

/*
 * Random rounds, some larger than a tiny memory budget: every way of ordering them (runs in
 * the chunks read, runs re-read from the file, tagged copies, copies spilled to a file, on one
 * thread or two) must deliver what the all-in-memory merge delivers, with the same counts.
 */
static void test_budgets_random(void)
{
	static struct seen ref, got;
	int same[NR_WAYS], counts[NR_WAYS], passed[NR_WAYS], clean[NR_WAYS], trial, w;

	for (w = 0; w < NR_WAYS; w++)
		same[w] = counts[w] = clean[w] = 1, passed[w] = 0;
	for (trial = 0; trial < 100; trial++) {
		static const struct rounds_shape shape = { .rounds = 8,
							   .records = 60,
							   .late = 20,
							   .comms = 50,
							   .pad = 8,
							   .ends = 5,
							   .steps = 4,
							   .step = 600 };
		struct buf b = { 0 }, zb = { 0 };
		struct ts_reader *r0, *r;
		char *path;
		int ret;

		random_rounds(&b, &shape);
		path = write_file(&b, 0);
		ret = run_opts(path, &(struct ts_reader_opts){ 0 }, &ref, &r0);
		unlink(path);
		if (ret)
			abort();
		compress_into(&zb, &b);
		for (w = 0; w < NR_WAYS; w++) {
			const struct ts_file_info *in;

			path = ways[w].kind == 0 ? write_file(&b, 0) :
			       ways[w].kind == 1 ? write_file(&zb, 1) :
						   write_pipe(&b);
			ret = run_opts(path, &ways[w].o, &got, &r);
			in = ts_reader_info(r);
			if (ret || got.n != ref.n || got.comms != ref.comms ||
			    memcmp(got.time, ref.time, ref.n * sizeof(ref.time[0]))) {
				if (same[w])
					diag("%s, trial %d: %d events (%s), want %d", ways[w].name,
					     trial, got.n, ret ? ts_reader_error(r) : "no error",
					     ref.n);
				same[w] = 0;
			}
			if (in->nr_out_of_order != ts_reader_info(r0)->nr_out_of_order)
				counts[w] = 0;
			passed[w] += in->reread_bytes + in->spilled_bytes > 0;
			if (!ways[w].past && in->reread_bytes + in->spilled_bytes)
				clean[w] = 0;
			ts_reader_close(r);
			unlink(path);
		}
		ts_reader_close(r0);
		free(b.p);
		free(zb.p);
	}
	for (w = 0; w < NR_WAYS; w++) {
		ok(same[w], "%s: the order of the merge in memory, 100 random files", ways[w].name);
		ok(counts[w], "%s: the same out-of-order counts", ways[w].name);
		if (ways[w].past)
			ok(passed[w] > 50, "%s: past the budget in %d of 100", ways[w].name,
			   passed[w]);
		else
			ok(clean[w], "%s: read once, nothing re-read or spilled", ways[w].name);
	}
}

/*
 * ts_reader_drop_rounds() after a run, in every way of reading: what the file said (its info,
 * attrs and error) stays as it was, and a second drop, then ts_reader_close(), which frees
 * the same state again, free nothing twice (make SANITIZE=1 runs this under ASan).
 */
static void test_drop_rounds(void)
{
	static struct seen got;
	struct buf b = { 0 }, u = { 0 }, c = { 0 };
	unsigned char z[256];
	size_t zlen = 0;
	int w, i, k, cpu;

	/*
	 * Four rounds of about 7 KiB, past the 2 KiB budget, in @b. In @u (the zstd and pipe
	 * input) the second round's COMM comes in a COMPRESSED record of an odd size, unpadded as
	 * perf writes it: the records after it are unaligned, and some are re-aligned into the
	 * scanner's scratch buffer.
	 */
	for (i = 0; !(zlen & 1); i++) {
		char name[16];

		snprintf(name, sizeof(name), "task%d", i); /* until the frame's size is odd */
		c.len = 0;
		comm(&c, 2005, 1, name);
		zlen = ZSTD_compress(z, sizeof(z), c.p, c.len, 1);
		if (ZSTD_isError(zlen) || i > 100)
			abort();
	}
	for (k = 0; k < 4; k++) {
		for (cpu = 0; cpu < 2; cpu++)
			for (i = 0; i < 50; i++) {
				uint64_t t = 1000 * (k + 1) + 10 * i + cpu;

				sample(&b, t, cpu, 1 + cpu, 8 * (i % 8));
				sample(&u, t, cpu, 1 + cpu, 8 * (i % 8));
			}
		comm(&b, 1000 * (k + 1) + 5, 1, "task");
		if (k == 1) {
			header(&u, 81, 8 + zlen);
			put(&u, z, zlen);
		} else {
			comm(&u, 1000 * (k + 1) + 5, 1, "task");
		}
		round_end(&b);
		round_end(&u);
	}
	for (w = 0; w <= NR_WAYS; w++) {
		struct ts_reader_opts o = { .threaded = 1, .keep_arena = 1 };
		const char *name = w < NR_WAYS ? ways[w].name : "file mapped, arena kept";
		struct ts_file_info before;
		const struct ts_attr *attrs;
		struct ts_reader *r;
		char *path;
		int ret, nr;

		path = w == NR_WAYS || ways[w].kind == 0 ? write_file(&b, 0) :
		       ways[w].kind == 1		 ? write_file(&u, 1) :
							   write_pipe(&u);
		ret = run_opts(path, w < NR_WAYS ? &ways[w].o : &o, &got, &r);
		ok(!ret && got.n == 404, "drop rounds, %s: reads the 404 records (%d, %s)", name,
		   got.n, ret ? ts_reader_error(r) : "no error");
		memcpy(&before, ts_reader_info(r), sizeof(before));
		ts_reader_drop_rounds(r);
		ts_reader_drop_rounds(r);
		ok(!memcmp(&before, ts_reader_info(r), sizeof(before)),
		   "drop rounds twice, %s: the file's info stays (%llu records)", name,
		   (unsigned long long)before.nr_records);
		attrs = ts_reader_attrs(r, &nr);
		ok(nr == 1 && attrs[0].sample_type == ST && !strcmp(ts_reader_error(r), "no error"),
		   "drop rounds twice, %s: its attr stays, and no error (%s)", name,
		   ts_reader_error(r));
		ts_reader_close(r);
		unlink(path);
	}
	ts_reader_arena_release();
	free(b.p);
	free(u.p);
	free(c.p);
}

/* What the callback of test_plain() keeps: the last sample, its pointers' contents copied. */
struct plain_seen {
	int n;
	struct ts_sample s;
	uint64_t ips[4];
	unsigned char raw[16];
};

static int on_plain(void *ctx, const struct ts_sample *s)
{
	struct plain_seen *v = ctx;

	v->n++;
	v->s = *s;
	if (s->nr_ips <= 4 && s->ips)
		memcpy(v->ips, s->ips, s->nr_ips * 8);
	if (s->raw_size <= sizeof(v->raw))
		memcpy(v->raw, s->raw, s->raw_size);
	return 0;
}

/*
 * A sample as perf record -a writes tracepoints: IDENTIFIER, IP, TID, TIME, CPU, PERIOD, then
 * (@chain) a callchain of @nr_ips, then RAW of @raw bytes (the size field says @raw_said), the
 * record padded to 8 bytes.
 */
static void plain_sample(struct buf *b, int chain, uint64_t nr_ips, uint32_t raw, uint32_t raw_said)
{
	unsigned char pad[24] = { 0 };
	uint32_t pt[2] = { 7, 8 }, c[2] = { 1, 0 };
	uint32_t size =
		8 + 48 + (chain ? 8 + 8 * (uint32_t)(nr_ips < 4 ? nr_ips : 4) : 0) + 4 + raw;
	uint64_t i;

	header(b, PERF_RECORD_SAMPLE, (size + 7) & ~7u);
	put64(b, ID0);
	put64(b, 0xffffffff81000010ull); /* ip */
	put(b, pt, 8);
	put64(b, 1000); /* time */
	put(b, c, 8);
	put64(b, 1); /* period */
	if (chain) {
		put64(b, nr_ips);
		for (i = 0; i < nr_ips && i < 4; i++)
			put64(b, 0xffffffff81000100ull + i);
	}
	put(b, &raw_said, 4);
	for (i = 0; i < raw; i++)
		pad[i] = (unsigned char)(0xa0 + i);
	put(b, pad, raw);
	memset(pad, 0, sizeof(pad));
	put(b, pad, ((size + 7) & ~7u) - size);
}

/* One sample of test_plain(); Return: the run's code, with *@v filled. */
static int run_plain(uint64_t st, int chain, uint64_t nr_ips, uint32_t raw, uint32_t raw_said,
		     struct plain_seen *v, char *err, size_t errlen)
{
	static const struct ts_reader_ops pops = { .sample = on_plain };
	struct buf b = { 0 };
	struct ts_reader *r;
	char *path;
	int ret;

	memset(v, 0, sizeof(*v));
	file_st = st;
	plain_sample(&b, chain, nr_ips, raw, raw_said);
	path = write_file(&b, 0);
	file_st = ST;
	ret = ts_reader_open(&r, path, &(struct ts_reader_opts){ .threaded = threaded });
	if (!ret)
		ret = ts_reader_run(r, &pops, v);
	snprintf(err, errlen, "%s", ret ? ts_reader_error(r) : "");
	ts_reader_close(r);
	unlink(path);
	free(b.p);
	return ret;
}

/*
 * perf record's tracepoint layout, read at known places (perf_sample.c's parse_plain()): every
 * field where it was written, with and without a callchain; a payload or a callchain that
 * runs past the record is the walk's error, as for any other layout.
 */
static void test_plain(void)
{
	const uint64_t plain = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_RAW;
	struct plain_seen v;
	char err[400];
	int ret;

	ret = run_plain(plain | PERF_SAMPLE_CALLCHAIN, 1, 3, 12, 12, &v, err, sizeof(err));
	ok(ret == 0, "a plain sample with a callchain: read (%s)", err);
	ok(v.n == 1 && v.s.id == ID0 && v.s.ip == 0xffffffff81000010ull && v.s.pid == 7 &&
		   v.s.tid == 8 && v.s.time == 1000 && v.s.cpu == 1 && v.s.period == 1 &&
		   !v.s.addr && !v.s.stream_id,
	   "its fixed fields where they were written");
	ok(v.s.nr_ips == 3 && v.ips[0] == 0xffffffff81000100ull &&
		   v.ips[2] == 0xffffffff81000102ull,
	   "its callchain (%llu)", (unsigned long long)v.s.nr_ips);
	ok(v.s.raw_size == 12 && v.raw[0] == 0xa0 && v.raw[11] == 0xab, "its payload (%u bytes)",
	   v.s.raw_size);

	ret = run_plain(plain, 0, 0, 4, 4, &v, err, sizeof(err));
	ok(ret == 0, "a plain sample without a callchain: read (%s)", err);
	ok(v.n == 1 && v.s.nr_ips == 0 && !v.s.ips && v.s.raw_size == 4 && v.raw[3] == 0xa3 &&
		   v.s.time == 1000 && v.s.cpu == 1 && v.s.tid == 8,
	   "its fields and payload");

	/* the first one's payload ended with the record (8 + 48 + 8 + 24 + 4 + 12 = 104 bytes) */
	ret = run_plain(plain | PERF_SAMPLE_CALLCHAIN, 1, 3, 12, 13, &v, err, sizeof(err));
	is_int(ret, -TS_ECORRUPT, "a payload a byte past the record is an error");
	ok(strstr(err, "too short for its sample_type") && strstr(err, "offset 0x"),
	   "naming the record and its offset: %s", err);
	ok(v.n == 0, "and nothing is delivered");

	ret = run_plain(plain | PERF_SAMPLE_CALLCHAIN, 1, 4, 4, 4, &v, err, sizeof(err));
	is_int(ret, 0, "a callchain of 4 and a payload of 4");
	ret = run_plain(plain | PERF_SAMPLE_CALLCHAIN, 1, 5, 4, 4, &v, err, sizeof(err));
	ok(ret == -TS_ECORRUPT, "a callchain longer than the record is an error (%s)", err);
	ret = run_plain(plain | PERF_SAMPLE_CALLCHAIN, 1, 1ull << 62, 4, 4, &v, err, sizeof(err));
	ok(ret == -TS_ECORRUPT, "so is one of 2^62 entries (%s)", err);
}

int main(void)
{
	test_rounds();
	test_shrunk();
	test_compressed();
	test_compressed_tail();
	test_unknown_and_zero();
	test_plain();
	diag("again, scanning on a second thread");
	threaded = 1;
	test_rounds();
	test_shrunk();
	test_compressed(); /* compressed data is merged in memory: no thread, same answers */
	test_compressed_tail();
	test_unknown_and_zero();
	threaded = 0;
	test_threaded_random();
	test_budgets_random();
	test_drop_rounds();
	return tap_done();
}
