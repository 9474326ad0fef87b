/* FlashDecoding as one CPU function (the split and the merge in one (b, h) row), with the
 * merge through per-split log-sum-exps in base 2 as the Triton kernel does (exp2 with
 * log2(e) folded into the scale); also returns the row's natural-log LSE for the backward.
 * Chunks of CHUNK = 256 keys, at most MAX_SPLITS splits. */
#include <math.h>

#define CHUNK 256
#define MAX_SPLITS 64
#define LOG2E 1.4426950408889634f

void fd_lse(int B, int H, int L, const _Float16 q[B][H][128], const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128],
	    _Float16 o[B][H][128], float lse[B][H])
{
	const float qk_scale = LOG2E / sqrtf(128.0f);
#pragma fuse kernel(fd_lse) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int nsplit = (L + CHUNK - 1) / CHUNK;
			float lse2[MAX_SPLITS];
			float part[MAX_SPLITS][128];
			for (int sp = 0; sp < nsplit; sp++) {
				const int t0 = sp * CHUNK;
				const int t1 = t0 + CHUNK < L ? t0 + CHUNK : L;
				float m = -INFINITY, l = 0.0f;
				for (int d = 0; d < 128; d++)
					part[sp][d] = 0.0f;
				for (int t = t0; t < t1; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][d] * (float)k[b][h][t][d];
					s *= qk_scale;
					float mn = fmaxf(m, s);
					float a = exp2f(m - mn), p = exp2f(s - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++)
						part[sp][d] = part[sp][d] * a + p * (float)v[b][h][t][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					part[sp][d] /= l;
				lse2[sp] = m + log2f(l);
			}
			float gm = -INFINITY;
			for (int sp = 0; sp < nsplit; sp++)
				gm = fmaxf(gm, lse2[sp]);
			float gs = 0.0f;
			for (int sp = 0; sp < nsplit; sp++)
				gs += exp2f(lse2[sp] - gm);
			const float glse2 = gm + log2f(gs);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int sp = 0; sp < nsplit; sp++)
					acc += exp2f(lse2[sp] - glse2) * part[sp][d];
				o[b][h][d] = (_Float16)acc;
			}
			lse[b][h] = glse2 / LOG2E;
		}
}
