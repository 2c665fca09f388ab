// SPDX-License-Identifier: GPL-2.0-only
/*
 * A one-producer, one-consumer message ring with the consumer on its own thread.
 *
 * Each side keeps its position private and publishes it in batches, so the two CPUs share a
 * cache line about once per batch rather than once per message. A side that runs out (the
 * consumer of data, the producer of room) spins a little, then sleeps on a condition variable
 * (the consumer spins less after spins that caught nothing: see wait_data()); the other side
 * wakes it only once a quarter of the ring is ready, so a fast consumer does not wake for
 * every batch. Sleeping and waking follow the usual flag-then-recheck pattern under the
 * mutex, with sequentially consistent atomics, so no wake-up is lost.
 *
 * Every message crosses from one CPU's cache to the other's; without software prefetch the
 * consumer stalls on each line (measured: 3x slower than decoding on one thread).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"

#define BATCH TS_PIPE_BATCH
#define SPINS 2048 /* the most pauses a side spins for before it sleeps */
#define SPINS_MIN 32 /* the fewest the consumer spins for (see wait_data()) */
#define PREFETCH 2048 /* bytes ahead the consumer asks for: its lines are on the other CPU */
#define MSG_PAD 0xffffffffu /* a filler to the end of the ring */

struct msg_hdr {
	uint32_t len; /* of the whole message with this header, a multiple of 8 */
	uint32_t pad;
};

struct ts_pipe {
	struct ts_pipe_prod w; /* first: the producer's own, ts_pipe_reserve() inline */
	unsigned char *buf;
	size_t size;
	ts_pipe_fn fn;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t data_cv, room_cv;

	int started;
	int held; /* ts_pipe_hold(): the producer's drain waits for ts_pipe_run() (under lock) */

	/* shared, each on its own line */
	size_t head __attribute__((aligned(64)));
	size_t tail __attribute__((aligned(64)));
	int cons_sleeping __attribute__((aligned(64)));
	int prod_sleeping;
	int done; /* the producer has finished */
	int stopped; /* the consumer returned an error */
	int err;
};

static inline size_t load(const size_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * The lock only orders this wake-up after the sleeper's check (it is in the wait or will see the
 * new position); the signal goes after it is dropped: sent inside, it woke a thread that found
 * the mutex taken and slept on it again (on a loaded machine the wake-up often preempts the
 * side that signals right there), two sleeps and wake-ups a handover (issue 33).
 */
static void wake(struct ts_pipe *p, pthread_cond_t *cv)
{
	pthread_mutex_lock(&p->lock);
	pthread_mutex_unlock(&p->lock);
	pthread_cond_signal(cv);
}

/* ---- the consumer ------------------------------------------------------------------------ */

static void publish_tail(struct ts_pipe *p, size_t tail, int last)
{
	__atomic_store_n(&p->tail, tail, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->prod_sleeping, __ATOMIC_SEQ_CST) &&
	    (last || p->size - (load(&p->head) - tail) >= p->size / 4))
		wake(p, &p->room_cv);
}

/*
 * Wait until the head moves past @tail; Return: the head, or @tail when the producer is done.
 * *@spins: how long to spin first, halved after a spin that ended in sleep, doubled after one
 * that did not: a producer slower than the consumer (perf's thread feeding the plugin's
 * worker) is rarely caught by spinning, and each spin costs a whole SPINS of the CPU.
 */
static size_t wait_data(struct ts_pipe *p, size_t tail, unsigned int *spins)
{
	size_t head;
	unsigned int i;

	for (i = 0; i < *spins; i++) {
		head = load(&p->head);
		if (head != tail || __atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) {
			if (*spins < SPINS)
				*spins *= 2;
			return load(&p->head);
		}
		cpu_relax();
	}
	if (*spins > SPINS_MIN)
		*spins /= 2;
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->cons_sleeping, 1, __ATOMIC_SEQ_CST);
	while ((head = __atomic_load_n(&p->head, __ATOMIC_SEQ_CST)) == tail &&
	       !__atomic_load_n(&p->done, __ATOMIC_SEQ_CST))
		pthread_cond_wait(&p->data_cv, &p->lock);
	__atomic_store_n(&p->cons_sleeping, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&p->lock);
	return load(&p->head);
}

static void *consume(void *arg)
{
	struct ts_pipe *p = arg;
	size_t tail = 0, published = 0, head;
	unsigned int spins = SPINS;
	int err = 0;

	for (;;) {
		head = load(&p->head);
		if (head == tail) {
			publish_tail(p, tail, 0);
			published = tail;
			head = wait_data(p, tail, &spins);
			if (head == tail)
				break; /* done, and drained */
		}
		while (tail != head) {
			const struct msg_hdr *m = (const void *)(p->buf + (tail & (p->size - 1)));
			size_t ahead = (tail + PREFETCH) & (p->size - 1);

			/* the producer's lines: ask early, two lines a message (they average ~150 B) */
			__builtin_prefetch(p->buf + ahead);
			__builtin_prefetch(p->buf + (ahead ^ 64));

			if (m->pad != MSG_PAD) {
				err = p->fn(p->ctx, m + 1, m->len - sizeof(*m));
				if (err)
					goto out;
			}
			tail += m->len;
			if (tail - published >= BATCH) {
				publish_tail(p, tail, 0);
				published = tail;
			}
		}
	}
out:
	if (err) {
		p->err = err;
		__atomic_store_n(&p->stopped, 1, __ATOMIC_SEQ_CST);
	}
	publish_tail(p, tail, 1);
	if (err)
		wake(p, &p->room_cv);
	return NULL;
}

/* ---- the producer ------------------------------------------------------------------------ */

/* ts_pipe_reserve()'s room from the head on, as far as the producer knows (struct ts_pipe_prod) */
static void set_room(struct ts_pipe *p)
{
	size_t head = p->w.head, end = p->w.tail_seen + p->size;
	size_t lap = (head & ~(p->size - 1)) + p->size;

	if (end > lap)
		end = lap;
	if (end > head + p->size / 4)
		end = head + p->size / 4;
	p->w.room_end = __atomic_load_n(&p->stopped, __ATOMIC_ACQUIRE) ? 0 : end;
}

static void publish_head(struct ts_pipe *p, int last)
{
	size_t head = p->w.head;

	__atomic_store_n(&p->head, head, __ATOMIC_SEQ_CST);
	p->w.published = head;
	if (__atomic_load_n(&p->stopped, __ATOMIC_RELAXED))
		p->w.room_end = 0; /* the next reserve takes the slow path, which says so */
	if (__atomic_load_n(&p->cons_sleeping, __ATOMIC_SEQ_CST) &&
	    (last || head - load(&p->tail) >= p->size / 4))
		wake(p, &p->data_cv);
}

/* Wait for @need bytes of room. Return: 0, or -1 once the consumer has stopped. */
static int wait_room(struct ts_pipe *p, size_t need)
{
	int i;

	publish_head(p, 1); /* whatever is queued must reach the consumer first */
	for (i = 0; i < SPINS; i++) {
		p->w.tail_seen = load(&p->tail);
		if (p->size - (p->w.head - p->w.tail_seen) >= need)
			return 0;
		if (__atomic_load_n(&p->stopped, __ATOMIC_ACQUIRE))
			return -1;
		cpu_relax();
	}
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->prod_sleeping, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		p->w.tail_seen = __atomic_load_n(&p->tail, __ATOMIC_SEQ_CST);
		if (p->size - (p->w.head - p->w.tail_seen) >= need ||
		    __atomic_load_n(&p->stopped, __ATOMIC_SEQ_CST))
			break;
		pthread_cond_wait(&p->room_cv, &p->lock);
	}
	__atomic_store_n(&p->prod_sleeping, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&p->lock);
	return __atomic_load_n(&p->stopped, __ATOMIC_ACQUIRE) ? -1 : 0;
}

void *ts_pipe_reserve_slow(struct ts_pipe *p, uint32_t len)
{
	size_t pos, to_end, need;
	struct msg_hdr *m;

	len = (len + sizeof(*m) + 7) & ~7u;
	if (len > p->size / 4)
		return NULL;
	pos = p->w.head & (p->size - 1);
	to_end = p->size - pos;
	need = to_end < len ? to_end + len : len;
	if (p->size - (p->w.head - p->w.tail_seen) < need) {
		p->w.tail_seen = load(&p->tail);
		if (p->size - (p->w.head - p->w.tail_seen) < need && wait_room(p, need))
			return NULL;
	}
	if (__atomic_load_n(&p->stopped, __ATOMIC_RELAXED))
		return NULL;
	if (to_end < len) { /* fill to the end and start over */
		m = (void *)(p->buf + pos);
		m->len = to_end;
		m->pad = MSG_PAD;
		p->w.head += to_end;
		pos = 0;
	}
	set_room(p);
	m = (void *)(p->buf + pos);
	m->len = len;
	m->pad = 0;
	p->w.len = len;
	return m + 1;
}

void ts_pipe_publish(struct ts_pipe *p)
{
	publish_head(p, 0);
}

int ts_pipe_new(struct ts_pipe **pp, size_t ring, ts_pipe_fn fn, void *ctx)
{
	struct ts_pipe *p;

	*pp = NULL;
	if (ring < (64u << 10) || (ring & (ring - 1)))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->buf = malloc(ring);
	if (!p->buf) {
		free(p);
		return -ENOMEM;
	}
	p->size = ring;
	p->w.buf = p->buf;
	p->w.size = ring;
	p->w.stopped = &p->stopped;
	p->fn = fn;
	p->ctx = ctx;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->data_cv, NULL);
	pthread_cond_init(&p->room_cv, NULL);
	*pp = p;
	return 0;
}

int ts_pipe_start(struct ts_pipe **pp, size_t ring, ts_pipe_fn fn, void *ctx)
{
	int ret = ts_pipe_new(pp, ring, fn, ctx);

	if (ret)
		return ret;
	ret = pthread_create(&(*pp)->thread, NULL, consume, *pp);
	if (ret) {
		ts_pipe_free(*pp);
		*pp = NULL;
		return -ret;
	}
	(*pp)->started = 1;
	return 0;
}

void ts_pipe_push(struct ts_pipe *p)
{
	publish_head(p, 1);
}

void ts_pipe_hold(struct ts_pipe *p)
{
	p->held = 1; /* before the producer's thread starts */
}

/* Let a held producer go on: the consumer runs now, or will never run (@stop). */
static void release(struct ts_pipe *p, int stop)
{
	pthread_mutex_lock(&p->lock);
	if (stop)
		__atomic_store_n(&p->stopped, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&p->held, 0, __ATOMIC_SEQ_CST);
	pthread_cond_broadcast(&p->room_cv);
	pthread_mutex_unlock(&p->lock);
}

int ts_pipe_run(struct ts_pipe *p)
{
	if (__atomic_load_n(&p->held, __ATOMIC_ACQUIRE))
		release(p, 0);
	consume(p);
	return p->err;
}

int ts_pipe_held(struct ts_pipe *p)
{
	return __atomic_load_n(&p->held, __ATOMIC_ACQUIRE);
}

void ts_pipe_stop(struct ts_pipe *p)
{
	release(p, 1);
}

int ts_pipe_drain(struct ts_pipe *p)
{
	if (__atomic_load_n(&p->held, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&p->lock);
		while (__atomic_load_n(&p->held, __ATOMIC_SEQ_CST))
			pthread_cond_wait(&p->room_cv, &p->lock);
		pthread_mutex_unlock(&p->lock);
	}
	if (__atomic_load_n(&p->stopped, __ATOMIC_ACQUIRE))
		return -1; /* the consumer's error, or ts_pipe_stop(): no run is to come */
	return wait_room(p, p->size);
}

void ts_pipe_discard(struct ts_pipe *p, ts_pipe_fn fn, void *ctx)
{
	size_t tail = p->tail, head = p->w.head;

	while (tail != head) {
		const struct msg_hdr *m = (const void *)(p->buf + (tail & (p->size - 1)));

		if (m->pad != MSG_PAD)
			fn(ctx, m + 1, m->len - sizeof(*m));
		tail += m->len;
	}
	p->tail = tail;
}

void ts_pipe_done(struct ts_pipe *p)
{
	publish_head(p, 1); /* before done: a consumer that sees done sees every message */
	__atomic_store_n(&p->done, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->cons_sleeping, __ATOMIC_SEQ_CST))
		wake(p, &p->data_cv);
}

void ts_pipe_free(struct ts_pipe *p)
{
	if (!p)
		return;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->data_cv);
	pthread_cond_destroy(&p->room_cv);
	free(p->buf);
	free(p);
}

int ts_pipe_finish(struct ts_pipe *p)
{
	int err;

	if (!p)
		return 0;
	ts_pipe_done(p);
	if (p->started)
		pthread_join(p->thread, NULL);
	err = p->err;
	ts_pipe_free(p);
	return err;
}
