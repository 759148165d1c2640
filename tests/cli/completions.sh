#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The bash, zsh and fish completions that scripts/gen-completions makes
# from storan's --help: each shell, for real, completes commands, every
# option of every command, and the values the usage spells out.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
"$ROOT/scripts/gen-completions" "$STORAN" "$TMP/c" || fail "gen-completions"
"$ROOT/scripts/storan-options" "$STORAN" --commands | cut -f1 >"$TMP/cmds"
for cmd in $(cat "$TMP/cmds"); do
	"$ROOT/scripts/storan-options" "$STORAN" "$cmd" | cut -f1 |
		sed "s/^/$cmd /"
done >"$TMP/opts"
[ "$(wc -l <"$TMP/opts")" -gt 50 ] || fail "too few options read"

# bash: COMP_WORDS as bash splits them (--opt=value is three words)
bash -n "$TMP/c/storan.bash" || fail "storan.bash: syntax"
cat >"$TMP/b.sh" <<EOS
source "$TMP/c/storan.bash"
c() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\$# - 1)); COMPREPLY=(); _storan
	echo "\${COMPREPLY[*]}"; }
EOS
bc() { bash -c "source $TMP/b.sh; c $*"; }
[ "$(bc storan ru)" = run ] || fail "bash: storan ru -> $(bc storan ru)"
[ "$(bc storan run --ramp)" = "--ramp_time --ramp" ] ||
	fail "bash: --ramp -> $(bc storan run --ramp)"
[ "$(bc storan run --ioengine "''")" = "io_uring libaio psync" ] ||
	fail "bash: --ioengine values"
[ "$(bc storan run --ioengine = li)" = libaio ] || fail "bash: --ioengine=li"
[ "$(bc storan ingest -f c)" = csv ] || fail "bash: ingest -f c"
[ "$(bc storan help exp)" = export ] || fail "bash: help exp"
[ "$(bc storan --vers)" = --version ] || fail "bash: --vers"
# every option of every command
while read -r cmd opt; do
	echo "c storan $cmd $opt"
done <"$TMP/opts" >"$TMP/b.cases"
bash -c "source $TMP/b.sh; source $TMP/b.cases" >"$TMP/b.out"
paste -d' ' "$TMP/opts" "$TMP/b.out" | while read -r cmd opt got; do
	case " $got " in
	*" $opt "*) ;;
	*) echo "bash: storan $cmd $opt -> $got" ;;
	esac
done >"$TMP/b.bad"
[ -s "$TMP/b.bad" ] && fail "$(cat "$TMP/b.bad")"

# fish: complete -C is fish's own completion of a command line
if command -v fish >/dev/null; then
	fish -n "$TMP/c/storan.fish" || fail "storan.fish: syntax"
	fishc() { fish -c "source $TMP/c/storan.fish; complete -C '$1'" | cut -f1; }
	[ "$(fishc 'storan ru')" = run ] || fail "fish: storan ru"
	[ "$(fishc 'storan run --ioengine ' | tr '\n' ' ')" = \
		"io_uring libaio psync " ] || fail "fish: --ioengine values"
	[ "$(fishc 'storan ingest -f ' | tr '\n' ' ')" = "binary csv json " ] ||
		fail "fish: ingest -f"
	for cmd in $(cat "$TMP/cmds"); do
		fishc "storan $cmd --" | sort -u >"$TMP/f.got"
		grep "^$cmd " "$TMP/opts" | cut -d" " -f2 | sort -u >"$TMP/f.want"
		cmp -s "$TMP/f.got" "$TMP/f.want" ||
			fail "fish: storan $cmd --: $(diff "$TMP/f.want" "$TMP/f.got" | grep '^[<>]' | tr '\n' ' ')"
	done
else
	echo "fish not installed (scripts/install-deps installs it): not tried"
	skipped=1
fi

# zsh: a real interactive zsh under zpty
if command -v zsh >/dev/null; then
	zsh -n "$TMP/c/_storan" || fail "_storan: syntax"
	printf '%s\t%s\n' \
		'storan ru' 'storan run ' \
		'storan run --ramp_t' 'storan run --ramp_time ' \
		'storan run --bs-' 'storan run --bs-sweep ' \
		'storan run --ioengine li' 'storan run --ioengine libaio ' \
		'storan run --preset fio' 'storan run --preset fio-4k ' \
		'storan ingest --for' 'storan ingest --format ' \
		'storan ingest --format c' 'storan ingest --format csv ' \
		'storan export -f j' 'storan export -f json ' \
		'storan --vers' 'storan --version ' \
		'storan help exp' 'storan help export ' >"$TMP/z.cases"
	timeout 120 zsh -f "$(dirname "$0")/zsh-complete.zsh" "$TMP/c" \
		<"$TMP/z.cases" >"$TMP/z.out" 2>&1 ||
		fail "zsh: $(grep -v '^ok' "$TMP/z.out")"
else
	echo "zsh not installed (scripts/install-deps installs it): not tried"
	skipped=1
fi
[ "$fails" -eq 0 ] && [ "${skipped:-0}" -eq 1 ] && exit 77
finish
