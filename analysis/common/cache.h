/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user's cache folders (parsed kallsyms tables, run summaries and chart data): where they
 * are, and keeping each within its cap. Files are "<64 hex digits><suffix>"; a writer's
 * temporary file is one of those names followed by ".XXXXXX" (mkstemp()).
 */
#ifndef TICKSCOPE_CACHE_H
#define TICKSCOPE_CACHE_H

#include <stddef.h>

/*
 * ts_cache_dir() - $@env when set ("" or "off": none), else $XDG_CACHE_HOME/tickscope/@sub (an
 * absolute $XDG_CACHE_HOME only, as the XDG rule says), else $HOME/.cache/tickscope/@sub.
 * Return: the folder (@buf, or the environment's string), or NULL for none.
 */
const char *ts_cache_dir(const char *env, const char *sub, char *buf, size_t len);

/*
 * ts_cache_path() - the file of @key in @dir, "@dir/SHA256(@key)@suffix", into @path.
 * Return: 0, or -1 when it does not fit @len.
 */
int ts_cache_path(const char *dir, const char *key, const char *suffix, char *path, size_t len);

/* ts_cache_cap() - $@env in MiB (0.5 say) as bytes, else @def_mb MiB */
long long ts_cache_cap(const char *env, double def_mb);

/*
 * ts_cache_prune() - keep @dir's files named "<64 hex><one of @suffixes>" (NULL-terminated)
 * within @cap bytes: the ones used longest ago (their mtime) go first, never @keep (a file
 * name, the one just written); temporary files older than an hour (a writer that died) go
 * too. A writer calls it under ts_cache_lock(), from placing its file on.
 */
void ts_cache_prune(const char *dir, const char *const *suffixes, long long cap, const char *keep);

/*
 * ts_cache_lock() - hold @dir's lock (flock() on the folder) until ts_cache_unlock(). A writer
 * takes it around placing its file (the rename) and pruning: without it, two writers (compare's
 * workers, or two processes) that each placed a file could each prune the other's, and a cap
 * of 0 kept no file at all. Return: the lock, or -1 for none (go on without: best effort).
 */
int ts_cache_lock(const char *dir);

/* ts_cache_unlock() - let go of a lock from ts_cache_lock() (-1: none) */
void ts_cache_unlock(int lock);

#endif
