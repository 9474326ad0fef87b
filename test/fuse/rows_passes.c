/* rows_passes.c: row regions with nothing to fuse (one reduction per loop, or none), which
 * the GPU printers run as one CTA per row, the row's loops one after another
 * (src/emit/emit_rows.c): a row value stored by one thread and read back by all (a
 * barrier), a sum into an output element, an in-place rescale of what an earlier loop
 * stored, a triangular row with a byte mask and a min, tiled rows, a loop of stores only
 * over a two-dimensional grid, and a matmul (strided along its reduction: one thread per
 * output). The fused C is the input as written. */
#include <math.h>

/* A row max written as `if (x > m) m = x`, stored, then read back by every element. */
void maxsub(int R, int C, const float x[R][C], float mx[R], float y[R][C])
{
#pragma fuse kernel(maxsub) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			if (x[r][c] > m)
				m = x[r][c];
		mx[r] = m;
		for (int c = 0; c < C; c++)
			y[r][c] = x[r][c] - mx[r];
	}
}

/* Stores, a sum of what was stored into an output element, an in-place rescale. */
void inplace(int R, int C, const _Float16 x[R][C], float tot[R], float y[R][C])
{
#pragma fuse kernel(inplace) parallel(r)
	for (int r = 0; r < R; r++) {
		tot[r] = 0.0f;
		for (int c = 0; c < C; c++) {
			y[r][c] = expf((float)x[r][c] * 0.5f);
			tot[r] += y[r][c];
		}
		for (int c = 0; c < C; c++)
			y[r][c] = y[r][c] / tot[r];
	}
}

/* A masked min over a triangular row, rows tiled by four. */
void tri(int N, const float x[N][N], const unsigned char keep[N][N], float lo[N], float y[N][N])
{
#pragma fuse kernel(tri) parallel(i) tile(i:4)
	for (int i = 0; i < N; i++) {
		float mn = 1e30f;
		for (int j = 0; j <= i; j++)
			if (keep[i][j])
				mn = fminf(mn, x[i][j]);
		lo[i] = mn;
		for (int j = 0; j < N; j++)
			y[i][j] = j <= i && keep[i][j] ? x[i][j] - mn : 0.0f;
	}
}

/* Stores only, over a grid of two loops. */
void scale2(int B, int H, int C, float a, const float x[B][H][C], float y[B][H][C])
{
#pragma fuse kernel(scale2) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int c = 0; c < C; c++)
				y[b][h][c] = a * x[b][h][c];
}

/* A matmul: b is read down its columns, so each output keeps its own thread. */
void mm(int R, int H, int C, const float x[R][C], const float w[C][H], float o[R][H])
{
#pragma fuse kernel(mm) parallel(r, h)
	for (int r = 0; r < R; r++)
		for (int h = 0; h < H; h++) {
			float acc = 0.0f;
			for (int c = 0; c < C; c++)
				acc += x[r][c] * w[c][h];
			o[r][h] = acc;
		}
}
