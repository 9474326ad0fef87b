/* pf_window_ternclamp_bf16_d96.c: sliding-window causal prefill, bf16, head dim 96.
 * Style: `#define HEAD_DIM 96`, scale computed before the region from HEAD_DIM, the
 * window start clamped with a ternary (const int lo = i - W + 1 > 0 ? i - W + 1 : 0),
 * no score buffer: a max pass, then one pass doing the sum and the j-outer P.V into
 * acc[HEAD_DIM] together (two passes, q.k recomputed). Allman braces, 4 spaces. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 96

void sliding_window_bf16(int B, int H, int N, int W,
                         const fusecc_bf16 q[B][H][N][HEAD_DIM],
                         const fusecc_bf16 k[B][H][N][HEAD_DIM],
                         const fusecc_bf16 v[B][H][N][HEAD_DIM],
                         fusecc_bf16 out[B][H][N][HEAD_DIM])
{
    const float sm_scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(sliding_window_bf16) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
    {
        for (int h = 0; h < H; h++)
        {
            for (int i = 0; i < N; i++)
            {
                const int lo = i - W + 1 > 0 ? i - W + 1 : 0;
                float row_max = -INFINITY;
                for (int j = lo; j <= i; j++)
                {
                    float qk = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++)
                        qk += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                    row_max = fmaxf(row_max, qk * sm_scale);
                }
                float row_sum = 0.0f;
                float acc[HEAD_DIM];
                for (int d = 0; d < HEAD_DIM; d++)
                    acc[d] = 0.0f;
                for (int j = lo; j <= i; j++)
                {
                    float qk = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++)
                        qk += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                    float p = expf(qk * sm_scale - row_max);
                    row_sum += p;
                    for (int d = 0; d < HEAD_DIM; d++)
                        acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
                }
                for (int d = 0; d < HEAD_DIM; d++)
                    out[b][h][i][d] = fusecc_float_to_bf16(acc[d] / row_sum);
            }
        }
    }
}
