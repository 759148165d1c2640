#!/bin/bash
# Re-creates the fio JSON files in this folder (as root, on a scratch
# machine): randread and randwrite, block sizes 4k, 64k and 1m, iodepth 1
# and 32, three runs each, one JSON file per job and run, named
# RW-BS-qdQD-runN.json.  Each job runs 2 s (time_based) with O_DIRECT and
# libaio on a 256 MiB file in a temporary directory, laid out once before
# the first run so that no run pays for it.
set -eu
out=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file=$work/fio-test.bin
fio --name=layout --filename="$file" --size=256M --rw=write --bs=1m \
	--direct=1 --ioengine=libaio --output=/dev/null

for rw in randread randwrite; do
	for bs in 4k 64k 1m; do
		for qd in 1 32; do
			for run in 1 2 3; do
				fio --name="$rw-$bs-qd$qd" --filename="$file" \
					--size=256M --rw="$rw" --bs="$bs" \
					--iodepth="$qd" --ioengine=libaio --direct=1 \
					--time_based --runtime=2 \
					--output-format=json \
					--output="$out/$rw-$bs-qd$qd-run$run.json"
			done
		done
	done
done
