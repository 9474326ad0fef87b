/* FlashAttention-2 forward reference as a CUDA kernel writer keeps it beside the kernel to
 * test the saved log-sum-exp (for the backward): the scores in S[N] per (b, h), the causal
 * mask as a -1e9 fill, and LSE[row] stored between the sum loop and the P.V loop (d outer),
 * where it reads only finished results. fp16 flat pointers with a long base, D an int. */
#include <math.h>

void fa2_fwd_ref(int B, int H, int N, int D, float scale,
                 const _Float16 *Q, const _Float16 *K, const _Float16 *V,
                 _Float16 *O, float *LSE)
{
#pragma fuse kernel(fa2_fwd) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float S[N];
            const long base = ((long)b * H + h) * N;
            for (int i = 0; i < N; i++) {
                float rowmax = -INFINITY;
                for (int j = 0; j < N; j++) {
                    float acc = 0.0f;
                    for (int d = 0; d < D; d++)
                        acc += (float)Q[(base + i) * D + d] * (float)K[(base + j) * D + d];
                    S[j] = (j > i) ? -1e9f : acc * scale;
                    rowmax = fmaxf(rowmax, S[j]);
                }
                float rowsum = 0.0f;
                for (int j = 0; j < N; j++) {
                    S[j] = expf(S[j] - rowmax);
                    rowsum += S[j];
                }
                LSE[base + i] = rowmax + logf(rowsum);
                for (int d = 0; d < D; d++) {
                    float o = 0.0f;
                    for (int j = 0; j < N; j++)
                        o += S[j] * (float)V[(base + j) * D + d];
                    O[(base + i) * D + d] = (_Float16)(o / rowsum);
                }
            }
        }
}
