/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pager (see pager.h): a child /bin/sh -c PAGER reading a pipe; the
 * whole text is written to it, then the child is waited for.  SIGPIPE is
 * ignored meanwhile, so that a pager quit early (q in less) ends the
 * writing quietly instead of killing storan.
 */
#include "pager.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *pager_command(void)
{
	const char *cmd = getenv("STORAN_PAGER");

	if (!isatty(STDOUT_FILENO))
		return NULL;
	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd)
		cmd = "less -FRX";
	if (!*cmd || !strcmp(cmd, "cat"))
		return NULL;
	return cmd;
}

/* All of data to fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_stdout(const char *data, size_t len)
{
	fflush(stdout);
	if (write_all(STDOUT_FILENO, data, len))
		return error("cannot write to standard output: %s",
			     strerror(errno));
	return 0;
}

int pager_write(const char *data, size_t len)
{
	const char *cmd = pager_command();
	struct sigaction ign, old;
	int fd[2], status = 0;
	pid_t pid;

	if (!cmd)
		return write_stdout(data, len);
	fflush(stdout);
	if (pipe(fd))
		return write_stdout(data, len);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return write_stdout(data, len);
	}
	if (!pid) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", "FRX", 0);
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	write_all(fd[1], data, len);	/* EPIPE: the pager was quit */
	close(fd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &old, NULL);
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 126 ||
				  WEXITSTATUS(status) == 127)) {
		fprintf(stderr, "storan: cannot run the pager '%s'; "
			"writing to the terminal\n", cmd);
		return write_stdout(data, len);
	}
	return 0;
}
