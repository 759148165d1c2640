#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The rules for files: storan writes only to files it created unless
# --overwrite names an existing regular file; refusals leave the file
# untouched; a test that does not fit the free space never starts.
. "$(dirname "$0")/lib.sh"
f="$T/precious"
head -c 8388608 /dev/urandom >"$f"
sum=$(sha256sum <"$f")

expect_rc 2 "$STORAN" run --filename "$f" $QUICK --rw randwrite --bs 4k
expect_err "did not create"
expect_rc 2 "$STORAN" run --filename "$f" $QUICK --rw randrw --bs 4k
expect_err "--overwrite"
[ "$(sha256sum <"$f")" = "$sum" ] || fail "a refused write changed the file"

# Reading is free, and changes nothing.
expect_rc 0 "$STORAN" run --filename "$f" $QUICK --rw read,randread \
	--bs 4k -o "$T/r.json"
[ "$(sha256sum <"$f")" = "$sum" ] || fail "reading changed the file"
[ -e "$f" ] || fail "storan removed a file it did not create"

# Not more than the file holds, and never grown.
expect_rc 2 "$STORAN" run --filename "$f" --size 16M --runtime 0.2 \
	--ramp 0 --repeat 1 --quiet --rw read --bs 4k
expect_err "does not grow"

# --overwrite: written in place, same size, not removed.
expect_rc 0 "$STORAN" run --filename "$f" $QUICK --overwrite \
	--rw randwrite --bs 4k -o "$T/w.json"
[ "$(sha256sum <"$f")" != "$sum" ] || fail "--overwrite wrote nothing"
[ "$(stat -c %s "$f")" -eq 8388608 ] || fail "--overwrite changed the size"

# Not a regular file, not a device.
expect_rc 2 "$STORAN" run --filename "$T" $QUICK --rw read --bs 4k
expect_err "neither a regular file nor a block device"
expect_rc 2 "$STORAN" run --filename /dev/null $QUICK --rw read --bs 4k
expect_err "neither"
# --destroy-data is for devices only.
expect_rc 2 "$STORAN" run --filename "$f" $QUICK --destroy-data="$f" \
	--rw write --bs 4k
expect_err "block devices"
# --overwrite on a file storan would create is harmless; on a file that
# cannot fit in the free space storan refuses before creating anything.
mkdir "$T/d"
expect_rc 2 "$STORAN" run --directory "$T/d" --size 1000T --runtime 0.2 \
	--ramp 0 --repeat 1 --quiet --rw read --bs 4k
expect_err "free"
empty_dir "$T/d"
# Buffers beyond reason are refused before any I/O.
expect_rc 2 "$STORAN" run --directory "$T/d" --size 64M --rw read --bs 64M \
	--iodepth 512 --quiet
expect_err "bytes of buffers"
empty_dir "$T/d"
# Usage errors: exit 2, nothing measured.
expect_rc 2 "$STORAN" run --rw read
expect_err "--bs"
expect_rc 2 "$STORAN" run --rw sideways --bs 4k
expect_err "sideways"
expect_rc 2 "$STORAN" run --rw read --bs 4k --ioengine posixaio
expect_err "posixaio"
expect_rc 2 "$STORAN" run --rw read --bs 4k --filename a --directory b
expect_rc 2 "$STORAN" run --rw read --bs 4k --rwmixread 101
expect_rc 2 "$STORAN" run --rw read --bs 4k --runtime 0
expect_rc 2 "$STORAN" run --preset nosuch
expect_err "nosuch"
expect_rc 0 "$STORAN" run --help
exit 0
