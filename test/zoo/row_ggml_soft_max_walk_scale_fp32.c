/* row_ggml_soft_max_walk_scale_fp32.c: ggml's soft_max with its scale argument, a row per
 * iteration reached by pointers set from the row index and walked (`sp += 1` for the source,
 * `dp++` for the destination), max then exp-and-sum into dst then normalise, each pass with
 * pointers of its own.
 * Style: fp32, int counters, `+= 1` and `++` steps, max seeded with -INFINITY, no clause. */
#include <math.h>

void soft_max_f32(int nc, int nr, float scale, const float *src, float *dst)
{
#pragma fuse kernel(soft_max_f32) parallel(i1)
	for (int i1 = 0; i1 < nr; i1++) {
		const float *sp = src + i1 * nc;
		float max = -INFINITY;
		for (int i = 0; i < nc; i++) {
			max = fmaxf(max, *sp * scale);
			sp += 1;
		}
		const float *sp2 = src + i1 * nc;
		float *dp = dst + i1 * nc;
		float sum = 0.0f;
		for (int i = 0; i < nc; i++) {
			const float e = expf(*sp2 * scale - max);
			*dp = e;
			sum += e;
			sp2 += 1;
			dp++;
		}
		float *dq = dst + i1 * nc;
		for (int i = 0; i < nc; i++) {
			*dq /= sum;
			dq++;
		}
	}
}
