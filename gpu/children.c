/* Children and temporary files (see children.h). */
#include "gpu/children.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_KIDS = 64, MAX_TMP = 32 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	pid_t pid;
	bool group, detached;
} kids[MAX_KIDS];
static char tmps[MAX_TMP][PATH_MAX];

void rung_children_add(pid_t pid, bool group)
{
	if (pid <= 0)
		return;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_KIDS; i++)
		if (!kids[i].pid) {
			kids[i].pid = pid;
			kids[i].group = group;
			kids[i].detached = false;
			break;
		}
	pthread_mutex_unlock(&mu);
}

static void set_state(pid_t pid, bool del)
{
	if (pid <= 0)
		return;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i].pid == pid) {
			if (del)
				kids[i].pid = 0;
			else
				kids[i].detached = true;
		}
	pthread_mutex_unlock(&mu);
}

void rung_children_del(pid_t pid)
{
	set_state(pid, true);
}

void rung_children_detach(pid_t pid)
{
	set_state(pid, false);
}

static void kill_one(int i)
{
	if (kids[i].group)
		kill(-kids[i].pid, SIGKILL);
	kill(kids[i].pid, SIGKILL);
}

/* One pass over the detached children: reaps the ended ones (kill_rest: kills
 * and reaps the others). Under mu. Returns how many are left. */
static int reap_pass(bool kill_rest)
{
	int left = 0;
	for (int i = 0; i < MAX_KIDS; i++) {
		if (!kids[i].pid || !kids[i].detached)
			continue;
		if (kill_rest)
			kill_one(i);
		pid_t r;
		while ((r = waitpid(kids[i].pid, NULL, kill_rest ? 0 : WNOHANG)) < 0 && errno == EINTR)
			;
		if (r == kids[i].pid || (r < 0 && errno == ECHILD))
			kids[i].pid = 0;
		else
			left++;
	}
	return left;
}

int rung_children_reap(int grace_ms)
{
	pthread_mutex_lock(&mu);
	int left = reap_pass(false);
	for (int t = 0; left && t < grace_ms; t += 10) {
		pthread_mutex_unlock(&mu);
		struct timespec ts = {0, 10 * 1000000};
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
		left = reap_pass(false);
	}
	if (left && grace_ms > 0)
		left = reap_pass(true);
	pthread_mutex_unlock(&mu);
	return left;
}

void rung_children_kill(void)
{
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i].pid)
			kill_one(i);
	pthread_mutex_unlock(&mu);
}

void rung_children_unblock(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void rung_tmp_add(const char *path)
{
	if (!path || strlen(path) >= PATH_MAX)
		return;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_TMP; i++)
		if (!tmps[i][0]) {
			memcpy(tmps[i], path, strlen(path) + 1);
			break;
		}
	pthread_mutex_unlock(&mu);
}

void rung_tmp_del(const char *path)
{
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_TMP; i++)
		if (tmps[i][0] && !strcmp(tmps[i], path))
			tmps[i][0] = 0;
	pthread_mutex_unlock(&mu);
}

void rung_tmp_remove_all(void)
{
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_TMP; i++) {
		if (!tmps[i][0])
			continue;
		struct stat st;
		if (lstat(tmps[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(tmps[i]);
			struct dirent *de;
			char p[PATH_MAX + 256];
			while (d && (de = readdir(d)))
				if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
				    snprintf(p, sizeof(p), "%s/%s", tmps[i], de->d_name) < (int)sizeof(p))
					unlink(p);
			if (d)
				closedir(d);
			rmdir(tmps[i]);
		} else {
			unlink(tmps[i]);
		}
		tmps[i][0] = 0;
	}
	pthread_mutex_unlock(&mu);
}
