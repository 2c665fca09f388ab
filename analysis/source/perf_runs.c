// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sorted runs of records and their k-way merge, for perf's round order (perf_queue.c). A run's
 * records sit in memory (a chunk of the input as it was read, or tagged copies) or in a file
 * (the input, re-read through a small pread() window; or the spill file that pipe and zstd
 * input merge their memory runs into when a round outgrows the budget).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader_priv.h"

#define RUN_WINDOW TS_WINDOW
#define SPILL_WRITE (256 * 1024) /* the spill's write buffer */

/* ---- chunks ----------------------------------------------------------------------------- */

#define HUGE_PAGE (2u << 20)
#define ARENA_MAX (256u << 20)
#define ARENA_WINDOWS 4 /* the arena's windows, at its end */

/*
 * The arena a thread kept when its last reader closed (ts_reader_opts.keep_arena): its next
 * reader of the same budget takes it as it is, its pages already faulted in (compare's workers
 * open run after run: a fresh arena was 10 MiB of huge pages zeroed and faulted in per run, about
 * 5% of a cold compare's CPU, docs/scale.md). Unmapped when the thread exits, by
 * ts_reader_arena_release(), or when a reader of another budget wants one.
 */
struct parked {
	unsigned char *arena;
	size_t len;
};

static pthread_key_t park_key;
static pthread_once_t park_once = PTHREAD_ONCE_INIT;
static int park_ok;

static void park_drop(void *v)
{
	struct parked *k = v;

	munmap(k->arena, k->len);
	free(k);
}

static void park_init(void)
{
	park_ok = !pthread_key_create(&park_key, park_drop);
}

/* This thread's kept arena of @len bytes, else NULL (one of another length is unmapped). */
static unsigned char *park_take(size_t len)
{
	struct parked *k;
	unsigned char *a;

	pthread_once(&park_once, park_init);
	k = park_ok ? pthread_getspecific(park_key) : NULL;
	if (!k)
		return NULL;
	pthread_setspecific(park_key, NULL);
	a = k->len == len ? k->arena : NULL;
	if (!a)
		munmap(k->arena, k->len);
	free(k);
	return a;
}

/* Keep @arena for this thread's next reader. Return: 0, or -1 when it is not kept. */
static int park_put(unsigned char *arena, size_t len)
{
	struct parked *k;

	pthread_once(&park_once, park_init);
	if (!park_ok || pthread_getspecific(park_key))
		return -1;
	k = malloc(sizeof(*k));
	if (!k)
		return -1;
	*k = (struct parked){ arena, len };
	if (pthread_setspecific(park_key, k)) {
		free(k);
		return -1;
	}
	return 0;
}

void ts_reader_arena_release(void)
{
	struct parked *k;

	pthread_once(&park_once, park_init);
	k = park_ok ? pthread_getspecific(park_key) : NULL;
	if (k) {
		pthread_setspecific(park_key, NULL);
		park_drop(k);
	}
}

/*
 * @n bytes (a multiple of 64) of the arena, the lock held; NULL when it is used up or could
 * not be mapped. The arena is mapped at the first call: the round budget and a few windows,
 * aligned to and asked for in huge pages (MADV_HUGEPAGE), because on some machines (this
 * project's VM among them) a page fault costs 10-30 us: the 2,048 faults of an 8 MiB budget's
 * first touch cost more than the reading did on a 0.5 M-sample trace, and 4 huge pages cost
 * well under a millisecond. Where huge pages are not to be had it is faulted in 4 KiB pages,
 * as malloc()'s memory was. The pages are touched only as the chunks are.
 */
static void *arena_take(struct ts_chunks *home, size_t n)
{
	unsigned char *p, *a;
	size_t len, map;
	void *v;

	if (!home->arena_tried) {
		home->arena_tried = 1;
		len = home->keep + ARENA_WINDOWS * RUN_WINDOW + HUGE_PAGE - 1;
		len = len > ARENA_MAX ? ARENA_MAX : len & ~(size_t)(HUGE_PAGE - 1);
		a = home->keep_arena ? park_take(len) : NULL;
		if (a) {
			home->arena = a;
			home->arena_len = len;
			goto take;
		}
		map = len + HUGE_PAGE;
		v = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (v == MAP_FAILED)
			return NULL;
		p = v;
		a = (unsigned char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
		if (a > p)
			munmap(p, a - p);
		if (p + map > a + len)
			munmap(a + len, p + map - (a + len));
#ifdef MADV_HUGEPAGE
		madvise(a, len, MADV_HUGEPAGE); /* best effort */
#endif
		home->arena = a;
		home->arena_len = len;
	}
take:
	if (!home->arena || home->arena_len - home->arena_used < n + ARENA_WINDOWS * RUN_WINDOW)
		return NULL;
	p = home->arena + home->arena_used;
	home->arena_used += n;
	return p;
}

/*
 * A window from the arena's last ARENA_WINDOWS * RUN_WINDOW bytes, which the chunks leave to
 * them, the lock held; NULL when they are taken or the arena could not be mapped. The merge
 * pread()s into them for the whole run: in the arena's huge pages their first touch is no fault
 * of the merging thread's (as malloc()'s 4 KiB pages were, about 190 of them on the bench trace).
 */
static void *arena_window(struct ts_chunks *home)
{
	if (!home->arena_tried && !arena_take(home, 0))
		return NULL;
	if (!home->arena || home->arena_windows >= ARENA_WINDOWS ||
	    home->arena_len < ARENA_WINDOWS * RUN_WINDOW)
		return NULL;
	return home->arena + home->arena_len - ++home->arena_windows * RUN_WINDOW;
}

static int in_arena(const struct ts_chunks *home, const void *p)
{
	const unsigned char *b = p;

	return home->arena && b >= home->arena && b < home->arena + home->arena_len;
}

struct ts_chunk *ts_chunk_new(struct ts_chunks *home, size_t size, uint64_t base)
{
	struct ts_chunk *c, **p;
	int arena = 0;

	pthread_mutex_lock(&home->lock);
	for (p = &home->spare; *p && (*p)->alloc != size; p = &(*p)->next)
		;
	c = *p;
	if (c) {
		*p = c->next;
		if (!c->arena)
			home->spare_bytes -= size;
		arena = c->arena;
	} else {
		c = arena_take(home, (sizeof(*c) + size + 63) & ~(size_t)63);
		arena = !!c;
	}
	pthread_mutex_unlock(&home->lock);
	if (!c)
		c = malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->refs = 1;
	c->mapped = 0;
	c->arena = arena;
	c->data = (unsigned char *)(c + 1);
	c->alloc = size;
	c->base = base;
	c->home = home;
	__atomic_add_fetch(&home->held, size, __ATOMIC_RELAXED);
	return c;
}

/* A chunk of the arena that nobody points into any more: spare, for the next of its size. */
static void arena_put(struct ts_chunks *home, struct ts_chunk *c)
{
	pthread_mutex_lock(&home->lock);
	c->next = home->spare;
	home->spare = c;
	pthread_mutex_unlock(&home->lock);
}

/* Resize a chunk nobody else points into; NULL (the chunk kept) without memory. */
struct ts_chunk *ts_chunk_resize(struct ts_chunk *c, size_t size)
{
	struct ts_chunk *n;

	if (c->arena) { /* its bytes move to the heap, its room stays spare */
		n = malloc(sizeof(*c) + size);
		if (!n)
			return NULL;
		memcpy(n, c, sizeof(*c) + (c->alloc < size ? c->alloc : size));
		n->arena = 0;
		arena_put(c->home, c);
	} else {
		n = realloc(c, sizeof(*c) + size);
	}
	if (!n)
		return NULL;
	__atomic_add_fetch(&n->home->held, size - n->alloc, __ATOMIC_RELAXED);
	n->alloc = size;
	n->data = (unsigned char *)(n + 1);
	return n;
}

/*
 * A regular file's data section, mapped read-only as one chunk that every run points into
 * (r->map_input): no round is copied or read twice, whatever its size. In an uncompressed file
 * the scanner reads the section through its own small buffer instead (r->scan_read): walking
 * the mapping faulted every page in and out twice (scanner, then merge), and a page-fault walk
 * of the records costs about twice what read() into a buffer that stays in the cache does
 * (docs/scale.md); -z files are walked in the mapping, their records unpacked. The pages count
 * in the peak RSS once touched, so each run (and a walking scanner) lets go of the pages behind
 * it (MADV_DONTNEED: a private, unwritten file mapping loses nothing, a page touched again
 * comes back from the page cache), and the mapping itself is not counted against the round
 * budget. A file cut shorter than its header says is refused
 * at the open; one cut while it is read is checked at each step of the scanner
 * (ts_input_shrunk()), and a cut between a check and a touch raises SIGBUS, which the CLI
 * turns into one line and an exit (cli/tickscope.c). Without a mapping (none to be had, an
 * empty section, TS_MMAP=0, or opts.read_runs in an uncompressed file without TS_MMAP=1) the
 * file is read.
 * Return: 0, mapped or not.
 */
int ts_input_map(struct ts_reader *r)
{
	uint64_t off = r->hdr.data.offset, pg = off & ~(uint64_t)(r->page - 1);
	uint64_t len = r->s.data_end - pg;
	struct ts_chunk *c;
	const char *env = getenv("TS_MMAP");
	void *p;

	r->map_input = 0;
	if (r->opts.no_mmap || (env && !strcmp(env, "0")) || !r->hdr.data.size ||
	    len != (size_t)len)
		return 0;
	if (r->use_runs && r->opts.read_runs && !(env && !strcmp(env, "1")))
		return 0;
	c = malloc(sizeof(*c));
	if (!c)
		return 0;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, r->fd, (off_t)pg);
	if (p == MAP_FAILED) {
		free(c);
		return 0;
	}
	madvise(p, len, MADV_SEQUENTIAL);
	memset(c, 0, sizeof(*c));
	c->refs = 1;
	c->mapped = 1;
	c->data = p;
	c->alloc = len;
	c->base = pg;
	c->home = &r->chunks;
	r->drop_step = r->budget / 16 < 64 * 1024 ? 64 * 1024 : r->budget / 16;
	r->map_input = 1;
	if (r->use_runs) { /* the scanner reads, the runs point in: each page mapped once */
		r->s.map = c;
		r->s.checked = off;
		r->scan_read = 1;
		return 0;
	}
	r->s.in.chunk = c;
	r->s.in.buf = p;
	r->s.in.alloc = len;
	r->s.in.base = pg;
	r->s.in.start = off - pg;
	r->s.in.end = len;
	r->s.in.keep = 1;
	r->s.dropped = 0;
	return 0;
}

/* Let go of the whole pages of [@from, @to) (stream offsets) in the mapped chunk @c. */
void ts_input_drop(const struct ts_reader *r, const struct ts_chunk *c, uint64_t from, uint64_t to)
{
	uint64_t mask = ~(uint64_t)(r->page - 1);

	from &= mask;
	to &= mask;
	if (from < c->base)
		from = c->base;
	if (to > from)
		madvise(c->data + (from - c->base), to - from, MADV_DONTNEED);
}

/* Whether the mapped input still holds its data section: a negative code when it shrank. */
int ts_input_shrunk(const struct ts_reader *r, char *err, uint64_t off)
{
	struct stat st;

	if (fstat(r->fd, &st))
		return ts_fail_into(r, err, off, -errno, "fstat: %s", strerror(errno));
	if ((uint64_t)st.st_size >= r->s.data_end)
		return 0;
	return ts_fail_into(r, err, off, -TS_ETRUNC,
			    "the file shrank to %llu bytes while it was read (it had %llu)",
			    (unsigned long long)st.st_size, (unsigned long long)r->file_size);
}

void ts_chunk_get(struct ts_chunk *c)
{
	__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

/* Drop a reference: the last one frees the chunk (or keeps it spare), on either thread. */
void ts_chunk_put(struct ts_chunk *c)
{
	struct ts_chunks *home;

	if (!c || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (c->mapped) {
		munmap(c->data, c->alloc);
		free(c);
		return;
	}
	home = c->home;
	__atomic_sub_fetch(&home->held, c->alloc, __ATOMIC_RELAXED);
	if (c->arena) {
		arena_put(home, c);
		return;
	}
	pthread_mutex_lock(&home->lock);
	if (home->spare_bytes + c->alloc <= home->keep) {
		c->next = home->spare;
		home->spare = c;
		home->spare_bytes += c->alloc;
		c = NULL;
	}
	pthread_mutex_unlock(&home->lock);
	free(c);
}

void ts_chunks_free(struct ts_chunks *home)
{
	struct ts_chunk *c;

	void *w;

	while ((c = home->spare)) {
		home->spare = c->next;
		if (!c->arena)
			free(c);
	}
	home->spare_bytes = 0;
	while ((w = home->windows)) {
		memcpy(&home->windows, w, sizeof(void *));
		if (!in_arena(home, w))
			free(w);
	}
	if (home->arena && !(home->keep_arena && !park_put(home->arena, home->arena_len)))
		munmap(home->arena, home->arena_len);
	home->arena = NULL;
	home->arena_len = home->arena_used = home->arena_windows = 0;
	home->arena_tried = 0;
}

/* A run's pread() window (TS_WINDOW bytes): a spare one, else the arena's, else the heap's. */
unsigned char *ts_window_get(struct ts_chunks *home)
{
	void *w;

	pthread_mutex_lock(&home->lock);
	w = home->windows;
	if (w)
		memcpy(&home->windows, w, sizeof(void *));
	else
		w = arena_window(home);
	pthread_mutex_unlock(&home->lock);
	return w ? w : malloc(TS_WINDOW);
}

void ts_window_put(struct ts_chunks *home, unsigned char *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&home->lock);
	memcpy(w, &home->windows, sizeof(void *));
	home->windows = w;
	pthread_mutex_unlock(&home->lock);
}

/* ---- runs ------------------------------------------------------------------------------- */

/* Room in @rs for @n more runs. */
int ts_runs_reserve(struct ts_runs *rs, size_t n)
{
	size_t a = rs->alloc ? rs->alloc : 64;
	void *v;

	if (rs->nr + n <= rs->alloc)
		return 0;
	while (a < rs->nr + n)
		a *= 2;
	v = realloc(rs->v, a * sizeof(*rs->v));
	if (!v)
		return -ENOMEM;
	rs->v = v;
	v = realloc(rs->heap, a * sizeof(*rs->heap));
	if (!v)
		return -ENOMEM;
	rs->heap = v;
	rs->alloc = a;
	return 0;
}

/* A new run of @rs at @pos, in @c (whose reference it takes over) or else in @fd. */
struct ts_run *ts_run_new(struct ts_runs *rs, uint64_t pos, uint64_t end, struct ts_chunk *c,
			  int fd)
{
	struct ts_run *run;

	if (ts_runs_reserve(rs, 1))
		return NULL;
	run = &rs->v[rs->nr++];
	memset(run, 0, sizeof(*run));
	run->pos = run->start = run->dropped = pos;
	run->end = end;
	run->chunk = c;
	run->fd = fd;
	run->seq = rs->seq++;
	return run;
}

/*
 * A run is used up: its chunk reference goes, its window to @home's spares, and a spilled run's
 * bytes leave the disk.
 */
static void run_free(const struct ts_reader *r, struct ts_chunks *home, struct ts_run *run)
{
	if (run->chunk && run->chunk->mapped && r)
		ts_input_drop(r, run->chunk, run->dropped, run->end);
	if (run->tagged && !run->chunk && run->end > run->start)
		fallocate(run->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, run->start,
			  run->end - run->start); /* best effort: the file is deleted at the end */
	ts_chunk_put(run->chunk);
	ts_window_put(home, run->buf);
	memset(run, 0, sizeof(*run));
}

void ts_runs_free(struct ts_chunks *home, struct ts_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		run_free(NULL, home, &rs->v[i]);
	free(rs->v);
	free(rs->heap);
	memset(rs, 0, sizeof(*rs));
}

/* [pos, pos + need) of @run, from its chunk or through its file window, into *@p. */
static int run_load(struct ts_reader *r, struct ts_run *run, size_t need, const unsigned char **p)
{
	size_t len;
	ssize_t n;

	if (run->chunk) {
		if (run->pos < run->chunk->base ||
		    run->pos + need > run->chunk->base + run->chunk->alloc)
			return ts_reader_fail(r, run->pos, -TS_ECORRUPT,
					      "record of %zu bytes runs past its buffer", need);
		*p = run->chunk->data + (run->pos - run->chunk->base);
		return 0;
	}
	if (run->pos < run->buf_off || run->pos + need > run->buf_off + run->buf_len) {
		if (!run->buf) {
			run->buf = ts_window_get(&r->chunks);
			if (!run->buf)
				return -ENOMEM;
		}
		len = run->end - run->pos < RUN_WINDOW ? run->end - run->pos : RUN_WINDOW;
		if (len < need) /* a record past the run's end: read it, to name what is wrong */
			len = need;
		do
			n = pread(run->fd, run->buf, len, run->pos);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return ts_reader_fail(r, run->pos, -errno, "%s: %s",
					      run->tagged ? "reading the spill file" : "read",
					      strerror(errno));
		run->buf_off = run->pos;
		run->buf_len = n;
		if (!run->tagged)
			r->m.info.reread_bytes += n;
		if ((size_t)n < need)
			return ts_reader_fail(r, run->pos, -TS_ETRUNC,
					      "record cut short on re-read%s",
					      run->tagged ? " of the spill file" : "");
	}
	*p = run->buf + (run->pos - run->buf_off);
	return 0;
}

/* A tagged entry: its time and offset come with it. */
static int tagged_peek(struct ts_reader *r, struct ts_run *run)
{
	const unsigned char *p;
	uint16_t size;
	int ret;

	ret = run_load(r, run, TS_TAG_SIZE + 8, &p);
	if (ret)
		return ret;
	memcpy(&size, p + TS_TAG_SIZE + 6, 2);
	run->step = TS_TAG_SIZE + ((size + 7u) & ~7u);
	ret = run_load(r, run, run->step, &p);
	if (ret)
		return ret;
	run->time = ts_get_u64(p);
	run->off = ts_get_u64(p + 8);
	run->rec = p + TS_TAG_SIZE;
	return 1;
}

/* [pos, pos + need) of @run when it is at hand (in its chunk, or in its window), else NULL. */
static inline const unsigned char *run_at(const struct ts_run *run, size_t need)
{
	if (run->chunk)
		return run->pos + need <= run->chunk->base + run->chunk->alloc ?
			       run->chunk->data + (run->pos - run->chunk->base) :
			       NULL;
	if (run->pos >= run->buf_off && run->pos + need <= run->buf_off + run->buf_len)
		return run->buf + (run->pos - run->buf_off);
	return NULL;
}

/*
 * Load the next record of @run that belongs to the queue: a kernel record with a time. In the
 * input, others (perf's own records, and untimed ones delivered at once) are stepped over.
 * Return: 1 when loaded, 0 when the run is used up, or a negative code.
 */
static int run_peek_slow(struct ts_reader *r, struct ts_run *run)
{
	const unsigned char *rec;
	uint64_t time;
	uint16_t size;
	uint32_t type;
	int ret;

	while (run->pos < run->end) {
		if (run->tagged)
			return tagged_peek(r, run);
		rec = run_at(run, 8);
		if (!rec && (ret = run_load(r, run, 8, &rec)))
			return ret;
		memcpy(&size, rec + 6, 2);
		type = ts_get_u32(rec);
		if (size < 8)
			return ts_reader_fail(r, run->pos, -TS_ERECSIZE, "record of size %u", size);
		if (!run_at(run, size) && (ret = run_load(r, run, size, &rec)))
			return ret;
		/* the common case: a sample whose TIME sits where every attr puts it */
		if (type == PERF_RECORD_SAMPLE && r->sample_time_pos >= 0 &&
		    size >= 16u + r->sample_time_pos) {
			time = ts_get_u64(rec + 8 + r->sample_time_pos);
		} else if (type == TS_REC_AUXTRACE) { /* its payload follows, outside header.size */
			run->pos += size + ts_get_u64(rec + 8);
			continue;
		} else if (type >= 64) {
			run->pos += size;
			continue;
		} else if ((ret = ts_record_time(r, r->m.err, rec, size, run->pos, &time))) {
			if (ts_record_wanted(type))
				return ret;
			r->m.err[0] = 0;
			time = 0;
		}
		if (time == 0 || time == UINT64_MAX) {
			run->pos += size;
			continue;
		}
		run->time = time;
		run->off = run->pos;
		run->rec = rec;
		run->step = size;
		return 1;
	}
	return 0;
}

/*
 * run_peek_slow()'s common case, checked in the same order and taken only when it gives the
 * same answer: a sample at hand (in its run's chunk, or in a file run's pread() window: a
 * round past the budget is read again that way, most of the bench trace's records) whose TIME
 * sits where every attr puts it, with a time.
 */
static inline int run_peek(struct ts_reader *r, struct ts_run *run)
{
	const struct ts_chunk *c = run->chunk;
	const unsigned char *rec, *data;
	uint64_t time, base, lim;
	uint16_t size;

	if (!run->tagged && run->pos < run->end && r->sample_time_pos >= 0) {
		if (c) {
			data = c->data;
			base = c->base;
			lim = base + c->alloc;
		} else { /* run_at()'s window: empty (buf_len 0) until run_load() reads one */
			data = run->buf;
			base = run->buf_off;
			lim = base + run->buf_len;
		}
		if (run->pos >= base && run->pos + 8 <= lim) {
			rec = data + (run->pos - base);
			memcpy(&size, rec + 6, 2);
			if (ts_get_u32(rec) == PERF_RECORD_SAMPLE &&
			    size >= 16u + r->sample_time_pos && run->pos + size <= lim) {
				time = ts_get_u64(rec + 8 + r->sample_time_pos);
				if (time && time != UINT64_MAX) {
					run->time = time;
					run->off = run->pos;
					run->rec = rec;
					run->step = size;
					return 1;
				}
			}
		}
	}
	return run_peek_slow(r, run);
}

static int run_before(const struct ts_run *a, const struct ts_run *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void heap_down(struct ts_run **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct ts_run *t;

		if (l < n && run_before(h[l], h[m]))
			m = l;
		if (l + 1 < n && run_before(h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* The heap of @rs's runs that have a record (only those in memory, with @memory). */
static int heap_build(struct ts_reader *r, struct ts_runs *rs, int memory, size_t *n)
{
	size_t i;
	int ret;

	*n = 0;
	for (i = 0; i < rs->nr; i++) {
		if (memory && !rs->v[i].chunk)
			continue;
		ret = run_peek(r, &rs->v[i]);
		if (ret < 0)
			return ret;
		if (ret)
			rs->heap[(*n)++] = &rs->v[i];
	}
	for (i = *n / 2; i-- > 0;)
		heap_down(rs->heap, *n, i);
	return 0;
}

/* The heap's first run has delivered (or spilled) its record: on to its next one, if any. */
static inline int run_next(struct ts_reader *r, struct ts_run *run)
{
	run->pos += run->step;
	/* only a mapped input has pages to let go (ts_input_map()): one load when it is read */
	if (__builtin_expect(r->map_input, 0) && run->pos - run->dropped >= r->drop_step &&
	    run->chunk && run->chunk->mapped) {
		ts_input_drop(r, run->chunk, run->dropped, run->pos);
		run->dropped = run->pos;
	}
	return run_peek(r, run);
}

/* The heap's first run has delivered (or spilled) its record: on to its next. */
static inline int heap_next(struct ts_reader *r, struct ts_run **h, size_t *n)
{
	int ret = run_next(r, h[0]);

	if (ret < 0)
		return ret;
	if (!ret)
		h[0] = h[--*n];
	heap_down(h, *n, 0);
	return 0;
}

/* Drop the used-up runs (with @memory, and the memory runs, which were spilled). */
static void runs_compact(const struct ts_reader *r, struct ts_chunks *home, struct ts_runs *rs,
			 int memory)
{
	size_t i, kept = 0;

	for (i = 0; i < rs->nr; i++) {
		if (rs->v[i].pos >= rs->v[i].end || (memory && rs->v[i].chunk)) {
			run_free(r, home, &rs->v[i]);
			continue;
		}
		rs->v[kept++] = rs->v[i];
	}
	rs->nr = kept;
}

/**
 * ts_runs_flush() - deliver (on @r, this thread) every queued record of @rs up to @limit
 * @r: the reader that delivers
 * @rs: its closed runs
 * @limit: the round's flush time
 * @last_flush: out: the time of the last record delivered, as perf keeps it
 *
 * Return: 0 or a negative code.
 */
int ts_runs_flush(struct ts_reader *r, struct ts_runs *rs, uint64_t limit, uint64_t *last_flush)
{
	struct ts_run **h = rs->heap;
	size_t n;
	int ret;

	ret = heap_build(r, rs, 0, &n);
	if (ret)
		return ret;
	while (n && h[0]->time <= limit) {
		struct ts_run *run = h[0];
		uint64_t bt = UINT64_MAX, bseq = UINT64_MAX;

		/*
		 * The runner-up, the smaller of the first run's children: while the first run's
		 * next record still comes before it, heap_down() would not move the run, so it
		 * delivers on without a sift (a CPU's records come in stretches).
		 */
		if (n > 1) {
			const struct ts_run *b = n > 2 && run_before(h[2], h[1]) ? h[2] : h[1];

			bt = b->time;
			bseq = b->seq;
		}
		for (;;) {
			const unsigned char *rec = run->rec;
			uint16_t size;

			if ((uintptr_t)rec & 7) { /* after an unpadded COMPRESSED record */
				memcpy(&size, rec + 6, 2);
				rec = ts_aligned_into(&r->m.scratch, &r->m.scratch_alloc, rec,
						      size);
				if (!rec)
					return -ENOMEM;
			}
			ret = ts_deliver(r, rec, run->off);
			if (ret)
				return ret;
			*last_flush = run->time;
			ret = run_next(r, run);
			if (ret < 0)
				return ret;
			if (!ret) { /* used up */
				h[0] = h[--n];
				heap_down(h, n, 0);
				break;
			}
			if (run->time > bt || (run->time == bt && run->seq >= bseq)) {
				heap_down(h, n, 0);
				break;
			}
			if (run->time > limit) /* still the first: the flush ends here */
				break;
		}
	}
	runs_compact(r, &r->chunks, rs, 0);
	return 0;
}

/* ---- the spill file ------------------------------------------------------------------- */

/* An unnamed file in $TMPDIR (or /tmp): O_TMPFILE where the filesystem has it. */
static int spill_open(struct ts_scanner *sc, uint64_t off)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 &&
	    snprintf(path, sizeof(path), "%s/tickscope-spill.XXXXXX", dir) < (int)sizeof(path)) {
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return ts_scan_fail(sc, off, -errno,
				    "a round outgrew the memory budget, and no spill file can be "
				    "made in %s: %s",
				    dir, strerror(errno));
	sc->spill_fd = fd;
	return 0;
}

static int spill_write(struct ts_scanner *sc, const unsigned char *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(sc->spill_fd, p, len, sc->spill_end);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ts_scan_fail(sc, off, n < 0 ? -errno : -EIO,
					    "writing the spill file: %s",
					    n < 0 ? strerror(errno) : "no progress");
		p += n;
		len -= n;
		sc->spill_end += n;
		sc->cnt.spilled_bytes += n;
	}
	return 0;
}

/**
 * ts_runs_spill() - merge the scanner's memory runs into one run in the spill file
 * @sc: the scanner, delivering on its own thread (pipe and zstd input)
 * @off: the record being queued, for messages
 *
 * The merged run takes the number of the oldest run in it: every run in memory arrived after
 * every run spilled before, and before every run to come, so equal times keep file order.
 * Return: 0 or a negative code.
 */
int ts_runs_spill(struct ts_scanner *sc, uint64_t off)
{
	struct ts_reader *r = sc->deliver;
	struct ts_runs *rs = &sc->runs;
	struct ts_run **h = rs->heap, *run;
	unsigned char *wbuf = NULL;
	uint64_t start, seq = UINT64_MAX;
	size_t n, i, wlen = 0;
	int ret;

	rs->open = 0;
	for (i = 0; i < rs->nr; i++)
		if (rs->v[i].chunk && rs->v[i].seq < seq)
			seq = rs->v[i].seq;
	ret = heap_build(r, rs, 1, &n);
	if (ret || !n)
		goto out;
	if (sc->spill_fd < 0 && (ret = spill_open(sc, off)))
		goto out;
	wbuf = malloc(SPILL_WRITE);
	if (!wbuf) {
		ret = -ENOMEM;
		goto out;
	}
	start = sc->spill_end;
	while (n) {
		run = h[0];
		if (wlen + run->step > SPILL_WRITE) {
			ret = spill_write(sc, wbuf, wlen, off);
			if (ret)
				goto out;
			wlen = 0;
		}
		memcpy(wbuf + wlen, run->rec - TS_TAG_SIZE, run->step);
		wlen += run->step;
		ret = heap_next(r, h, &n);
		if (ret)
			goto out;
	}
	ret = spill_write(sc, wbuf, wlen, off);
	if (ret)
		goto out;
	runs_compact(r, sc->chunks, rs, 1);
	run = ts_run_new(rs, start, sc->spill_end, NULL, sc->spill_fd);
	if (!run) {
		ret = -ENOMEM;
		goto out;
	}
	run->tagged = 1;
	run->seq = seq;
out:
	free(wbuf);
	return ret;
}
