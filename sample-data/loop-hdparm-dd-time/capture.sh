#!/bin/bash
# Re-creates the captures in this folder (as root, on a scratch machine).
# Every command is echoed with a "$ " prompt before its output, as in a
# terminal transcript, so that storan can see each command line.
set -u
work=$(mktemp -d)
trap 'losetup -d "$loop" 2>/dev/null; rm -rf "$work"' EXIT
truncate -s 512M "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img")
run() { echo "\$ $*"; eval "$@" 2>&1; echo; }

{
run hdparm -tT "$loop"
run hdparm -tT "$loop"
run hdparm -tT "$loop"
run hdparm -t --direct "$loop"
run hdparm -T --direct "$loop"
} > hdparm-loop.txt

cd "$work"
{
run "dd if=/dev/zero of=test.bin bs=1M count=256 conv=fdatasync"
run "dd if=/dev/urandom of=rand.bin bs=64k count=2048 oflag=direct"
run "sync; echo 3 > /proc/sys/vm/drop_caches; dd if=rand.bin of=/dev/null bs=1M iflag=direct"
run "dd if=rand.bin of=/dev/null bs=4k count=10000 skip=100"
run "dd if=/dev/zero of=$loop bs=4M count=64 oflag=direct status=progress"
run "dd if=$loop of=/dev/null bs=1M count=300"
run "dd if=/dev/zero bs=1M count=100 | md5sum"
run "dd if=/dev/zero of=small.bin bs=100 count=3"
run "dd if=test.bin of=copy.bin bs=128k && dd if=copy.bin of=/dev/null bs=128k"
} > "$OLDPWD/dd-loop.txt"
{
run "time dd if=/dev/zero of=t.bin bs=1M count=200 conv=fsync"
run "time -p sync"
run "/usr/bin/time dd if=t.bin of=/dev/null bs=1M"
run "/usr/bin/time -v gzip -c t.bin > /dev/null"
} > "$OLDPWD/time-loop.txt"
cd "$OLDPWD"
