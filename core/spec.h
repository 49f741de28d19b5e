/* The task spec: a directory holding rung.ini (see docs/SPEC.md).
 * Expressions are kept as text with their source line and evaluated against a
 * dim set with core/expr.h, so every error can name file:line. */
#ifndef RUNG_CORE_SPEC_H
#define RUNG_CORE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RUNG_MAX_DIMS 16
#define RUNG_MAX_RANK 8
#define RUNG_MAX_ARGS 32
#define RUNG_MAX_CHECK_SETS 32
#define RUNG_NAME_MAX 64

typedef enum { RUNG_DT_F64, RUNG_DT_F32, RUNG_DT_F16, RUNG_DT_BF16, RUNG_DT_I64, RUNG_DT_I32, RUNG_DT_U8, RUNG_DT_COUNT } rung_dtype;
typedef enum { RUNG_ARG_INPUT, RUNG_ARG_OUTPUT, RUNG_ARG_INOUT, RUNG_ARG_SCALAR } rung_arg_kind;
/* RUNG_INIT_WIDE, _CONSTANT and _INTS are never written in an [arg]: they are what a
 * generated float input becomes under the [check] inputs distributions (rung_dist_init). */
typedef enum { RUNG_INIT_RANDN, RUNG_INIT_UNIFORM, RUNG_INIT_ONES, RUNG_INIT_ZEROS, RUNG_INIT_ARANGE, RUNG_INIT_NPY,
	       RUNG_INIT_WIDE, RUNG_INIT_CONSTANT, RUNG_INIT_INTS, RUNG_INIT_SPECIAL } rung_init_kind;

/* Input distributions of the check sweep ([check] inputs, docs/SPEC.md and
 * docs/CHECKS.md "Input distributions"): id, name. NORMAL is every argument as its
 * [arg] declares it; the others replace the data of generated float inputs. */
#define RUNG_DIST_LIST(_) \
	_(NORMAL, "normal", "every input as its [arg] declares it") \
	_(WIDE, "wide", "float inputs of magnitude ~1e3 (1e2 in f16) around an offset, positive and negative in blocks of 4096") \
	_(CONSTANT, "constant", "every element of each float input equal") \
	_(INTS, "ints", "float inputs are integers in [-8, 8]; outputs compared exactly") \
	_(SPECIAL, "special", "blocks of -inf, +inf, NaN, -0, subnormals or the largest finite value ([check] special)")

typedef enum {
#define RUNG_DIST_ENUM(id, name, help) RUNG_DIST_##id,
	RUNG_DIST_LIST(RUNG_DIST_ENUM)
#undef RUNG_DIST_ENUM
	RUNG_NDISTS
} rung_dist;

const char *rung_dtype_name(rung_dtype dt);      /* "f32" */
size_t rung_dtype_size(rung_dtype dt);           /* 4 */
bool rung_dtype_is_float(rung_dtype dt);
int rung_dtype_parse(rung_dtype *out, const char *s); /* 0 or RUNG_EINVAL */
const char *rung_arg_kind_name(rung_arg_kind k);
const char *rung_dist_name(rung_dist d);          /* "wide" */
const char *rung_dist_help(rung_dist d);          /* one line: what its data is */
int rung_dist_parse(rung_dist *out, const char *s); /* 0 or RUNG_EINVAL */
/* "normal, wide, constant, ints": every name, for messages. */
const char *rung_dist_names(void);
/* The init an input or inout of dtype dt declared with `declared` gets under
 * distribution d: RUNG_INIT_WIDE, _CONSTANT or _INTS for a float dtype declared
 * randn or uniform(a,b); `declared` itself for normal, integer dtypes (indices,
 * sizes) and deliberate data (npy, zeros, ones, arange). */
rung_init_kind rung_dist_init(rung_dist d, rung_dtype dt, rung_init_kind declared);

/* The special values ([check] special = ...): bit, name. The bits are
 * core/rng_hd.h's RUNG_HD_SP_*. */
#define RUNG_SPECIAL_LIST(_) \
	_(NEG_INF, "-inf") \
	_(POS_INF, "+inf") \
	_(NAN, "nan") \
	_(NEG_ZERO, "-0") \
	_(SUBNORMAL, "subnormal") \
	_(MAX, "max")
enum {
#define RUNG_SPECIAL_ENUM(id, name) RUNG_SPECIAL_##id,
	RUNG_SPECIAL_LIST(RUNG_SPECIAL_ENUM)
#undef RUNG_SPECIAL_ENUM
	RUNG_NSPECIAL
};
#define RUNG_SPECIAL_ALL ((1u << RUNG_NSPECIAL) - 1)
/* Parses "-inf, -0, subnormal" into a mask (0 or RUNG_EINVAL naming the bad item). */
int rung_special_parse(uint32_t *mask, const char *s);
/* "-inf, +inf, nan, -0, subnormal, max": the names in mask, into buf. */
void rung_special_format(char *buf, size_t len, uint32_t mask);

/* An expression as written, with where it was written. */
typedef struct {
	char *text; /* NULL when absent */
	int line;   /* 1-based line in `file` */
} rung_expr_src;

typedef struct {
	char name[RUNG_NAME_MAX];
	int64_t value;
} rung_dim;

typedef struct {
	int n;
	rung_dim d[RUNG_MAX_DIMS];
} rung_dimset;

/* Looks a dim up; returns 0 and sets *out, or RUNG_ENOTFOUND. */
int rung_dimset_get(int64_t *out, const rung_dimset *ds, const char *name);
/* Sets (adds or replaces) a dim. */
int rung_dimset_set(rung_dimset *ds, const char *name, int64_t value);
/* "M=127,N=255,K=63" -> appends into out; errors name nothing (caller adds file:line). */
int rung_dimset_format(char *buf, size_t len, const rung_dimset *ds); /* "M=127,N=255" */

typedef struct {
	char name[RUNG_NAME_MAX];
	rung_arg_kind kind;
	rung_dtype dtype;
	int rank;                          /* number of shape expressions; 0 for scalars */
	rung_expr_src shape[RUNG_MAX_RANK];
	rung_init_kind init;               /* inputs and inouts */
	double init_a, init_b;             /* uniform(a,b) */
	char *npy_path;                    /* init = npy:path, resolved against the task dir */
	char *golden;                      /* outputs: optional golden .npy that stands in for the reference */
	int init_line, golden_line;        /* lines of init and golden (0 when absent) */
	bool npy_absolute, golden_absolute; /* the npy: path or golden was written absolute */
	rung_expr_src value;               /* scalars */
	/* kind = scratch: a pointer the kernel takes after its own arguments
	 * (Triton's global and profile scratch), not checked. It is kept as a
	 * scalar i64 of value 0 with scratch set; size is its size in bytes as
	 * written, an expression >= 0: the worker passes a zero-filled device
	 * buffer of that size (zeroed again before every launch), or a null
	 * pointer for 0 (rung_arg_scratch_bytes). */
	bool scratch;
	rung_expr_src size;
	int line;                          /* line of the [arg NAME] header */
} rung_arg;

#define RUNG_LAUNCH_MAX_SCRATCH 2

/* A scratch argument that a PTX or CUBIN kernel's sidecar adds after the
 * spec's [arg] sections (Triton's global and profile scratch, docs/SPEC.md
 * "The sidecar"): per_program bytes for each program of the grid. */
typedef struct {
	char name[32];       /* "global_scratch", "profile_scratch" */
	char key[32];        /* the sidecar key: "global_scratch_size" */
	int64_t per_program; /* the key's value times num_ctas; 0: a null pointer */
	int line;            /* the key's line in the sidecar */
} rung_launch_scratch;

typedef struct {
	int ngrid, nblock;
	rung_expr_src grid[3], block[3], smem;
	char file[256]; /* where these came from: "rung.ini" or the kernel file for a // rung: line */
	/* When the spec declares no kind = scratch argument, the scratch arguments
	 * the kernel's sidecar says it takes (rung_launch_for_kernel), passed
	 * after the [arg] sections; sidecar names the file in messages. */
	int nscratch;
	rung_launch_scratch scratch[RUNG_LAUNCH_MAX_SCRATCH];
	char sidecar[512];
} rung_launch;

/* [goal] (docs/SPEC.md): when the ladder may stop (app/goal.h). Each goal is
 * optional; line is where it was written (0: absent). */
typedef struct {
	int line;       /* the [goal] header (0: no [goal] section) */
	double roof;    /* roof = 80%: percent of the roof that fits the kernel, (0, 100]; 0: absent */
	double speedup; /* speedup = 20x over the task's baseline, > 1; 0: absent */
	int plateau;    /* plateau = 3: that many passing versions in a row without a gain beyond the noise; 0: absent */
	int versions;   /* versions = 40: a budget of versions; 0: absent */
	int roof_line, speedup_line, plateau_line, versions_line;
} rung_goal_spec;

typedef struct {
	char *path;  /* path of rung.ini as given */
	char *dir;   /* task directory */

	/* [task] */
	char *name, *kernel, *entry, *reference, *reference_entry;
	char *arch;    /* NULL = device's own, "sm_90" without a device */
	char *options; /* extra NVRTC options, whitespace separated */
	char *headers; /* extra include dirs, whitespace or comma separated, relative to dir */
	/* lines of arch, options and headers (0 when absent): a value that only the
	 * compiler or the file system can judge (gpu/compile.c) is reported there */
	int arch_line, options_line, headers_line;
	int kernel_line, reference_line; /* lines of kernel and reference (0 when absent) */

	rung_dimset dims; /* [dims]: the benchmark shape */

	/* [check] */
	int ncheck;
	rung_dimset check[RUNG_MAX_CHECK_SETS]; /* each one is dims overridden by the set */
	/* a size set below the block, for rung_spec_default_checks (has_small false: none) */
	bool has_small;
	rung_dimset small;
	int seeds;                              /* default 3 */
	bool has_atol, has_rtol, has_min_psnr, has_min_cossim;
	double atol, rtol, min_psnr, min_cossim;
	/* deterministic = false: two runs on the same inputs may differ (atomics);
	 * the difference is reported instead of failing the check. */
	bool nondeterministic;
	int ninputs;                     /* [check] inputs: 1 (normal only) when absent */
	rung_dist inputs[RUNG_NDISTS];   /* inputs[0] is RUNG_DIST_NORMAL, then the others as written */
	int inputs_line;                 /* 0 when absent */
	/* inputs = normal, wide added by rung_spec_default_inputs (no `inputs` line) */
	bool inputs_default;
	uint32_t special;                /* [check] special = ...: the values the reference defines (RUNG_SPECIAL_ALL when absent) */
	int special_line;                /* 0 when absent */
	unsigned sanitize;                      /* `sanitize = memcheck, racecheck`: RUNG_SAN_BIT mask (core/sanitize.h), 0 = off */
	int sanitize_line;

	int nargs;
	rung_arg args[RUNG_MAX_ARGS];
	int nscratch; /* scratch arguments, the last nscratch of args: a kernel may take nargs or nargs - nscratch parameters */

	rung_launch launch; /* [launch] */
	rung_expr_src flops, bytes; /* [roofline] */
	rung_goal_spec goal; /* [goal] (optional) */
} rung_spec;

/* What a kernel file is, by its extension: CUDA C++ (compiled by NVRTC;
 * anything but .ptx and .cubin), PTX text (assembled by ptxas, or JIT-compiled
 * by the driver in the worker without one) or a CUBIN (loaded as it is). */
typedef enum { RUNG_LANG_CUDA, RUNG_LANG_PTX, RUNG_LANG_CUBIN } rung_kernel_lang;
rung_kernel_lang rung_kernel_lang_of(const char *path); /* an "@REV" suffix is dropped */
const char *rung_kernel_lang_name(rung_kernel_lang l); /* "cuda", "ptx", "cubin" */

/* Parses a task from TASKDIR or a path to rung.ini. On error returns negative
 * with rung_error_last() = "path/rung.ini:14: [arg C] shape: unknown dim 'Q'".
 * All expressions are checked against [dims] (and every [check] set). */
int rung_spec_load(rung_spec **out, const char *path);
/* Same, from text already in memory (e.g. read from git); `path` names it in messages,
 * `dir` resolves relative paths. */
int rung_spec_parse(rung_spec **out, const char *text, const char *path, const char *dir);
/* The check's default distributions, for a spec that has no `[check] inputs`
 * line (the loaders of app/ and vcs/ call it; the parse itself keeps what is
 * written): normal plus `wide`, where wide changes some argument, every float
 * input it would change is f32 or f64 (an f16/bf16 reduction of wide data can
 * overflow where the reference does not: such tasks ask for wide themselves)
 * and no output has a golden file. Sets inputs_default; 1 when it added wide,
 * else 0. `inputs = normal` opts out. */
int rung_spec_default_inputs(rung_spec *s);
/* The check's default size set below the block, for a spec whose own size sets
 * vary its row length D (the last extent of its first output, a [dims] name)
 * but none below the block's x threads B: D = B/2 + 1, the other dims from
 * their [dims] expressions, where every shape, launch and roofline expression
 * holds under it. Appended to s->check (once); 1 when added, else 0. The
 * loaders of app/ and vcs/ call it, with rung_spec_default_inputs. */
int rung_spec_default_checks(rung_spec *s);
void rung_spec_free(rung_spec *spec);

/* A rung.ini's text without its [goal] section (the lines from its header to
 * the next section's, and the blank and comment lines right above the
 * header): a goal says when to stop, not what is measured, so the content key
 * (vcs/store.h) and the "its own rung.ini differs" mark (vcs/history.c) read
 * this. A text without [goal] comes back byte for byte. Caller frees; NULL
 * when out of memory. */
char *rung_spec_text_without_goal(const char *text);

/* The [task] kernel and entry of a rung.ini's text, read without parsing the
 * rest (an older commit's spec, to follow its kernel: vcs/history.c). Each is
 * NULL when absent; caller frees. 0 or RUNG_ENOMEM. */
int rung_spec_peek_task(char **kernel, char **entry, const char *text);

/* Each directory of the spec's `headers`, resolved against spec->dir, must exist
 * (NVRTC reads them from the file system, for a version from git too). Returns 0,
 * or RUNG_EINVAL with "tasks/x/rung.ini:9: [task] headers: 'inc': no such
 * directory (tasks/x/inc)". rung_spec_load calls it; rung_spec_parse does not
 * (its text may come from anywhere, its dir may not exist). */
int rung_spec_check_headers(const rung_spec *spec);

/* Every file the spec names (kernel, reference, each headers directory, npy:
 * inputs, golden files) must lie inside root, the repository the task is in
 * (or the task directory when there is none): none is absolute, and each,
 * joined to spec->dir with its symlinks followed (rung_fs_confined), stays in
 * root; NVRTC options that name a path (-I, -include, --pre-include, the PCH
 * and --time files) are refused in `options` (`headers` lists include
 * directories). `what` names root in messages ("the repository"). root NULL: a textual
 * check only (spec->dir relative, e.g. a bare repository), no ".." above it.
 * Returns 0 or RUNG_EINVAL with "t/rung.ini:4: [task] reference: '/etc/shadow'
 * is an absolute path; ..." or "... '../../x.cu' is outside the repository
 * (/r): it is /x.cu"; RUNG_ENOMEM, RUNG_EIO (root unreadable). The loaders
 * (app/task.c, vcs/task_rev.c) call it before reading any of the files. */
int rung_spec_confine(const rung_spec *spec, const char *root, const char *what);

/* Parses a `// rung: grid = ...; block = ...; smem = ...` line from kernel source,
 * if present, into *out (starting from the spec's [launch]). Returns 1 if a line was
 * found, 0 if not, negative on a malformed line ("sgemm.cu:3: rung: unknown key 'gird'"). */
int rung_launch_from_source(rung_launch *out, const rung_spec *spec, const char *src, const char *file);
/* The launch of a kernel: rung_launch_from_source, then, for a PTX or CUBIN
 * kernel with a sidecar (sc, NULL for none: core/sidecar.h), its num_warps and
 * shared fill block (num_warps * 32) and smem where neither the `// rung:` line
 * nor [launch] gives them. A value given there wins, and must agree with the
 * sidecar (block = num_warps * 32 threads, smem >= shared under every size set),
 * else "rung.ini:40: [launch] block: 256 x 1 x 1 threads, but softmax.json:5
 * says num_warps = 4: ..." (the `// rung:` line's file:line for its keys). A
 * sidecar that needs global or profile scratch is refused at its line. A
 * launch with no block at all (a PTX task's [launch] may leave it out) is
 * "rung.ini:L: [launch] block: missing for FILE: ...".
 * A sidecar with global_scratch_size or profile_scratch_size (Triton 3.3+)
 * adds one scratch argument each to out->scratch (global first) when the
 * spec declares no kind = scratch argument; when it declares some, the k-th
 * declared one must hold the k-th of the sidecar's under every size set
 * (size >= the key's value x num_ctas x the grid's programs), else
 * "rung.ini:28: [arg gs] size: 0 bytes, but softmax.json:7 says ...". */
struct rung_sidecar;
int rung_launch_for_kernel(rung_launch *out, const rung_spec *spec, const char *src, const char *file,
                           const struct rung_sidecar *sc);
/* A deep copy of in (free with rung_launch_clear). 0 or RUNG_ENOMEM. */
int rung_launch_copy(rung_launch *out, const rung_launch *in);
/* Frees the strings of a launch filled by rung_launch_from_source (which always copies them,
 * also when it returns 0); safe on a zeroed struct. Never call it on spec->launch. */
void rung_launch_clear(rung_launch *l);

/* Evaluated launch geometry for one dim set. */
typedef struct {
	int64_t grid[3], block[3], smem;
} rung_geom;
int rung_launch_eval(rung_geom *out, const rung_launch *l, const rung_dimset *ds);

/* Bytes of a kind = scratch argument under ds (its size expression). */
int rung_arg_scratch_bytes(int64_t *out, const rung_arg *a, const rung_dimset *ds, const char *file);
/* Bytes of the k-th scratch argument the sidecar added to l under ds: its
 * per_program bytes times the grid's programs (x * y * z), as Triton's
 * launcher allocates it. */
int rung_launch_scratch_bytes(int64_t *out, const rung_launch *l, int k, const rung_dimset *ds);

/* Number of elements of an argument's shape under ds (1 for rank 0). */
int rung_arg_numel(int64_t *out, const rung_arg *a, const rung_dimset *ds, const char *file);

/* A scalar argument's value under ds. `value` is an integer expression, or for float dtypes
 * also a decimal literal ("0.5", "1e-3"). Sets *ival (truncated toward zero for a float
 * literal) and *fval; either may be NULL. Fails when the value does not fit the dtype. */
int rung_arg_value(int64_t *ival, double *fval, const rung_arg *a, const rung_dimset *ds, const char *file);

#endif
