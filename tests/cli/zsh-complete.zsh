# SPDX-License-Identifier: GPL-3.0-or-later
# zsh completion through a real interactive zsh (zpty): for each line
# TYPED<TAB>WANT on stdin, type TYPED and TAB, then ^X writes the edited
# line to a file, which must be WANT.  $1: the directory with _storan.
#   zsh -f tests/cli/zsh-complete.zsh DIR < cases
zmodload zsh/zpty
buf=$1/zbuf
[[ -r $1/_storan ]] || { print "no $1/_storan"; exit 2 }
zpty z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "dump() { print -r -- \"\$BUFFER\" >$buf; }; zle -N dump; bindkey '^X' dump"
try() {	# try TYPED WANT
	rm -f $buf
	zpty -w -n z "$1"$'\t'
	sleep 0.5
	zpty -w -n z $'\C-x'
	for i in {1..50}; do [[ -s $buf ]] && break; sleep 0.1; done
	zpty -w -n z $'\C-u'
	local got="$(<$buf)"
	[[ $got == "$2" ]] && print "ok: [$1] -> [$got]" || { print "FAIL: [$1] -> [$got], want [$2]"; fails=1 }
}
fails=0
# the cases: lines of TYPED<TAB>WANT on standard input
while IFS=$'\t' read -r typed want; do
	try "$typed" "$want"
done
zpty -d z
exit $fails
