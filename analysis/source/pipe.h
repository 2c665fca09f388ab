/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct ts_pipe: a one-producer, one-consumer ring of variable-size messages whose consumer
 * runs on its own thread. The source uses it to decode and model on a second CPU while the
 * first parses the input (or, in the plugin, while perf does). Messages keep their order.
 */
#ifndef TICKSCOPE_PIPE_H
#define TICKSCOPE_PIPE_H

#include <stddef.h>
#include <stdint.h>

struct ts_pipe;

/* Called on the consumer thread for every message, in order. Non-zero stops the pipe. */
typedef int (*ts_pipe_fn)(void *ctx, const void *msg, uint32_t len);

/**
 * ts_pipe_start() - allocate the ring and start the consumer thread
 * @ring: ring size in bytes, a power of two, at least 64 KiB and 4 times the largest message
 * Return: 0 or a negative errno.
 */
int ts_pipe_start(struct ts_pipe **pp, size_t ring, ts_pipe_fn fn, void *ctx);

#define TS_PIPE_BATCH (32u << 10) /* bytes between publications of a position */

/*
 * The producer's own part of the ring, first in struct ts_pipe, so that the common case of
 * reserving and committing a message is inline: the plugin does it for every sample on perf's
 * thread. Only the functions below touch it.
 */
struct ts_pipe_prod {
	unsigned char *buf;
	size_t size;
	size_t head, published, tail_seen; /* positions: written, published, consumed as seen */
	/*
	 * Where the inline reserve's room ends: the consumer's tail as last seen plus the ring,
	 * capped at the ring's end (a message does not wrap) and at a quarter ring past the head
	 * (the largest message); 0 once the consumer is seen to have stopped. Each reserve is
	 * one compare against it; the slow path sets it again.
	 */
	size_t room_end;
	uint32_t len; /* of the reserved message, with its header */
	const int *stopped; /* the consumer returned an error */
};

void *ts_pipe_reserve_slow(struct ts_pipe *p, uint32_t len);
void ts_pipe_publish(struct ts_pipe *p);

/**
 * ts_pipe_reserve() - room for a message of @len bytes (rounded up to 8), waiting while full
 * Return: where to write it, or NULL when the consumer has stopped on an error (or @len does
 * not fit): the producer should stop and call ts_pipe_finish() for the code.
 */
static inline void *ts_pipe_reserve(struct ts_pipe *p, uint32_t len)
{
	struct ts_pipe_prod *w = (struct ts_pipe_prod *)p;
	/* with the message's header (its length and a pad), in size_t: it cannot wrap */
	size_t n = ((size_t)len + 8 + 7) & ~(size_t)7;
	uint32_t *m;

	/*
	 * one compare; the rest (a wrap, a full ring, a message too large, the consumer's
	 * error, which each batch's publication looks for) out of line
	 */
	if (__builtin_expect(w->head + n > w->room_end, 0))
		return ts_pipe_reserve_slow(p, len);
	m = (uint32_t *)(w->buf + (w->head & (w->size - 1)));
	m[0] = (uint32_t)n;
	m[1] = 0;
	w->len = n;
	return m + 2;
}

/** ts_pipe_commit() - hand on the message just written into ts_pipe_reserve()'s room */
static inline void ts_pipe_commit(struct ts_pipe *p)
{
	struct ts_pipe_prod *w = (struct ts_pipe_prod *)p;

	w->head += w->len;
	if (__builtin_expect(w->head - w->published >= TS_PIPE_BATCH, 0))
		ts_pipe_publish(p);
}

/*
 * The same ring with the consumer on a thread of the caller's choosing: ts_pipe_new(), then
 * ts_pipe_run() there (it returns once the producer called ts_pipe_done() and everything was
 * consumed, or @fn failed), and ts_pipe_free() once both sides are through.
 */
int ts_pipe_new(struct ts_pipe **pp, size_t ring, ts_pipe_fn fn, void *ctx);
int ts_pipe_run(struct ts_pipe *p);
void ts_pipe_done(struct ts_pipe *p);
void ts_pipe_free(struct ts_pipe *p);

/*
 * A producer started before the consumer's thread is ready to run (the reader's scanner while
 * the caller still sets up): ts_pipe_hold() before the producer starts makes its
 * ts_pipe_drain() wait until ts_pipe_run() begins, since what it then writes the consumer's
 * thread may still be reading; ts_pipe_stop() instead, when ts_pipe_run() is never to come:
 * the producer's reserves and drains fail, as after a consumer's error.
 */
void ts_pipe_hold(struct ts_pipe *p);
void ts_pipe_stop(struct ts_pipe *p);
/* Whether the producer is still held: ts_pipe_run() has not begun. */
int ts_pipe_held(struct ts_pipe *p);

/**
 * ts_pipe_discard() - once both sides are through, @fn on each message the consumer did not
 * take (it stopped on an error at the first of them), so that what they own can be freed
 */
void ts_pipe_discard(struct ts_pipe *p, ts_pipe_fn fn, void *ctx);

/**
 * ts_pipe_drain() - producer: wait until the consumer has taken every message so far
 * Return: 0, or -1 when the consumer stopped on an error.
 */
int ts_pipe_drain(struct ts_pipe *p);

/**
 * ts_pipe_push() - producer: hand on what is committed now, waking the consumer if it sleeps
 * (commits alone wait for a batch, and wake a sleeping consumer only for a quarter ring)
 */
void ts_pipe_push(struct ts_pipe *p);

/**
 * ts_pipe_finish() - let the consumer drain the ring, join it and free everything
 * Return: 0, or the first non-zero value the consumer's @fn returned.
 */
int ts_pipe_finish(struct ts_pipe *p);

#endif
