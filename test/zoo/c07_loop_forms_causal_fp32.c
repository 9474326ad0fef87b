/* c07_loop_forms_causal_fp32.c: causal prefill from a codebase whose style guide asks for
 * `!=` loop conditions and pre-increments (iterator-style C++ habits carried into C), the
 * constant first in comparisons (`H > h`), `x = x + 1` steps, and the row's key count kept
 * in a const int local computed from the row iterator.
 * Style: fp32 storage, #define D 128, scale as a parameter, max in its own loop over the
 * stored scores, d-outer P.V. rolling(j), parallel(b, h, i). */
#include <math.h>

#define D 128

void attn_style(int B, int H, int N, float scale,
                const float q[B][H][N][D], const float k[B][H][N][D],
                const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(attn_style) parallel(b, h, i) rolling(j)
    for (int b = 0; b != B; ++b)
        for (int h = 0; H > h; h = h + 1)
            for (int i = 0; i != N; ++i) {
                const int n_keys = i + 1;
                float s[N];
                for (int j = 0; j != n_keys; ++j) {
                    float x = 0.0f;
                    for (int d = 0; D > d; ++d)
                        x += q[b][h][i][d] * k[b][h][j][d];
                    s[j] = x * scale;
                }
                float m = -INFINITY;
                for (int j = 0; j != n_keys; ++j)
                    m = fmaxf(m, s[j]);
                float l = 0.0f;
                for (int j = 0; j != n_keys; j = j + 1)
                    l += expf(s[j] - m);
                for (int d = 0; d != D; ++d) {
                    float a = 0.0f;
                    for (int j = 0; n_keys > j; ++j)
                        a += expf(s[j] - m) * v[b][h][j][d];
                    o[b][h][i][d] = a / l;
                }
            }
}
