// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tickscope record`'s queue from the ring reader to the writer (analysis/cli/record_queue.c):
 * records of every size from a producer thread through a queue small enough to wrap and fill
 * hundreds of times come out in order and intact; a writer's failure reaches a reader that waits
 * for room; and the reader's slice request, read back from the kernel's own /proc/.../sched.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "cli/record.h"
#include "tap.h"

#define NREC 20000
#define QCAP (128 << 10)

/* the size of record @i: 8 to 65,528 bytes, mostly small, as rings give them */
static size_t rec_size(unsigned int i)
{
	unsigned int x = i * 2654435761u;

	return i % 97 == 0 ? 65528 : 8 * (1 + (x >> 8) % (i % 5 ? 40 : 2000));
}

/* record @i: its header, then its number in every 8 bytes */
static void fill(uint64_t *p, unsigned int i)
{
	struct perf_event_header *h = (void *)p;
	size_t n = rec_size(i) / 8, k;

	for (k = 1; k < n; k++)
		p[k] = i * 1000003ull + k;
	h->type = i % 7 ? PERF_RECORD_SAMPLE : 68;
	h->misc = 0;
	h->size = (uint16_t)rec_size(i);
	if (n == 1)
		h->misc = (uint16_t)i;
}

static int check(const uint64_t *p, unsigned int i)
{
	const struct perf_event_header *h = (const void *)p;
	size_t n = rec_size(i) / 8, k;

	if (h->size != rec_size(i) || h->type != (i % 7 ? PERF_RECORD_SAMPLE : 68))
		return 0;
	for (k = 1; k < n; k++)
		if (p[k] != i * 1000003ull + k)
			return 0;
	return n > 1 || h->misc == (uint16_t)i;
}

struct prod {
	struct rec_queue *q;
	int put_err, pub_err;
	unsigned int sent;
	int chunks; /* put runs of records in one reservation, as a ring's drain does */
};

/* records @i and on, as many as fit in @max bytes (at least one), into one reservation */
static unsigned int put_chunk(struct rec_queue *q, unsigned int i, size_t max, int *err)
{
	size_t len = 0, off = 0;
	unsigned int j, n = 0;
	unsigned char *dst;

	while (i + n < NREC && n < 1 + i % 9 && (!n || len + rec_size(i + n) <= max))
		len += rec_size(i + n++);
	dst = rec_queue_reserve(q, len, err);
	if (!dst)
		return 0;
	for (j = 0; j < n; j++) {
		fill((uint64_t *)(dst + off), i + j);
		off += rec_size(i + j);
	}
	rec_queue_commit(q, len);
	return n;
}

static void *producer(void *arg)
{
	static uint64_t buf[65536 / 8];
	struct prod *pr = arg;
	unsigned int i, n;

	for (i = 0; i < NREC; i++) {
		if (pr->chunks) {
			n = put_chunk(pr->q, i, QCAP / 2, &pr->put_err);
			i += n ? n - 1 : 0;
		} else {
			fill(buf, i);
			pr->put_err = rec_queue_put(pr->q, buf);
		}
		if (pr->put_err)
			break;
		pr->sent = i + 1;
		if (i % 13 == 0) {
			pr->pub_err = rec_queue_publish(pr->q);
			if (pr->pub_err)
				break;
		}
	}
	rec_queue_close(pr->q);
	return NULL;
}

static void order_and_content(int chunks)
{
	const char *how = chunks ? "in runs of 1-9 records a reservation" : "one by one";
	struct rec_queue q;
	struct prod pr = { &q, 0, 0, 0, chunks };
	uint64_t from, to, pos, pads = 0, bytes = 0;
	unsigned int got = 0, bad = 0, batches = 0;
	const uint64_t *r;
	pthread_t t;

	ok(!rec_queue_init(&q, QCAP), "a queue of 128 KiB, records put %s", how);
	pthread_create(&t, NULL, producer, &pr);
	while (rec_queue_take(&q, 5, &from, &to)) {
		batches += from != to;
		for (pos = from; pos < to;) {
			uint64_t at = pos;

			r = rec_queue_at(&q, &pos);
			pads += pos != at;
			bad += !check(r, got);
			bytes += rec_size(got);
			pos += ((const struct perf_event_header *)r)->size;
			got++;
		}
		rec_queue_release(&q, to);
	}
	pthread_join(t, NULL);
	is_int(pr.put_err, 0, "the reader never failed");
	is_int(got, NREC, "every record came out");
	is_int(bad, 0, "in order, each with its size, type and contents");
	diag("%llu MB through the queue in %u batches, %llu pads", (unsigned long long)bytes >> 20,
	     batches, (unsigned long long)pads);
	ok(bytes > 50 * (uint64_t)QCAP && pads > 10,
	   "the queue wrapped and filled many times over");
	rec_queue_free(&q);
}

static void writer_fails(void)
{
	struct rec_queue q;
	struct prod pr = { &q, 0, 0, 0, 0 };
	uint64_t from, to;
	pthread_t t;

	rec_queue_init(&q, QCAP);
	pthread_create(&t, NULL, producer, &pr);
	/* the first batch, never released: the reader fills the queue and waits for room */
	while (rec_queue_take(&q, 5, &from, &to) && to - from < q.cap / 2)
		;
	rec_queue_fail(&q, -ENOSPC);
	while (rec_queue_take(&q, 5, &from, &to))
		rec_queue_release(&q, to);
	pthread_join(t, NULL);
	ok(pr.put_err == -ENOSPC || pr.pub_err == -ENOSPC,
	   "the writer's error reaches the reader (put %d, publish %d)", pr.put_err, pr.pub_err);
	ok(pr.sent < NREC, "and it stops putting (%u of %d records)", pr.sent, NREC);
	rec_queue_free(&q);
}

static void take_times_out(void)
{
	struct rec_queue q;
	uint64_t from = 1, to = 2;
	union {
		struct perf_event_header h;
		uint64_t w[2];
	} rec = { .w = { 0 } };

	rec_queue_init(&q, QCAP);
	ok(rec_queue_take(&q, 10, &from, &to) == 1 && from == to,
	   "nothing queued: take returns after its wait, with nothing");
	rec.h.size = 16;
	rec_queue_put(&q, &rec);
	ok(rec_queue_take(&q, 10, &from, &to) == 1 && from == to,
	   "a record put but not published is not taken");
	rec_queue_close(&q);
	ok(rec_queue_take(&q, 10, &from, &to) == 1 && to - from == 16,
	   "closing publishes the rest");
	rec_queue_release(&q, to);
	ok(rec_queue_take(&q, 10, &from, &to) == 0, "then the queue ends");
	rec.h.size = 12;
	is_int(rec_queue_put(&q, &rec), -EINVAL, "a record whose size is not 8-aligned is refused");
	rec_queue_free(&q);
}

/* a reservation is put only when committed, the pad before it too */
static void reserve_commit(void)
{
	struct rec_queue q;
	uint64_t from, to, pos;
	int err = 1;
	void *p;

	rec_queue_init(&q, QCAP);
	ok(!rec_queue_reserve(&q, QCAP / 2 + 8, &err) && err == -EINVAL,
	   "a reservation of more than half the queue is refused");
	p = rec_queue_reserve(&q, QCAP - 64, &err);
	ok(!p && err == -EINVAL, "so is one of nearly all of it");
	/* 64 KiB at the start, then 48 KiB: 16 KiB are left before the end */
	p = rec_queue_reserve(&q, QCAP / 2, &err);
	memset(p, 0, QCAP / 2);
	((struct perf_event_header *)p)->size = 65528;
	((struct perf_event_header *)((char *)p + 65528))->size = 8;
	rec_queue_commit(&q, QCAP / 2);
	p = rec_queue_reserve(&q, 48 << 10, &err);
	memset(p, 0, 48 << 10);
	((struct perf_event_header *)p)->size = 48 << 10;
	rec_queue_commit(&q, 48 << 10);
	rec_queue_publish(&q);
	rec_queue_take(&q, 10, &from, &to);
	rec_queue_release(&q, to);
	/* 32 KiB do not fit in the 16 KiB left: a pad, and the bytes at the start */
	p = rec_queue_reserve(&q, 32 << 10, &err);
	ok(p == (void *)q.buf, "bytes that do not fit before the end are reserved at the start");
	rec_queue_close(&q);
	ok(rec_queue_take(&q, 10, &from, &to) == 0 && from == to,
	   "an uncommitted reservation and its pad are not taken: closed, the queue ends empty");
	p = rec_queue_reserve(&q, 32 << 10, &err);
	memset(p, 0, 32 << 10);
	((struct perf_event_header *)p)->size = 32 << 10;
	rec_queue_commit(&q, 32 << 10);
	rec_queue_close(&q);
	rec_queue_take(&q, 10, &from, &to);
	pos = from;
	p = (void *)rec_queue_at(&q, &pos);
	ok(to - from == QCAP / 8 + (32 << 10) && p == (void *)q.buf &&
		   ((struct perf_event_header *)p)->size == 32 << 10,
	   "committed: the pad, then the bytes from the start");
	rec_queue_free(&q);
}

/* the slice the kernel keeps for this thread (se.slice, ns), or -1 when it shows none */
static long long kernel_slice(void)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.slice", 8))
			sscanf(strchr(line, ':') + 1, "%lld", &v);
	if (f)
		fclose(f);
	return v;
}

static void *slice_thread(void *arg)
{
	long long *v = arg;

	v[0] = rec_short_slice(100000);
	v[1] = kernel_slice();
	return NULL;
}

static void short_slice(void)
{
	long long v[2];
	pthread_t t;

	pthread_create(&t, NULL, slice_thread, v);
	pthread_join(t, NULL);
	if (v[0] || v[1] < 0) {
		ok(1,
		   "slice # SKIP no slice request on this kernel (%lld) or no se.slice in "
		   "/proc (%lld)",
		   v[0], v[1]);
		return;
	}
	is_int(v[1], 100000, "the reader's thread runs with a 0.1 ms slice (/proc/.../sched)");
}

int main(void)
{
	order_and_content(0);
	order_and_content(1);
	writer_fails();
	take_times_out();
	reserve_commit();
	short_slice();
	return tap_done();
}
