/* A plain main() for the fuzz harnesses, without libFuzzer: runs every file
 * named on the command line, and every file in every directory named, through
 * LLVMFuzzerTestOneInput (a buffer of exactly the file's size, as libFuzzer
 * gives it). ctest runs it on tests/fuzz/corpus/<parser> and
 * tests/fuzz/regress/<parser> in both normal builds, so the regression inputs
 * run under gcc and ASan+UBSan too. Exits 1 when it found no input at all. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0, n;
	uint8_t *buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	/* exactly len bytes, so that ASan sees a read past the input */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	fprintf(stderr, "input %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cap_address_space(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return;
	if (fscanf(f, "%lu", &pages) == 1) {
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
		setrlimit(RLIMIT_AS, &rl);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	int ran = 0, bad = 0;
	cap_address_space();
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			bad++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad += run_file(argv[i]) < 0;
			ran++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		if (!d) {
			perror(argv[i]);
			bad++;
			continue;
		}
		char **names = NULL;
		size_t n = 0;
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			char **nn = realloc(names, (n + 1) * sizeof(*nn));
			if (!nn)
				abort();
			names = nn;
			size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
			names[n] = malloc(l);
			snprintf(names[n], l, "%s/%s", argv[i], e->d_name);
			n++;
		}
		closedir(d);
		qsort(names, n, sizeof(*names), cmp);
		for (size_t k = 0; k < n; k++) {
			if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
				bad += run_file(names[k]) < 0;
				ran++;
			}
			free(names[k]);
		}
		free(names);
	}
	printf("%d inputs, %d unreadable\n", ran, bad);
	return ran == 0 || bad ? 1 : 0;
}
