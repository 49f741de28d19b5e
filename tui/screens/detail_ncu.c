#include "tui/screens/detail_ncu.h"

#include "core/stall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/ncu.h"
#include "tui/draw.h"
#include "tui/model/prof.h"

static rung_role rule_role(const char *type)
{
	if (!strcmp(type, "OPT") || !strcmp(type, "WRN"))
		return RUNG_ROLE_WARNING;
	if (!strcmp(type, "ERR"))
		return RUNG_ROLE_ERROR;
	return RUNG_ROLE_DIM;
}

/* A rule: its type, then its text wrapped at blanks to width columns (ncu's
 * own line breaks kept), the continuation lines under the text. */
static void rule_lines(rung_lines *l, const rung_ncu_rule *r, int width)
{
	enum { INDENT = 9 };
	int w = width - INDENT - 1;
	if (w < 30)
		w = 30;
	const char *p = r->text;
	bool first = true;
	char sp[64] = "";
	if (r->speedup == r->speedup) /* estimated speedup given */
		snprintf(sp, sizeof(sp), " (est. speedup %.3g%%%s%s)", r->speedup, r->speedup_type[0] ? ", " : "", r->speedup_type);
	do {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		while (first || len > 0) {
			int n = len;
			if (n > w) {
				n = w;
				while (n > 0 && p[n] != ' ')
					n--;
				if (n == 0)
					n = w;
			}
			rung_lines_new(l);
			rung_lines_seg(l, rule_role(r->type), "  %-5.5s  ", first ? r->type : "");
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%.*s", n, p);
			first = false;
			p += n;
			len -= n;
			while (len > 0 && *p == ' ')
				p++, len--;
		}
		p = nl ? nl + 1 : NULL;
	} while (p && *p);
	if (sp[0])
		rung_lines_seg(l, RUNG_ROLE_DIM, "%s", sp);
}

/* A pane with nothing to show: its title, then none stored (and how to store
 * it) or why the stored data did not read. */
static void none_lines(rung_lines *l, const char *title, int e, const char *hash)
{
	rung_lines_add(l, RUNG_ROLE_HEADER, "%s", title);
	if (e == RUNG_ENOTFOUND)
		rung_lines_add(l, RUNG_ROLE_DIM, "  none stored (rung profile --ncu %.*s, with Nsight Compute on PATH)", RUNG_ID(hash));
	else
		rung_lines_add(l, RUNG_ROLE_ERROR, "  %s", rung_error_last());
	rung_error_clear();
}

void rung_detail_ncu_sections(rung_lines *l, rung_model *m, const char *hash, int width)
{
	rung_ncu_details d;
	int e = rung_model_ncu_details(&d, m, hash);
	if (e < 0) {
		none_lines(l, "ncu sections", e, hash);
		return;
	}
	rung_lines_add(l, RUNG_ROLE_HEADER, "ncu: %s %sx%s, CC %s, %d section%s (rung profile --ncu; u: its source page)", d.kernel,
		       d.grid, d.block, d.cc, d.nsections, d.nsections == 1 ? "" : "s");
	char sol[512];
	rung_ncu_sol_line(sol, sizeof(sol), &d);
	if (sol[0])
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "  SOL: %s", sol);
	int mw = 24, uw = 4;
	for (int i = 0; i < d.nsections; i++)
		for (int k = 0; k < d.sections[i].nmetrics; k++) {
			int a = (int)strlen(d.sections[i].metrics[k].name), b = (int)strlen(d.sections[i].metrics[k].unit);
			mw = a > mw && a <= 60 ? a : mw;
			uw = b > uw && b <= 24 ? b : uw;
		}
	for (int i = 0; i < d.nsections; i++) {
		const rung_ncu_section *s = &d.sections[i];
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
		rung_lines_add(l, RUNG_ROLE_HEADER, "%s", s->name);
		if (s->nmetrics)
			rung_lines_add(l, RUNG_ROLE_DIM, "  %-*s %-*s %14s", mw, "metric", uw, "unit", "value");
		for (int k = 0; k < s->nmetrics; k++) {
			const rung_ncu_metric *mt = &s->metrics[k];
			rung_lines_new(l);
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %-*s ", mw, mt->name);
			rung_lines_seg(l, RUNG_ROLE_DIM, "%-*s ", uw, mt->unit);
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%14s", mt->value);
		}
		for (int k = 0; k < s->nrules; k++)
			rule_lines(l, &s->rules[k], width);
	}
	rung_ncu_details_clear(&d);
}

static void count_col(rung_lines *l, rung_role role, int64_t v, int w)
{
	if (v < 0)
		rung_lines_seg(l, RUNG_ROLE_DIM, " %*s", w, "-");
	else
		rung_lines_seg(l, role, " %*lld", w, (long long)v);
}

void rung_detail_ncu_source(rung_lines *l, rung_model *m, const char *hash)
{
	rung_ncu_source s;
	int e = rung_model_ncu_source(&s, m, hash);
	if (e < 0) {
		none_lines(l, "ncu source page", e, hash);
		return;
	}
	rung_sass_counts c;
	bool have = rung_model_sass_counts(&c, m, hash) == 0;
	rung_error_clear();
	int64_t samples = rung_ncu_source_samples(&s);
	rung_lines_add(l, RUNG_ROLE_HEADER, "ncu source page: %s, %d SASS line%s, %lld warp stall samples",
		       s.kernel, s.nlines, s.nlines == 1 ? "" : "s", (long long)samples);
	rung_ncu_agreement ag;
	memset(&ag, 0, sizeof(ag));
	if (!s.has_inst) {
		rung_lines_add(l, RUNG_ROLE_WARNING, "  ncu's page has no Instructions Executed column: nothing to check rung's counts against");
	} else if (!have) {
		rung_lines_add(l, RUNG_ROLE_DIM, "  rung's own counts: none stored (rung profile --sass %.*s)", RUNG_ID(hash));
	} else {
		rung_ncu_agree(&ag, &s, &c);
		bool all = ag.compared > 0 && ag.agree == ag.compared && !ag.ncu_only && !ag.rung_only;
		rung_lines_new(l);
		rung_lines_seg(l, all ? RUNG_ROLE_OK : RUNG_ROLE_WARNING, "  %d of %d pcs agree exactly", ag.agree, ag.compared);
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, " with ncu's Instructions Executed");
		if (ag.first_pc >= 0)
			rung_lines_seg(l, RUNG_ROLE_WARNING, "; first difference at %04llx", (unsigned long long)ag.first_pc);
		if (ag.ncu_only)
			rung_lines_seg(l, RUNG_ROLE_WARNING, "; %d executed pc%s without a count", ag.ncu_only, ag.ncu_only == 1 ? "" : "s");
		if (ag.rung_only)
			rung_lines_seg(l, RUNG_ROLE_WARNING, "; %d counted pc%s not on the page", ag.rung_only, ag.rung_only == 1 ? "" : "s");
	}
	rung_lines_add(l, RUNG_ROLE_HEADER, "      pc  rung count  ncu inst exec   samples  top stall              instruction");
	for (int i = 0; i < s.nlines; i++) {
		const rung_ncu_line *nl = &s.lines[i];
		const rung_sass_pc *p = have ? rung_sass_counts_at(&c, nl->pc) : NULL;
		bool differ = p && nl->inst >= 0 && (uint64_t)nl->inst != p->inst;
		rung_lines_new(l);
		char pc[24]; /* the offset as nvdisasm prints it ("0040") */
		snprintf(pc, sizeof(pc), "%04llx", (unsigned long long)nl->pc);
		rung_lines_seg(l, differ ? RUNG_ROLE_FAILED : RUNG_ROLE_DIM, "%c %6s", differ ? '!' : ' ', pc);
		count_col(l, differ ? RUNG_ROLE_FAILED : RUNG_ROLE_DEFAULT, p ? (int64_t)p->inst : -1, 11);
		count_col(l, differ ? RUNG_ROLE_FAILED : RUNG_ROLE_DEFAULT, nl->inst, 14);
		count_col(l, nl->samples > 0 ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, nl->samples, 9);
		int k = rung_ncu_line_top_stall(&s, nl);
		char top[48] = "";
		if (k >= 0) {
			char lab[48]; /* rung's name of the reason, as the SASS pane says it */
			rung_stall_label(lab, sizeof(lab), s.stalls[k]);
			snprintf(top, sizeof(top), "%.24s %lld", lab, (long long)nl->stall[k]);
		}
		rung_lines_seg(l, RUNG_ROLE_DIM, "  %-22s", top);
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, " %s", nl->sass);
	}
	if (have)
		rung_sass_counts_clear(&c);
	rung_ncu_source_clear(&s);
}
