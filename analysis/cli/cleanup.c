// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a stopped command leaves behind: a page written beside its name before it is renamed
 * over it, and the folder compare --html draws its charts in (under TMPDIR). Both are
 * registered here while they exist; Ctrl-C, SIGTERM or SIGHUP removes them, then the signal
 * ends the process as it would have. Only calls that are safe in a signal handler are made
 * there: the folder holds files only, read with getdents64 on a descriptor opened beforehand.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"

static char tmp_file[4200];
static char tmp_dir[4200];
static int tmp_dir_fd = -1;
static volatile sig_atomic_t armed;

/* The layout of a getdents64 record (linux_dirent64, getdents(2)). */
struct dent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void remove_dir_files(void)
{
	char buf[4096];
	long n;

	while ((n = syscall(SYS_getdents64, tmp_dir_fd, buf, sizeof(buf))) > 0)
		for (long at = 0; at < n;) {
			struct dent64 *d = (struct dent64 *)(buf + at);

			if (strcmp(d->name, ".") && strcmp(d->name, ".."))
				unlinkat(tmp_dir_fd, d->name, 0);
			at += d->reclen;
		}
}

static void on_stop(int sig)
{
	if (armed) {
		if (tmp_file[0])
			unlink(tmp_file);
		if (tmp_dir[0] && tmp_dir_fd >= 0) {
			lseek(tmp_dir_fd, 0, SEEK_SET);
			remove_dir_files();
			rmdir(tmp_dir);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void arm(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop };
	struct sigaction old;

	if (armed)
		return;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* a signal the caller ignores (nohup) stays ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	armed = 1;
}

static void set(char *dst, size_t len, const char *path)
{
	sigset_t all, old;

	/* not half written when a signal comes */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	snprintf(dst, len, "%s", path && strlen(path) < len ? path : "");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void cli_cleanup_file(const char *path)
{
	arm();
	set(tmp_file, sizeof(tmp_file), path);
}

void cli_cleanup_dir(const char *path)
{
	sigset_t all, old;

	arm();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (tmp_dir_fd >= 0)
		close(tmp_dir_fd);
	tmp_dir_fd = path ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	snprintf(tmp_dir, sizeof(tmp_dir), "%s",
		 path && tmp_dir_fd >= 0 && strlen(path) < sizeof(tmp_dir) ? path : "");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
