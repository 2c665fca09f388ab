# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the LAVA scripts (host side, POSIX sh): the KEY=value file reader, the
# variant parser, YAML quoting. Source it after boards/lib/common.sh.

# kv_load FILE PREFIX: every KEY=value line of FILE becomes ${PREFIX}KEY (values literal, an
# outer pair of double quotes dropped). Says FILE:LINE and returns 1 on a malformed line.
kv_load() {
	[ -r "$1" ] || { msg "cannot read $1"; return 1; }
	_ln=0
	while IFS= read -r _line || [ -n "$_line" ]; do
		_ln=$((_ln + 1))
		case "$_line" in '' | '#'*) continue ;; esac
		_key=${_line%%=*}
		_val=${_line#*=}
		if [ "$_key" = "$_line" ] || ! expr "$_key" : '[A-Za-z][A-Za-z0-9_.]*$' >/dev/null; then
			msg "$1:$_ln: expected KEY=value, got: $_line"
			return 1
		fi
		case "$_val" in
		\"*\") _val=${_val#\"}; _val=${_val%\"} ;;
		\"* | *\") msg "$1:$_ln: unbalanced quote"; return 1 ;;
		esac
		_key=$(printf '%s' "$_key" | tr '.' '_')
		_q=$(printf '%s' "$_val" | sed "s/'/'\\\\''/g")
		eval "$2$_key='$_q'"
	done <"$1"
}

# kv_get FILE KEY: the value of KEY in a KEY=value file (last one wins), or nothing.
kv_get() {
	sed -n "s/^$2=//p" "$1" 2>/dev/null | tail -n1 | sed 's/^"\(.*\)"$/\1/'
}

# variant_parse SPEC WHERE: sets v_name, v_kernel (generic or rt), v_args, v_desc. The same specs as
# make experiment: default, rt, boot:ARGS, rt+boot:ARGS, or boards/variants/NAME.variant; and
# built:NAME, a kernel built here (make kernel, make bisect's steps) whose flavour in the
# kernels file is NAME.
variant_parse() {
	v_kernel=generic v_args="" v_desc=""
	case "$1" in
	built:*)
		v_name=${1#built:} v_kernel=${1#built:} v_desc="the kernel built as ${1#built:}"
		name_ok "$v_name" || {
			_vn=$(printf '%s' "$1" | tr -c '[:print:]' '?')
			msg "error: $2: '$_vn': NAME is not a name: $TS_NAME_RULE"
			return 1
		}
		return 0
		;;
	default | generic) v_name=default v_desc="the generic kernel" ;;
	rt) v_name=rt v_kernel=rt v_desc="the -rt kernel" ;;
	boot:* | rt+boot:*)
		case "$1" in rt+*) v_kernel=rt ;; esac
		v_args=${1#*boot:}
		[ -n "$v_args" ] || { msg "error: $2: variant '$1' has no boot parameters"; return 1; }
		v_name=$(printf '%s' "$1" | sed 's/^boot://; s/+boot:/-/; s/[^A-Za-z0-9._-]/-/g')
		v_desc="the $v_kernel kernel booted with $v_args"
		;;
	*)
		_vf=$TS_TOP/boards/variants/$1.variant
		if [ ! -f "$_vf" ]; then
			msg "error: $2: unknown variant '$1' (default, rt, boot:ARGS, rt+boot:ARGS, or:" \
				"$(ls "$TS_TOP/boards/variants" | sed -n 's/\.variant$//p' | tr '\n' ' '))"
			return 1
		fi
		v_name=$1
		v_kernel=$(kv_get "$_vf" KERNEL) v_args=$(kv_get "$_vf" BOOT_ARGS)
		v_desc=$(kv_get "$_vf" DESCRIPTION)
		: "${v_kernel:=generic}"
		;;
	esac
	case "$v_kernel" in
	generic | rt) ;;
	*) msg "error: $2: variant '$1': KERNEL must be generic or rt"; return 1 ;;
	esac
}

# yq STRING: STRING as a single-quoted YAML scalar.
yq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"
}
