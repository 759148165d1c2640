#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# README.md's Use section runs as written: every command in it, in order,
# in one shell, from the top of a copy of the tree (README.md,
# sample-data/ and the storan under test as ./storan, which is where
# `make` leaves it).  Exit 0 from each, or the documented 1 of compare
# (a regression) and check (a warning); `storan run` is left out (it measures this machine).  The
# nightly CI lines run too, with $SHA as CI would set it.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
top="$TMP/top"
mkdir "$top"
cp "$ROOT/README.md" "$top/"
cp -r "$ROOT/sample-data" "$top/"
cp "$STORAN" "$top/storan"

# The section's indented lines: comments after two spaces dropped, lines
# ending in && or \ joined with the next.
awk '
	/^## / { on = ($0 == "## Use"); next }
	!on || !/^    / { next }
	{
		l = substr($0, 5)
		if (l ~ /^#/) next
		sub(/  +#.*$/, "", l); sub(/ +$/, "", l)
		if (l == "") next
		cmd = cmd (cmd == "" ? "" : " ") l
		if (l ~ /(&&|\\)$/) { sub(/\\$/, "", cmd); next }
		print cmd; cmd = ""
	}' "$top/README.md" >"$TMP/cmds"
grep -v '^storan run\b' "$TMP/cmds" >"$TMP/use"
[ "$(grep -c '^storan ' "$TMP/use")" -ge 10 ] ||
	fail "too few storan commands in README's Use: $(cat "$TMP/cmds")"
grep -q '^storan run ' "$TMP/cmds" || fail "storan run is gone from the Use section"

# One script: `export PATH=...` carries over as it would in a terminal.
{
	echo 'cd "$1" || exit 3'
	echo 'unset SHA; SHA=readme-test'
	while IFS= read -r cmd; do
		printf '%s\n' "$cmd"
		case $cmd in
		# documented findings: a regression; a check warning (the
		# sample runs are noisy, sample-data/old-new/README.md)
		"storan compare "* | "storan check "*) ok='0|1' ;;
		*) ok='0' ;;
		esac
		q=$(printf '%s' "$cmd" | sed "s/'/'\\\\''/g")
		printf 'r=$?; case $r in %s) ;; *) echo '\''README: %s: exit '\''$r ;; esac\n' \
			"$ok" "$q"
	done <"$TMP/use"
	echo 'command -v storan'
} >"$TMP/use.sh"
env -i HOME="$TMP" PATH=/usr/local/bin:/usr/bin:/bin \
	bash "$TMP/use.sh" "$top" >"$TMP/out" 2>"$TMP/err"
grep '^README: ' "$TMP/out" >"$TMP/bad"
while IFS= read -r l; do fail "$l (stderr: $(tail -3 "$TMP/err"))"; done <"$TMP/bad"
[ "$(tail -1 "$TMP/out")" = "$top/storan" ] ||
	fail "storan on PATH is not the tree's: $(tail -1 "$TMP/out")"
finish
