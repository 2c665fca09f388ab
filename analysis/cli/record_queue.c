// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tickscope record`'s hand-over from the thread that drains the kernel's rings to the thread
 * that writes the file: a byte queue of whole perf records, so that a write that blocks (a busy
 * disk, a full pipe to the report) never keeps the rings from being drained; and the drainer's
 * scheduling hint.
 *
 * Records never wrap: one that does not fit before the end of the buffer is put at its start,
 * after a pad header of size 0 that tells the taker to skip to the start.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "record.h"

#define MAX_RECORD (1 << 16) /* header.size is a u16 */

int rec_queue_init(struct rec_queue *q, size_t cap)
{
	pthread_condattr_t ca;

	memset(q, 0, sizeof(*q));
	if (cap < 2 * MAX_RECORD)
		cap = 2 * MAX_RECORD;
	q->cap = cap & ~(size_t)7;
	q->buf = malloc(q->cap);
	if (!q->buf)
		return -ENOMEM;
	q->wake = q->cap / 4;
	q->limit = q->cap;
	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->more, &ca);
	pthread_cond_init(&q->room, NULL);
	pthread_condattr_destroy(&ca);
	return 0;
}

void rec_queue_free(struct rec_queue *q)
{
	if (!q->buf)
		return;
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->room);
	free(q->buf);
	q->buf = NULL;
}

/* under the lock: make the reader's records visible, waking the writer when enough is queued */
static void publish_locked(struct rec_queue *q)
{
	q->head = q->whead;
	q->limit = q->tail + q->cap;
	if (q->writer_waits && (q->head - q->tail >= q->wake || q->done))
		pthread_cond_signal(&q->more);
}

void *rec_queue_reserve(struct rec_queue *q, size_t len, int *err)
{
	size_t off = q->whead % q->cap, need = len;

	*err = 0;
	if (len % 8 || len > q->cap / 2) {
		*err = -EINVAL;
		return NULL;
	}
	if (q->cap - off < len)
		need += q->cap - off; /* a pad to the end, then the bytes at the start */
	if (q->whead + need > q->limit) {
		/* full as last seen: publish, and wait for the writer to take some */
		pthread_mutex_lock(&q->lock);
		publish_locked(q);
		while (!q->err && q->whead + need > q->tail + q->cap) {
			pthread_cond_signal(&q->more);
			pthread_cond_wait(&q->room, &q->lock);
		}
		q->limit = q->tail + q->cap;
		*err = q->err;
		pthread_mutex_unlock(&q->lock);
		if (*err)
			return NULL;
	}
	q->wpad = need - len; /* put with the bytes, by rec_queue_commit() */
	if (q->wpad) {
		memset(q->buf + off, 0, sizeof(struct perf_event_header));
		off = 0;
	}
	return q->buf + off;
}

void rec_queue_commit(struct rec_queue *q, size_t len)
{
	q->whead += q->wpad + len;
	q->wpad = 0;
}

int rec_queue_put(struct rec_queue *q, const void *rec)
{
	const struct perf_event_header *h = rec;
	void *dst;
	int err;

	if (h->size < sizeof(*h) || h->size % 8)
		return -EINVAL;
	dst = rec_queue_reserve(q, h->size, &err);
	if (!dst)
		return err;
	memcpy(dst, rec, h->size);
	rec_queue_commit(q, h->size);
	return 0;
}

int rec_queue_publish(struct rec_queue *q)
{
	int err;

	pthread_mutex_lock(&q->lock);
	publish_locked(q);
	err = q->err;
	pthread_mutex_unlock(&q->lock);
	return err;
}

void rec_queue_close(struct rec_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->done = 1;
	publish_locked(q);
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
}

void rec_queue_fail(struct rec_queue *q, int err)
{
	pthread_mutex_lock(&q->lock);
	q->err = err;
	pthread_cond_broadcast(&q->room);
	pthread_mutex_unlock(&q->lock);
}

int rec_queue_take(struct rec_queue *q, int ms, uint64_t *from, uint64_t *to)
{
	struct timespec t;
	int done;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += (long)(ms % 1000) * 1000000;
	t.tv_sec += ms / 1000 + t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	pthread_mutex_lock(&q->lock);
	while (!q->done && q->head - q->tail < q->wake) {
		q->writer_waits = 1;
		if (pthread_cond_timedwait(&q->more, &q->lock, &t) == ETIMEDOUT)
			break;
	}
	q->writer_waits = 0;
	*from = q->tail;
	*to = q->head;
	done = q->done;
	pthread_mutex_unlock(&q->lock);
	return !(done && *from == *to);
}

const void *rec_queue_at(const struct rec_queue *q, uint64_t *pos)
{
	size_t off = *pos % q->cap;
	const struct perf_event_header *h = (const void *)(q->buf + off);

	if (!h->size) { /* a pad: the record is at the start */
		*pos += q->cap - off;
		h = (const void *)q->buf;
	}
	return h;
}

void rec_queue_release(struct rec_queue *q, uint64_t to)
{
	pthread_mutex_lock(&q->lock);
	q->tail = to;
	pthread_cond_signal(&q->room);
	pthread_mutex_unlock(&q->lock);
}

/* struct sched_attr of sched_setattr(2), which glibc 2.36 does not declare */
struct sched_attr_v1 {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

int rec_short_slice(uint64_t ns)
{
	struct sched_attr_v1 a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return -errno;
	if (a.policy != SCHED_OTHER && a.policy != SCHED_BATCH)
		return -EPERM; /* real-time or idle: leave it as the user set it */
	a.size = sizeof(a);
	a.flags &= 1; /* SCHED_FLAG_RESET_ON_FORK, as it was */
	a.runtime = ns;
	return syscall(SYS_sched_setattr, 0, &a, 0) ? -errno : 0;
}

int rec_reader_priority(int rtprio, uint64_t slice_ns)
{
	struct sched_param sp = { .sched_priority = rtprio };

	if (rtprio > 0 && !pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return 1;
	return rec_short_slice(slice_ns) ? -1 : 0;
}
