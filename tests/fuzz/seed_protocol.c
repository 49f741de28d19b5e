/* Writes the protocol fuzzer's seeds (tests/fuzz/make_corpus.sh): real frames
 * as the parent and the worker write them (rung_msg_write), built from the
 * project's files: a hello with the env of a result recorded on the H200
 * (examples/sgemm/recorded.jsonl), the job plan of tests/tasks/sgemm with two
 * small blobs, progress, a result with its JSON blob, and quit.
 * Usage: fuzz_seed_protocol SRCDIR OUTDIR */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/result.h"
#include "core/spec.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker_internal.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b)
		b[n] = 0;
	return b;
}

static int open_out(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		perror(path);
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s SRCDIR OUTDIR\n", argv[0]);
		return 2;
	}
	const char *src = argv[1], *out = argv[2];
	char path[4096];

	/* the first recorded sgemm result: its env for hello, its JSON for result */
	snprintf(path, sizeof path, "%s/examples/sgemm/recorded.jsonl", src);
	char *jsonl = slurp(path);
	json_t *line = jsonl ? json_loadb(jsonl, strcspn(jsonl, "\n"), 0, NULL) : NULL;
	char *rtext = line ? json_dumps(json_object_get(line, "result"), JSON_COMPACT) : NULL;
	rung_result *r = malloc(sizeof(*r));
	if (!rtext || !r || rung_result_from_json(r, rtext) != 0) {
		fprintf(stderr, "%s: no recorded result: %s\n", path, rung_error_last());
		return 1;
	}

	/* the plan of the test task, as gpu/worker.c sends it */
	snprintf(path, sizeof path, "%s/tests/tasks/sgemm", src);
	rung_spec *spec;
	rung_launch kl, rl;
	rung_plan *p = malloc(sizeof(*p));
	snprintf(path, sizeof path, "%s/tests/tasks/sgemm/sgemm.cu", src);
	char *ksrc = slurp(path);
	snprintf(path, sizeof path, "%s/tests/tasks/sgemm", src);
	if (!p || !ksrc || rung_spec_load(&spec, path) != 0 || rung_launch_from_source(&kl, spec, ksrc, "sgemm.cu") < 0 ||
	    rung_launch_from_source(&rl, spec, "", "reference.cu") < 0 || rung_plan_build(p, spec, &kl, &rl, 0x1234) != 0) {
		fprintf(stderr, "%s: no plan: %s\n", path, rung_error_last());
		return 1;
	}
	snprintf(p->kernel.lowered, sizeof p->kernel.lowered, "_Z5sgemmILi32EEviiiPKfS1_Pf");
	snprintf(p->ref.lowered, sizeof p->ref.lowered, "_Z9sgemm_refiiiPKfS0_Pf");
	p->budget_s = 2;

	/* stand-ins for the CUBINs: an ELF header's first bytes, and one holding '\n' */
	static const char elf[] = "\x7f" "ELF\x02\x01\x01\x33\x07\x00\x00\x00\n\x00\x00\x00";
	rung_blob cubins[2] = { { (void *)elf, sizeof elf - 1 }, { (void *)"x\ny", 3 } };
	rung_blob rblob = { rtext, strlen(rtext) };

	int fd;
	if ((fd = open_out(out, "hello")) < 0)
		return 1;
	json_t *h = json_pack("{s:s,s:i,s:b,s:o}", "type", "hello", "proto", RUNG_PROTO_VERSION, "ok", 1, "env",
			      rung_env_to_json(&r->env));
	int e = rung_msg_write(fd, h, NULL, 0);
	close(fd);

	if ((fd = open_out(out, "hello_no_driver")) < 0)
		return 1;
	json_t *h0 = json_pack("{s:s,s:i,s:b,s:s}", "type", "hello", "proto", RUNG_PROTO_VERSION, "ok", 0, "reason",
			       "no CUDA driver found (libcuda.so.1)");
	e |= rung_msg_write(fd, h0, NULL, 0);
	close(fd);

	if ((fd = open_out(out, "job")) < 0)
		return 1;
	json_t *job = rung_plan_to_json(p);
	e |= rung_msg_write(fd, job, cubins, 2);
	close(fd);

	/* a worker's whole answer to a job */
	if ((fd = open_out(out, "progress_result_quit")) < 0)
		return 1;
	json_t *pr = json_pack("{s:s,s:s,s:f,s:s}", "type", "progress", "step", "check", "frac", 0.5, "msg",
			       "M=127,N=65,K=33 seed 2/2");
	json_t *res = json_pack("{s:s,s:b}", "type", "result", "fatal", 0);
	json_t *quit = json_pack("{s:s}", "type", "quit");
	e |= rung_msg_write(fd, pr, NULL, 0);
	e |= rung_msg_write(fd, res, &rblob, 1);
	e |= rung_msg_write(fd, quit, NULL, 0);
	close(fd);

	if ((fd = open_out(out, "error")) < 0)
		return 1;
	json_t *err = json_pack("{s:s,s:s,s:s,s:b}", "type", "error", "step", "run", "reason",
				"plan: bad \"shapes\"", "fatal", 0);
	e |= rung_msg_write(fd, err, NULL, 0);
	close(fd);

	json_decref(h);
	json_decref(h0);
	json_decref(job);
	json_decref(pr);
	json_decref(res);
	json_decref(quit);
	json_decref(err);
	json_decref(line);
	rung_launch_clear(&kl);
	rung_launch_clear(&rl);
	rung_spec_free(spec);
	rung_result_clear(r);
	free(r);
	free(p);
	free(ksrc);
	free(rtext);
	free(jsonl);
	return e ? 1 : 0;
}
