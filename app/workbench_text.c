/* The workbench service's texts (app/workbench.h): the PTX and SASS of versions,
 * compiled with NVRTC (no GPU needed) through the one compile request
 * builder, disassembled with nvdisasm, and cached. The texter thread makes
 * the ones asked for by rung_wb_text_prepare, one at a time, with handles
 * of its own on the task shown; the caller's thread reads the cache. */
#include "app/workbench_internal.h"

#include <stdlib.h>
#include <string.h>

#include "app/task.h"
#include "core/err.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"

/* PTX and SASS of tc->hash compiled with the task of c (NVRTC, then
 * nvdisasm): into tc, or tc->err and tc->error when the compile fails. */
static int compile_texts(rung_vctx *c, rung__wb_text *tc)
{
	rung_source src;
	int e = rung_vtask_source_at(&src, &c->task, tc->hash);
	if (e == 0) {
		/* the version's compile as the evaluation makes it (app/task.h):
		 * an #include outside the repository fails it, file:line */
		rung_version v;
		memset(&v, 0, sizeof(v));
		v.worktree = !strcmp(tc->hash, "WORKTREE");
		snprintf(v.id, sizeof(v.id), "%s", tc->hash);
		snprintf(v.kernel_path, sizeof(v.kernel_path), "%s", src.path);
		rung_compiled cc;
		e = rung_version_compile(&cc, c->repo, &c->task, &src, &v);
		if (e == 0) {
			tc->ptx = cc.ptx ? strndup(cc.ptx, cc.ptx_len) : NULL;
			if (cc.cubin && rung_sass_from_cubin(&tc->sass, cc.cubin, cc.cubin_len) < 0)
				tc->sass = NULL;
			rung_error_clear();
		} else {
			e = rung_error_set(e, "%s", cc.error[0] ? cc.error : rung_error_last());
		}
		rung_compiled_clear(&cc);
		rung_source_clear(&src);
	}
	if (e < 0) {
		tc->err = e;
		snprintf(tc->error, sizeof(tc->error), "%s", rung_error_last());
	}
	return e;
}

/* The cache entry of hash (under lock), NULL when none. */
static rung__wb_text *cache_find(rung__wb_texts *t, const char *hash)
{
	for (int i = 0; i < t->ncache; i++)
		if (!strcmp(t->cache[i].hash, hash))
			return &t->cache[i];
	return NULL;
}

static void text_clear(rung__wb_text *tc)
{
	free(tc->ptx);
	free(tc->sass);
	tc->ptx = tc->sass = NULL;
}

/* Adds *tc to the cache (under lock; taken over, or freed when hash is
 * there already). */
static void cache_add(rung__wb_texts *t, rung__wb_text *tc)
{
	if (cache_find(t, tc->hash)) {
		text_clear(tc);
		return;
	}
	rung__wb_text *nc = realloc(t->cache, (size_t)(t->ncache + 1) * sizeof(*nc));
	if (!nc) {
		text_clear(tc);
		return;
	}
	t->cache = nc;
	t->cache[t->ncache++] = *tc;
}

/* The text of a cache entry (under lock) into *out. */
static int cache_text(char **out, const rung__wb_text *tc, bool sass)
{
	if (tc->err < 0)
		return rung_error_set(tc->err, "%s", tc->error);
	const char *s = sass ? tc->sass : tc->ptx;
	if (!s)
		return rung_error_set(RUNG_ENOTFOUND, "no %s for %.7s%s", sass ? "SASS" : "PTX", tc->hash,
				      sass ? " (nvdisasm not found?)" : "");
	*out = strdup(s);
	return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

int rung_wb_text(char **out, rung_wb *b, rung_vctx *c, const char *hash, bool sass)
{
	rung__wb_texts *t = &b->texts;
	*out = NULL;
	pthread_mutex_lock(&t->lock);
	rung__wb_text *tc = cache_find(t, hash);
	int e = tc ? cache_text(out, tc, sass) : 1;
	pthread_mutex_unlock(&t->lock);
	if (e <= 0)
		return e;
	/* not made yet: here and now (text_prepare makes it in the background) */
	rung__wb_text nt = {0};
	snprintf(nt.hash, sizeof(nt.hash), "%s", hash);
	compile_texts(c, &nt);
	pthread_mutex_lock(&t->lock);
	e = cache_text(out, &nt, sass);
	cache_add(t, &nt);
	pthread_mutex_unlock(&t->lock);
	return e;
}

static void *texter_main(void *arg)
{
	rung_wb *b = arg;
	rung__wb_texts *t = &b->texts;
	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		if (!t->nq) {
			pthread_cond_wait(&t->cond, &t->lock);
			continue;
		}
		rung__wb_text tc = {0};
		snprintf(tc.hash, sizeof(tc.hash), "%s", t->q[0]);
		memmove(t->q, t->q + 1, (size_t)(t->nq - 1) * sizeof(*t->q));
		t->nq--;
		snprintf(t->busy, sizeof(t->busy), "%s", tc.hash);
		unsigned tgen = t->gen;
		pthread_mutex_unlock(&t->lock);
		unsigned gen;
		char *task = rung__wb_task_snapshot(b, &gen);
		int e = 0;
		if (t->ctx_open && t->ctx_gen != gen) {
			rung_vctx_close(&t->ctx);
			t->ctx_open = false;
		}
		if (!t->ctx_open && (e = rung_wb_open_ctx(&t->ctx, b, task, NULL, 0)) == 0) {
			t->ctx_open = true;
			t->ctx_gen = gen;
		}
		free(task);
		if (e < 0) {
			tc.err = e;
			snprintf(tc.error, sizeof(tc.error), "%s", rung_error_last());
		} else {
			compile_texts(&t->ctx, &tc);
		}
		pthread_mutex_lock(&t->lock);
		t->busy[0] = 0;
		if (tgen == t->gen)
			cache_add(t, &tc);
		else /* the cache was cleared meanwhile (another task) */
			text_clear(&tc);
		rung_wb_event ev = {.kind = RUNG_WB_TEXT};
		snprintf(ev.hash, sizeof(ev.hash), "%s", tc.hash);
		rung__wb_post(b, &ev);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int rung_wb_text_prepare(rung_wb *b, const char *hash)
{
	rung__wb_texts *t = &b->texts;
	pthread_mutex_lock(&t->lock);
	int e = 1;
	if (cache_find(t, hash)) {
		e = 0;
		goto out;
	}
	if (!strcmp(t->busy, hash))
		goto out;
	for (int i = 0; i < t->nq; i++)
		if (!strcmp(t->q[i], hash))
			goto out;
	if (!t->running) {
		if (pthread_create(&t->thread, NULL, texter_main, b) != 0) {
			e = 0; /* no thread: rung_wb_text makes it when asked */
			goto out;
		}
		t->running = true;
	}
	if (t->nq == t->qcap) {
		int cap = t->qcap ? t->qcap * 2 : 4;
		char(*q)[41] = realloc(t->q, (size_t)cap * sizeof(*q));
		if (!q) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			goto out;
		}
		t->q = q;
		t->qcap = cap;
	}
	snprintf(t->q[t->nq++], sizeof(t->q[0]), "%s", hash);
	pthread_cond_signal(&t->cond);
out:
	pthread_mutex_unlock(&t->lock);
	return e;
}

void rung_wb_text_cancel(rung_wb *b)
{
	pthread_mutex_lock(&b->texts.lock);
	b->texts.nq = 0;
	pthread_mutex_unlock(&b->texts.lock);
}

void rung_wb_texts_clear(rung_wb *b)
{
	rung__wb_texts *t = &b->texts;
	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->ncache; i++)
		text_clear(&t->cache[i]);
	free(t->cache);
	t->cache = NULL;
	t->ncache = 0;
	t->nq = 0;
	t->gen++;
	pthread_mutex_unlock(&t->lock);
}

void rung__wb_texts_init(rung__wb_texts *t)
{
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
}

void rung__wb_texts_stop(rung__wb_texts *t)
{
	if (!t->running)
		return;
	/* the text being made is finished first */
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	t->running = false;
}

/* After rung__wb_texts_stop: the handles, the cache, the queue, the lock. */
void rung__wb_texts_destroy(rung__wb_texts *t)
{
	if (t->ctx_open)
		rung_vctx_close(&t->ctx);
	t->ctx_open = false;
	for (int i = 0; i < t->ncache; i++)
		text_clear(&t->cache[i]);
	free(t->cache);
	t->cache = NULL;
	t->ncache = 0;
	free(t->q);
	t->q = NULL;
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
}
