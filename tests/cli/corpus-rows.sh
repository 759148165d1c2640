#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every file of the shared corpus ingests with the exit status and the
# number of exported rows (measurements) it had when this list was
# written (issue 17): a change that loses a figure, or finds one more,
# fails here until the list is updated with the reason in its commit.
# The CSV itself of each is checked by the golden fixtures made from it.
set -u
STORAN=${STORAN:-./storan}
dir=${STORAN_CORPUS:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpus}
[ -d "$dir" ] || exit 77
fail=0
while read -r want_rc want_rows file; do
	case "$want_rc" in ''|'#'*) continue ;; esac
	out=$("$STORAN" ingest --format csv "$dir/$file" 2>/dev/null); rc=$?
	rows=$(($(printf '%s\n' "$out" | wc -l) - 1))
	[ -z "$out" ] && rows=0
	if [ "$rc" -ne "$want_rc" ] || [ "$rows" -ne "$want_rows" ]; then
		echo "$file: exit $rc rows $rows, want exit $want_rc rows $want_rows"
		fail=1
	fi
done <<'LIST'
# exit rows file
0 3 dd/dd-bsd-macos-bytes-transferred-secs.txt
0 12 dd/dd-busybox-bytes-line-with-busybox-time.txt
0 3 dd/dd-busybox-cant-open-error-then-ok.txt
0 6 dd/dd-busybox-time-records-only.txt
0 2 dd/dd-elks-floppy-no-rate.txt
0 3 dd/dd-gnu-coreutils5-bytes-transferred-seconds-quoted.txt
0 3 dd/dd-gnu-de_DE-sd-flash-oflag-sync.txt
0 3 dd/dd-gnu-newformat-1000MiB-sevsnp.txt
0 3 dd/dd-gnu-newformat-1000MiB-sgx.txt
0 6 dd/dd-gnu-newformat-10GB-with-bash-time.txt
0 3 dd/dd-gnu-newformat-5runs-fdatasync.txt
0 3 dd/dd-gnu-newformat-5runs-pipe-md5sum.txt
0 6 dd/dd-gnu-newformat-GBps-write-and-read.txt
0 3 dd/dd-gnu-newformat-enospc-status-progress.txt
0 3 dd/dd-gnu-newformat-read-after-dropcaches.txt
0 3 dd/dd-gnu-newformat-write-1GiB.txt
0 9 dd/dd-gnu-oldformat-537MB-microsd-annotated.txt
0 3 dd/dd-gnu-oldformat-54GB-bs1G-oflag-direct.txt
0 3 dd/dd-gnu-oldformat-oflag-dsync-ceph.txt
0 3 dd/dd-gnu-oldformat-read-iflag-direct.txt
0 9 dd/dd-gnu-partial-records-build-log.txt
0 3 dd/dd-gnu-progress-and-usr1-interleaved-elided.txt
0 3 dd/dd-gnu-progress-oldformat-enospc-unicode-quotes.txt
0 6 dd/dd-gnu-ru_RU-two-background-runs-with-time.txt
0 3 dd/dd-gnu-status-progress-last-line-then-summary.txt
0 70 fio/fio-2.0.13-mysql-3jobtypes-160procs-group.txt
0 11 fio/fio-2.0.9-randrw-gtod-reduce-no-latency.txt
0 206 fio/fio-2.1.4-multijob-json.json
0 17 fio/fio-2.17-clat-hist-log.1.log
0 74 fio/fio-2.17-randread-group-reporting-json.json
0 44 fio/fio-2.18-randread-json.json
0 40 fio/fio-2.2.10-randread-8jobs-group-reporting-3runs.txt
0 40 fio/fio-2.2.10-randwrite-8jobs-5runs-scaleway.txt
0 76 fio/fio-2.2.10-rw-mixed-ceph-libaio.txt
0 1 fio/fio-3.1-floppy-bw.1.log
0 1 fio/fio-3.1-floppy-clat.1.log
0 43 fio/fio-3.1-jsonplus-randread-ceph-bins.json
0 43 fio/fio-3.1-jsonplus-write-beegfs-bins.json
0 44 fio/fio-3.1-randread-floppy-json.json
0 44 fio/fio-3.1-randread-json-duplicate-keys.json
0 85 fio/fio-3.1-randrw-libaio-aws-long-status-lines.txt
0 85 fio/fio-3.1-randrw-libaio-linode.txt
0 44 fio/fio-3.1-seqwrite-posixaio-clat-msec.txt
0 44 fio/fio-3.1-seqwrite-posixaio-status-noise.txt
0 44 fio/fio-3.1-terse-line-then-normal-report-mixed.txt
0 84 fio/fio-3.12-randrw-50-group-reporting-json.json
0 44 fio/fio-3.14-randread-json.json
0 93 fio/fio-3.16-randrw-mdraid-json.json
0 39 fio/fio-3.19-terse-v3-seqread-121fields.txt
0 61 fio/fio-3.25-fdatasync-nvme-trailing-spaces-diskstats.txt
0 60 fio/fio-3.25-fdatasync-zfs-sync-msec.txt
0 19 fio/fio-3.27-terse-v3-gtod-reduce-with-disk-util.txt
0 43 fio/fio-3.27-windows-mutex-warning-randwrite-k-suffix.txt
0 345 fio/fio-3.28-normal-plus-terse-8-stonewall-groups-microsd.txt
0 345 fio/fio-3.28-normal-plus-terse-with-prompt-and-glued-status.txt
0 45 fio/fio-3.33-ctrl-c-interrupted-text-with-prompt-noise.txt
1 0 fio/fio-3.33-json-job-error22-with-stderr-prefix.json
0 84 fio/fio-3.33-rw-json-with-signal-prefix.json
0 12 fio/fio-3.36-client-server-all-clients-excerpt.txt
0 8 fio/fio-3.38-client-server-2hosts-header-TRUNCATED.txt
0 86 fio/fio-3.38-windows-windowsaio-two-runs-cmd-prompt.txt
0 44 fio/fio-3.6-randread-ceph-hdd-json.json
0 76 fio/fio-3.7-terse-v3-randrw.txt
0 3 hdparm/hdparm-T-only-cached-reads.txt
0 6 hdparm/hdparm-Tt-direct-nvme-arm-sbc.txt
0 12 hdparm/hdparm-old-buffer-cache-two-ide-devices-2001.txt
0 6 hdparm/hdparm-t-direct-failing-ssd-kBps-tab-indented.txt
0 3 hdparm/hdparm-t-md-array.txt
0 3 hdparm/hdparm-t-nvme-ioctl-warning.txt
0 3 hdparm/hdparm-t-repeated-indented-prompts-excerpt.txt
0 3 hdparm/hdparm-t-sas-sgio-sense-warnings.txt
0 15 hdparm/hdparm-tT-and-direct-3runs-no-device-header-plus-dd.txt
0 12 hdparm/hdparm-tT-nvme-and-usb-two-runs.txt
0 6 hdparm/hdparm-tT-sda-hdd.txt
0 78 iozone/iozone-2008-auto-i0i1i2-s128G-headerless.txt
0 24 iozone/iozone-3.169-throughput-t1-nfs-2004.txt
0 1560 iozone/iozone-3.247-auto-M-machine-line-2006.txt
0 104 iozone/iozone-3.434-auto-n1g-g2g-fullcolumns.txt
0 1638 iozone/iozone-3.465-auto-I-odirect-local-ssd.txt
0 1638 iozone/iozone-3.465-auto-I-odirect-srp-target.txt
0 642 iozone/iozone-3.493-macosx-R-excel-local-disk.txt
0 330 iozone/iozone-3.493-macosx-R-excel-multi-s-fuse.txt
0 24 iozone/iozone-3.507-throughput-t4-ops-O-I-excel-beegfs.txt
1 0 iozone/iozone-excel-report-section-only-trailing-spaces.txt
0 18 iozone/iozone-table-only-trimmed-e-I-3recsizes.txt
0 8 iozone/iozone-throughput-summary-lines-only-grep.txt
1 12 iozone/iozone-throughput-t2-verify-errors-interrupted-FRAGMENT.txt
1 0 misc/bonnie++-1.03-text-table-mdraid.txt
1 0 misc/bonnie++-1.96-csv.csv
1 0 misc/bonnie++-2.00a-text-suffixed-units-quoted-TRUNCATED.txt
1 0 misc/sysbench-0.4.12-fileio-rndrw-multirun.txt
1 0 misc/sysbench-0.4.12-fileio-seqwr.txt
1 0 misc/sysbench-1.0-fileio-seqrewr.txt
0 3 misc/time-gnu-verbose-v.txt
LIST
exit $fail
