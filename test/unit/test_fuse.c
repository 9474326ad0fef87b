/* test_fuse.c: the fuser on small regions: derived repairs, strategy choice, refusals. */
#include <string.h>

#include "front/front.h"
#include "fuse/fuse.h"
#include "unit.h"

static Captured cap;
static char *described;

/* Parses and fuses `src`; returns whether fusing succeeded. The description of the first
 * region's cascade goes to `described`, diagnostics to cap. */
static bool fuse_src(const char *src)
{
	Program *p = unit_parse(src, &cap);
	Captured fc;
	capture_begin(&fc);
	bool ok = p && fuse_program(p);
	free(described);
	described = NULL;
	if (ok) {
		StrBuf b = {0};
		const Cascade *c = fuse_cascade_of(p->funcs[0]->regions[0]);
		if (c)
			fuse_describe(&b, c);
		described = b.s ? b.s : strdup("");
	}
	capture_end(&fc);
	program_free(p);
	/* The front end's diagnostics, then the fuser's. */
	StrBuf all = {0};
	sb_puts(&all, cap.text ? cap.text : "");
	sb_puts(&all, fc.text ? fc.text : "");
	free(cap.text);
	free(fc.text);
	cap.text = all.s ? all.s : strdup("");
	return ok;
}

static void teardown(void)
{
	free(cap.text);
	cap.text = NULL;
	free(described);
	described = NULL;
}

#define ROW(clauses, body)                                                               \
	"#include <math.h>\nvoid f(int R, int C, float sc, const float x[R][C], const float y[R][C], float out[R]) {\n" \
	"#pragma fuse kernel(f) parallel(r) " clauses "\nfor (int r = 0; r < R; r++) {\n" body "\n}\n}\n"

static void expect_repair(const char *src, const char *what)
{
	ck_assert_msg(fuse_src(src), "refused:\n%s", cap.text ? cap.text : "");
	ck_assert_msg(strstr(described, what) != NULL, "expected '%s' in:\n%s", what, described);
}

static void expect_refusal(const char *src, const char *what)
{
	ck_assert_msg(!fuse_src(src), "accepted:\n%s", described ? described : "");
	ck_assert_msg(strstr(cap.text, what) != NULL, "expected '%s' in:\n%s", what, cap.text);
}

#define MAX_PASS "float m = -INFINITY; for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);\n"

START_TEST(test_reused_accumulator)
{
	/* `a = 0;` again after the mean's sum: a second accumulator, as if declared twice
	 * (round 22: refused as keys from two sources) */
	expect_repair(ROW("rolling(c)", "float a = 0; for (int c = 0; c < C; c++) a += x[r][c];\n"
	                                "const float mean = a / C; a = 0; for (int c = 0; c < C; c++) a += (x[r][c] - mean) * (x[r][c] - mean); out[r] = a;"),
	              "sum of separable terms");
}
END_TEST

START_TEST(test_seed_under_flag)
{
	/* a seed set under a flag of parameters is one definition: `v = sc > 0 ? sc : 1.0f` */
	expect_repair(ROW("rolling(c)", "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\n"
	                                "float v = 1.0f; if (sc > 0) v = sc; for (int c = 0; c < C; c++) v += (x[r][c] - mean) * (x[r][c] - mean); out[r] = v;"),
	              "sum of separable terms");
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = 1.0f; if (sc > 0) l = sc; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	              "repair: h(t) = t * expf(m - m')");
}
END_TEST

START_TEST(test_softmax_sum)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	              "repair: h(t) = t * expf(m - m')");
}
END_TEST

START_TEST(test_scaled_exponent_and_exp2)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += expf(sc * x[r][c] - sc * m); out[r] = l;"),
	              "expf(-sc * (m' - m))");
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += exp2f(x[r][c] - m) * y[r][c]; out[r] = l;"),
	              "t * exp2f(m - m')");
}
END_TEST

START_TEST(test_two_producers_multiply)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float z = 0; for (int c = 0; c < C; c++) z += y[r][c];\n"
	                                         "float a = 0; for (int c = 0; c < C; c++) a += expf(x[r][c] - m) / z; out[r] = a;"),
	              "t * (expf(m - m') * (z / z'))");
}
END_TEST

START_TEST(test_map_of_a_result)
{
	/* RMSNorm: the consumer reads inv = F(ss), a map; the repair is inv' / inv. */
	expect_repair(ROW("rolling(c)", "float ss = 0; for (int c = 0; c < C; c++) ss += x[r][c] * x[r][c];\n"
	                                "float inv = 1.0f / sqrtf(ss / C + 1e-6f);\n"
	                                "float a = 0; for (int c = 0; c < C; c++) a += x[r][c] * inv * y[r][c]; out[r] = a;"),
	              "t * (inv' / inv)");
}
END_TEST

START_TEST(test_additive_repair_for_max)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float m2 = -INFINITY; for (int c = 0; c < C; c++) m2 = fmaxf(m2, y[r][c] - 2.0f * m); out[r] = m2;"),
	              "h(t) = t + -2.0f * (m' - m)");
}
END_TEST

START_TEST(test_masks_keep_the_factor)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += c <= r ? expf(x[r][c] - m) : 0.0f; out[r] = l;"),
	              "t * expf(m - m')");
}
END_TEST

#define MEAN_PASS "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\nmean = mean / C;\n"

START_TEST(test_separable_sums)
{
	/* A variance: sums of (x - k)^2, x - k and 1 (k = x[r][0], the shift), recombined
	 * with the final mean after the pass; the mean finalised in place becomes a map of
	 * the renamed sum. */
	expect_repair(ROW("rolling(c)", MEAN_PASS "float v = 0; for (int c = 0; c < C; c++) { float d = x[r][c] - mean; v += d * d; } out[r] = v;"),
	              "sum of separable terms: v = v_x2 + (v_x != 0.0f ? 2.0f * (x_shift - mean) * v_x : 0.0f) + (v_n != 0.0f ? (x_shift - mean) * (x_shift - mean) * v_n : 0.0f);");
	ck_assert_msg(strstr(described, "mean_sum += x[r][c]") && strstr(described, "v_x2 += (x[r][c] - x_shift) * (x[r][c] - x_shift)") && strstr(described, "v_n += 1.0f"), "%s", described);
	/* A weighted log-probability: two sums without repair. */
	expect_repair(ROW("splitk(c)", MAX_PASS "float a = 0; for (int c = 0; c < C; c++) a += y[r][c] * (x[r][c] - m); out[r] = a;"),
	              "sum of separable terms: a = a_y_x + (a_y != 0.0f ? (x_shift - m) * a_y : 0.0f);");
	/* Terms that keep a producer are repaired each on its own. */
	expect_repair(ROW("rolling(c)", MAX_PASS "float a = 0; for (int c = 0; c < C; c++) a += expf(x[r][c] - m) * (x[r][c] - m); out[r] = a;"),
	              "a_exp += expf(x[r][c] - m)\n    repair: h(t) = t * expf(m - m')");
	ck_assert_msg(strstr(described, "a_x_exp += (x[r][c] - x_shift) * expf(x[r][c] - m)\n    repair: h(t) = t * expf(m - m')"), "%s", described);
	/* A mask stays around each term; the count counts the unmasked elements only. */
	expect_repair(ROW("rolling(c)", MEAN_PASS "float v = 0; for (int c = 0; c < C; c++) v += c <= r ? (x[r][c] - mean) * (x[r][c] - mean) : 0.0f; out[r] = v;"),
	              "v_n += c <= r ? 1.0f : 0.0f");
	/* Terms that cancel are dropped (x*m*y - y*x*m); equal parts group (y*x and x*y). */
	expect_repair(ROW("rolling(c)", MAX_PASS "float a = 0; for (int c = 0; c < C; c++) a += x[r][c] * m * y[r][c] - y[r][c] * x[r][c] * m + x[r][c] * m; out[r] = a;"),
	              "sum of separable terms: a = a_x != 0.0f ? m * a_x : 0.0f;");
	/* An array accumulator: each group an array like it, recombined element by element. */
	expect_repair("#include <math.h>\nvoid f(int R, int C, const float x[R][C], const float w[C][8], float o[R][8]) {\n"
	              "#pragma fuse kernel(f) parallel(r) rolling(c)\nfor (int r = 0; r < R; r++) {\n"
	              MEAN_PASS "float acc[8] = {0};\n"
	              "for (int c = 0; c < C; c++) for (int n = 0; n < 8; n++) acc[n] += (x[r][c] - mean) * w[c][n];\n"
	              "for (int n = 0; n < 8; n++) o[r][n] = acc[n];\n}\n}\n",
	              "acc[n] = acc_x_w[n] + (acc_w[n] != 0.0f ? (x_shift - mean) * acc_w[n] : 0.0f);");
	/* A shift applies to the element in a sum with an earlier result, once per value. */
	expect_repair(ROW("rolling(c)", MAX_PASS "float a = 0; for (int c = 0; c < C; c++) a += (x[r][c] - m) * (y[r][c] + m) - x[r][c] * y[r][c]; out[r] = a;"),
	              "a_x_y += (x[r][c] - x_shift) * (y[r][c] - y_shift)");
}
END_TEST

START_TEST(test_output_as_accumulator)
{
	/* An output row zeroed, added to in the pass and finalised after it: a local array
	 * accumulates, and the finalising loop stores. */
	const char *src = "#include <math.h>\nvoid f(int R, int C, const float x[R][C], const float w[R][C][8], float o[R][8]) {\n"
	                  "#pragma fuse kernel(f) parallel(r) rolling(c)\nfor (int r = 0; r < R; r++) {\n"
	                  MAX_PASS "for (int d = 0; d < 8; d++) o[r][d] = 0.0f;\nfloat l = 0;\n"
	                  "for (int c = 0; c < C; c++) { float p = expf(x[r][c] - m); l += p; for (int d = 0; d < 8; d++) o[r][d] += p * w[r][c][d]; }\n"
	                  "for (int d = 0; d < 8; d++) o[r][d] /= l;\n}\n}\n";
	expect_repair(src, "o_acc (+)");
	ck_assert_msg(strstr(described, "o_acc += expf(x[r][c] - m) * w[r][c][d]\n    repair: h(t) = t * expf(m - m')"), "%s", described);
	/* Read during the pass at another element: left as written, and refused. */
	const char *bad = "#include <math.h>\nvoid f(int R, int C, const float x[R][C], float o[R][8]) {\n"
	                  "#pragma fuse kernel(f) parallel(r) rolling(c)\nfor (int r = 0; r < R; r++) {\n"
	                  MAX_PASS "for (int d = 0; d < 8; d++) o[r][d] = 0.0f;\n"
	                  "for (int c = 0; c < C; c++) for (int d = 0; d < 8; d++) o[r][d] += expf(x[r][c] - m) + o[r][0];\n}\n}\n";
	expect_refusal(bad, "error");
}
END_TEST

START_TEST(test_strategy_choice)
{
	expect_repair(ROW("", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	              "split-k: chosen");
	expect_repair("#include <math.h>\nvoid f(int N, const float x[N][N], float out[N]) {\n#pragma fuse kernel parallel(i)\n"
	              "for (int i = 0; i < N; i++) { float m = -INFINITY; for (int c = 0; c <= i; c++) m = fmaxf(m, x[i][c]);\n"
	              "float l = 0; for (int c = 0; c <= i; c++) l += expf(x[i][c] - m); out[i] = l; }\n}\n",
	              "rolling: chosen");
}
END_TEST

/* A sum's other start (gpt-oss's sink, `expf(sink - m)`) is added after its loop; a max
 * seeded from an earlier result takes its seed after its loop too. */
START_TEST(test_initial_values_after_the_loop)
{
	expect_repair(ROW("rolling(c)", MAX_PASS "float l = expf(sc - m); for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	              "repair: h(t) = t * expf(m - m')");
	expect_repair(ROW("splitk(c)", MAX_PASS "float l = 1.5f; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	              "repair: h(t) = t * expf(m - m')");
	expect_repair(ROW("rolling(c)", "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\n"
	                                "float v = 1.0f; for (int c = 0; c < C; c++) v += (x[r][c] - mean) * (x[r][c] - mean); out[r] = v;"),
	              "sum of separable terms");
	expect_repair(ROW("rolling(c)", MAX_PASS "float t = m - 1.0f; for (int c = 0; c < C; c++) t = fmaxf(t, y[r][c]); out[r] = t;"),
	              "t (max)");
}
END_TEST

START_TEST(test_refusals)
{
	expect_refusal(ROW("rolling(c)", "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\n"
	                                 "float v = 0; for (int c = 0; c < C; c++) v += fabsf(x[r][c] - mean); out[r] = v;"),
	               "nor a sum of such products");
	expect_refusal(ROW("rolling(c)", "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\n"
	                                 "float v = 0; for (int c = 0; c < C; c++) v += y[r][c] * fabsf(x[r][c] - mean) - mean; out[r] = v;"),
	               "expands into 2 separately accumulated terms, and the term 'y[r][c] * fabsf(x[r][c] - mean)' has no repair");
	expect_refusal(ROW("rolling(c)", "float mean = 0; for (int c = 0; c < C; c++) mean += x[r][c];\n"
	                                 "float v = 1.0f; if (x[r][0] > 0) v = sc; for (int c = 0; c < C; c++) v += (x[r][c] - mean) * (x[r][c] - mean); out[r] = v;"),
	               "is fused as a sum of separately accumulated terms: it must start at 0");
	expect_refusal(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += expf(x[r][c] * m); out[r] = l;"),
	               "multiplied by a value that changes along the loop");
	expect_refusal(ROW("rolling(c)", MAX_PASS "float l = 0; for (int c = 0; c < C; c++) l += tanhf(x[r][c] - m); out[r] = l;"),
	               "cannot fuse the reduction into 'l'");
	expect_refusal(ROW("rolling(c)", MAX_PASS "float m2 = -INFINITY; for (int c = 0; c < C; c++) m2 = fmaxf(m2, x[r][c] * m); out[r] = m2;"),
	               "for a max or min");
	expect_refusal(ROW("rolling(c)", MAX_PASS "float l = 1.0f; if (x[r][0] > 0) l = sc; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l;"),
	               "it must start at 0");
	expect_refusal(ROW("rolling(c)", MAX_PASS "float w = sc; float l = expf(w - m); w += 2.0f; for (int c = 0; c < C; c++) l += expf(x[r][c] - m); out[r] = l + w;"),
	               "it must start at 0");
	expect_refusal(ROW("rolling(c)", "float l = 0; float m = -INFINITY; for (int c = 0; c < C; c++) { m = fmaxf(m, x[r][c]); l += expf(x[r][c] - m); } out[r] = l;"),
	               "'m' is read here while the loop over 'c' is still reducing it");
	expect_refusal(ROW("rolling(c) splitk(c)", MAX_PASS "out[r] = m;"), "cannot be both 'rolling' and 'splitk'");
}
END_TEST

/* An online softmax by blocks of keys (blocks.c): read one key at a time where it fits, and
 * where it does not, the reason in the error or in the region's fallback reason. */
#define LSE_BLOCKS(seed, update)                                                                                              \
	"float m = -INFINITY, d = 0; for (int c0 = 0; c0 < C; c0 += 16) { const int c1 = c0 + 16 < C ? c0 + 16 : C;\n"      \
	"float bm = -INFINITY; for (int c = c0; c < c1; c++) bm = fmaxf(bm, x[r][c]); const float nm = fmaxf(m, bm);\n"     \
	"float bs = " seed "; for (int c = c0; c < c1; c++) bs += expf(x[r][c] - nm); " update " m = nm; } out[r] = m + logf(d);"

/* The reason blocks.c gave for a block loop in s, or NULL. */
static const char *blocks_why(const Stmt *s)
{
	if (!s)
		return NULL;
	if (s->kind == ST_FOR && s->var->blocks_why)
		return s->var->blocks_why;
	for (int i = 0; i < s->nbody; i++) {
		const char *w = blocks_why(s->body[i]);
		if (w)
			return w;
	}
	return NULL;
}

static void expect_blocks_refused(const char *src, const char *what)
{
	Program *p = unit_parse(src, &cap);
	Captured fc;
	capture_begin(&fc);
	bool ok = p && fuse_program(p);
	const char *why = ok ? blocks_why(p->funcs[0]->regions[0]->loop) : NULL;
	capture_end(&fc);
	bool found = (why && strstr(why, what)) || (fc.text && strstr(fc.text, what));
	ck_assert_msg(found, "expected '%s' in:\n%s\n%s", what, why ? why : "", fc.text ? fc.text : "");
	free(fc.text);
	program_free(p);
}

START_TEST(test_block_online)
{
	expect_repair(ROW("", LSE_BLOCKS("0.0f", "d = d * expf(m - nm) + bs;")), "repair: h(t) = t * expf(m - m')");
	expect_repair(ROW("", LSE_BLOCKS("0.0f", "d *= expf(m - nm); d += bs;")), "repair: h(t) = t * expf(m - m')");
	/* a sum seeded once per block would be seeded once per key */
	expect_blocks_refused(ROW("", LSE_BLOCKS("1.0f", "d = d * expf(m - nm) + bs;")), "the block's sum 'bs' starts from a value other than zero");
	/* a running value updated once per block otherwise: once per key would differ */
	expect_blocks_refused(ROW("", LSE_BLOCKS("0.0f", "d = d * expf(m - nm) + bs + 1.0f;")), "'d' is updated once per block other than by a rescale");
	expect_blocks_refused(ROW("", LSE_BLOCKS("0.0f", "d = d * expf(m - nm) + bs * d;")), "'d' is updated once per block other than by a rescale");
}
END_TEST

Suite *fuse_suite(void)
{
	Suite *s = suite_create("fuse");
	TCase *tc = tcase_create("repair");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_softmax_sum);
	tcase_add_test(tc, test_seed_under_flag);
	tcase_add_test(tc, test_reused_accumulator);
	tcase_add_test(tc, test_scaled_exponent_and_exp2);
	tcase_add_test(tc, test_two_producers_multiply);
	tcase_add_test(tc, test_map_of_a_result);
	tcase_add_test(tc, test_additive_repair_for_max);
	tcase_add_test(tc, test_masks_keep_the_factor);
	tcase_add_test(tc, test_separable_sums);
	tcase_add_test(tc, test_output_as_accumulator);
	tcase_add_test(tc, test_strategy_choice);
	tcase_add_test(tc, test_initial_values_after_the_loop);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_block_online);
	suite_add_tcase(s, tc);
	return s;
}
