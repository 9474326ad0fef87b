/* row_vec_helper_pointer_walk_mean_sq_fp32.c: a mean of squares per row (the statistic of an
 * RMSNorm) through a vector helper in ggml's ggml_vec_*_f32 manner, written by someone who
 * walks the pointer parameter instead of indexing it: `s += *x * *x; x++;`; the helper is
 * called with a row pointer `src + r * n`.
 * Style: fp32, static helper with a pointer parameter walked in its loop, no clause. */
static float vec_sum_sq(const float *x, int n)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++) {
		s += *x * *x;
		x++;
	}
	return s;
}

void mean_sq_rows(int R, int C, const float *src, float *out)
{
#pragma fuse kernel(mean_sq_rows) parallel(r)
	for (int r = 0; r < R; r++)
		out[r] = vec_sum_sq(src + r * C, C) / (float)C;
}
