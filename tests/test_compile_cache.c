/* The CUBIN cache (rung_compile_req.cache_dir, gpu/compile_cache.h) with the
 * real NVRTC (no GPU needed): a second compile of the same request is read
 * back from DIR/cubin without NVRTC, byte for byte the same (DIR made when
 * missing, mode 0700); anything
 * that makes the CUBIN (a header on disk, an in-memory header, the options,
 * the arch, the entry, the file name, the source) is in the key; a damaged
 * entry is a miss; nothing is written without a root or through a link. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/spec.h"
#include "gpu/compile.h"
#include "gpu/compile_cache.h"
#include "harness.h"

/* A scratch "git directory" and task root, with h.cuh in the root. */
typedef struct {
	char cache[600];   /* ends in '/', as rung_fs_cache_dir's; made by the first put */
	char root[512];
	char header[600];
	const char *dirs[2];
} fixture;

static const char *SRC = "#include \"h.cuh\"\n"
			 "template <int T> __global__ void k(float *a) { a[threadIdx.x] = T * SCALE; }\n";

static void setup(fixture *f)
{
	const char *d = t_tmpdir();
	snprintf(f->root, sizeof(f->root), "%s/r", d);
	snprintf(f->cache, sizeof(f->cache), "%s/user/.cache/rung/", d);
	snprintf(f->header, sizeof(f->header), "%s/h.cuh", f->root);
	CHECK_INT(t_write(f->header, "#define SCALE 3\n"), 0);
	f->dirs[0] = f->root;
	f->dirs[1] = NULL;
}

static rung_compile_req request(const fixture *f)
{
	return (rung_compile_req){.src = SRC, .file = "k.cu", .entry = "k<2>", .arch = "sm_90",
	                          .include_dirs = f->dirs, .root = f->root, .root_what = "the repository",
	                          .cache_dir = f->cache};
}

/* Files in DIR/cubin (-1: no such directory). */
static int entries(const fixture *f)
{
	char p[700];
	snprintf(p, sizeof(p), "%scubin", f->cache);
	DIR *d = opendir(p);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Compiles req; returns 1 when it came from the cache, 0 when NVRTC ran, -1 on failure. */
static int compile(rung_compiled *c, const rung_compile_req *req)
{
	int rc = rung_compile(c, req);
	if (rc) {
		fprintf(stderr, "compile: %s\n", c->error[0] ? c->error : rung_error_last());
		return -1;
	}
	return c->cached ? 1 : 0;
}

static int compile_once(const rung_compile_req *req)
{
	rung_compiled c;
	int r = compile(&c, req);
	rung_compiled_clear(&c);
	return r;
}

static void test_second_compile_is_read_back(void)
{
	fixture f;
	setup(&f);
	rung_compile_req req = request(&f);
	rung_compiled a, b;
	CHECK_INT(compile(&a, &req), 0);
	CHECK_INT(entries(&f), 1);
	struct stat st; /* the user's cache directory, made by the put, is the user's alone */
	CHECK_INT(stat(f.cache, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0700);
	CHECK_INT(compile(&b, &req), 1);
	CHECK_INT(entries(&f), 1);
	/* the same bytes and facts as NVRTC's */
	CHECK_INT(b.cubin_len, a.cubin_len);
	CHECK(a.cubin && b.cubin && memcmp(a.cubin, b.cubin, a.cubin_len) == 0);
	CHECK_STR(b.ptx, a.ptx);
	CHECK_INT(b.ptx_len, a.ptx_len);
	CHECK_STR(b.log, a.log);
	CHECK_STR(b.lowered, "_Z1kILi2EEvPf");
	CHECK(b.kinfo.valid);
	CHECK_INT(b.kinfo.regs, a.kinfo.regs);
	CHECK_STR(b.kinfo.name, a.kinfo.name);
	CHECK_CONTAINS(b.ptx, "1086324736"); /* 2 * 3 = 6.0f = 0x40c00000 */
	CHECK(!a.cached);
	rung_compiled_clear(&a);
	rung_compiled_clear(&b);
}

static void test_key_has_everything(void)
{
	fixture f;
	setup(&f);
	rung_compile_req req = request(&f);
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(compile_once(&req), 1);
	int n = 1;
	/* a header on disk: its bytes, not its name or time */
	CHECK_INT(t_write(f.header, "#define SCALE 5\n"), 0);
	rung_compiled c;
	CHECK_INT(compile(&c, &req), 0);
	CHECK_CONTAINS(c.ptx, "1092616192"); /* 2 * 5 = 10.0f */
	rung_compiled_clear(&c);
	CHECK_INT(entries(&f), ++n);
	CHECK_INT(t_write(f.header, "#define SCALE 3\n"), 0);
	CHECK_INT(compile_once(&req), 1); /* the first entry again */
	/* the entry, the options, the arch, the file name, the source text */
	rung_compile_req r2 = req;
	r2.entry = "k<3>";
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	r2 = req;
	r2.options = "-DUNUSED=1";
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	r2 = req;
	r2.arch = "sm_80";
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	r2 = req;
	r2.file = "other.cu"; /* in the line info */
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	r2 = req;
	r2.src = "#include \"h.cuh\"\n"
		 "template <int T> __global__ void k(float *a) { a[threadIdx.x] = T * SCALE + 1; }\n";
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	/* an in-memory header (a version from git) wins over the disk's, and is in the key */
	rung_header h = {.name = "h.cuh", .text = "#define SCALE 7\n"};
	r2 = req;
	r2.headers = &h;
	r2.nheaders = 1;
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	h.text = "#define SCALE 8\n";
	CHECK_INT(compile_once(&r2), 0);
	CHECK_INT(entries(&f), ++n);
	CHECK_INT(compile_once(&req), 1);
}

/* The parameter count against the spec is checked on every compile, a hit too. */
static void test_hit_still_checks_the_spec(void)
{
	fixture f;
	setup(&f);
	rung_spec *s = NULL;
	CHECK_INT(rung_spec_parse(&s,
	                          "[task]\nname = t\nkernel = k.cu\nentry = k<2>\nreference = r.cu\nreference_entry = r\n[dims]\nN = 4\n"
	                          "[arg a]\nkind = output\ndtype = f32\nshape = N\n"
	                          "[arg b]\nkind = output\ndtype = f32\nshape = N\n[launch]\ngrid = 1\nblock = 4\n",
	                          "t/rung.ini", "t"),
	          0);
	if (!s) {
		fprintf(stderr, "spec: %s\n", rung_error_last());
		return;
	}
	rung_compile_req req = request(&f);
	CHECK_INT(compile_once(&req), 0);
	req.spec = s;
	rung_compiled c;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK(c.cached);
	CHECK_CONTAINS(c.error, "k.cu: kernel 'k<2>' takes 1 parameter but ");
	rung_compiled_clear(&c);
	rung_spec_free(s);
}

/* A damaged entry (cut, or a byte changed) is a miss, and the compile writes it whole again. */
static void test_damaged_entry_is_a_miss(void)
{
	fixture f;
	setup(&f);
	rung_compile_req req = request(&f);
	CHECK_INT(compile_once(&req), 0);
	char dir[700];
	snprintf(dir, sizeof(dir), "%scubin", f.cache);
	char *out = NULL;
	CHECK_INT(t_sh(&out, "f=$(ls %s/*) && head -c 300 \"$f\" >\"$f.cut\" && mv \"$f.cut\" \"$f\"", dir), 0);
	free(out);
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(compile_once(&req), 1);
	/* the last byte of the log flipped: the sum does not match */
	CHECK_INT(t_sh(&out, "f=$(ls %s/*) && python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,\"rb\").read()); "
	                     "b[-1]^=1; open(p,\"wb\").write(b)' \"$f\"",
	               dir),
	          0);
	free(out);
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(compile_once(&req), 1);
	CHECK_INT(entries(&f), 1);
	/* a get on garbage keys or a missing directory is a miss, not an error */
	rung_compiled c;
	memset(&c, 0, sizeof(c));
	CHECK_INT(rung_compile_cache_get(&c, f.cache, "../../etc/passwd"), 0);
	CHECK_INT(rung_compile_cache_get(&c, "/nonexistent/", "0000000000000000000000000000000000000000000000000000000000000000"), 0);
	CHECK(c.cubin == NULL);
}

static void test_nothing_kept_without_root_or_through_a_link(void)
{
	fixture f;
	setup(&f);
	rung_compile_req req = request(&f);
	req.root = NULL; /* the #includes are not walked: their bytes would be missing from the key */
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(entries(&f), -1);
	/* DIR/cubin a link: nothing is written where it points */
	req = request(&f);
	char elsewhere[700], link[720];
	snprintf(elsewhere, sizeof(elsewhere), "%s/../elsewhere", f.root);
	snprintf(link, sizeof(link), "%scubin", f.cache);
	CHECK_INT(mkdir(elsewhere, 0755), 0);
	char *mk = NULL;
	CHECK_INT(t_sh(&mk, "mkdir -p '%s'", f.cache), 0);
	free(mk);
	CHECK_INT(symlink(elsewhere, link), 0);
	CHECK_INT(compile_once(&req), 0);
	CHECK_INT(compile_once(&req), 0);
	char *out = NULL;
	CHECK_INT(t_sh(&out, "ls -A %s", elsewhere), 0);
	CHECK_STR(out, "");
	free(out);
}

int main(void)
{
	T_RUN(test_second_compile_is_read_back);
	T_RUN(test_key_has_everything);
	T_RUN(test_hit_still_checks_the_spec);
	T_RUN(test_damaged_entry_is_a_miss);
	T_RUN(test_nothing_kept_without_root_or_through_a_link);
	return t_done();
}
