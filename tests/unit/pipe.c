// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts_pipe: every message arrives once, whole and in order, across many wraps of a small ring
 * with both sides made to wait; a consumer error stops the producer and comes back from
 * finish; sizes over a quarter of the ring are refused, a quarter is taken. A held producer
 * (ts_pipe_hold(), started before the consumer runs) fills the ring and waits; its drain
 * returns only once ts_pipe_run() began, or with -1 after ts_pipe_stop().
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "source/pipe.h"

#define RING (64u << 10)

struct check {
	uint64_t next; /* the sequence number expected */
	uint64_t bytes;
	uint64_t bad; /* messages out of order or with wrong content */
	uint64_t stop_at; /* return an error at this message, 0 for never */
	int slow; /* make the consumer the slow side now and then */
};

static uint32_t msg_len(uint64_t seq)
{
	return 8 + (uint32_t)((seq * 2654435761u) % 700); /* 8..707 bytes */
}

static unsigned char msg_byte(uint64_t seq, uint32_t i)
{
	return (unsigned char)(seq * 31 + i * 7);
}

static int on_msg(void *ctx, const void *msg, uint32_t len)
{
	struct check *c = ctx;
	const unsigned char *p = msg;
	uint64_t seq;
	uint32_t i, want = msg_len(c->next);

	memcpy(&seq, p, 8);
	if (seq != c->next || len < want || len > want + 7)
		c->bad++;
	for (i = 8; i < want && i < len; i++)
		if (p[i] != msg_byte(seq, i))
			c->bad++;
	c->bytes += want;
	c->next++;
	if (c->slow && !(seq % 5000))
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	if (c->stop_at && seq == c->stop_at)
		return -EIO;
	return 0;
}

/* Push @n messages (stopping early when the pipe refuses one); Return: how many went in. */
static uint64_t produce(struct ts_pipe *p, uint64_t n, int slow)
{
	uint64_t seq;

	for (seq = 0; seq < n; seq++) {
		uint32_t i, len = msg_len(seq);
		unsigned char *m = ts_pipe_reserve(p, len);

		if (!m)
			break;
		memcpy(m, &seq, 8);
		for (i = 8; i < len; i++)
			m[i] = msg_byte(seq, i);
		ts_pipe_commit(p);
		if (slow && !(seq % 7000))
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
	return seq;
}

static void run(const char *what, uint64_t n, int slow_producer, int slow_consumer)
{
	struct check c = { .slow = slow_consumer };
	struct ts_pipe *p;
	uint64_t sent, want_bytes = 0, i;
	int ret;

	ret = ts_pipe_start(&p, RING, on_msg, &c);
	is_int(ret, 0, "start");
	if (ret)
		return;
	sent = produce(p, n, slow_producer);
	ret = ts_pipe_finish(p);
	for (i = 0; i < n; i++)
		want_bytes += msg_len(i);
	is_int(ret, 0, "finish");
	ok(sent == n, "%s: all %llu messages accepted", what, (unsigned long long)n);
	ok(c.next == n, "%s: all delivered (got %llu)", what, (unsigned long long)c.next);
	ok(c.bad == 0, "%s: in order and intact (%llu bad)", what, (unsigned long long)c.bad);
	ok(c.bytes == want_bytes, "%s: %llu bytes through a %u-byte ring", what,
	   (unsigned long long)c.bytes, RING);
}

struct held {
	struct ts_pipe *p;
	uint64_t n, sent;
	int entering; /* set just before the drain */
	int ran; /* the consumer's ts_pipe_run() had begun: set by main just before it */
	int ran_at_drain; /* what the producer saw once its drain returned */
	int drained; /* the drain's return */
};

static void *held_producer(void *arg)
{
	struct held *h = arg;

	__atomic_store_n(&h->entering, 1, __ATOMIC_SEQ_CST);
	h->drained = ts_pipe_drain(h->p);
	h->ran_at_drain = __atomic_load_n(&h->ran, __ATOMIC_SEQ_CST);
	h->sent = produce(h->p, h->n, 0);
	ts_pipe_done(h->p);
	return NULL;
}

static int count_msg(void *ctx, const void *msg, uint32_t len)
{
	(void)msg;
	(void)len;
	++*(uint64_t *)ctx;
	return 0;
}

/* A producer held before the consumer runs: it drains only once the run began, or is stopped. */
static void held(int stop)
{
	struct check c = { 0 };
	struct held h = { .n = stop ? 0 : 30000 };
	uint64_t left = 0;
	pthread_t t;

	if (ts_pipe_new(&h.p, RING, on_msg, &c)) {
		ok(0, "new");
		return;
	}
	ts_pipe_hold(h.p);
	ok(ts_pipe_held(h.p), "held before the run");
	if (pthread_create(&t, NULL, held_producer, &h)) {
		ok(0, "a thread");
		ts_pipe_free(h.p);
		return;
	}
	while (!__atomic_load_n(&h.entering, __ATOMIC_SEQ_CST))
		;
	__atomic_store_n(&h.ran, 1, __ATOMIC_SEQ_CST);
	if (stop)
		ts_pipe_stop(h.p);
	else
		is_int(ts_pipe_run(h.p), 0, "held: the run");
	pthread_join(t, NULL);
	ok(!ts_pipe_held(h.p), "not held after it");
	if (stop) {
		is_int(h.drained, -1, "stopped: the held drain fails");
		ok(!ts_pipe_reserve(h.p, 8), "stopped: a reserve is refused");
		ts_pipe_discard(h.p, count_msg, &left);
		ok(c.next == 0 && left == 0, "stopped: nothing consumed or left");
	} else {
		is_int(h.drained, 0, "held: the drain");
		ok(h.ran_at_drain, "held: the drain returned only once the run began");
		ok(h.sent == h.n && c.next == h.n && !c.bad, "held: all %llu delivered in order",
		   (unsigned long long)c.next);
	}
	ts_pipe_free(h.p);
}

int main(void)
{
	struct check c = { .stop_at = 30000 };
	struct ts_pipe *p;
	uint64_t sent;
	void *m;
	int ret;

	run("fast both", 200000, 0, 0);
	run("slow producer", 30000, 1, 0);
	run("slow consumer", 30000, 0, 1);
	run("empty", 0, 0, 0);
	held(0);
	held(1);

	/* a consumer error: the producer is refused soon after, finish returns the code */
	ret = ts_pipe_start(&p, RING, on_msg, &c);
	is_int(ret, 0, "start");
	sent = produce(p, 200000, 0);
	ret = ts_pipe_finish(p);
	is_int(ret, -EIO, "finish returns the consumer's error");
	ok(sent < 200000, "the producer was refused after the error (%llu sent)",
	   (unsigned long long)sent);
	ok(c.next == 30001, "nothing was consumed after the error (%llu)",
	   (unsigned long long)c.next);

	/* bad sizes */
	is_int(ts_pipe_start(&p, 100000, on_msg, &c), -EINVAL, "a ring that is not a power of 2");
	is_int(ts_pipe_start(&p, 4096, on_msg, &c), -EINVAL, "a ring under 64 KiB");
	ret = ts_pipe_start(&p, RING, on_msg, &c);
	is_int(ret, 0, "start");
	ok(!ts_pipe_reserve(p, RING / 2), "a message over a quarter of the ring is refused");
	ok(!ts_pipe_reserve(p, RING / 4 - 7), "so is one a byte over it with its header");
	m = ts_pipe_reserve(p, RING / 4 - 8);
	ok(m != NULL, "a quarter with its header is taken");
	if (m) { /* sequence number 0: the consumer counts it, and stops at none */
		memset(m, 0, RING / 4 - 8);
		ts_pipe_commit(p);
	}
	ok(!ts_pipe_reserve(p, RING / 4 - 7), "and one over a quarter still refused after it");
	m = ts_pipe_reserve(p, 8);
	ok(m != NULL, "a small one after it");
	if (m) {
		memset(m, 0, 8);
		ts_pipe_commit(p);
	}
	is_int(ts_pipe_finish(p), 0, "finish after them");
	return tap_done();
}
