/* A two-pass kernel in one region (FlashAttention-1's forward without tiling): pass 1 computes the max and
 * the sum online-free (max first over dots, then sum recomputing the dot), pass 2 recomputes the dot again
 * and accumulates p / l * v. d = 96 #define, bf16, bidirectional. */
#include <math.h>
#include "fusecc.h"
#define HD 96
static float dot96(const fusecc_bf16 *a, const fusecc_bf16 *b)
{
	float s = 0.0f;
	for (int d = 0; d < HD; d++) s += fusecc_bf16_to_float(a[d]) * fusecc_bf16_to_float(b[d]);
	return s;
}
void fa1_fwd(int B, int H, int N, const fusecc_bf16 q[B][H][N][HD], const fusecc_bf16 k[B][H][N][HD], const fusecc_bf16 v[B][H][N][HD],
	     fusecc_bf16 o[B][H][N][HD])
{
	const float sc = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(fa1_fwd) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, dot96(q[b][h][i], k[b][h][j]) * sc);
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(dot96(q[b][h][i], k[b][h][j]) * sc - m);
				float acc[HD];
				for (int d = 0; d < HD; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					const float p = expf(dot96(q[b][h][i], k[b][h][j]) * sc - m) / l;
					for (int d = 0; d < HD; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < HD; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d]);
			}
}
