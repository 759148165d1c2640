#!/bin/bash
# Re-creates do-5bucks.txt and vultr-25gbssd.txt in this folder from the
# fio logs of https://github.com/dyu/vps-comparison (MIT licence, see
# README.md), the way a user makes one file per machine: grep -H prefixes
# every line with the name of the log it came from.
#
# Give a checkout of that repository as the first argument, or the script
# clones it at the commit below into a temporary directory.
set -eu
commit=ce27c160b48e8f285fe58a515b38509b4f9ccc6f
out=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
	repo=$(realpath "$1")
else
	repo=$work/vps-comparison
	git clone -q https://github.com/dyu/vps-comparison "$repo"
	git -C "$repo" checkout -q "$commit"
fi

one_machine() {
	cd "$repo/logs/$1"
	grep -H '' fio_randread.log fio_randwrite.log > "$out/$2"
}
one_machine do-5bucks-ubuntu do-5bucks.txt
one_machine vultr-25gbssd-ubuntu vultr-25gbssd.txt
