#!/bin/bash
# Re-creates raw/*.txt and post.txt in this folder (as root, on a scratch
# machine).  Five block devices are set up, each 512 MiB:
#   1. a zram device (lz4), in RAM;
#   2. a loop device on a file in /dev/shm (tmpfs);
#   3. a loop device on a file on the root ext4, buffered (--direct-io=off);
#   4. the same with --direct-io=on;
#   5. another --direct-io=on loop device on ext4, throttled to 20 MiB/s
#      read and write by the cgroup the commands run in (cgroup v2 io.max
#      when the io controller is there, else cgroup v1 blkio.throttle).
# On each: hdparm -tT three times, one dd write with oflag=direct (the
# source is 256 MiB of random bytes in /dev/shm, so that zram cannot
# compress it away), then one dd read with iflag=direct after dropping
# the caches.  Every command is echoed with a "$ " prompt before its
# output.  Nothing but the devices this script creates is touched.
#
# post.txt is a mailing-list post assembled from the raw outputs: the
# prose is fixed text (here-documents below, written about the capture
# in this folder), the outputs and the closing table come from raw/.
# "./capture.sh post" assembles post.txt again from raw/ without
# measuring.
set -u
if [ "${1:-}" != post ]; then
out=$PWD
work=$(mktemp -d)
shm=$(mktemp -d /dev/shm/five-drives.XXXXXX)
loops=()
zdev=
cg=
cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	if [ -n "$zdev" ]; then
		echo 1 > "/sys/block/$zdev/reset"
		echo "${zdev#zram}" > /sys/class/zram-control/hot_remove
	fi
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$work" "$shm"
}
trap cleanup EXIT
run() { echo "\$ $*"; eval "$@" 2>&1; echo; }
majmin() { lsblk -dno MAJ:MIN "$1" | tr -d ' '; }

# The devices.
zdev=zram$(cat /sys/class/zram-control/hot_add)
echo lz4 > "/sys/block/$zdev/comp_algorithm"
echo 512M > "/sys/block/$zdev/disksize"
truncate -s 512M "$shm/disk.img" "$work/buffered.img" "$work/direct.img" \
	"$work/throttled.img"
shmloop=$(losetup -f --show "$shm/disk.img") && loops+=("$shmloop")
bufloop=$(losetup -f --show --direct-io=off "$work/buffered.img") && loops+=("$bufloop")
dioloop=$(losetup -f --show --direct-io=on "$work/direct.img") && loops+=("$dioloop")
slowloop=$(losetup -f --show --direct-io=on "$work/throttled.img") && loops+=("$slowloop")
[ ${#loops[@]} = 4 ] || exit 1
head -c 256M /dev/urandom > "$shm/random.bin"
src=$shm/random.bin

# The commands of one drive, in the current shell.
bench() {
	local dev=$1
	run hdparm -tT "$dev"
	run hdparm -tT "$dev"
	run hdparm -tT "$dev"
	run "dd if=$src of=$dev bs=1M count=256 oflag=direct"
	run "sync; echo 3 > /proc/sys/vm/drop_caches"
	run "dd if=$dev of=/dev/null bs=1M count=256 iflag=direct"
}

mkdir -p "$out/raw"
cd "$work"
{ run "zramctl /dev/$zdev"; bench "/dev/$zdev"; } > "$out/raw/1-$zdev.txt"
{ run "losetup --list --output NAME,DIO,BACK-FILE $shmloop"; bench "$shmloop"; } \
	> "$out/raw/2-${shmloop#/dev/}-tmpfs.txt"
{ run "losetup --list --output NAME,DIO,BACK-FILE $bufloop"; bench "$bufloop"; } \
	> "$out/raw/3-${bufloop#/dev/}-ext4-buffered.txt"
{ run "losetup --list --output NAME,DIO,BACK-FILE $dioloop"; bench "$dioloop"; } \
	> "$out/raw/4-${dioloop#/dev/}-ext4-direct.txt"

# The fifth: the same commands from a shell inside a throttled cgroup.
mm=$(majmin "$slowloop")
if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/five-drives-slow
	mkdir "$cg"
	limit="echo '$mm rbps=20971520 wbps=20971520' > $cg/io.max"
	how="cgroup v2 io.max"
elif [ -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
	cg=/sys/fs/cgroup/blkio/five-drives-slow
	mkdir "$cg"
	limit="echo '$mm 20971520' > $cg/blkio.throttle.read_bps_device; echo '$mm 20971520' > $cg/blkio.throttle.write_bps_device"
	how="cgroup v1 blkio.throttle"
else
	echo "no cgroup I/O throttling here (neither io.max nor blkio.throttle)" >&2
	exit 1
fi
(
	run "losetup --list --output NAME,DIO,BACK-FILE $slowloop"
	run "$limit"
	run "echo \$BASHPID > $cg/cgroup.procs"
	bench "$slowloop"
) > "$out/raw/5-${slowloop#/dev/}-throttled.txt"
cd "$out"
echo "$how" > raw/throttle-method
fi

# The post.
how=$(cat raw/throttle-method)
names=(raw/1-*.txt raw/2-*.txt raw/3-*.txt raw/4-*.txt raw/5-*.txt)
hd() { awk '/buffered disk reads/ { s += $(NF-1); n++ } END { printf "%.0f", s / n }' "$1"; }
ddw() { awk '/^\$ dd .*oflag=direct/ { w = 1 } w && /copied/ { print $(NF-1), $NF; exit }' "$1"; }
ddr() { awk '/^\$ dd .*iflag=direct/ { r = 1 } r && /copied/ { print $(NF-1), $NF; exit }' "$1"; }
{
cat <<MAIL
From: Ada Lindqvist <ada@example.org>
To: linux-block-users@example.org
Subject: Re: [bench] five block devices on one small VM, hdparm and dd
Date: $(date -R -r raw/throttle-method)

On Mon, someone wrote:
> Has anybody put numbers on what zram, tmpfs-backed loop devices and
> loop --direct-io actually change on a small VM?  And does cgroup
> throttling show up in hdparm at all?

Hi all,

I had a spare hour on a scratch VM (Debian 12, 2 vCPUs, virtio disk,
kernel $(uname -r), $(hdparm -V 2>&1 | head -1), $(dd --version | head -1))
and ran the same handful of commands on five block devices, 512 MiB
each.  hdparm -tT three times, then one 256 MiB dd write with
oflag=direct from a file of random bytes in /dev/shm (so that zram has
to compress real data instead of skipping zero pages), then one 256 MiB
dd read with iflag=direct after dropping the caches.  Output pasted as
it came, headings are mine.

MAIL
titles=(
	"${names[0]#raw/1-}: lz4, in RAM"
	"$(basename "${names[1]}" .txt | sed 's/^2-//; s/-tmpfs//'): loop on a file in /dev/shm (tmpfs)"
	"$(basename "${names[2]}" .txt | sed 's/^3-//; s/-ext4-buffered//'): loop on a file on ext4, buffered"
	"$(basename "${names[3]}" .txt | sed 's/^4-//; s/-ext4-direct//'): loop on a file on ext4, --direct-io=on"
	"$(basename "${names[4]}" .txt | sed 's/^5-//; s/-throttled//'): ext4 loop, direct I/O, throttled to 20 MiB/s"
)
titles[0]=${titles[0]/.txt/}
prose=(
"zram first.  Everything stays in RAM, compressed with lz4, so this is
the ceiling of what the block layer does on this box."
"A loop device over a file in /dev/shm: also RAM, but through tmpfs and
the loop driver instead of a compressor."
"Now a loop device over a sparse file on the root ext4 (which sits on
the virtio disk), in the default buffered mode: the backing file goes
through the host page cache of the guest."
"Same thing with losetup --direct-io=on, so the loop driver reads and
writes its backing file with O_DIRECT, and the page cache is out of the
picture."
"Last, another --direct-io=on loop device, but every command below runs
in a shell that sits in a cgroup limited to 20 MiB/s read and write on
that device ($how; this kernel has no io controller in cgroup v2)."
)
for i in 0 1 2 3 4; do
	echo "=== ${titles[$i]} ==="
	echo
	echo "${prose[$i]}"
	echo
	cat "${names[$i]}"
done
cat <<MAIL
=== Summary ===

hdparm -t is the mean of the three runs; dd as printed.

  drive                          hdparm -t      dd write        dd read
MAIL
for i in 0 1 2 3 4; do
	printf '  %-30s %5s MB/sec  %14s  %13s\n' "${titles[$i]%%:*}" \
		"$(hd "${names[$i]}")" "$(ddw "${names[$i]}")" "$(ddr "${names[$i]}")"
done
cat <<'MAIL'

A few remarks.  hdparm -T is about the same everywhere (4.4 to 8 GB/s
from run to run): it reads the buffer cache and never touches the
device, so it says nothing about the drives.  The two RAM-backed devices
lead on reads; on writes the tmpfs loop device is twice as fast as zram,
which has to compress 256 MiB of random bytes with lz4 on two vCPUs.
The two ext4 loop devices are close to each other: the virtio disk of
this VM is fast (the host probably caches it too), so --direct-io=on
costs little here.  The throttled one sits on its limit in hdparm -t
and dd alike.  Mind the units: hdparm's MB are MiB (19.3 MB/sec is just
under the 20 MiB/s limit), dd's MB are 10^6 bytes (21.2 MB/s is
20.2 MiB/s).

Numbers from a shared VM, so take the third digit with a grain of salt.

Cheers,
Ada
--
Ada Lindqvist
"Measure twice, post once."
MAIL
} > post.txt
