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

/**
 * ts_pipe_reserve() - room for a message of @len bytes (rounded up to 8), waiting while full
 * Return: where to write it, or NULL when the consumer has stopped on an error (or @len does
 * not fit): the producer should stop and call ts_pipe_finish() for the code.
 */
void *ts_pipe_reserve(struct ts_pipe *p, uint32_t len);

/** ts_pipe_commit() - hand on the message just written into ts_pipe_reserve()'s room */
void ts_pipe_commit(struct ts_pipe *p);

/*
 * The same ring with the consumer on a thread of the caller's choosing: ts_pipe_new(), then
 * ts_pipe_run() there (it returns once the producer called ts_pipe_done() and everything was
 * consumed, or @fn failed), and ts_pipe_free() once both sides are through.
 */
int ts_pipe_new(struct ts_pipe **pp, size_t ring, ts_pipe_fn fn, void *ctx);
int ts_pipe_run(struct ts_pipe *p);
void ts_pipe_done(struct ts_pipe *p);
void ts_pipe_free(struct ts_pipe *p);

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
