// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong: an AF_UNIX stream round-trip benchmark between two processes, the same measurement
 * as lmbench's lat_unix, with pinning modes and an optional injected on-CPU delay per message.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TS_PP_MAX_MSG 65536

enum pin_mode { PIN_NONE, PIN_SAME, PIN_CROSS };

struct opts {
	long iterations;
	long warmup;
	long msg_size;
	long delay_us;
	enum pin_mode pin;
	int pin_given;
	int cpu_a;
	int cpu_b;
	int ncpus_given;
	const char *why; /* set by parse/check on error */
};

static const char usage_text[] =
	"Usage: pingpong [OPTION]...\n"
	"AF_UNIX stream ping-pong between two processes (the lat_unix measurement).\n"
	"Prints: AF_UNIX sock stream latency: N microseconds  (N = round trip / iteration)\n"
	"\n"
	"  --iterations N   timed round trips (default 10000)\n"
	"  --warmup N       untimed round trips before timing (default 1000)\n"
	"  --size BYTES     message size (default 1)\n"
	"  --pin MODE       none: tasks free to move (default)\n"
	"                   same: both tasks on one CPU (A)\n"
	"                   cross: the pinger on A, the echo task on B\n"
	"  --cpus A[,B]     CPUs for --pin same/cross (default: the first allowed CPUs);\n"
	"                   without --pin, one CPU or A==B means same, two CPUs mean cross\n"
	"  --delay-us N     injected delay: the echo task burns N us on CPU per message\n"
	"                   (busy loop on CLOCK_MONOTONIC); default 0\n"
	"  --help           this text\n"
	"\n"
	"Task names: the pinger is 'pingpong', the echo task 'pingpong-echo'.\n"
	"The settings are printed on stderr as one '# pingpong:' line.\n";

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_cpus(const char *s, struct opts *o)
{
	long a, b;
	char buf[64];
	char *comma;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (comma)
		*comma = '\0';
	if (parse_long(buf, 0, CPU_SETSIZE - 1, &a))
		return -EINVAL;
	b = a;
	if (comma && parse_long(comma + 1, 0, CPU_SETSIZE - 1, &b))
		return -EINVAL;
	o->cpu_a = (int)a;
	o->cpu_b = (int)b;
	o->ncpus_given = comma ? 2 : 1;
	return 0;
}

enum { OPT_ITER = 256, OPT_WARMUP, OPT_SIZE, OPT_PIN, OPT_CPUS, OPT_DELAY, OPT_HELP };

static const struct option long_opts[] = {
	{ "iterations", required_argument, NULL, OPT_ITER },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "delay-us", required_argument, NULL, OPT_DELAY },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Returns 1 for --help, 0 to run, or -EINVAL with o->why set. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_ITER:
			if (parse_long(optarg, 1, LONG_MAX / 2, &o->iterations))
				goto bad_value;
			break;
		case OPT_WARMUP:
			if (parse_long(optarg, 0, LONG_MAX / 2, &o->warmup))
				goto bad_value;
			break;
		case OPT_SIZE:
			if (parse_long(optarg, 1, TS_PP_MAX_MSG, &o->msg_size))
				goto bad_value;
			break;
		case OPT_PIN:
			if (!strcmp(optarg, "none"))
				o->pin = PIN_NONE;
			else if (!strcmp(optarg, "same"))
				o->pin = PIN_SAME;
			else if (!strcmp(optarg, "cross"))
				o->pin = PIN_CROSS;
			else
				goto bad_value;
			o->pin_given = 1;
			break;
		case OPT_CPUS:
			if (parse_cpus(optarg, o))
				goto bad_value;
			break;
		case OPT_DELAY:
			if (parse_long(optarg, 0, 10 * 1000 * 1000, &o->delay_us))
				goto bad_value;
			break;
		case OPT_HELP:
			return 1;
		default:
			o->why = "unknown option";
			return -EINVAL;
		}
	}
	if (optind < argc) {
		o->why = "unexpected argument";
		return -EINVAL;
	}
	return 0;

bad_value:
	o->why = "bad option value";
	return -EINVAL;
}

/* The nth CPU (from 0) of our allowed set, or -1. */
static int nth_allowed_cpu(const cpu_set_t *set, int n)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, set) && n-- == 0)
			return cpu;
	}
	return -1;
}

/* Cross-option checks, all in one place: settle the pin mode and the CPUs. */
static int check_opts(struct opts *o)
{
	cpu_set_t set;

	if (!o->pin_given && o->ncpus_given)
		o->pin = (o->ncpus_given == 1 || o->cpu_a == o->cpu_b) ? PIN_SAME : PIN_CROSS;
	if (o->pin == PIN_NONE) {
		if (o->ncpus_given) {
			o->why = "--cpus needs --pin same or cross";
			return -EINVAL;
		}
		return 0;
	}
	if (o->pin == PIN_CROSS && o->ncpus_given == 2 && o->cpu_a == o->cpu_b) {
		o->why = "--pin cross needs two different CPUs";
		return -EINVAL;
	}
	if (sched_getaffinity(0, sizeof(set), &set)) {
		o->why = "sched_getaffinity failed";
		return -errno;
	}
	if (!o->ncpus_given) {
		o->cpu_a = nth_allowed_cpu(&set, 0);
		o->cpu_b = o->pin == PIN_CROSS ? nth_allowed_cpu(&set, 1) : o->cpu_a;
	} else if (o->pin == PIN_SAME) {
		o->cpu_b = o->cpu_a;
	} else if (o->ncpus_given == 1) {
		o->why = "--pin cross needs two CPUs in --cpus";
		return -EINVAL;
	}
	if (o->cpu_a < 0 || o->cpu_b < 0) {
		o->why = "--pin cross needs at least two allowed CPUs";
		return -EINVAL;
	}
	if (!CPU_ISSET(o->cpu_a, &set) || !CPU_ISSET(o->cpu_b, &set)) {
		o->why = "a requested CPU is not in our allowed set";
		return -EINVAL;
	}
	return 0;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spin on the CPU, without sleeping, for ns nanoseconds: the injected delay. */
static void burn_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/* Read exactly len bytes. Returns len, 0 on EOF at a message boundary, or -errno. */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return got ? -EPIPE : 0;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int write_full(int fd, const char *buf, size_t len)
{
	size_t put = 0;

	while (put < len) {
		ssize_t n = write(fd, buf + put, len - put);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		put += (size_t)n;
	}
	return 0;
}

/* The echo side: answer each message until the pinger closes its end. */
static int echo_loop(int fd, const struct opts *o, char *buf)
{
	uint64_t delay_ns = (uint64_t)o->delay_us * 1000;

	for (;;) {
		ssize_t n = read_full(fd, buf, (size_t)o->msg_size);
		int err;

		if (n <= 0)
			return (int)n;
		if (delay_ns)
			burn_ns(delay_ns);
		err = write_full(fd, buf, (size_t)o->msg_size);
		if (err)
			return err;
	}
}

static int round_trips(int fd, long count, const struct opts *o, char *buf)
{
	while (count-- > 0) {
		int err = write_full(fd, buf, (size_t)o->msg_size);
		ssize_t n;

		if (err)
			return err;
		n = read_full(fd, buf, (size_t)o->msg_size);
		if (n == 0)
			return -EPIPE;
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static int run_echo_child(int fd, const struct opts *o, char *buf)
{
	prctl(PR_SET_NAME, "pingpong-echo", 0, 0, 0);
	if (o->pin != PIN_NONE) {
		int err = pin_to(o->cpu_b);
		if (err)
			return err;
	}
	return echo_loop(fd, o, buf);
}

/* The pinger: warm up, time the loop, and return the mean round trip in ns through *rtt_ns. */
static int run_pinger(int fd, const struct opts *o, char *buf, double *rtt_ns)
{
	uint64_t t0, t1;
	int err;

	err = round_trips(fd, o->warmup, o, buf);
	if (err)
		return err;
	t0 = now_ns();
	err = round_trips(fd, o->iterations, o, buf);
	t1 = now_ns();
	if (err)
		return err;
	*rtt_ns = (double)(t1 - t0) / (double)o->iterations;
	return 0;
}

static const char *pin_name(enum pin_mode p)
{
	return p == PIN_SAME ? "same" : p == PIN_CROSS ? "cross" : "none";
}

int main(int argc, char **argv)
{
	struct opts o = { .iterations = 10000, .warmup = 1000, .msg_size = 1, .pin = PIN_NONE };
	static char buf[TS_PP_MAX_MSG];
	int sv[2], status, err;
	double rtt_ns = 0;
	pid_t child;

	err = parse_args(argc, argv, &o);
	if (err == 1) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!err)
		err = check_opts(&o);
	if (err) {
		fprintf(stderr, "pingpong: %s (try --help)\n", o.why);
		return 2;
	}
	fprintf(stderr,
		"# pingpong: pin=%s cpus=%d,%d iterations=%ld warmup=%ld size=%ld delay_us=%ld\n",
		pin_name(o.pin), o.pin ? o.cpu_a : -1, o.pin ? o.cpu_b : -1, o.iterations, o.warmup,
		o.msg_size, o.delay_us);

	if (o.pin != PIN_NONE && (err = pin_to(o.cpu_a))) {
		fprintf(stderr, "pingpong: cannot pin to CPU %d: %s\n", o.cpu_a, strerror(-err));
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		perror("pingpong: socketpair");
		return 1;
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0) {
		close(sv[0]);
		err = run_echo_child(sv[1], &o, buf);
		if (err)
			fprintf(stderr, "pingpong-echo: %s\n", strerror(-err));
		_exit(err ? 1 : 0);
	}
	close(sv[1]);
	err = run_pinger(sv[0], &o, buf, &rtt_ns);
	close(sv[0]);
	if (err)
		kill(child, SIGTERM);
	if (waitpid(child, &status, 0) < 0) {
		perror("pingpong: waitpid");
		return 1;
	}
	if (err) {
		fprintf(stderr, "pingpong: %s\n", strerror(-err));
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "pingpong: the echo task failed\n");
		return 1;
	}
	printf("AF_UNIX sock stream latency: %.4f microseconds\n", rtt_ns / 1000.0);
	return 0;
}
