/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Temporary files and directories that storan made, removed when a fatal
 * signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT) ends the process
 * before they were renamed into place or removed: an interrupted command
 * leaves nothing behind.
 *
 * Only what storan created itself (mkstemp, mkdtemp) is ever registered:
 * the handler deletes a registered directory with all it holds.  The
 * handler is installed, for each of those signals, the first time
 * something is registered, and only where the signal's action is still
 * the default: a signal the user ignores (nohup) stays ignored, and a
 * command that handles a signal itself (storan run stops its measurement
 * on SIGINT) keeps its handler and calls tmpfiles_remove_now() when it
 * gives up.  After removing, the handler re-raises the signal, so the
 * exit status says the process was killed by it.
 *
 * At most TMPFILES_MAX entries at a time (a report, an output file and
 * their spares); a path of at most PATH_MAX bytes.  Registering past
 * that is a BUG().  Entries live in static storage: the handler touches
 * no heap and calls only async-signal-safe functions.
 */
#ifndef STORAN_TMPFILES_H
#define STORAN_TMPFILES_H

#include <signal.h>

#define TMPFILES_MAX 32

enum tmpfile_kind { TMPFILE_FILE, TMPFILE_DIR };

/* Registers path; returns a handle for tmpfiles_forget(). */
int tmpfiles_add(const char *path, enum tmpfile_kind kind);
/*
 * mkostemp(template, flags) and mkdtemp(template) that register what they
 * create, with the fatal signals blocked from before the creation until
 * the registration: a signal in between would leave the file behind.
 * Return as mkostemp and mkdtemp do; *handle is for tmpfiles_forget().
 */
int tmpfiles_mkstemp(char *template, int flags, int *handle);
char *tmpfiles_mkdtemp(char *template, int *handle);
/*
 * The fatal signals held back in this thread (caught first), and let
 * through again: a step that must not stop half way (a report directory
 * swapped into place and the earlier one removed) runs between the two.
 */
void tmpfiles_hold_signals(sigset_t *old);
void tmpfiles_release_signals(const sigset_t *old);
/* path was renamed into place or removed: not to be touched any more. */
void tmpfiles_forget(int handle);
/* Removes everything registered now (async-signal-safe). */
void tmpfiles_remove_now(void);

/*
 * Removes directory path and everything below it, without following a
 * symbolic link (async-signal-safe; depth at most 8).  Returns 0, or -1
 * with errno set when something was left.
 */
int remove_tree(const char *path);

#endif
