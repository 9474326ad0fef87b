/* n23a_03 with the split length a #define (the refusal of sp * chunk with a run-time chunk).
 * FlashDecoding written by hand (the way the CUDA programmer prototypes it on the CPU
 * before writing the two kernels): phase 1 splits the KV cache of each (b, h) into
 * num_splits chunks of chunk tokens and writes each split's running max, sum and
 * unnormalised output to scratch arrays; phase 2 combines the splits. */
#include <math.h>
#include <stdint.h>

#define chunk 64

void flash_decode_split(int B, int H, int L, int num_splits, const _Float16 q[B][H][128],
			const _Float16 k_cache[B][H][L][128], const _Float16 v_cache[B][H][L][128],
			float m_part[B][H][num_splits], float l_part[B][H][num_splits],
			float o_part[B][H][num_splits][128], _Float16 out[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(fd_split) parallel(b, h, sp)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int sp = 0; sp < num_splits; sp++) {
				int start = sp * chunk;
				int end = start + chunk;
				if (end > L)
					end = L;
				float m = -INFINITY, l = 0.0f;
				float acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int t = start; t < end; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][d] * (float)k_cache[b][h][t][d];
					s *= scale;
					float mn = s > m ? s : m;
					float a = expf(m - mn), p = expf(s - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * a + p * (float)v_cache[b][h][t][d];
					m = mn;
				}
				m_part[b][h][sp] = m;
				l_part[b][h][sp] = l;
				for (int d = 0; d < 128; d++)
					o_part[b][h][sp][d] = acc[d];
			}
#pragma fuse kernel(fd_combine) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float gm = -INFINITY;
			for (int sp = 0; sp < num_splits; sp++)
				gm = fmaxf(gm, m_part[b][h][sp]);
			float gl = 0.0f;
			for (int sp = 0; sp < num_splits; sp++)
				if (l_part[b][h][sp] > 0.0f)
					gl += l_part[b][h][sp] * expf(m_part[b][h][sp] - gm);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int sp = 0; sp < num_splits; sp++)
					if (l_part[b][h][sp] > 0.0f)
						acc += o_part[b][h][sp][d] * expf(m_part[b][h][sp] - gm);
				out[b][h][d] = (_Float16)(acc / gl);
			}
		}
}
