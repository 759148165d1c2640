/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Long output on a terminal through a pager, as git does: the command in
 * $STORAN_PAGER, else $PAGER, else "less -FRX" (-F quits when the text
 * fits one screen, -R passes colours, -X leaves it on the screen), run
 * by /bin/sh with LESS=FRX and LV=-c unless they are set.  An empty
 * command or "cat" means no pager.  Never a pager when standard output
 * is not a terminal.
 *
 * A pager that cannot be started (not installed, not executable: the
 * shell's 126 and 127) loses nothing: the text is written to standard
 * output after all.  A pager the user quits early is not an error.
 */
#ifndef STORAN_PAGER_H
#define STORAN_PAGER_H

#include <stddef.h>

/* The pager command to use now, or NULL (not a terminal, none set). */
const char *pager_command(void);

/*
 * Writes data[0..len) to standard output, through the pager when
 * pager_command() names one.  Returns 0, or -1 after printing why the
 * text could not be written.
 */
int pager_write(const char *data, size_t len);

#endif
