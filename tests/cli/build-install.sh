#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The build as a distribution or a newcomer meets it: the version scheme
# with and without tags and in a release tarball; CPPFLAGS and LDFLAGS in
# every compile and link; -Werror only in a git checkout; a missing
# library named as its Debian package; make install and make uninstall
# with DESTDIR; install-deps run by a user other than root.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
git_() { git -c user.name=t -c user.email=t@t -c init.defaultBranch=main "$@"; }

# ---- scripts/version in a repository of its own (real git, real tags)
mkdir -p "$TMP/v/scripts" "$TMP/v/core"
cp "$ROOT/scripts/version" "$TMP/v/scripts/"
cp "$ROOT/core/version.h" "$TMP/v/core/"
base=$(sed -n 's/^#define STORAN_VERSION "\(.*\)"$/\1/p' "$ROOT/core/version.h")
(cd "$TMP/v" && git_ init -q && git_ add . && git_ commit -qm one &&
	git_ commit -q --allow-empty -m two) || fail "git setup"
sha=$(git -C "$TMP/v" rev-parse --short=7 HEAD)
[ "$("$TMP/v/scripts/version")" = "$base~git2.g$sha" ] ||
	fail "untagged: $("$TMP/v/scripts/version"), want $base~git2.g$sha"
git_ -C "$TMP/v" tag v0.2.0
[ "$("$TMP/v/scripts/version")" = 0.2.0 ] || fail "on v0.2.0: $("$TMP/v/scripts/version")"
git_ -C "$TMP/v" commit -q --allow-empty -m three
sha=$(git -C "$TMP/v" rev-parse --short=7 HEAD)
[ "$("$TMP/v/scripts/version")" = "0.2.0+git1.g$sha" ] ||
	fail "after v0.2.0: $("$TMP/v/scripts/version")"
# dpkg agrees on the order: untagged < release < after it < next
dpkg --compare-versions "$base~git9.gabcdef0" lt "$base" &&
	dpkg --compare-versions 0.2.0 lt "0.2.0+git1.g$sha" &&
	dpkg --compare-versions "0.2.0+git1.g$sha" lt 0.2.1 ||
	fail "versions do not sort as releases do"
echo 1.2.3 >"$TMP/v/VERSION"
[ "$("$TMP/v/scripts/version")" = 1.2.3 ] || fail "VERSION file not used"

# ---- flags: a dry run of the whole build in a scratch build directory
make -s -n -B -C "$ROOT" V=1 BUILD="$TMP/nb" CPPFLAGS=-DSTORAN_TEST_CPP \
	LDFLAGS=-Wl,-z,relro "$TMP/nb/storan" >"$TMP/dry" 2>&1 ||
	fail "make -n: $(tail -3 "$TMP/dry")"
grep -- ' -c -o ' "$TMP/dry" >"$TMP/cc"
[ "$(wc -l <"$TMP/cc")" -gt 50 ] || fail "too few compile lines: $(wc -l <"$TMP/cc")"
grep -v -- -DSTORAN_TEST_CPP "$TMP/cc" | head -1 | grep . &&
	fail "a compile without CPPFLAGS"
grep -- "-o $TMP/nb/storan " "$TMP/dry" | grep -q -- -Wl,-z,relro ||
	fail "the link without LDFLAGS"
grep -q -- -Werror "$TMP/cc" || fail "no -Werror in a git checkout"

# ---- a missing library: the package to install, before any compiler
mkdir "$TMP/nopc"
PKG_CONFIG_LIBDIR="$TMP/nopc" PKG_CONFIG_PATH= \
	make -s -C "$ROOT" BUILD="$TMP/mb" "$TMP/mb/storan" >"$TMP/mo" 2>&1 &&
	fail "built without any library"
expect_in "$(cat "$TMP/mo")" "apt-get install liburing-dev libgsl-dev" \
	"missing libraries named as packages"
expect_in "$(cat "$TMP/mo")" "libcairo2-dev libfontconfig-dev libxlsxwriter-dev" \
	"the run-time libraries' headers too"
grep -q "No such file\|fatal error" "$TMP/mo" && fail "a compiler error: $(cat "$TMP/mo")"
[ -e "$TMP/mb/core" ] && fail "objects compiled before the check"

# ---- only libpq missing: it alone named, still before any compiler (one
# pkg-config call for all packages failed as a whole: 'cairo.h: No such file')
mkdir "$TMP/nopq"
for d in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
	for pc in "$d"/*.pc; do
		[ -e "$pc" ] || continue
		case ${pc##*/} in libpq.pc) continue ;; esac
		[ -e "$TMP/nopq/${pc##*/}" ] || ln -s "$pc" "$TMP/nopq/"
	done
done
PKG_CONFIG_LIBDIR="$TMP/nopq" PKG_CONFIG_PATH= pkg-config --exists cairo ||
	fail "the libpq-less pkg-config directory lacks cairo"
PKG_CONFIG_LIBDIR="$TMP/nopq" PKG_CONFIG_PATH= \
	make -s -C "$ROOT" BUILD="$TMP/pb" "$TMP/pb/storan" >"$TMP/po" 2>&1 &&
	fail "built without libpq"
expect_in "$(cat "$TMP/po")" "storan: cannot build: missing libpq" \
	"libpq named"
expect_in "$(cat "$TMP/po")" "apt-get install libpq-dev" \
	"libpq named as its package"
grep -q "install .*-dev .*-dev" "$TMP/po" &&
	fail "more than libpq named: $(cat "$TMP/po")"
grep -q "No such file\|fatal error" "$TMP/po" && fail "a compiler error: $(cat "$TMP/po")"
[ -e "$TMP/pb/core" ] && fail "objects compiled before the check (libpq)"

# ---- the release tarball: VERSION inside, DEVELOPER=0 by default
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	make -s -C "$ROOT" dist BUILD="$TMP/db" DISTDIR="$TMP" >/dev/null ||
		fail "make dist"
	v=$("$ROOT/scripts/version")
	tar -xzf "$TMP/storan-$v.tar.gz" -C "$TMP" || fail "no storan-$v.tar.gz"
	[ "$(cat "$TMP/storan-$v/VERSION")" = "$v" ] || fail "VERSION in the tarball"
	[ -e "$TMP/storan-$v/.git" ] && fail ".git in the tarball"
	make -s -C "$TMP/storan-$v" print-flags >"$TMP/pf" || fail "print-flags"
	expect_in "$(cat "$TMP/pf")" "VERSION=$v DEVELOPER=0" "tarball defaults"
	grep -q -- -Werror "$TMP/pf" && fail "-Werror in a release build"
fi

# ---- make install / uninstall into DESTDIR, from the binary under test
build=$(dirname "$STORAN")
[ "$build" = "$ROOT" ] && build="$ROOT/build"
if [ -x "$build/storan" ]; then
	d="$TMP/root"
	make -s -C "$ROOT" BUILD="$build" DESTDIR="$d" PREFIX=/usr install \
		>"$TMP/io" 2>&1 || fail "make install: $(tail -3 "$TMP/io")"
	for f in bin/storan share/man/man1/storan.1 share/man/man1/storan-run.1 \
		share/bash-completion/completions/storan \
		share/zsh/site-functions/_storan \
		share/fish/vendor_completions.d/storan.fish; do
		[ -f "$d/usr/$f" ] || fail "not installed: /usr/$f"
	done
	grep -q "\"storan $("$ROOT/scripts/version")\"" \
		"$d/usr/share/man/man1/storan-run.1" || fail "man page version"
	"$d/usr/bin/storan" --version | grep -q "^storan " || fail "installed --version"
	make -s -C "$ROOT" BUILD="$build" DESTDIR="$d" PREFIX=/usr uninstall ||
		fail "make uninstall"
	left=$(find "$d" -type f)
	[ -z "$left" ] || fail "left after uninstall: $left"
fi

# ---- install-deps as a user: says what is missing, installs nothing
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null; then
	runuser -u nobody -- env STORAN_EXTRA_DEPS=storan-no-such-package \
		"$ROOT/scripts/install-deps" --demo >"$TMP/id" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "install-deps as nobody: exit $rc"
	expect_in "$(cat "$TMP/id")" "missing: storan-no-such-package" "names it"
	expect_in "$(cat "$TMP/id")" \
		"apt-get install --no-install-recommends storan-no-such-package" \
		"the one command"
fi
finish
