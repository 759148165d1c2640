#!/bin/bash
# Re-creates file.txt and block.txt in this folder (as root, on a scratch
# machine): SCST's blockdev-perftest on a loop device, once with the loop
# device buffered (losetup --direct-io=off: the backing file goes through
# the page cache, like SCST's vdisk_fileio, the "file" case) and once with
# --direct-io=on (the backing file is read and written with O_DIRECT, like
# vdisk_blockio, the "block" case).
#
# blockdev-perftest is GPL-2 and is not shipped here: give its path as the
# first argument, or the script downloads it into a temporary directory.
#
# Every command is echoed with a "$ " prompt before its output, as in a
# terminal transcript, so that storan can see the command line.
set -u
out=$PWD
work=$(mktemp -d)
loop=
trap '[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null; rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
	bpt=$(realpath "$1")
else
	bpt=$work/blockdev-perftest
	curl -fsSL -o "$bpt" \
		https://raw.githubusercontent.com/SCST-project/scst/master/scripts/blockdev-perftest ||
		exit 1
	chmod +x "$bpt"
fi
run() { echo "\$ $*"; eval "$@" 2>&1; echo; }

# One case: a fresh 128 MiB sparse backing file (all zeros, so the
# script's "still contains data" check passes), attached with the given
# --direct-io mode, 64 MiB per test (-s 26), block sizes 4 KiB (-m 12) to
# 4 MiB (-M 22), three iterations each (-i 3).
one_case() {
	local mode=$1 img=$work/backing-$1.img
	truncate -s 128M "$img"
	loop=$(losetup -f --show --direct-io="$mode" "$img")
	cd "$work"
	run "losetup --list --output NAME,DIO,BACK-FILE $loop"
	run "./blockdev-perftest -s 26 -m 12 -M 22 -i 3 $loop"
	cd "$out"
	losetup -d "$loop"
	loop=
	rm -f "$img"
}

[ "$bpt" = "$work/blockdev-perftest" ] || cp "$bpt" "$work/blockdev-perftest"
one_case off > file.txt
one_case on > block.txt
