/* A C programmer keeps Welford's running state in a small struct local and updates it
 * through a helper taking its address, as in many C stats libraries; then LayerNorm. */
#include <math.h>

typedef struct { float mean; float m2; int n; } welford_t;

static void welford_push(welford_t *w, float x)
{
	w->n += 1;
	float d = x - w->mean;
	w->mean += d / w->n;
	w->m2 += d * (x - w->mean);
}

void layernorm_welford_struct(int R, int C, float eps, const float x[R][C], const float g[C],
			      const float b[C], float y[R][C])
{
#pragma fuse kernel(layernorm_welford_struct) parallel(r)
	for (int r = 0; r < R; r++) {
		welford_t st = { 0.0f, 0.0f, 0 };
		for (int c = 0; c < C; c++)
			welford_push(&st, x[r][c]);
		const float rstd = 1.0f / sqrtf(st.m2 / st.n + eps);
		for (int c = 0; c < C; c++)
			y[r][c] = (x[r][c] - st.mean) * rstd * g[c] + b[c];
	}
}
