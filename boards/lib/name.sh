# SPDX-License-Identifier: GPL-2.0-only
# name_check WHAT VALUE: a name from the command line that becomes a folder (NAME=, a variant):
# one path component of 1-64 characters from A-Z a-z 0-9 . _ -, not starting with . or -.
# Dies with one line naming WHAT and VALUE otherwise; source it after common.sh.
name_check() {
	case "$2" in
	'' | .* | -* | *[!A-Za-z0-9._-]*)
		die "$1 '$2' is not a name: one folder name of A-Z a-z 0-9 . _ -, not starting" \
			"with . or -" ;;
	esac
	[ "${#2}" -le 64 ] || die "$1 '$2' is longer than 64 characters"
}
