#include "core/ncu.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/err.h"

/* ncu's section identifiers (the rule rows name these) and their titles. */
static const char *const section_titles[][2] = {
	{"SpeedOfLight", "GPU Speed Of Light Throughput"},
	{"SpeedOfLight_RooflineChart", "GPU Speed Of Light Roofline Chart"},
	{"SpeedOfLight_HierarchicalSingleRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Single Precision)"},
	{"SpeedOfLight_HierarchicalDoubleRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Double Precision)"},
	{"SpeedOfLight_HierarchicalHalfRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Half Precision)"},
	{"SpeedOfLight_HierarchicalTensorRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Tensor Core)"},
	{"ComputeWorkloadAnalysis", "Compute Workload Analysis"},
	{"MemoryWorkloadAnalysis", "Memory Workload Analysis"},
	{"MemoryWorkloadAnalysis_Chart", "Memory Workload Analysis Chart"},
	{"MemoryWorkloadAnalysis_Tables", "Memory Workload Analysis Tables"},
	{"LaunchStats", "Launch Statistics"},
	{"Occupancy", "Occupancy"},
	{"WorkloadDistribution", "GPU and Memory Workload Distribution"},
	{"SourceCounters", "Source Counters"},
	{"WarpStateStats", "Warp State Statistics"},
	{"SchedulerStats", "Scheduler Statistics"},
	{"InstructionStats", "Instruction Statistics"},
	{"NumaAffinity", "NUMA Affinity"},
	{"Nvlink", "NVLink"},
	{"PmSampling", "PM Sampling"},
};

const char *rung_ncu_section_title(const char *ident)
{
	for (size_t i = 0; i < sizeof(section_titles) / sizeof(section_titles[0]); i++)
		if (!strcmp(ident, section_titles[i][0]))
			return section_titles[i][1];
	return NULL;
}

static char *dup(const char *s)
{
	size_t n = strlen(s ? s : "");
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s ? s : "", n + 1);
	return d;
}

/* s without blanks around it, copied into a fixed buffer */
static void copy_trim(char *dst, size_t cap, const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	snprintf(dst, cap, "%.*s", (int)n, s);
}

static int col(const rung_csv_row *h, const char *name)
{
	for (int i = 0; i < h->nfields; i++)
		if (!strcmp(h->fields[i], name))
			return i;
	return -1;
}

/* ---- the details page ---- */

static void section_clear(rung_ncu_section *s)
{
	for (int i = 0; i < s->nmetrics; i++) {
		free(s->metrics[i].name);
		free(s->metrics[i].unit);
		free(s->metrics[i].value);
	}
	for (int i = 0; i < s->nrules; i++) {
		free(s->rules[i].name);
		free(s->rules[i].type);
		free(s->rules[i].text);
		free(s->rules[i].speedup_type);
	}
	free(s->metrics);
	free(s->rules);
	free(s->name);
}

void rung_ncu_details_clear(rung_ncu_details *d)
{
	for (int i = 0; i < d->nsections; i++)
		section_clear(&d->sections[i]);
	free(d->sections);
	memset(d, 0, sizeof(*d));
}

static rung_ncu_section *section_get(rung_ncu_details *d, const char *name)
{
	for (int i = 0; i < d->nsections; i++)
		if (!strcmp(d->sections[i].name, name))
			return &d->sections[i];
	rung_ncu_section *v = realloc(d->sections, sizeof(*v) * (size_t)(d->nsections + 1));
	if (!v)
		return NULL;
	d->sections = v;
	rung_ncu_section *s = &v[d->nsections];
	memset(s, 0, sizeof(*s));
	if (!(s->name = dup(name)))
		return NULL;
	d->nsections++;
	return s;
}

/* The section a rule row's identifier names: its known title; else a section
 * whose title is the identifier without blanks ("Occupancy"); else one titled
 * by the identifier with '_' as blanks. */
static rung_ncu_section *rule_section(rung_ncu_details *d, const char *ident)
{
	const char *title = rung_ncu_section_title(ident);
	if (title)
		return section_get(d, title);
	for (int i = 0; i < d->nsections; i++) {
		const char *a = d->sections[i].name, *b = ident;
		while (*a && *b) {
			if (*a == ' ') {
				a++;
				continue;
			}
			if (*a != *b)
				break;
			a++, b++;
		}
		if (!*a && !*b)
			return &d->sections[i];
	}
	char t[256];
	snprintf(t, sizeof(t), "%s", ident);
	for (char *p = t; *p; p++)
		if (*p == '_')
			*p = ' ';
	return section_get(d, t);
}

static int add_metric(rung_ncu_section *s, const char *name, const char *unit, const char *value)
{
	rung_ncu_metric *v = realloc(s->metrics, sizeof(*v) * (size_t)(s->nmetrics + 1));
	if (!v)
		return -1;
	s->metrics = v;
	rung_ncu_metric *m = &v[s->nmetrics];
	m->name = dup(name);
	m->unit = dup(unit);
	m->value = dup(value);
	s->nmetrics++;
	return m->name && m->unit && m->value ? 0 : -1;
}

static int add_rule(rung_ncu_section *s, const char *name, const char *type, const char *text, const char *sptype,
		    double speedup)
{
	rung_ncu_rule *v = realloc(s->rules, sizeof(*v) * (size_t)(s->nrules + 1));
	if (!v)
		return -1;
	s->rules = v;
	rung_ncu_rule *r = &v[s->nrules];
	r->name = dup(name);
	r->type = dup(type);
	r->text = dup(text);
	r->speedup_type = dup(sptype);
	r->speedup = speedup;
	s->nrules++;
	return r->name && r->type && r->text && r->speedup_type ? 0 : -1;
}

/* Rows before the header that ncu or the shell put there ("==PROF==", "==WARNING=="). */
static bool chatter(const rung_csv_row *r)
{
	return r->nfields >= 1 && !strncmp(r->fields[0], "==", 2);
}

int rung_ncu_details_parse(rung_ncu_details *out, const char *text, size_t len, const char *name)
{
	memset(out, 0, sizeof(*out));
	if (!name)
		name = "details";
	rung_csv c;
	int rc = rung_csv_parse(&c, text, len, name);
	if (rc)
		return rc;
	int h = 0;
	while (h < c.nrows && chatter(&c.rows[h]))
		h++;
	if (h >= c.nrows) {
		rc = rung_error_set(RUNG_EINVAL, "%s:1: no header row (is this ncu's --page details --csv?)", name);
		goto done;
	}
	const rung_csv_row *hr = &c.rows[h];
	static const char *const need[] = {"Section Name", "Metric Name", "Metric Unit", "Metric Value"};
	int ci[4];
	for (int k = 0; k < 4; k++)
		if ((ci[k] = col(hr, need[k])) < 0) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: no \"%s\" column in the header (is this ncu's --page details --csv?)",
					    name, hr->line, need[k]);
			goto done;
		}
	int cid = col(hr, "ID"), ck = col(hr, "Kernel Name"), cg = col(hr, "Grid Size"), cb = col(hr, "Block Size"),
	    ccc = col(hr, "CC"), crn = col(hr, "Rule Name"), crt = col(hr, "Rule Type"), crd = col(hr, "Rule Description"),
	    cst = col(hr, "Estimated Speedup Type"), csp = col(hr, "Estimated Speedup");
	const char *first_id = NULL;
	for (int i = h + 1; i < c.nrows; i++) {
		const rung_csv_row *r = &c.rows[i];
		if (r->nfields > hr->nfields) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: %d fields, the header has %d", name, r->line, r->nfields, hr->nfields);
			goto done;
		}
		const char *id = rung_csv_field(r, cid);
		if (!first_id) {
			first_id = id;
			copy_trim(out->kernel, sizeof(out->kernel), rung_csv_field(r, ck));
			copy_trim(out->grid, sizeof(out->grid), rung_csv_field(r, cg));
			copy_trim(out->block, sizeof(out->block), rung_csv_field(r, cb));
			copy_trim(out->cc, sizeof(out->cc), rung_csv_field(r, ccc));
		} else if (strcmp(id, first_id)) {
			out->skipped++;
			continue;
		}
		const char *sec = rung_csv_field(r, ci[0]), *metric = rung_csv_field(r, ci[1]);
		const char *rule = rung_csv_field(r, crn), *desc = rung_csv_field(r, crd);
		if (!sec[0]) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: a row with no section name", name, r->line);
			goto done;
		}
		int e;
		if (metric[0]) {
			rung_ncu_section *s = section_get(out, sec);
			e = s ? add_metric(s, metric, rung_csv_field(r, ci[2]), rung_csv_field(r, ci[3])) : -1;
		} else if (rule[0] || desc[0]) {
			rung_ncu_section *s = rule_section(out, sec);
			double sp;
			if (rung_csv_number(&sp, rung_csv_field(r, csp)))
				sp = NAN;
			e = s ? add_rule(s, rule, rung_csv_field(r, crt), desc, rung_csv_field(r, cst), sp) : -1;
		} else {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: a row of section \"%.80s\" with neither a metric nor a rule", name,
					    r->line, sec);
			goto done;
		}
		if (e) {
			rc = rung_error_set(RUNG_ENOMEM, "%s: out of memory", name);
			goto done;
		}
	}
	if (!first_id)
		rc = rung_error_set(RUNG_EINVAL, "%s:%d: a header and no rows (ncu profiled no kernel?)", name, hr->line);
done:
	rung_csv_clear(&c);
	if (rc)
		rung_ncu_details_clear(out);
	return rc;
}

const rung_ncu_metric *rung_ncu_metric_find(const rung_ncu_details *d, const char *section, const char *metric)
{
	for (int i = 0; i < d->nsections; i++) {
		if (section && strcmp(d->sections[i].name, section))
			continue;
		for (int k = 0; k < d->sections[i].nmetrics; k++)
			if (!strcmp(d->sections[i].metrics[k].name, metric))
				return &d->sections[i].metrics[k];
	}
	return NULL;
}

/* appends "<label> <value><unit>" for the metric when the page has it */
static void sol_part(char *buf, size_t len, const rung_ncu_details *d, const char *label, const char *metric,
		     const char *before)
{
	const rung_ncu_metric *m = rung_ncu_metric_find(d, "GPU Speed Of Light Throughput", metric);
	if (!m || !m->value[0])
		return;
	size_t n = strlen(buf);
	bool pct = !strcmp(m->unit, "%");
	snprintf(buf + n, len - n, "%s%s %s%s%s", n ? before : "", label, m->value, pct ? "" : " ", m->unit);
}

void rung_ncu_sol_line(char *buf, size_t len, const rung_ncu_details *d)
{
	if (!len)
		return;
	buf[0] = 0;
	sol_part(buf, len, d, "compute (SM)", "Compute (SM) Throughput", ", ");
	sol_part(buf, len, d, "memory", "Memory Throughput", ", ");
	size_t n0 = strlen(buf);
	sol_part(buf, len, d, "DRAM", "DRAM Throughput", " (");
	sol_part(buf, len, d, "L1/TEX", "L1/TEX Cache Throughput", ", ");
	sol_part(buf, len, d, "L2", "L2 Cache Throughput", ", ");
	size_t n1 = strlen(buf);
	if (n1 > n0 && n0 && n1 + 1 < len)
		snprintf(buf + n1, len - n1, ")");
	sol_part(buf, len, d, "duration", "Duration", ", ");
}

json_t *rung_ncu_details_to_json(const rung_ncu_details *d)
{
	json_t *secs = json_array();
	for (int i = 0; i < d->nsections; i++) {
		const rung_ncu_section *s = &d->sections[i];
		json_t *ms = json_array(), *rs = json_array();
		for (int k = 0; k < s->nmetrics; k++)
			json_array_append_new(ms, json_pack("[sss]", s->metrics[k].name, s->metrics[k].unit, s->metrics[k].value));
		for (int k = 0; k < s->nrules; k++) {
			const rung_ncu_rule *r = &s->rules[k];
			json_t *o = json_pack("{s:s,s:s,s:s,s:s}", "name", r->name, "type", r->type, "text", r->text, "speedup_type",
					      r->speedup_type);
			json_object_set_new(o, "speedup", isnan(r->speedup) ? json_null() : json_real(r->speedup));
			json_array_append_new(rs, o);
		}
		json_array_append_new(secs, json_pack("{s:s,s:o,s:o}", "name", s->name, "metrics", ms, "rules", rs));
	}
	return json_pack("{s:i,s:s,s:s,s:s,s:s,s:o}", "format", 1, "kernel", d->kernel, "grid", d->grid, "block", d->block,
			 "cc", d->cc, "sections", secs);
}

static const char *jstr(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

int rung_ncu_details_from_json(rung_ncu_details *d, const json_t *j)
{
	memset(d, 0, sizeof(*d));
	json_t *secs = json_object_get(j, "sections");
	if (!json_is_object(j) || !json_is_array(secs))
		return rung_error_set(RUNG_EINVAL, "ncu sections: not an object with a \"sections\" array");
	snprintf(d->kernel, sizeof(d->kernel), "%s", jstr(j, "kernel"));
	snprintf(d->grid, sizeof(d->grid), "%s", jstr(j, "grid"));
	snprintf(d->block, sizeof(d->block), "%s", jstr(j, "block"));
	snprintf(d->cc, sizeof(d->cc), "%s", jstr(j, "cc"));
	size_t i;
	json_t *so;
	json_array_foreach(secs, i, so) {
		json_t *ms = json_object_get(so, "metrics"), *rs = json_object_get(so, "rules");
		const char *nm = json_string_value(json_object_get(so, "name"));
		if (!nm || !nm[0] || (ms && !json_is_array(ms)) || (rs && !json_is_array(rs)))
			goto bad;
		rung_ncu_section *s = section_get(d, nm);
		if (!s)
			goto nomem;
		size_t k;
		json_t *m;
		json_array_foreach(ms, k, m) {
			const char *a = json_string_value(json_array_get(m, 0)), *b = json_string_value(json_array_get(m, 1)),
				   *c = json_string_value(json_array_get(m, 2));
			if (!json_is_array(m) || !a || !b || !c)
				goto bad;
			if (add_metric(s, a, b, c))
				goto nomem;
		}
		json_array_foreach(rs, k, m) {
			if (!json_is_object(m))
				goto bad;
			json_t *sp = json_object_get(m, "speedup");
			if (add_rule(s, jstr(m, "name"), jstr(m, "type"), jstr(m, "text"), jstr(m, "speedup_type"),
				     json_is_number(sp) ? json_number_value(sp) : NAN))
				goto nomem;
		}
	}
	return 0;
bad:
	rung_ncu_details_clear(d);
	return rung_error_set(RUNG_EINVAL, "ncu sections: section %zu is malformed", i);
nomem:
	rung_ncu_details_clear(d);
	return rung_error_set(RUNG_ENOMEM, "out of memory");
}

/* ---- the source page ---- */

void rung_ncu_source_clear(rung_ncu_source *s)
{
	for (int i = 0; i < s->nlines; i++) {
		free(s->lines[i].sass);
		free(s->lines[i].stall);
	}
	for (int i = 0; i < s->nstalls; i++)
		free(s->stalls[i]);
	free(s->stalls);
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

/* A count column: -1 when the column is absent or the value is "-" or empty. */
static int64_t count_of(const rung_csv_row *r, int ci)
{
	double v;
	if (ci < 0 || rung_csv_number(&v, rung_csv_field(r, ci)) || v < 0)
		return -1;
	return (int64_t)llround(v);
}

static int parse_addr(uint64_t *out, const char *s)
{
	while (*s == ' ')
		s++;
	char *end;
	if (!(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || !isxdigit((unsigned char)s[2]))
		return -1;
	unsigned long long v = strtoull(s, &end, 16);
	while (*end == ' ')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* Branch targets in the instruction text ("BRA 0x7fc1437adda0") as offsets
 * from the first line, as nvdisasm prints them: a 0x number outside brackets
 * that falls inside [base, base + span] (span at least 16 MiB, so that a
 * page cut short keeps its targets relative too; immediates are far below an
 * address). */
static int relative_targets(char **text, uint64_t base, uint64_t span)
{
	const char *s = *text;
	size_t n = strlen(s);
	char *o = malloc(n + 1);
	if (!o)
		return -1;
	size_t k = 0;
	int depth = 0;
	for (size_t i = 0; i < n;) {
		char ch = s[i];
		depth += ch == '[' ? 1 : ch == ']' && depth > 0 ? -1 : 0;
		bool start = i == 0 || s[i - 1] == ' ' || s[i - 1] == ',' || s[i - 1] == '(';
		if (!depth && start && ch == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && isxdigit((unsigned char)s[i + 2])) {
			char *end;
			unsigned long long v = strtoull(s + i, &end, 16);
			if (v >= base && v - base <= span && (size_t)(end - s) - i <= 18) {
				k += (size_t)snprintf(o + k, n + 1 - k, "0x%llx", v - base);
				i = (size_t)(end - s);
				continue;
			}
		}
		o[k++] = ch;
		i++;
	}
	o[k] = 0;
	free(*text);
	*text = o;
	return 0;
}

int rung_ncu_source_parse(rung_ncu_source *out, const char *text, size_t len, const char *name)
{
	memset(out, 0, sizeof(*out));
	if (!name)
		name = "source";
	rung_csv c;
	int rc = rung_csv_parse(&c, text, len, name);
	if (rc)
		return rc;
	int i = 0, *stall_col = NULL;
	while (i < c.nrows && chatter(&c.rows[i]))
		i++;
	if (i < c.nrows && !strcmp(rung_csv_field(&c.rows[i], 0), "Kernel Name")) {
		copy_trim(out->kernel, sizeof(out->kernel), rung_csv_field(&c.rows[i], 1));
		i++;
	}
	if (i >= c.nrows || strcmp(rung_csv_field(&c.rows[i], 0), "Address")) {
		rc = rung_error_set(RUNG_EINVAL, "%s:%d: no header row starting with \"Address\" (is this ncu's --page source --csv?)",
				    name, i < c.nrows ? c.rows[i].line : 1);
		goto done;
	}
	const rung_csv_row *hr = &c.rows[i++];
	int csrc = col(hr, "Source"), csa = col(hr, "Warp Stall Sampling (All Samples)"),
	    csn = col(hr, "Warp Stall Sampling (Not-issued Samples)"), cin = col(hr, "Instructions Executed"),
	    cti = col(hr, "Thread Instructions Executed");
	if (csrc < 0) {
		rc = rung_error_set(RUNG_EINVAL, "%s:%d: no \"Source\" column in the header", name, hr->line);
		goto done;
	}
	out->has_samples = csa >= 0;
	out->has_inst = cin >= 0;
	stall_col = malloc(sizeof(int) * (size_t)hr->nfields);
	out->stalls = malloc(sizeof(char *) * (size_t)hr->nfields);
	if (!stall_col || !out->stalls)
		goto nomem;
	for (int k = 0; k < hr->nfields; k++) {
		const char *f = hr->fields[k];
		if (strncmp(f, "stall_", 6) || strchr(f, ' ') || !f[6])
			continue; /* "stall_lg (Not Issued)": the all-samples columns only */
		if (!(out->stalls[out->nstalls] = dup(f + 6)))
			goto nomem;
		stall_col[out->nstalls++] = k;
	}
	uint64_t base = 0;
	for (; i < c.nrows; i++) {
		const rung_csv_row *r = &c.rows[i];
		const char *a = rung_csv_field(r, 0);
		if (!strcmp(a, "Kernel Name")) { /* the next kernel's page: one kernel is kept */
			out->skipped = c.nrows - i;
			break;
		}
		if (r->nfields > hr->nfields) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: %d fields, the header has %d", name, r->line, r->nfields, hr->nfields);
			goto done;
		}
		uint64_t addr;
		if (parse_addr(&addr, a)) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: address \"%.40s\" is not a hex number 0x...", name, r->line, a);
			goto done;
		}
		if (out->nlines == 0)
			base = addr;
		if (addr < base) {
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: address 0x%llx below the first line's 0x%llx", name, r->line,
					    (unsigned long long)addr, (unsigned long long)base);
			goto done;
		}
		if (addr - base > ((uint64_t)1 << 40)) { /* a pc is an offset in one function: far below this */
			rc = rung_error_set(RUNG_EINVAL, "%s:%d: address 0x%llx is not in the function that starts at 0x%llx", name,
					    r->line, (unsigned long long)addr, (unsigned long long)base);
			goto done;
		}
		if (out->nlines % 256 == 0) {
			rung_ncu_line *v = realloc(out->lines, sizeof(*v) * (size_t)(out->nlines + 256));
			if (!v)
				goto nomem;
			out->lines = v;
		}
		rung_ncu_line *l = &out->lines[out->nlines];
		memset(l, 0, sizeof(*l));
		char sass[1024];
		copy_trim(sass, sizeof(sass), rung_csv_field(r, csrc));
		l->pc = (int64_t)(addr - base);
		l->samples = count_of(r, csa);
		l->samples_ni = count_of(r, csn);
		l->inst = count_of(r, cin);
		l->thread_inst = count_of(r, cti);
		l->sass = dup(sass);
		if (out->nstalls && (l->stall = malloc(sizeof(int64_t) * (size_t)out->nstalls)))
			for (int k = 0; k < out->nstalls; k++)
				l->stall[k] = count_of(r, stall_col[k]);
		out->nlines++;
		if (!l->sass || (out->nstalls && !l->stall))
			goto nomem;
	}
	if (out->nlines == 0)
		rc = rung_error_set(RUNG_EINVAL, "%s:%d: a header and no instructions", name, hr->line);
	for (int k = 0; !rc && k < out->nlines; k++)
		if (relative_targets(&out->lines[k].sass, base,
				     (uint64_t)out->lines[out->nlines - 1].pc > (1u << 24) ? (uint64_t)out->lines[out->nlines - 1].pc
										  : (1u << 24)))
			goto nomem;
	goto done;
nomem:
	rc = rung_error_set(RUNG_ENOMEM, "%s: out of memory", name);
done:
	free(stall_col);
	rung_csv_clear(&c);
	if (rc)
		rung_ncu_source_clear(out);
	return rc;
}

int rung_ncu_line_top_stall(const rung_ncu_source *s, const rung_ncu_line *l)
{
	int best = -1;
	for (int k = 0; l->stall && k < s->nstalls; k++)
		if (l->stall[k] > 0 && (best < 0 || l->stall[k] > l->stall[best]))
			best = k;
	return best;
}

int64_t rung_ncu_source_samples(const rung_ncu_source *s)
{
	int64_t sum = 0;
	for (int i = 0; i < s->nlines; i++)
		if (s->lines[i].samples > 0)
			sum = s->lines[i].samples > INT64_MAX - sum ? INT64_MAX : sum + s->lines[i].samples;
	return sum;
}

static json_t *count_json(int64_t v)
{
	return v < 0 ? json_null() : json_integer(v);
}

json_t *rung_ncu_source_to_json(const rung_ncu_source *s)
{
	json_t *st = json_array(), *lines = json_array();
	for (int k = 0; k < s->nstalls; k++)
		json_array_append_new(st, json_string(s->stalls[k]));
	for (int i = 0; i < s->nlines; i++) {
		const rung_ncu_line *l = &s->lines[i];
		json_t *so = json_object();
		for (int k = 0; l->stall && k < s->nstalls; k++)
			if (l->stall[k] > 0)
				json_object_set_new(so, s->stalls[k], json_integer(l->stall[k]));
		json_array_append_new(lines, json_pack("[I,s,o,o,o,o,o]", (json_int_t)l->pc, l->sass, count_json(l->samples),
						       count_json(l->samples_ni), count_json(l->inst),
						       count_json(l->thread_inst), so));
	}
	return json_pack("{s:i,s:s,s:o,s:{s:b,s:b},s:o}", "format", 1, "kernel", s->kernel, "stalls", st, "has", "samples",
			 s->has_samples, "inst", s->has_inst, "lines", lines);
}

static int64_t jcount(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 ? (int64_t)json_integer_value(v) : -1;
}

int rung_ncu_source_from_json(rung_ncu_source *s, const json_t *j)
{
	memset(s, 0, sizeof(*s));
	json_t *st = json_object_get(j, "stalls"), *lines = json_object_get(j, "lines"), *has = json_object_get(j, "has");
	if (!json_is_object(j) || !json_is_array(lines) || (st && !json_is_array(st)))
		return rung_error_set(RUNG_EINVAL, "ncu source: not an object with a \"lines\" array");
	snprintf(s->kernel, sizeof(s->kernel), "%s", jstr(j, "kernel"));
	s->has_samples = json_is_true(json_object_get(has, "samples"));
	s->has_inst = json_is_true(json_object_get(has, "inst"));
	size_t n = json_array_size(st), nl = json_array_size(lines);
	if (n && !(s->stalls = calloc(n, sizeof(char *))))
		goto nomem;
	for (size_t k = 0; k < n; k++) {
		const char *nm = json_string_value(json_array_get(st, k));
		if (!nm)
			goto bad;
		if (!(s->stalls[k] = dup(nm)))
			goto nomem;
		s->nstalls++;
	}
	if (nl && !(s->lines = calloc(nl, sizeof(*s->lines))))
		goto nomem;
	for (size_t i = 0; i < nl; i++) {
		json_t *a = json_array_get(lines, i), *so = json_array_get(a, 6);
		const char *sass = json_string_value(json_array_get(a, 1));
		if (!json_is_array(a) || !json_is_integer(json_array_get(a, 0)) || !sass || (so && !json_is_object(so)))
			goto bad;
		rung_ncu_line *l = &s->lines[s->nlines++];
		l->pc = (int64_t)json_integer_value(json_array_get(a, 0));
		l->samples = jcount(json_array_get(a, 2));
		l->samples_ni = jcount(json_array_get(a, 3));
		l->inst = jcount(json_array_get(a, 4));
		l->thread_inst = jcount(json_array_get(a, 5));
		if (!(l->sass = dup(sass)))
			goto nomem;
		if (s->nstalls) {
			if (!(l->stall = malloc(sizeof(int64_t) * (size_t)s->nstalls)))
				goto nomem;
			for (int k = 0; k < s->nstalls; k++) {
				json_t *v = json_object_get(so, s->stalls[k]);
				l->stall[k] = v ? jcount(v) : 0;
			}
		}
	}
	return 0;
bad:
	rung_ncu_source_clear(s);
	return rung_error_set(RUNG_EINVAL, "ncu source: a malformed line or stall name");
nomem:
	rung_ncu_source_clear(s);
	return rung_error_set(RUNG_ENOMEM, "out of memory");
}

void rung_ncu_agree(rung_ncu_agreement *out, const rung_ncu_source *s, const rung_sass_counts *c)
{
	memset(out, 0, sizeof(*out));
	out->first_pc = -1;
	for (int i = 0; i < s->nlines; i++) {
		const rung_ncu_line *l = &s->lines[i];
		const rung_sass_pc *p = rung_sass_counts_at(c, l->pc);
		if (!p) {
			out->ncu_only += l->inst > 0;
			continue;
		}
		if (l->inst < 0)
			continue;
		out->compared++;
		if ((uint64_t)l->inst == p->inst)
			out->agree++;
		else if (out->first_pc < 0)
			out->first_pc = l->pc;
	}
	for (int k = 0; k < c->n; k++) {
		if (!c->pcs[k].inst)
			continue;
		bool found = false;
		for (int i = 0; i < s->nlines && !found; i++)
			found = s->lines[i].pc == c->pcs[k].pc;
		out->rung_only += !found;
	}
}
