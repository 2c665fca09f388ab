# SPDX-License-Identifier: GPL-2.0-only
# The oracle for "is a kernel thread", from perf itself; source it.
#
# perf_kthreads FILE: the kernel threads of the perf.data FILE by class, "CLASS COUNT" lines,
# sorted, from `perf script --show-task-events`: kthreadd (pid 2) and the threads whose FORK
# record names it as the parent (PERF_RECORD_FORK(pid:tid):(ppid:ptid); perf synthesizes one
# for every thread that existed, with the parent from /proc), each counted once under the
# class of its first COMM name (up to a '/', without trailing digits, other characters than
# letters, digits and "_+.:@-" as '_'); a thread without a FORK record counts when that name
# has a '/'.
perf_kthreads() {
	"${PERF:-perf}" script -i "$1" --show-task-events 2>/dev/null | awk '
	/PERF_RECORD_FORK\(/ {
		s = $0; sub(/.*PERF_RECORD_FORK\(/, "", s)
		split(s, a, /[():]/) # a[1] pid, a[2] tid, a[5] ppid
		k[a[2]] = a[1] == 2 || a[5] == 2
	}
	/PERF_RECORD_COMM/ {
		s = $0; sub(/.*PERF_RECORD_COMM[^:]*: /, "", s)
		n = s; sub(/:[0-9-]+\/[0-9-]+$/, "", n)
		t = s; sub(/.*\//, "", t)
		if (t in seen) next
		seen[t] = 1
		if (t in k ? !k[t] : !index(n, "/")) next
		c = n; sub(/\/.*/, "", c); sub(/[0-9]+$/, "", c)
		gsub(/[^A-Za-z0-9_+.:@-]/, "_", c)
		cnt[c]++
	}
	END { for (c in cnt) printf "%s %d\n", c, cnt[c] }' | sort
}
