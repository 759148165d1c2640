/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Output directories written whole or not at all (storan report -o DIR):
 * the files go into a fresh directory beside DIR, which then takes DIR's
 * place in one rename (RENAME_EXCHANGE where the file system has it).
 *
 * DIR is replaced only when storan can prove it wrote every file in it:
 * each directory storan writes holds MANIFEST_NAME, the SHA-256 of every
 * other file in it, in the format of sha256sum(1) (so that
 * `sha256sum -c storan-manifest.sha256` checks it too).  A DIR that does
 * not exist, an empty one, or one whose every file is listed there with
 * its digest unchanged may be replaced; anything else (a file storan did
 * not write or one edited since, a symbolic link, a directory with no
 * manifest) is refused, naming what is foreign.  The earlier report is
 * then removed file by file from its manifest, each digest checked once
 * more, never as a whole tree: a file that arrived meanwhile stays, with
 * the directory that holds it, and the user is told where.
 *
 * An interrupted write (SIGINT, SIGTERM...) removes the fresh directory
 * (core/tmpfiles.h).
 */
#ifndef STORAN_OUTDIR_H
#define STORAN_OUTDIR_H

#define MANIFEST_NAME "storan-manifest.sha256"

struct outdir {
	char *target;	/* DIR, without trailing slashes */
	char *tmp;	/* where the files go meanwhile */
	int tmp_handle;
};

/*
 * May path become an output directory?  0, or -1 after printing why not.
 * Commands ask before their work; outdir_open() and outdir_commit() ask
 * again.
 */
int outdir_check(const char *path);

/* Checks path, creates the fresh directory (d->tmp): 0, or -1 printed. */
int outdir_open(struct outdir *d, const char *path);
/* Writes the manifest and moves d->tmp into place: 0, or -1 printed (the
 * fresh directory is then removed, the old DIR left as it was). */
int outdir_commit(struct outdir *d);
/* Removes the fresh directory. */
void outdir_abort(struct outdir *d);

#endif
