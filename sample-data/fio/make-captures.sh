#!/bin/sh
# Re-creates the captures in this directory with the fio on PATH (these
# were made with Debian 12's fio 3.33 on a 2-core VM, ext4 over virtio,
# runtime 1 s each: the figures are small and noisy, the formats are the
# point).  Usage: sh make-captures.sh   (writes ./captures/)
set -u
mkdir -p /tmp/storan-fio captures
cd jobs
for j in *.fio; do
	b=${j%.fio}
	fio --output-format=normal "$j" > ../captures/$b.normal.txt 2>&1
	fio --output-format=json "$j" > ../captures/$b.json 2>&1
	fio --output-format=json+ "$j" > ../captures/$b.jsonplus.json 2>&1
	for v in 2 3 4 5; do
		fio --output-format=terse --terse-version=$v "$j" \
			> ../captures/$b.terse-v$v.txt 2>&1
	done
done
# normal and terse together, as people run it
fio --output-format=normal,terse stonewall.fio > ../captures/stonewall.normal-terse.txt 2>&1
# a log of three repeated runs
for i in 1 2 3; do fio randrw-libaio.fio; done > ../captures/randrw-libaio.3runs.txt 2>&1
# --status-interval: snapshots then the final document
fio --output-format=json --status-interval=1 --runtime=3 randrw-libaio.fio \
	> ../captures/randrw-libaio.status-interval.json 2>&1
# logs
fio --write_bw_log=/tmp/storan-fio/cap --write_lat_log=/tmp/storan-fio/cap \
	--write_hist_log=/tmp/storan-fio/cap --log_avg_msec=100 \
	--log_hist_msec=500 randrw-libaio.fio > /dev/null 2>&1
cp /tmp/storan-fio/cap_bw.1.log ../captures/randrw-libaio_bw.1.log
cp /tmp/storan-fio/cap_clat.1.log ../captures/randrw-libaio_clat.1.log
cp /tmp/storan-fio/cap_clat_hist.1.log ../captures/randrw-libaio_clat_hist.1.log
rm -rf /tmp/storan-fio
