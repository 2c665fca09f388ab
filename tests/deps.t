#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# scripts/deps.sh against stub apt-get, dpkg-query and id (nothing is installed): `make demo`
# asks only for scripts/packages, and a dpkg lock held by another package manager is waited
# for with apt's own timeout, then named in one clear line.
. "$(dirname "$0")/lib/tap.sh"

tap_tmpdir
T=$TAP_TMP
mkdir -p "$T/bin"
# every package missing, root, and an apt-get that records its arguments
cat >"$T/bin/dpkg-query" <<'STUB'
#!/bin/sh
exit 1
STUB
cat >"$T/bin/id" <<'STUB'
#!/bin/sh
echo 0
STUB
cat >"$T/bin/apt-get" <<'STUB'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
case " $* " in
*" install "*)
	if [ -n "${STUB_LOCKED:-}" ]; then
		echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
		exit 100
	fi
	;;
esac
exit 0
STUB
chmod +x "$T/bin/"*
export STUB_LOG="$T/apt.log"
want=$(sed 's/#.*//' "$TS_TOP/scripts/packages" | tr -s ' \t' '\n' | sed '/^$/d' | sort -u |
	tr '\n' ' ')

PATH="$T/bin:$PATH" sh "$TS_TOP/scripts/deps.sh" demo >"$T/out" 2>"$T/err"
rc=$?
got=$(grep ' install ' "$T/apt.log" | sed 's/.*--no-install-recommends //' | tr ' ' '\n' |
	sed '/^$/d' | sort -u | tr '\n' ' ')
is "$rc $got" "0 $want" "deps.sh demo (make demo) installs only scripts/packages"

: >"$T/apt.log"
PATH="$T/bin:$PATH" sh "$TS_TOP/scripts/deps.sh" >/dev/null 2>&1
n=$(grep ' install ' "$T/apt.log" | wc -w)
[ "$n" -gt $(($(echo "$want" | wc -w) + 6)) ]
ok $? "deps.sh (make check) installs the other lists too"

: >"$T/apt.log"
STUB_LOCKED=1 TS_DPKG_LOCK_WAIT=7 PATH="$T/bin:$PATH" sh "$TS_TOP/scripts/deps.sh" demo \
	>/dev/null 2>"$T/err"
rc=$?
grep -q -- '-o DPkg::Lock::Timeout=7 install' "$T/apt.log" &&
	grep -q -- '-o DPkg::Lock::Timeout=7 update' "$T/apt.log"
ok $? "apt-get waits for the dpkg lock with DPkg::Lock::Timeout"
is "$rc $(grep -c '^deps: another package manager held the dpkg lock for 7 s' "$T/err")" "1 1" \
	"a dpkg lock held too long: exit 1 and one line saying so"

tap_done
