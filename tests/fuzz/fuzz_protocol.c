/* The worker protocol reader (gpu/protocol.c): the input is the byte stream
 * from the peer (a memfd the channel reads to its end), read message by
 * message until an error; a "hello" message's env and a "job" message's plan
 * (gpu/plan.c) are decoded as the parent and the worker do. Nothing is
 * allocated for a blob before its bytes arrive, so an announced 4 GiB blob
 * stays within libFuzzer's malloc limit. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "core/err.h"
#include "core/result.h"
#include "fuzz.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static rung_plan *plan;
	if (fd < 0) {
		fd = memfd_create("fuzz.proto", 0);
		plan = malloc(sizeof(*plan));
		if (fd < 0 || !plan)
			abort();
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	rung_chan ch;
	rung_chan_init(&ch, fd);
	for (int i = 0; i < 64; i++) {
		rung_msg m;
		int rc = rung_msg_read(&m, &ch, -1);
		/* the input is small: running out of memory means a size was believed */
		FUZZ_ASSERT(rc != RUNG_ENOMEM);
		if (rc != 0)
			break;
		FUZZ_ASSERT(m.json && m.type);
		FUZZ_ASSERT(m.nblobs >= 0 && m.nblobs <= RUNG_PROTO_MAX_BLOBS);
		size_t total = 0;
		for (int b = 0; b < m.nblobs; b++) {
			FUZZ_ASSERT(((const char *)m.blobs[b].data)[m.blobs[b].len] == 0);
			total += m.blobs[b].len;
		}
		FUZZ_ASSERT(total <= size);
		if (!strcmp(m.type, "hello")) {
			rung_env env;
			rung_env_from_json(&env, json_object_get(m.json, "env"));
		} else if (!strcmp(m.type, "job")) {
			if (rung_plan_from_json(plan, m.json) == 0) {
				FUZZ_ASSERT(plan->nargs >= 0 && plan->nargs <= RUNG_MAX_ARGS);
				FUZZ_ASSERT(plan->nshapes >= 0 && plan->nshapes <= RUNG_PLAN_MAX_SHAPES);
				FUZZ_ASSERT(plan->nseeds >= 0 && plan->nseeds <= RUNG_PLAN_MAX_SEEDS);
				(void)rung_plan_first_output(plan);
			}
		}
		rung_msg_clear(&m);
	}
	rung_chan_clear(&ch);
	rung_error_clear();
	return 0;
}
