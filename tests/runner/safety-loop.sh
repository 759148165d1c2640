#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The rules for block devices, on loop devices over files in a temporary
# directory: reading is free; writing needs --destroy-data naming the
# same device; a signature is named in the refusal; a mounted device or
# one another process holds exclusively is refused even with the flag.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
command -v losetup >/dev/null || skip "no losetup"
[ -e /dev/loop-control ] || skip "no loop devices here"

truncate -s 32M "$T/a.img" "$T/b.img"
A=$(losetup -f --show "$T/a.img" 2>/dev/null) ||
	skip "cannot attach a loop device"
on_exit "losetup -d $A 2>/dev/null"
B=$(losetup -f --show "$T/b.img" 2>/dev/null) ||
	skip "cannot attach a second loop device"
on_exit "losetup -d $B 2>/dev/null"

expect_rc 0 "$STORAN" run --filename "$A" $QUICK --rw read,randread \
	--bs 4k -o "$T/r.json"
"$STORAN" export "$T/r.json" --format csv | grep -q "kind=block;" ||
	fail "no kind=block label"

expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k
expect_err "no known signature"
expect_err "--destroy-data=$A"
expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k \
	--destroy-data="$B"
expect_err "not that device"
expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k \
	--overwrite
expect_err "--overwrite is for regular files"
expect_rc 2 "$STORAN" run --filename "$A" --size 64M --runtime 0.2 \
	--ramp 0 --repeat 1 --quiet --rw read --bs 4k
expect_err "larger than"

# The file behind a loop device is that device's data.
expect_rc 2 "$STORAN" run --filename "$T/a.img" $QUICK --rw write --bs 4k \
	--overwrite
expect_err "backing file of $A"

# With the words that cannot be typed by accident: written, in range.
expect_rc 0 "$STORAN" run --filename "$A" $QUICK --rw randwrite,write \
	--bs 4k --destroy-data="$A" --verify -o "$T/w.json"
[ "$(stat -c %s "$T/a.img")" -eq 33554432 ] || fail "wrote past the end"
# --size 8M: nothing beyond the first 8 MiB was touched.
[ -z "$(tail -c +8388609 "$T/a.img" | tr -d '\0' | head -c 1)" ] ||
	fail "wrote outside --size"

# A GPT header is named.
printf 'EFI PART' | dd of="$A" bs=1 seek=512 conv=notrunc status=none
sync
sum=$(sha256sum <"$A")
expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k
expect_err "GPT partition table"
[ "$(sha256sum <"$A")" = "$sum" ] || fail "a refused write changed $A"

if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$A" 2>/dev/null
then
	expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k
	expect_err "ext2/3/4 file system"
	mkdir "$T/mnt"
	if mount "$A" "$T/mnt" 2>/dev/null; then
		on_exit "umount $T/mnt 2>/dev/null"
		expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write \
			--bs 4k --destroy-data="$A"
		expect_err "is mounted on $T/mnt"
		# Reading a mounted device is still free.
		expect_rc 0 "$STORAN" run --filename "$A" $QUICK --rw randread \
			--bs 4k -o "$T/m.json"
		umount "$T/mnt"
	else
		echo "note: mount not allowed here; mounted case not tested"
	fi
fi

# Swap is system-wide, so only when asked: STORAN_TEST_SWAP=1.
if [ "${STORAN_TEST_SWAP:-0}" = 1 ] && mkswap -q "$A" && swapon "$A"; then
	on_exit "swapoff $A 2>/dev/null"
	expect_rc 2 "$STORAN" run --filename "$A" $QUICK --rw write --bs 4k \
		--destroy-data="$A"
	expect_err "in use as swap"
	swapoff "$A"
else
	echo "note: swap case not tested (STORAN_TEST_SWAP=1 tests it)"
fi

# Another process holds the device exclusively: the O_EXCL open fails.
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(30)' "$B" "$T/held" &
holder=$!
on_exit "kill $holder 2>/dev/null"
for _ in $(seq 50); do [ -e "$T/held" ] && break; sleep 0.1; done
[ -e "$T/held" ] || fail "could not hold $B exclusively"
expect_rc 2 "$STORAN" run --filename "$B" $QUICK --rw write --bs 4k \
	--destroy-data="$B"
expect_err "exclusively"
kill $holder
wait $holder 2>/dev/null
exit 0
