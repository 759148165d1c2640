/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Output directories replaced only when storan wrote them; see outdir.h. */
#define _GNU_SOURCE	/* renameat2, O_PATH */
#include "outdir.h"
#include "atomic.h"
#include "sha256.h"
#include "strbuf.h"
#include "tmpfiles.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 3		/* DIR/charts/x.png is depth 1 */
#define MANIFEST_MAX (16 << 20)	/* bytes: far more than any report's */
#define FOREIGN_SHOWN 4		/* names a refusal lists */

struct manifest_entry {
	char *name;		/* relative: "index.html", "charts/01-bw.png" */
	char hash[65];
};

struct manifest {
	struct manifest_entry *v;
	size_t n, alloc;
};

static void manifest_release(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static void manifest_add(struct manifest *m, const char *name,
			 const char *hash)
{
	ALLOC_GROW(m->v, m->n + 1, m->alloc);
	m->v[m->n].name = xstrdup(name);
	memcpy(m->v[m->n].hash, hash, 65);
	m->n++;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct manifest_entry *)a)->name,
		      ((const struct manifest_entry *)b)->name);
}

static int cmp_name(const void *key, const void *entry)
{
	return strcmp(key, ((const struct manifest_entry *)entry)->name);
}

static const struct manifest_entry *manifest_find(const struct manifest *m,
						  const char *name)
{
	return m->n ? bsearch(name, m->v, m->n, sizeof(*m->v), cmp_name) :
		      NULL;
}

/* A name storan could have written: relative, no "." or ".." part. */
static int plain_relative_name(const char *s)
{
	int depth = 0;

	if (!*s || *s == '/')
		return 0;
	for (const char *p = s; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 :
					 p + strlen(p)) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.') ||
		    ++depth > MAX_DEPTH)
			return 0;
	}
	return 1;
}

static int is_hex_digest(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return 1;
}

/* "HASH  NAME" lines (or "HASH *NAME", sha256sum's binary mode). */
static int manifest_parse(char *text, struct manifest *m)
{
	for (char *line = text, *next; *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			return -1;	/* storan ends every line */
		*next++ = '\0';
		if (strlen(line) < 67 || !is_hex_digest(line) ||
		    line[64] != ' ' || (line[65] != ' ' && line[65] != '*') ||
		    !plain_relative_name(line + 66))
			return -1;
		line[64] = '\0';
		manifest_add(m, line + 66, line);
	}
	qsort(m->v, m->n, sizeof(*m->v), cmp_entry);
	return 0;
}

/* The manifest of the directory dirfd: 0, -1 when it has none (or one
 * that is not storan's). */
static int manifest_read(int dirfd, struct manifest *m)
{
	int fd = openat(dirfd, MANIFEST_NAME,
			O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int rc = -1;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size < MANIFEST_MAX) {
		char buf[65536];
		ssize_t got;

		while ((got = read(fd, buf, sizeof(buf))) > 0)
			strbuf_add(&sb, buf, (size_t)got);
		strbuf_grow(&sb, 1);	/* buf is never NULL now */
		if (!got && !memchr(sb.buf, '\0', sb.len))
			rc = manifest_parse(sb.buf, m);
	}
	close(fd);
	strbuf_release(&sb);
	if (rc)
		manifest_release(m);
	return rc;
}

/* ---- walking a directory ----------------------------------------------- */

/*
 * Calls file() for every regular file below dirfd with its relative
 * name; anything else that is not a directory (a link, a FIFO), and
 * directories deeper than MAX_DEPTH, go to other().  Either returns
 * non-zero to stop the walk.
 */
struct walk {
	int (*file)(struct walk *w, int dirfd, const char *base,
		    const char *name);
	int (*other)(struct walk *w, const char *name, int is_dir);
	/* optional: may directory name be entered?  (else: other()) */
	int (*enter)(struct walk *w, const char *name);
	void *ctx;
};

static int walk_subdir(struct walk *w, int dirfd, const char *base,
		       const char *name, int depth);

static int walk_dir(struct walk *w, int dirfd, const char *prefix,
		    int depth)
{
	int dup_fd = dup(dirfd), rc = 0;
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	rewinddir(d);
	while (!rc && (e = readdir(d))) {
		char *name;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		name = xstrfmt("%s%s", prefix, e->d_name);
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			rc = -1;
		else if (S_ISREG(st.st_mode))
			rc = w->file(w, dirfd, e->d_name, name);
		else if (!S_ISDIR(st.st_mode) || depth + 1 >= MAX_DEPTH ||
			 (w->enter && !w->enter(w, name)))
			rc = w->other(w, name, S_ISDIR(st.st_mode));
		else
			rc = walk_subdir(w, dirfd, e->d_name, name, depth);
		free(name);
	}
	closedir(d);
	return rc;
}

static int walk_subdir(struct walk *w, int dirfd, const char *base,
		       const char *name, int depth)
{
	int fd = openat(dirfd, base,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char *prefix;
	int rc;

	if (fd < 0)
		return -1;
	prefix = xstrfmt("%s/", name);
	rc = walk_dir(w, fd, prefix, depth + 1);
	free(prefix);
	close(fd);
	return rc;
}

/* ---- is a directory storan's? ------------------------------------------ */

struct foreign {
	const struct manifest *m;
	struct strbuf names;	/* the first FOREIGN_SHOWN of them */
	size_t n;
};

static void foreign_add(struct foreign *f, const char *name, int is_dir)
{
	if (f->n++ < FOREIGN_SHOWN)
		strbuf_addf(&f->names, "%s'%s%s'", f->names.len ? ", " : "",
			    name, is_dir ? "/" : "");
}

static int check_file(struct walk *w, int dirfd, const char *base,
		      const char *name)
{
	struct foreign *f = w->ctx;
	const struct manifest_entry *e;
	char hash[65];

	if (!strcmp(name, MANIFEST_NAME))
		return 0;
	e = f->m ? manifest_find(f->m, name) : NULL;
	if (!e || sha256_file_hex(dirfd, base, hash) || strcmp(hash, e->hash))
		foreign_add(f, name, 0);
	return 0;
}

static int check_other(struct walk *w, const char *name, int is_dir)
{
	foreign_add(w->ctx, name, is_dir);
	return 0;
}

/* A directory some listed file is in. */
static int check_enter(struct walk *w, const char *name)
{
	const struct foreign *f = w->ctx;
	size_t len = strlen(name);

	for (size_t i = 0; f->m && i < f->m->n; i++)
		if (!strncmp(f->m->v[i].name, name, len) &&
		    f->m->v[i].name[len] == '/')
			return 1;
	return 0;
}

/* Why dir (an existing directory, open as dirfd) may not be replaced:
 * 0 when it may, else -1 printed. */
static int check_ours(const char *dir, int dirfd)
{
	struct manifest m = { 0 };
	int has = !manifest_read(dirfd, &m);
	struct foreign f = { has ? &m : NULL, STRBUF_INIT, 0 };
	struct walk w = { check_file, check_other, check_enter, &f };
	int rc = 0;

	if (walk_dir(&w, dirfd, "", 0)) {
		rc = error("cannot read '%s': %s", dir, strerror(errno));
	} else if (f.n && !has) {
		rc = error("'%s' exists and storan cannot prove it wrote it "
			   "(no %s in it; %s%s); not replacing it: remove "
			   "it or name another directory", dir, MANIFEST_NAME,
			   f.names.buf, f.n > FOREIGN_SHOWN ? "..." : "");
	} else if (f.n) {
		rc = error("'%s' holds what storan did not write, or changed "
			   "since it did (%s%s); not replacing it: move that "
			   "away or name another directory", dir,
			   f.names.buf, f.n > FOREIGN_SHOWN ? ", ..." : "");
	}
	strbuf_release(&f.names);
	manifest_release(&m);
	return rc;
}

int outdir_check(const char *path)
{
	struct stat st;
	int fd, rc;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : error("cannot use '%s': %s", path,
						   strerror(errno));
	if (S_ISLNK(st.st_mode))
		return error("'%s' is a symbolic link; name the directory "
			     "itself", path);
	if (!S_ISDIR(st.st_mode))
		return error("'%s' exists and is not a directory; not "
			     "replacing it", path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	rc = check_ours(path, fd);
	close(fd);
	return rc;
}

/* ---- writing ----------------------------------------------------------- */

static int hash_file(struct walk *w, int dirfd, const char *base,
		     const char *name)
{
	char hash[65];

	if (sha256_file_hex(dirfd, base, hash))
		return error("cannot read '%s': %s", name, strerror(errno));
	manifest_add(w->ctx, name, hash);
	return 0;
}

static int unexpected(struct walk *w, const char *name, int is_dir)
{
	(void)w;
	return error("'%s%s' in a report directory storan is writing",
		     name, is_dir ? "/" : "");
}

/* The manifest of everything in the fresh directory, written into it. */
static int write_manifest(const char *tmp)
{
	struct manifest m = { 0 };
	struct walk w = { hash_file, unexpected, NULL, &m };
	struct strbuf sb = STRBUF_INIT;
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1;
	char *path;

	if (fd < 0)
		return error("cannot read '%s': %s", tmp, strerror(errno));
	if (!walk_dir(&w, fd, "", 0)) {
		qsort(m.v, m.n, sizeof(*m.v), cmp_entry);
		for (size_t i = 0; i < m.n; i++)
			strbuf_addf(&sb, "%s  %s\n", m.v[i].hash, m.v[i].name);
		path = xstrfmt("%s/%s", tmp, MANIFEST_NAME);
		rc = write_file_atomic(path, sb.buf ? sb.buf : "", sb.len);
		free(path);
	}
	close(fd);
	strbuf_release(&sb);
	manifest_release(&m);
	return rc;
}

/* Removes a parent directory of name (deepest first), if empty. */
static void remove_parents(int dirfd, const char *name)
{
	char *copy = xstrdup(name), *slash;

	while ((slash = strrchr(copy, '/'))) {
		*slash = '\0';
		if (unlinkat(dirfd, copy, AT_REMOVEDIR))
			break;
	}
	free(copy);
}

/*
 * The earlier report, moved to old: its files as its manifest lists
 * them (digests checked once more), then its directories if empty.
 */
static void remove_old_report(const char *old, const char *dir)
{
	int fd = open(old, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct manifest m = { 0 };
	char hash[65];

	if (fd >= 0 && !manifest_read(fd, &m)) {
		for (size_t i = 0; i < m.n; i++)
			if (!sha256_file_hex(fd, m.v[i].name, hash) &&
			    !strcmp(hash, m.v[i].hash))
				unlinkat(fd, m.v[i].name, 0);
		for (size_t i = 0; i < m.n; i++)
			remove_parents(fd, m.v[i].name);
		unlinkat(fd, MANIFEST_NAME, 0);
	}
	if (fd >= 0)
		close(fd);
	manifest_release(&m);
	if (rmdir(old) && errno != ENOENT)
		warning("the earlier '%s' held files that came after storan "
			"checked it; they are in '%s'", dir, old);
}

static char *strip_slashes(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return xstrndup(path, len);
}

int outdir_open(struct outdir *d, const char *path)
{
	d->target = strip_slashes(path);
	d->tmp = xstrfmt("%s.tmp-XXXXXX", d->target);
	d->tmp_handle = -1;
	if (outdir_check(d->target))
		goto fail;
	if (!tmpfiles_mkdtemp(d->tmp, &d->tmp_handle)) {
		error("cannot create a directory beside '%s': %s", d->target,
		      strerror(errno));
		goto fail;
	}
	return 0;
fail:
	free(d->target);
	free(d->tmp);
	d->target = d->tmp = NULL;
	return -1;
}

static void outdir_free(struct outdir *d)
{
	free(d->target);
	free(d->tmp);
	d->target = d->tmp = NULL;
	d->tmp_handle = -1;
}

void outdir_abort(struct outdir *d)
{
	if (!d->tmp)
		return;
	remove_tree(d->tmp);
	tmpfiles_forget(d->tmp_handle);
	outdir_free(d);
}

/* Where the exchange is not supported: two renames, old one aside first. */
static int swap_by_renames(const char *tmp, const char *dir, char **old)
{
	*old = xstrfmt("%s.old-XXXXXX", tmp);
	if (!mkdtemp(*old))
		return error("cannot move '%s' aside: %s", dir,
			     strerror(errno));
	if (rename(dir, *old)) {
		rmdir(*old);
		return error("cannot move '%s' aside: %s", dir,
			     strerror(errno));
	}
	if (rename(tmp, dir)) {
		int saved = errno;

		if (rename(*old, dir))
			error("the old report is now '%s'", *old);
		return error("cannot rename '%s' to '%s': %s", tmp, dir,
			     strerror(saved));
	}
	return 0;
}

/* Moves tmp into dir's place; *old: where the earlier dir went, or NULL. */
static int move_into_place(const char *tmp, const char *dir, char **old)
{
	struct stat st;

	*old = NULL;
	if (lstat(dir, &st)) {
		if (errno != ENOENT)
			return error("cannot use '%s': %s", dir,
				     strerror(errno));
		if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE))
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return error("cannot rename '%s' to '%s': %s", tmp,
				     dir, strerror(errno));
		if (rename(tmp, dir))	/* no RENAME_NOREPLACE here */
			return error("cannot rename '%s' to '%s': %s", tmp,
				     dir, strerror(errno));
		return 0;
	}
	if (outdir_check(dir))	/* again: it may have changed */
		return -1;
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE)) {
		*old = xstrdup(tmp);
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return error("cannot replace '%s': %s", dir, strerror(errno));
	return swap_by_renames(tmp, dir, old);
}

/*
 * The modes a user gave the earlier report (a private directory, 700,
 * its pages 600) are the new one's: file by file where the name is in
 * both, the directory's own; a new report gets 0777 less the umask.
 */
static void keep_modes(const char *tmp, const char *dir, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
		if (!depth)
			chmod(tmp, 0777 & ~current_umask());
		return;
	}
	chmod(tmp, st.st_mode & 07777);
	d = opendir(tmp);
	while (d && depth < 2 && (e = readdir(d))) {
		char *from, *to;
		struct stat was, now;

		if (e->d_name[0] == '.')
			continue;
		from = xstrfmt("%s/%s", dir, e->d_name);
		to = xstrfmt("%s/%s", tmp, e->d_name);
		if (!lstat(from, &was) && !lstat(to, &now) &&
		    (was.st_mode & S_IFMT) == (now.st_mode & S_IFMT)) {
			if (S_ISDIR(now.st_mode))
				keep_modes(to, from, depth + 1);
			else if (S_ISREG(now.st_mode))
				chmod(to, was.st_mode & 07777);
		}
		free(from);
		free(to);
	}
	if (d)
		closedir(d);
}

int outdir_commit(struct outdir *d)
{
	char *old = NULL;
	sigset_t held;
	int rc;

	if (write_manifest(d->tmp)) {
		outdir_abort(d);
		return -1;
	}
	keep_modes(d->tmp, d->target, 0);
	/* From here the name may hold the earlier report: the signal
	 * handler must not remove it as a tree, and a signal waits until
	 * the swap and the removal of the earlier report are done (one in
	 * between left a whole rep.tmp-XXXXXX behind). */
	tmpfiles_hold_signals(&held);
	tmpfiles_forget(d->tmp_handle);
	rc = move_into_place(d->tmp, d->target, &old);
	if (rc)
		remove_tree(d->tmp);	/* still the fresh one */
	else if (old)
		remove_old_report(old, d->target);
	tmpfiles_release_signals(&held);
	free(old);
	outdir_free(d);
	return rc;
}
