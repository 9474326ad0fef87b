/* paged_decode_lens.c: GQA decode over a paged KV cache where each sequence has its own
 * length (vLLM's seq_lens, FlashInfer's kv_len): sequence b holds seq_lens[b] tokens, 0 ...
 * MAXP * PAGE, in the pages bt[b][0], bt[b][1], ... of a pool of NB pages of PAGE tokens,
 * kc[page][slot][kv head][d]; G query heads share a KV head. An empty sequence gives zeros.
 * For the GPU, fusecc sizes the split-k chunks for the longest sequence the block table can
 * hold (MAXP * PAGE: bt[b][j / PAGE] must stay in its row) and clips each chunk to its
 * sequence's length in the kernel. An index out of range is the caller's contract.
 * Style: scores recomputed, j-outer acc[D], int32_t tables, the group loop inside the grid.
 * fp16 storage, fp32 math, D = 128, PAGE = 16. */
#include <math.h>
#include <stdint.h>

#define D 128
#define PAGE 16

void paged_decode_lens(int B, int HKV, int G, int NB, int MAXP, float scale,
		       const _Float16 q[B][HKV][G][D], const _Float16 kc[NB][PAGE][HKV][D],
		       const _Float16 vc[NB][PAGE][HKV][D], const int32_t bt[B][MAXP],
		       const int32_t seq_lens[B], _Float16 o[B][HKV][G][D])
{
#pragma fuse kernel(paged_decode_lens) parallel(b, kh) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY;
				for (int j = 0; j < seq_lens[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][kh][g][d] * (float)kc[bt[b][j / PAGE]][j % PAGE][kh][d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < seq_lens[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][kh][g][d] * (float)kc[bt[b][j / PAGE]][j % PAGE][kh][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)vc[bt[b][j / PAGE]][j % PAGE][kh][d];
				}
				for (int d = 0; d < D; d++)
					o[b][kh][g][d] = l > 0.0f ? (_Float16)(acc[d] / l) : (_Float16)0.0f;
			}
}
