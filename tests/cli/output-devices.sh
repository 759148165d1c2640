#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# -o never writes a device (issue 15): a block device, mounted or not, is
# refused by every command that writes a file, and so is standard output
# that is one; of the character devices only /dev/null is taken, besides
# /dev/stdout, /dev/stderr and /dev/fd/N.  Exit 2, the device named, and
# the device's bytes unchanged.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/data" && pwd)
HD="$FIXTURES/hdparm/0011-tT-sda-hdd.txt"
RS="$DATA/host-alpha.json"

# Character devices, everywhere.
for dev in /dev/zero /dev/full /dev/urandom; do
	[ -c "$dev" ] || continue
	run "$STORAN" ingest "$HD" -o "$dev"
	expect_rc 2 "ingest -o $dev"
	expect_in "$err" "'$dev' is a character device" "ingest -o $dev"
done
run "$STORAN" ingest --format csv "$HD" -o /dev/null
expect_rc 0 "-o /dev/null"
for name in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
	run "$STORAN" ingest --format csv "$HD" -o "$name"
	expect_rc 0 "-o $name"
	expect_in "$out" "hdparm,cachedread,bw" "-o $name"
done
run "$STORAN" ingest --format csv "$HD" -o /dev/stderr
expect_rc 0 "-o /dev/stderr"
expect_in "$err" "hdparm,cachedread,bw" "-o /dev/stderr"

# Block devices: loop devices over files here.
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for losetup"; exit 77; }
command -v losetup >/dev/null && [ -e /dev/loop-control ] ||
	{ echo "SKIP: no loop devices here"; exit 77; }
truncate -s 16M "$TMP/disk.img"
DEV=$(losetup -f --show "$TMP/disk.img" 2>/dev/null) ||
	{ echo "SKIP: cannot attach a loop device"; exit 77; }
MNT=""
trap '[ -n "$MNT" ] && umount "$MNT" 2>/dev/null; losetup -d "$DEV"; rm -rf "$TMP"' EXIT
printf 'precious data on the device\n' | dd of="$DEV" conv=notrunc status=none
before=$(sha256sum < "$DEV")

refuse_all() {	# refuse_all WHAT: every -o onto $DEV exits 2 naming it
	local cmd
	while IFS= read -r cmd; do
		# shellcheck disable=SC2086
		run $cmd
		expect_rc 2 "$1: $cmd"
		expect_in "$err" "is a block device (" "$1: $cmd"
	done <<-LIST
	$STORAN ingest $HD -o $DEV
	$STORAN ingest $HD -o $TMP/out.json
	$STORAN ingest --format csv $HD -o $DEV
	$STORAN export $RS --format csv -o $DEV
	$STORAN table $RS --rows op --metric bw -o $DEV
	$STORAN compare $RS $RS -o $DEV
	$STORAN plot $RS --y bw -o $TMP/dev.png
	$STORAN run --size 1M --runtime 0.1 --ramp 0 --repeat 1 --quiet --rw read --bs 4k --directory $TMP -o $DEV
	LIST
	[ "$(sha256sum < "$DEV")" = "$before" ] || fail "$1: the device was written"
}
# The history store is never a device: SQLite would write its header
# over the file system (`storan history /dev/loop0` made one), and never
# beside it (/dev/loop0-wal).
refuse_store() {	# refuse_store WHAT
	local cmd db had_wal=""
	[ -e "$DEV-wal" ] && had_wal=1	# (an earlier storan's, not ours)
	for db in "$DEV" "$TMP/store-link.db"; do
		while IFS= read -r cmd; do
			# shellcheck disable=SC2086
			run $cmd
			expect_rc 2 "$1: $cmd"
			expect_in "$err" "is a block device, not a store" "$1: $cmd"
		done <<-LIST
		$STORAN history $db
		$STORAN store ls $db
		$STORAN store add $db $RS
		$STORAN detect $db
		$STORAN export $db --run x
		LIST
	done
	[ -n "$had_wal" ] || [ ! -e "$DEV-wal" ] || fail "$1: $DEV-wal made"
	[ "$(sha256sum < "$DEV")" = "$before" ] || fail "$1: the device was written as a store"
}
ln -s "$DEV" "$TMP/store-link.db"
refuse_store "unmounted"

ln -s "$DEV" "$TMP/dev.png"	# plot wants a name ending in .png
ln -s "$DEV" "$TMP/out.json"
refuse_all "unmounted"

# As standard output.
"$STORAN" ingest "$HD" > "$DEV" 2>"$TMP/err"
rc=$?; err=$(cat "$TMP/err")
expect_rc 2 "stdout onto the device"
expect_in "$err" "standard output is a block device" "stdout onto the device"
[ "$(sha256sum < "$DEV")" = "$before" ] || fail "stdout: the device was written"

# Mounted: the file system must survive.  (Read-only, so that the kernel
# writes nothing of its own meanwhile: every change would be storan's.)
if command -v mkfs.ext4 >/dev/null &&
   mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DEV" \
	2>/dev/null; then
	MNT="$TMP/mnt"
	mkdir "$MNT"
	if mount -o ro "$DEV" "$MNT" 2>/dev/null; then
		before=$(sha256sum < "$DEV")
		refuse_all "mounted"
		refuse_store "mounted"
		umount "$MNT" && MNT=""
		e2fsck -n "$DEV" >/dev/null 2>&1 || fail "e2fsck finds the file system damaged"
	fi
fi
finish
