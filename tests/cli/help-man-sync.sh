#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every option a command's --help lists is in its man page's OPTIONS, with
# the same short letter, and the reverse; for every command in storan's
# command table (from `storan --help`) and for storan's global options
# (storan(1)).  Every man page carries the same header date and version.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OPTS="$ROOT/scripts/storan-options"

# ---- Commands whose drift the lead is fixing (issue 22).  EMPTY THIS
# ---- LIST as each is fixed; a command listed here is reported, not failed.
KNOWN_DRIFT=""

# --help: "--long" for each option, "-x --long" for each short letter
help_set() {	# help_set [COMMAND]
	"$OPTS" "$STORAN" "$@" | awk -F'\t' '{
		print $1
		if ($2 != "") print $2 " " $1
	}' | sort -u
}

# The man page: the tag line after each .TP or .TQ under .SH OPTIONS.
man_set() {	# man_set PAGE
	awk '
		/^\.SH/ { on = ($0 ~ /^\.SH "?OPTIONS"?/); next }
		!on { next }
		/^\.(TP|TQ)/ { tag = 1; next }
		tag {
			tag = 0
			l = $0
			gsub(/\\-/, "-", l); gsub(/\\f[BIRP]/, "", l)
			gsub(/"/, " ", l); sub(/^\.[A-Z]+ /, "", l)
			nlong = 0; short = ""
			rest = l
			while (match(rest, /--[A-Za-z0-9][A-Za-z0-9_-]*/)) {
				longs[++nlong] = substr(rest, RSTART, RLENGTH)
				rest = substr(rest, RSTART + RLENGTH)
			}
			if (match(" " l, /[ ,(]-[A-Za-z]([ ,]|$)/))
				short = substr(" " l, RSTART + 1, 2)
			for (k = 1; k <= nlong; k++)
				print longs[k]
			if (nlong == 1 && short != "")
				print short " " longs[1]
		}' "$1" | sort -u
}

compare_sets() {	# compare_sets WHAT HELP-FILE MAN-FILE: the drift
	comm -23 "$2" "$3" | sed "s/^/$1: in --help, not in the man page: /"
	comm -13 "$2" "$3" | sed "s/^/$1: in the man page, not in --help: /"
}

"$OPTS" "$STORAN" --commands | cut -f1 >"$TMP/commands"
[ -s "$TMP/commands" ] || fail "no command table in storan --help"
while read -r cmd; do
	page="$ROOT/docs/storan-$cmd.1"
	[ -f "$page" ] || { fail "$cmd: no man page docs/storan-$cmd.1"; continue; }
	help_set "$cmd" >"$TMP/h"
	[ -s "$TMP/h" ] || fail "$cmd: no options found in --help"
	man_set "$page" >"$TMP/m"
	[ -s "$TMP/m" ] || fail "$cmd: no options found in $page"
	compare_sets "$cmd" "$TMP/h" "$TMP/m" >"$TMP/drift"
	[ -s "$TMP/drift" ] || continue
	case " $KNOWN_DRIFT " in
	*" $cmd "*) sed 's/^/known drift (the lead fixes it): /' "$TMP/drift" ;;
	*) while read -r l; do fail "$l"; done <"$TMP/drift" ;;
	esac
done <"$TMP/commands"

help_set >"$TMP/h"
man_set "$ROOT/docs/storan.1" >"$TMP/m"
compare_sets storan "$TMP/h" "$TMP/m" >"$TMP/drift"
while read -r l; do fail "$l"; done <"$TMP/drift"

# One header for all: .TH NAME 1 "DATE" "storan VERSION" "User Commands"
for page in "$ROOT"/docs/*.1; do
	sed -n '/^\.TH /{s/^\.TH [^ ]* [0-9] //p;q}' "$page"
done | sort | uniq -c >"$TMP/headers"
[ "$(wc -l <"$TMP/headers")" -eq 1 ] ||
	fail "man page headers differ:$(echo; cat "$TMP/headers")"
grep -q '"[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]" "storan [0-9][^"]*" "User Commands"' \
	"$TMP/headers" || fail "header not DATE, storan VERSION: $(cat "$TMP/headers")"
finish
