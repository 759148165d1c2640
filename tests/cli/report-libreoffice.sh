#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.xlsx opens in LibreOffice: soffice converts it to a PDF with
# pages (every sheet, its table and native chart).  scripts/install-deps
# installs it for the tests (libreoffice-calc-nogui); skipped (77) where
# it is not installed.
set -eu
command -v soffice >/dev/null || exit 77
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" "$DATA/dd.txt" .
"$STORAN" report sweep.json dd.txt -o out 2>/dev/null || [ $? -eq 1 ]
HOME=$T timeout 180 soffice --headless --norestore \
	-env:UserInstallation=file://$T/lo --convert-to pdf \
	--outdir pdf out/report.xlsx >lo.log 2>&1
[ -s pdf/report.pdf ] || { cat lo.log; exit 1; }
head -c 5 pdf/report.pdf | grep -q '%PDF-'
# pages: pdfinfo where poppler is installed, else count /Type /Page
if command -v pdfinfo >/dev/null; then
	pages=$(pdfinfo pdf/report.pdf | sed -n 's/^Pages: *//p')
else
	pages=$(grep -ac '/Type */Page[^s]' pdf/report.pdf || true)
fi
# Summary, Data and one sheet per chart: at least that many pages
sheets=$(( $(ls out/charts/*.png | wc -l) + 2 ))
[ "$pages" -ge "$sheets" ] || { echo "$pages pages for $sheets sheets"; exit 1; }
