#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The hi1215 recipe's ssh transport against a real ssh server: Debian's openssh-server, started
# here on 127.0.0.1 with its own config, port and throw-away keys (never the system service),
# serves as the board. `make record` copies the recorder over ssh, records on the "board" and
# streams the run folder back; it must come back complete, and a refused key must fail loudly.
. "$(dirname "$0")/lib/tap.sh"
[ "$(id -u)" = 0 ] || skip_all "recording needs root (and sshd's root login)"
command -v perf >/dev/null || skip_all "no perf"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip_all "sshd not installed (Debian package openssh-server, tests/packages)"
command -v ssh >/dev/null || skip_all "ssh not installed (Debian package openssh-client)"
command -v ssh-keygen >/dev/null || skip_all "ssh-keygen not installed (openssh-client)"
[ -r /sys/kernel/tracing/available_events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -r /sys/kernel/tracing/available_events ] || skip_all "no tracefs"
# the x86-host profile pins to CPUs 0 and 1 (PIN_SAME, PIN_CROSS): both must be ours to run on
[ "$(tap_cpus_allowed | grep -cx '[01]')" = 2 ] ||
	skip_all "the x86-host profile pins runs to CPUs 0 and 1; this test may run on" \
		"$(tap_cpus_allowed | tr '\n' ' ')"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-ssh.XXXXXX")
sshd_pid=""
stop_sshd() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
	sshd_pid=""
}
trap 'stop_sshd; rm -rf "$tmp"' EXIT
chmod 700 "$tmp"
cd "$TS_TOP" || exit 1

# Throw-away keys: the server's host key and the client's key, authorized for root.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" -C tickscope-test-host &&
	ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" -C tickscope-test-client &&
	ssh-keygen -q -t ed25519 -N '' -f "$tmp/other" -C tickscope-test-unknown &&
	cp "$tmp/id.pub" "$tmp/authorized_keys"
ok $? "throw-away host and client keys"
# sshd's privilege separation directory; the Debian service creates it, we may not have run it
[ -d /run/sshd ] || mkdir -p /run/sshd

# start_sshd PORT: 0 once it listens, 1 once it has exited (or at the hang guard)
start_sshd() {
	cat >"$tmp/sshd_config" <<EOF
Port $1
ListenAddress 127.0.0.1
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
LogLevel VERBOSE
EOF
	"$SSHD" -t -f "$tmp/sshd_config" 2>"$tmp/sshd.log" || return 1
	"$SSHD" -D -e -f "$tmp/sshd_config" 2>>"$tmp/sshd.log" &
	sshd_pid=$!
	# until it listens or has exited (a port in use ends it), whatever the machine's load: no
	# time limit (it was 5 s, a timeout a loaded machine could pass), the hang guard only
	_i=0
	while [ $_i -lt $((TS_HANG_GUARD * 10)) ]; do
		grep -q "Server listening on 127.0.0.1 port $1" "$tmp/sshd.log" && return 0
		kill -0 "$sshd_pid" 2>/dev/null || { sshd_pid=""; return 1; }
		sleep 0.1
		_i=$((_i + 1))
	done
	stop_sshd
	return 1
}

port=""
for p in $((20000 + $$ % 20000)) $((40000 + $$ % 20000)) 2222 22022; do
	if start_sshd "$p"; then
		port=$p
		break
	fi
done
[ -n "$port" ]
ok $? "sshd runs on 127.0.0.1:${port:-none} with its own config"
[ -n "$port" ] || { sed 's/^/#   /' "$tmp/sshd.log"; tap_done; exit 1; }
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$tmp/host_key.pub")" >"$tmp/known_hosts"

opts="-p $port -i $tmp/id -o IdentitiesOnly=yes -o BatchMode=yes -o ConnectTimeout=15"
opts="$opts -o UserKnownHostsFile=$tmp/known_hosts -o StrictHostKeyChecking=yes"
# shellcheck disable=SC2086 # the options are a word list
got=$(ssh $opts root@127.0.0.1 'echo "$(id -u) $SSH_CONNECTION"' 2>"$tmp/ssh.err")
case "$got" in "0 127.0.0.1 "*" $port") rc=0 ;; *) rc=1 ;; esac
ok $rc "ssh root@127.0.0.1 runs a command on the server (got '$got')"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/ssh.err" "$tmp/sshd.log"

# The hi1215 profile with this server as the board: same transport, tar and options; an x86
# board, since the server is this machine.
mk() {
	make --no-print-directory -s BUILD="$TS_BUILD" "$@"
}
board() { # NAME KEY
	sed -e "s/^NAME=.*/NAME=$1/" -e "s|^SSH_OPTS=.*|SSH_OPTS=\"$(echo "$opts" | sed "s|$tmp/id |$2 |")\"|" \
		-e "s|^REMOTE_DIR=.*|REMOTE_DIR=$tmp/remote|" -e 's/^ARCH=.*/ARCH=x86_64/' \
		-e 's/^CROSS_COMPILE=.*/CROSS_COMPILE=/' -e 's/^PIN_CROSS=.*/PIN_CROSS=0,1/' \
		-e 's/^PERF_MMAP=.*/PERF_MMAP=8M/' boards/hi1215.board >"$tmp/$1.board"
}
board sshboard "$tmp/id"
mk record BOARD="$tmp/sshboard.board" WORKLOAD=pingpong-cross VARIANT=t RUNS=1 ITERS=500 \
	RESULTS="$tmp/r" SSH_TARGET=root@127.0.0.1 >"$tmp/log" 2>&1
rc=$?
ok $rc "make record over a real ssh connection"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"
d=$tmp/r/sshboard/t/pingpong-cross/run-1
[ -s "$d/perf.data" ] && [ -s "$d/kallsyms" ] && [ -s "$d/kconfig" ] &&
	tail -n1 "$d/meta.txt" | grep -qx status=complete &&
	grep -q '^ssh_target=root@127.0.0.1$' "$d/meta.txt" && grep -q '^transport=ssh$' "$d/meta.txt"
ok $? "the run folder came back complete: perf.data, kallsyms, kconfig, meta.txt"
cmp -s "$d/kallsyms" /proc/kallsyms || [ "$(wc -l <"$d/kallsyms")" -gt 1000 ]
ok $? "the board's kallsyms came back ($(wc -l <"$d/kallsyms" 2>/dev/null || echo 0) lines)"
"$TICKSCOPE" report -i "$d/perf.data" --kallsyms "$d/kallsyms" --json >"$tmp/r.json" 2>"$tmp/err"
ok $? "tickscope reads the recording that came over ssh"
grep -q "Accepted publickey for root from 127.0.0.1" "$tmp/sshd.log"
ok $? "sshd logged the key login (the transport really used it)"

# A key the board does not know: make record must fail and say where.
board badkey "$tmp/other"
mk record BOARD="$tmp/badkey.board" WORKLOAD=pingpong-cross VARIANT=t RUNS=1 ITERS=500 \
	RESULTS="$tmp/r2" SSH_TARGET=root@127.0.0.1 >"$tmp/log2" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'cannot copy to root@127.0.0.1' "$tmp/log2"
ok $? "a refused key fails make record, naming the target (exit $rc)"
stop_sshd
tap_done
